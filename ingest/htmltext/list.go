package htmltext

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// Repeated items: listings, collections, search results and schedules are
// made of many cards or rows of one shape (the same tag and class), each a
// few words and mostly links. The article search rejects them for their
// links, so a page whose article-like content is short is read as a list
// when one container holds a long run of such items.

// itemList is the container of a run of repeated items.
type itemList struct {
	node  *html.Node
	items int    // repeated items
	text  int    // visible characters in them
	tag   string // the items' tag
	shape string // the items' shape (see itemShape)
	// cards counts the items of a short run (fewer than manyListItems),
	// each group of cards counted by its cards: a catalogue's few
	// sections, each a heading over a grid of cards, are so many cards
	// (see groupCards).
	cards int
}

// isContent reports whether the list should stand for the page's content
// when the article search found articleChars characters.
func (l itemList) isContent(articleChars int) bool {
	ratio := listContentLimits.listRatio
	if articleChars >= shownReadingLimits.minContentChars {
		ratio = listContentLimits.longListRatio
	}
	return l.node != nil && l.text >= listContentLimits.minListChars && l.text >= ratio*articleChars &&
		(max(l.items, l.cards) >= listContentLimits.manyListItems || articleChars < listContentLimits.sparseChars)
}

// keepsOver reports whether l, the list of the strict reading, is the
// content over the longer text lenientChars of the reading without class
// hints: it is content beside the strict reading's articleChars, has
// many items, the lenient text is at most hintedTextRatio (see
// listContentLimits) times as long as its items, and no block around it
// is named as furniture (a widget of more posts beside an article the
// hints removed).
func (l itemList) keepsOver(articleChars, lenientChars int) bool {
	if !l.isContent(articleChars) || l.items < listContentLimits.manyListItems || listContentLimits.hintedTextRatio*l.text < lenientChars {
		return false
	}
	for p := l.node; p != nil && p.Type == html.ElementNode; p = p.Parent {
		if boilerplateHint(p) > 0 {
			return false
		}
	}
	return true
}

// itemShape is what makes siblings items of one list: the tag and the
// first class name without its digits. The names after it often differ
// from item to item (a post number, a stock state, first or last in its
// row) while the items look alike, and so do the digits of the first
// ("post-30149", "post-30119": each entry's own number).
func itemShape(n *html.Node) string {
	first, _, _ := strings.Cut(strings.TrimSpace(attr(n, "class")), " ")
	first = strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return -1
		}
		return r
	}, truncate(first, 128))
	return n.Data + "." + first
}

// listContainer returns the container under root whose repeated items
// hold the most text, with their count and text. Each element's children
// are visited once, so the search is linear.
func (x *measures) listContainer(root *html.Node) itemList {
	var best itemList
	texts := map[string]int{}
	counts := map[string]int{}
	rootText := 0
	if st := x.stat(root); st != nil {
		rootText = st.text
	}
	stack := []*html.Node{root}
	for len(stack) > 0 {
		n := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		st := x.stat(n)
		if st == nil || st.text < listContentLimits.minListChars {
			continue
		}
		clear(texts)
		clear(counts)
		top := itemList{node: n}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || c.Data == removedMark {
				continue
			}
			cs := x.stat(c)
			furniture := boilerplateHint(c) == 2
			if c.Data != "header" && !(furniture && cs != nil && 2*cs.text < rootText) {
				// Headers and containers surely named as furniture (unless
				// they wrap most of the page) hold menus, not the listing.
				stack = append(stack, c)
			}
			if cs == nil || cs.text == 0 || furniture || strings.Contains(hintText(c), "widget") {
				// Comments, widgets and other furniture are no items of a
				// listing.
				continue
			}
			shape := itemShape(c)
			texts[shape] += cs.text
			counts[shape]++
			if counts[shape] >= listContentLimits.minListItems && texts[shape] > top.text {
				top.items, top.text, top.tag, top.shape = counts[shape], texts[shape], c.Data, shape
			}
		}
		if top.items == 0 || float64(top.text) < listContentLimits.listShare*float64(st.text) {
			continue
		}
		if top.text > best.text {
			best = top
		}
	}
	if best.node != nil && best.items < listContentLimits.manyListItems {
		best.cards = x.groupCards(best)
	}
	return best
}

// groupCards counts the cards of l: each item that holds a run of
// same-shaped children (see cardsIn) counts as that many cards, any
// other as one.
func (x *measures) groupCards(l itemList) int {
	n := 0
	for c := l.node.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.Data == removedMark || itemShape(c) != l.shape {
			continue
		}
		if cs := x.stat(c); cs == nil || cs.text == 0 || boilerplateHint(c) == 2 {
			continue
		}
		n += max(1, x.cardsIn(c))
	}
	return n
}

// cardsIn returns the number of cards in group n: same-shaped children,
// at least minListItems of them, each holding a link and all together at
// most cardLinks links a card, that hold half of the group's text; they
// are children of n or of the element down its line of children holding
// half of the text (a group's heading and its grid's frames), within
// groupLevels levels. It returns 0 when there are none.
func (x *measures) cardsIn(n *html.Node) int {
	gs := x.stat(n)
	if gs == nil || gs.text == 0 {
		return 0
	}
	for level := 0; n != nil && level < listContentLimits.groupLevels; level++ {
		st := x.stat(n)
		if st == nil || st.text == 0 {
			return 0
		}
		counts, texts := map[string]int{}, map[string]int{}
		var next *html.Node
		top := ""
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			cs := x.stat(c)
			if c.Type != html.ElementNode || cs == nil || cs.text == 0 {
				continue
			}
			shape := itemShape(c)
			if cs.link == 0 {
				// A card links to its page.
				counts[shape] = -1 << 30
			}
			counts[shape]++
			texts[shape] += cs.text
			if texts[shape] > texts[top] {
				top = shape
			}
			if 2*cs.text >= st.text {
				next = c
			}
		}
		if k := counts[top]; k >= listContentLimits.minListItems && 2*texts[top] >= gs.text {
			anchors := 0
			for c := n.FirstChild; c != nil && anchors <= listContentLimits.cardLinks*k; c = c.NextSibling {
				if c.Type == html.ElementNode && itemShape(c) == top {
					anchors += countElements(c, "a", listContentLimits.cardLinks*k-anchors)
				}
			}
			if anchors > listContentLimits.cardLinks*k {
				// Columns of a menu, each a list of links.
				return 0
			}
			return k
		}
		n = next
	}
	return 0
}

// withList returns the blocks of a list read as content, after the
// paragraphs of running text the article search found (a category's
// introduction, a short post above its teasers) unless the list holds them.
// The article's blocks that the list holds too (a post whose teasers
// follow it inside the list's container) come once, with the list.
func withList(article, items []string) []string {
	inList := make(map[string]bool, len(items))
	for _, b := range items {
		inList[b] = true
	}
	var out []string
	for _, b := range article {
		if !inList[b] && isProseBlock(b) {
			for _, a := range article {
				if !inList[a] {
					out = append(out, a)
				}
			}
			return append(out, items...)
		}
	}
	return items
}

// isProseBlock reports whether an emitted block reads as running text:
// long enough and ending like a sentence.
func isProseBlock(b string) bool {
	if utf8.RuneCountInString(b) < mainLeadLimits.proseChars {
		return false
	}
	switch last, _ := utf8.DecodeLastRuneInString(b); last {
	case '.', '!', '?', '。', '"', '”', '»':
		return true
	}
	return false
}
