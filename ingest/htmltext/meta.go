package htmltext

import (
	"encoding/json"
	"net/url"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// maxJSONLD caps the size of one JSON-LD script that is decoded.
const maxJSONLD = 1 << 20

// declarations is what a page declares about itself, read in one walk of
// its tree: its <meta> values, <title>, <html lang>, canonical link and
// JSON-LD. Each JSON-LD script is decoded once, for the metadata and for
// the checks of the page (isProductPage, isThreadPage, ...) alike.
type declarations struct {
	// meta maps the lowercased name, property, itemprop or http-equiv of
	// each <meta> with a content to that content; the first one wins.
	meta      map[string]string
	title     *html.Node // the first <title>
	lang      string     // the lang of the first <html>
	canonical string     // the href of the first <link> whose rel holds "canonical"
	base      string     // the href of the first <base> that has one
	seenHTML  bool
	seenCanon bool
	seenBase  bool
	// metaLD holds the scripts the metadata is read from: those of type
	// exactly "application/ld+json", at any depth, in document order.
	metaLD []any
	// pageLD holds the scripts the checks of the page read (isProductPage,
	// isThreadPage, productDescription):
	// those whose type is application/ld+json in any case and spacing,
	// within maxDepth of the root and not inside another script, their
	// first child of at most maxJSONLD bytes.
	pageLD []any
}

// readDeclarations walks the tree under doc once for its declarations.
func readDeclarations(doc *html.Node) *declarations {
	d := &declarations{meta: map[string]string{}}
	// The walk goes as deep as the tree, as the selectors it replaces did;
	// depth only bounds which scripts the page checks read.
	var walk func(n *html.Node, depth int, inScript bool)
	walk = func(n *html.Node, depth int, inScript bool) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.Data {
			case "meta":
				d.readMeta(c)
			case "title":
				if d.title == nil {
					d.title = c
				}
			case "html":
				if !d.seenHTML {
					d.seenHTML, d.lang = true, attr(c, "lang")
				}
			case "link":
				if !d.seenCanon && relHolds(c, "canonical") {
					d.seenCanon, d.canonical = true, attr(c, "href")
				}
			case "base":
				if href, ok := attrValue(c, "href"); ok && !d.seenBase {
					d.seenBase, d.base = true, strings.TrimSpace(href)
				}
			case "script":
				d.readScript(c, depth < maxDepth && !inScript)
			}
			walk(c, depth+1, inScript || c.Data == "script")
		}
	}
	walk(doc, 0, false)
	return d
}

// readMeta records the content of <meta> n under each of its names.
func (d *declarations) readMeta(n *html.Node) {
	content, ok := attrValue(n, "content")
	content = strings.TrimSpace(content)
	if !ok || content == "" {
		return
	}
	for _, a := range []string{"name", "property", "itemprop", "http-equiv"} {
		if k := strings.ToLower(strings.TrimSpace(attr(n, a))); k != "" {
			if _, seen := d.meta[k]; !seen {
				d.meta[k] = content
			}
		}
	}
}

// readScript decodes <script> n when it is JSON-LD, once when the metadata
// and the page checks both read it; forPage says whether n lies where the
// page checks look.
func (d *declarations) readScript(n *html.Node, forPage bool) {
	forMeta := false
	for _, a := range n.Attr {
		if a.Key == "type" && a.Val == "application/ld+json" {
			forMeta = true
			break
		}
	}
	forPage = forPage && strings.EqualFold(strings.TrimSpace(attr(n, "type")), "application/ld+json") &&
		n.FirstChild != nil && len(n.FirstChild.Data) <= maxJSONLD
	if !forMeta && !forPage {
		return
	}
	var metaText string
	if forMeta {
		metaText = nodeText(n)
		if len(metaText) <= maxJSONLD {
			v, ok := decodeJSON(metaText)
			if ok {
				d.metaLD = append(d.metaLD, v)
			}
			if forPage && n.FirstChild.Data == metaText {
				if ok {
					d.pageLD = append(d.pageLD, v)
				}
				return
			}
		}
	}
	if forPage {
		if v, ok := decodeJSON(n.FirstChild.Data); ok {
			d.pageLD = append(d.pageLD, v)
		}
	}
}

// decodeJSON decodes text, reporting whether it is valid JSON.
func decodeJSON(text string) (any, bool) {
	var v any
	if json.Unmarshal([]byte(text), &v) != nil {
		return nil, false
	}
	return v, true
}

// nodeText is the text of every text node under n, in document order.
func nodeText(n *html.Node) string {
	if c := n.FirstChild; c != nil && c.Type == html.TextNode && c.NextSibling == nil && c.FirstChild == nil {
		return c.Data
	}
	var b strings.Builder
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		if n.Type == html.TextNode {
			b.WriteString(n.Data)
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			walk(c)
		}
	}
	walk(n)
	return b.String()
}

// attrValue returns the value of n's first attribute key and whether n
// has one.
func attrValue(n *html.Node, key string) (string, bool) {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val, true
		}
	}
	return "", false
}

// relHolds reports whether one of n's rel attributes lists word among its
// whitespace-separated values.
func relHolds(n *html.Node, word string) bool {
	for _, a := range n.Attr {
		if a.Key == "rel" && slices.Contains(strings.FieldsFunc(a.Val, isRelSpace), word) {
			return true
		}
	}
	return false
}

// isRelSpace reports whether r separates the values of a rel attribute.
func isRelSpace(r rune) bool {
	return r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == '\f'
}

// metadata collects metadata from <title>, <meta> (name, property and
// itemprop forms, OpenGraph), JSON-LD, <html lang> and <link rel=canonical>.
// Explicit article metadata wins over generic page metadata. It also
// reports whether the page declares itself an article (a JSON-LD object of
// an article type, or og:type article).
func (d *declarations) metadata(pageURL string) (Metadata, bool) {
	meta := d.meta
	ld := readJSONLD(d.metaLD)
	first := func(vals ...string) string {
		for _, v := range vals {
			if v = collapse(v); v != "" {
				return v
			}
		}
		return ""
	}
	title := ""
	if d.title != nil {
		title = nodeText(d.title)
	}
	var m Metadata
	m.Title = first(ld.headline, meta["og:title"], meta["twitter:title"], title)
	m.Author = first(ld.author, meta["author"], meta["article:author"], meta["byl"], meta["dc.creator"], meta["parsely-author"])
	if strings.HasPrefix(m.Author, "http://") || strings.HasPrefix(m.Author, "https://") {
		m.Author = first(meta["author"], meta["dc.creator"], meta["parsely-author"])
	}
	m.Published = first(ld.published, meta["article:published_time"], meta["datepublished"], meta["date"],
		meta["pubdate"], meta["publishdate"], meta["dc.date"], meta["dc.date.issued"], meta["og:published_time"])
	m.Language = first(d.lang, meta["content-language"], meta["language"], meta["dc.language"], ld.language,
		strings.ReplaceAll(meta["og:locale"], "_", "-"))
	m.CanonicalURL = resolve(pageURL, first(d.canonical, meta["og:url"]))
	if d.base != "" {
		if u, err := url.Parse(resolve(pageURL, d.base)); err == nil && u.IsAbs() {
			m.BaseURL = u.String()
		}
	}
	m.SiteName = first(meta["og:site_name"], ld.publisher, meta["application-name"])
	return m, ld.article || strings.EqualFold(meta["og:type"], "article")
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// resolve makes ref absolute against base when both parse; else ref as is.
func resolve(base, ref string) string {
	if ref == "" {
		return ""
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() {
		return ref
	}
	return b.ResolveReference(r).String()
}

// ldArticle is what is taken from the first JSON-LD object of an
// article-like @type.
type ldArticle struct {
	headline, author, published, publisher, language string
	// article is set when such an object was found.
	article bool
}

// readJSONLD reads the first object of an article-like @type in the
// decoded scripts lds.
func readJSONLD(lds []any) ldArticle {
	for _, v := range lds {
		if obj := findArticle(v, 0); obj != nil {
			out := ldArticle{
				headline:  ldString(obj["headline"], 0),
				author:    ldString(obj["author"], 0),
				published: ldString(obj["datePublished"], 0),
				publisher: ldString(obj["publisher"], 0),
				language:  ldString(obj["inLanguage"], 0),
				article:   true,
			}
			if out.headline == "" {
				out.headline = ldString(obj["name"], 0)
			}
			return out
		}
	}
	return ldArticle{}
}

// findArticle returns the first object (depth-first, through arrays and
// @graph) whose @type names an article, report, blog post or web page
// content type.
func findArticle(v any, depth int) map[string]any {
	if depth > 8 {
		return nil
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if o := findArticle(e, depth+1); o != nil {
				return o
			}
		}
	case map[string]any:
		if isArticleType(x["@type"]) {
			return x
		}
		if g, ok := x["@graph"]; ok {
			return findArticle(g, depth+1)
		}
	}
	return nil
}

func isArticleType(t any) bool {
	switch x := t.(type) {
	case string:
		return strings.HasSuffix(x, "Article") || x == "BlogPosting" || x == "Report" || x == "LiveBlogPosting" || x == "SocialMediaPosting"
	case []any:
		for _, e := range x {
			if isArticleType(e) {
				return true
			}
		}
	}
	return false
}

// ldString flattens a JSON-LD value to text: strings as they are, objects
// by their name, arrays joined with ", ".
func ldString(v any, depth int) string {
	if depth > 4 {
		return ""
	}
	switch x := v.(type) {
	case string:
		return collapse(html.UnescapeString(x))
	case map[string]any:
		return ldString(x["name"], depth+1)
	case []any:
		var parts []string
		for _, e := range x {
			if s := ldString(e, depth+1); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ", ")
	}
	return ""
}
