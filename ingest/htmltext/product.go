package htmltext

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// A product page often renders its description in a tab the cleaning
// drops (hidden until clicked) or loads it by script, while its JSON-LD
// Product object carries the same text. When the extraction lacks most of
// that description, it is added as a block of its own.

// missingShare is the share of the description's words the extracted text
// must lack for the description to be added.
const missingShare = 0.5

// productDescription returns the description of the first JSON-LD object
// of @type Product or ProductGroup in the page's JSON-LD lds that has one, as plain text,
// or "".
func productDescription(lds []any) string {
	for _, v := range lds {
		if obj := findProduct(v, 0); obj != nil {
			if d := stripTags(ldString(obj["description"], 0)); d != "" {
				return d
			}
		}
	}
	return ""
}

// findProduct returns the first object (depth-first, through arrays and
// @graph) that declares a product (isProductType).
func findProduct(v any, depth int) map[string]any {
	if depth > 8 {
		return nil
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if o := findProduct(e, depth+1); o != nil {
				return o
			}
		}
	case map[string]any:
		if isProductType(x) {
			return x
		}
		if g, ok := x["@graph"]; ok {
			return findProduct(g, depth+1)
		}
	}
	return nil
}

// isProductType reports whether JSON-LD object x is of @type Product or
// ProductGroup (one product offered in variants: sizes, colours).
func isProductType(x map[string]any) bool {
	return typeIs(x, "Product") || typeIs(x, "ProductGroup")
}

// declaredProducts counts the products the page's JSON-LD lds declares
// (isProductType, through arrays, @graph and nested objects; the variants
// of a ProductGroup are that one product), stopping at 2.
func declaredProducts(lds []any) int {
	n := 0
	var count func(v any, depth int)
	count = func(v any, depth int) {
		if depth > 8 || n > 1 {
			return
		}
		switch x := v.(type) {
		case []any:
			for _, e := range x {
				count(e, depth+1)
			}
		case map[string]any:
			if isProductType(x) {
				n++
				if typeIs(x, "ProductGroup") {
					return
				}
			}
			for _, e := range x {
				count(e, depth+1)
			}
		}
	}
	for _, v := range lds {
		count(v, 0)
	}
	return n
}

// stripTags removes markup from a description that carries some.
func stripTags(s string) string {
	if !strings.Contains(s, "<") {
		return s
	}
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case r == '<':
			in = true
			b.WriteByte(' ')
		case r == '>':
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return collapse(b.String())
}

// withDescription appends desc to blocks when it has running text and the
// blocks lack most of its words.
func withDescription(blocks []string, desc string) []string {
	if len([]rune(desc)) < mainLeadLimits.proseChars {
		return blocks
	}
	have := map[string]bool{}
	for _, b := range blocks {
		for _, w := range wordsOf(b) {
			have[w] = true
		}
	}
	words := wordsOf(desc)
	missing := 0
	for _, w := range words {
		if !have[w] {
			missing++
		}
	}
	if float64(missing) <= missingShare*float64(len(words)) {
		return blocks
	}
	return append(blocks, desc)
}

// wordsOf returns the lower-cased words of s.
func wordsOf(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
}

// isProductPage reports whether the page says it describes one product:
// a JSON-LD object of @type Product or ProductGroup (not a business's
// rating card, isRatingCard), an og:type of product, an element
// of itemtype schema.org/Product, or from 1 to maxCartControls elements
// named as adding to the cart (isCartControl: a page that sells one
// thing; a page of many names one per card), and no JSON-LD object of an article type
// (an article about products, a review of one, is an article). On such a
// page the customer reviews are not the content, however long they run.
// lds is the page's JSON-LD (declarations.pageLD).
func isProductPage(doc *html.Node, lds []any) bool {
	product := false
	carts := 0
	for _, v := range lds {
		if findArticle(v, 0) != nil {
			return false
		}
		if o := findProduct(v, 0); o != nil && !isRatingCard(o, lds) {
			product = true
		}
	}
	if product {
		return true
	}
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		for c := n.FirstChild; c != nil && !product && depth < maxDepth; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.Data {
			case "script":
				continue
			case "meta":
				if strings.EqualFold(attr(c, "property"), "og:type") || strings.EqualFold(attr(c, "name"), "og:type") {
					t := strings.ToLower(strings.TrimSpace(attr(c, "content")))
					product = t == "product" || strings.HasPrefix(t, "product.") || t == "og:product"
				}
				continue
			}
			if strings.HasSuffix(attr(c, "itemtype"), "schema.org/Product") {
				product = true
				return
			}
			if isCartControl(c) {
				carts++
			}
			walk(c, depth+1)
		}
	}
	walk(doc, 0)
	return product || carts >= 1 && carts <= maxCartControls
}

// isRatingCard reports whether the JSON-LD product o is a business's
// rating card rather than a thing for sale: o offers nothing (no offers)
// and the page's JSON-LD lds declares a LocalBusiness or a Service. Such a
// page describes the business's own services, and the customer quotes
// on it are content (testimonials), not a product's reviews.
func isRatingCard(o map[string]any, lds []any) bool {
	if _, ok := o["offers"]; ok {
		return false
	}
	for _, v := range lds {
		if declaresBusiness(v, 0) {
			return true
		}
	}
	return false
}

// declaresBusiness reports whether JSON-LD value v holds, through arrays,
// @graph and nested objects, an object of @type LocalBusiness or Service.
func declaresBusiness(v any, depth int) bool {
	if depth > 8 {
		return false
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if declaresBusiness(e, depth+1) {
				return true
			}
		}
	case map[string]any:
		if typeIs(x, "LocalBusiness") || typeIs(x, "Service") {
			return true
		}
		for _, e := range x {
			if declaresBusiness(e, depth+1) {
				return true
			}
		}
	}
	return false
}

// maxCartControls is the most elements named as adding to the cart
// (isCartControl) a page may hold for them to mark a product page: the
// one product's buy box names its form, its button and a sticky copy of
// them; a grid of products names one per card. Any value from 2 to 8 gives
// the same pages on the dev sets; without a bound, collections fall.
const maxCartControls = 5

// isCartControl reports whether element n's class, id, name or custom
// element name names adding to a cart, bag or basket ("add-to-cart",
// "addToBag", "add_to_basket").
func isCartControl(n *html.Node) bool {
	if strings.IndexByte(n.Data, '-') > 0 && len(n.Data) <= 64 && namesCart(n.Data) {
		return true
	}
	for _, a := range n.Attr {
		if (a.Key == "class" || a.Key == "id" || a.Key == "name") && len(a.Val) <= 512 && namesCart(a.Val) {
			return true
		}
	}
	return false
}

// cartWords are what namesCart looks for after "addto".
var cartWords = []string{"cart", "bag", "basket"}

// namesCart reports whether s holds "addto" and a cart word (cartWords),
// ignoring case and the hyphens and underscores between the words. It
// reads each letter of s a bounded number of times.
func namesCart(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] != 'a' && s[i] != 'A' {
			continue
		}
		j, ok := matchLoose(s, i, "addto")
		if !ok {
			continue
		}
		for _, w := range cartWords {
			if _, ok := matchLoose(s, j, w); ok {
				return true
			}
		}
	}
	return false
}

// matchLoose matches the lower-case ASCII word w in s from index i,
// ignoring case and skipping hyphens and underscores before each letter;
// it returns the index after the match.
func matchLoose(s string, i int, w string) (int, bool) {
	for k := 0; k < len(w); k++ {
		for i < len(s) && (s[i] == '-' || s[i] == '_') {
			i++
		}
		if i >= len(s) || s[i]|0x20 != w[k] {
			return i, false
		}
		i++
	}
	return i, true
}

// Other products: a product page shows beside its product runs of cards
// for other ones (viewed together, similar, sponsored), each a short block
// whose name links to the other product's page and which states a price.
// The page's product is not such a card, so on a page that describes one
// product (declares in its JSON-LD a Product with a description, or a
// single Product) a block made of such cards is furniture. A page
// declaring several Products, none described, is often a listing, whose
// cards are its content. The thresholds are productCardRunLimits'.

// isCardRun reports whether n's element children are mostly product cards
// (see productCardRunLimits): at least minCards of them, and at least half.
func isCardRun(n *html.Node) bool {
	if n.Type != html.ElementNode || !containerTags[n.Data] && n.Data != "li" {
		return false
	}
	elems, cards := 0, 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || dropTags[c.Data] {
			continue
		}
		elems++
		if isProductCard(c) {
			cards++
		}
	}
	return cards >= productCardRunLimits.minCards && 2*cards >= elems
}

// isProductCard reports whether n is a short block (cardChars of visible
// text at most) whose name is a link of cardLinkChars or more and which
// states a price: a currency sign and a digit. A card may lay an empty
// link over its whole face, named by its aria-label: that label is the
// linked name. Elements hidden by markup (a dialog explaining why an
// advertisement is shown) are no part of the card's face.
func isProductCard(n *html.Node) bool {
	text, linked, nodes := 0, 0, 0
	sign, digit := false, false
	var walk func(n *html.Node, inLink bool, depth int) bool
	walk = func(n *html.Node, inLink bool, depth int) bool {
		for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
			nodes++
			if text > productCardRunLimits.cardChars || nodes > productCardRunLimits.cardNodes {
				return false
			}
			switch c.Type {
			case html.TextNode:
				t, _ := runLen(c.Data)
				text += t
				if inLink {
					linked += t
				}
				for _, r := range c.Data {
					switch {
					case unicode.Is(unicode.Sc, r):
						sign = true
					case r >= '0' && r <= '9':
						digit = true
					}
				}
			case html.ElementNode:
				if dropTags[c.Data] || isHidden(c) {
					continue
				}
				link := isLink(c)
				if link {
					l, _ := runLen(attr(c, "aria-label"))
					linked += l
				}
				if !walk(c, inLink || link, depth+1) {
					return false
				}
			}
		}
		return true
	}
	return walk(n, false, 0) && text <= productCardRunLimits.cardChars && linked >= productCardRunLimits.cardLinkChars && sign && digit
}

// isLink reports whether n is an <a> element with an href.
func isLink(n *html.Node) bool { return n.Data == "a" && attr(n, "href") != "" }

// productFurnitureWords name, in a class or id, what a product page shows
// beside its product: the legal fine print under it ("disclaimer"),
// offers of other products in the cart's way ("upsell") and stickers
// ("badge": sale, bestseller, free delivery). Elsewhere these words may
// name content (a legal page's disclaimer), so they count on product pages
// only.
var productFurnitureWords = []string{"disclaimer", "upsell", "badge"}

// isProductFurniture reports whether element n's class or id holds one of
// productFurnitureWords.
func isProductFurniture(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	h := hintText(n)
	for _, w := range productFurnitureWords {
		if strings.Contains(h, w) {
			return true
		}
	}
	return false
}

// A product page's title, the heading naming the product, often stands
// beside the block the selection chooses (the buy box's column, a header
// row above the description), so the content comes without the name of
// what it describes. When the page declares the product's name (its
// JSON-LD Product's name), a heading (h1 to h3) shows that name and the
// chosen content does not hold it, the name leads the content.

// productName returns the name of the first JSON-LD object declaring a
// product (findProduct) in the page's JSON-LD lds, or "".
func productName(lds []any) string {
	for _, v := range lds {
		if obj := findProduct(v, 0); obj != nil {
			if s, ok := obj["name"].(string); ok {
				if s = stripTags(collapse(html.UnescapeString(s))); s != "" {
					return s
				}
			}
		}
	}
	return ""
}

// nameKey is the lower-cased letters and digits of s, run together: a
// name compares by it however its markup splits or spaces its words.
func nameKey(s string) string {
	return strings.Join(wordsOf(s), "")
}

// showsName reports whether an h1, h2 or h3 under doc reads name
// (nameKey).
func showsName(doc *html.Node, name string) bool {
	want := nameKey(name)
	if want == "" {
		return false
	}
	found := false
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.ElementNode {
			switch n.Data {
			case "script", "style", "template", "noscript":
				return
			case "h1", "h2", "h3":
				found = nameKey(visibleText(n)) == want
				return
			}
		}
		for c := n.FirstChild; c != nil && !found; c = c.NextSibling {
			walk(c)
		}
	}
	walk(doc)
	return found
}

// visibleText is the text under n without that of scripts and styles.
func visibleText(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		switch {
		case n.Type == html.TextNode:
			b.WriteString(n.Data)
		case n.Type == html.ElementNode && (n.Data == "script" || n.Data == "style" || n.Data == "template"):
			return
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// withName puts name first in blocks when no block holds it (nameKey).
func withName(blocks []string, name string) []string {
	want := nameKey(name)
	if want == "" {
		return blocks
	}
	for _, b := range blocks {
		if strings.Contains(nameKey(b), want) {
			return blocks
		}
	}
	return append([]string{name}, blocks...)
}
