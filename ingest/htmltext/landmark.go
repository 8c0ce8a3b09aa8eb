package htmltext

import (
	"strings"

	"golang.org/x/net/html"
)

// The <main> landmark (or an element with role="main") is the author's
// own statement of where the content is. When the chosen containers hold
// only a small part of it (a description beside its specification table,
// one section of a documentation page), the landmark is the better root,
// unless runs of link cards (more posts, related items) make up most of
// it: a listing, for the list reading.
const (
	// landmarkShare is the share of the landmark's text below which the
	// chosen containers give way to it.
	landmarkShare = 0.5
	// cardLinkShare is the least share of link text in a run of
	// same-shaped siblings that makes them cards (teasers) rather than
	// content.
	cardLinkShare = 0.3
	// landmarkLinkShare is the most share of link text a landmark taken
	// as root may have.
	landmarkLinkShare = 0.33
)

// isLandmark reports whether n is a <main> element or has role="main".
func isLandmark(n *html.Node) bool {
	return n.Type == html.ElementNode && (n.Data == "main" || strings.EqualFold(strings.TrimSpace(attr(n, "role")), "main"))
}

// withLandmark returns the landmark around roots in their place when they
// hold less than landmarkShare of its text, or roots unchanged.
func (x *extraction) withLandmark(roots []*html.Node, body *html.Node) []*html.Node {
	var main *html.Node
	for p := roots[0].Parent; p != nil && p != body; p = p.Parent {
		if isLandmark(p) {
			main = p
			break
		}
	}
	if main == nil {
		return roots
	}
	mst := x.stat(main)
	if mst == nil || mst.text == 0 || mst.linkDensity() > landmarkLinkShare {
		// A landmark mostly of links is a listing or an index, not a
		// wider article.
		return roots
	}
	text := 0
	for _, r := range roots {
		if !isAncestor(main, r) || inArticle(r, main) {
			return roots
		}
		if st := x.stat(r); st != nil {
			text += st.text
		}
	}
	if float64(text) >= landmarkShare*float64(mst.text) {
		return roots
	}
	if list := x.listContainer(main); list.isContent(text) {
		// Repeated items outweigh the chosen text: a listing, for the
		// list reading.
		return roots
	}
	cards := map[*html.Node]bool{}
	x.markCards(main, roots, cards, 0)
	cardText := 0
	for c := range cards {
		cardText += x.stat(c).text
	}
	if 2*cardText >= mst.text {
		// Mostly cards: the landmark holds a listing, which is for the
		// list reading to find, not a wider article.
		return roots
	}
	return []*html.Node{main}
}

// markCards adds to cards the containers under n that hold a
// run of link cards and none of roots.
func (x *extraction) markCards(n *html.Node, roots []*html.Node, cards map[*html.Node]bool, depth int) {
	for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		holds := false
		for _, r := range roots {
			if r == c {
				holds = true
				break
			}
			if isAncestor(c, r) {
				holds = true
			}
		}
		if holds {
			if !containsRoot(c, roots) {
				x.markCards(c, roots, cards, depth+1)
			}
			continue
		}
		if x.isCardRun(c) {
			cards[c] = true
			continue
		}
		x.markCards(c, roots, cards, depth+1)
	}
}

// containsRoot reports whether n is one of roots.
func containsRoot(n *html.Node, roots []*html.Node) bool {
	for _, r := range roots {
		if r == n {
			return true
		}
	}
	return false
}

// isCardRun reports whether most of n's text is in at least minListItems
// same-shaped children, each holding a link, with link text making at
// least cardLinkShare of theirs.
func (x *extraction) isCardRun(n *html.Node) bool {
	return x.isLinkedRun(n, cardLinkShare, minListItems)
}

// isLinkedRun is isCardRun with the least link share and item count given.
func (x *extraction) isLinkedRun(n *html.Node, share float64, least int) bool {
	st := x.stat(n)
	if st == nil || st.text == 0 {
		return false
	}
	type group struct{ count, text, link int }
	groups := map[string]*group{}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.Data == removedMark {
			continue
		}
		cs := x.stat(c)
		if cs == nil || cs.text == 0 {
			continue
		}
		shape := itemShape(c)
		g := groups[shape]
		if g == nil {
			g = &group{}
			groups[shape] = g
		}
		if cs.link == 0 {
			// A card links to its page; a row without a link is content.
			g.count = -1 << 30
		}
		g.count++
		g.text += cs.text
		g.link += cs.link
	}
	for _, g := range groups {
		if g.count >= least && 2*g.text >= st.text && float64(g.link) >= share*float64(g.text) {
			return true
		}
	}
	return false
}

// inArticle reports whether n is or lies inside an <article> element or a
// microformats entry (class h-entry or hentry) below main: the author
// marked a narrower piece of content (one post among others, say), which
// the landmark must not widen.
func inArticle(n, main *html.Node) bool {
	for p := n; p != nil && p != main; p = p.Parent {
		if p.Type == html.ElementNode && (p.Data == "article" || isEntry(p)) {
			return true
		}
	}
	return false
}

// isEntry reports whether n carries the microformats class of one post:
// h-entry (microformats2) or hentry (the original microformat).
func isEntry(n *html.Node) bool {
	for _, f := range strings.Fields(strings.ToLower(attr(n, "class"))) {
		if f == "h-entry" || f == "hentry" {
			return true
		}
	}
	return false
}
