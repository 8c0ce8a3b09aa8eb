package htmltext

import (
	"golang.org/x/net/html"
)

// A service or product-marketing page lays its content out as a run of
// sections, one after another: a hero, features, testimonials, pricing,
// questions and answers. Each section has a heading and some text of its
// own, and none holds most of the page, so the content search settles on
// one of them. When the chosen containers hold less than a share of the
// text of the run of sections around them (sectionsShare on a page that
// declares itself an article, pageSectionsShare on others), the run is the
// content.
const (
	// minSections is the least number of sections (the chosen one
	// included) that make a run.
	minSections = 3
	// sectionChars is the least text of a section.
	sectionChars = 100
	// sectionsShare is the share of the run's text below which the
	// chosen containers give way to the run on a page that declares
	// itself an article.
	sectionsShare = 0.5
	// pageSectionsShare is that share on other pages (a service page's
	// sections around its longest one). On wcxb-dev, 0.65 to 0.8 change
	// only service pages, all for the better; from 0.9 undeclared
	// articles take in blocks after their text.
	pageSectionsShare = 0.75
)

// withSections returns, in place of roots, the sections of the run of
// sections around them, when roots hold less than runShare of the run's
// text; otherwise roots. A section is a sibling element with a
// heading, at least sectionChars of text and at most partsLinkShare of it
// in links; the siblings between the first and the last section that hold
// text with few links come along. Runs are looked for from the first root
// up to <body> or the main landmark, and must hold every root; a run taken
// gives way in turn to a wider run around it (the items of one section
// inside the sections of the page). Each level's children are visited
// once, and at most maxSectionRoots roots are traced: linear.
func (x *extraction) withSections(roots []*html.Node, body *html.Node) []*html.Node {
	if len(roots) > maxSectionRoots || roots[0] == body {
		return roots
	}
	// held counts, for each ancestor of a root (the root included), the
	// roots it holds.
	held := map[*html.Node]int{}
	heldText := map[*html.Node]int{}
	text := 0
	for _, r := range roots {
		st := x.stat(r)
		if st == nil {
			return roots
		}
		text += st.text
		for q := r; q != nil && q != body; q = q.Parent {
			held[q]++
			heldText[q] += st.text
		}
	}
	var taken []*html.Node
	for a := roots[0]; a.Parent != nil && a != body && a.Parent.Type == html.ElementNode; a = a.Parent {
		if a.Data == "article" || isEntry(a) {
			// The author marked one piece of content (a post among
			// others): it is not widened.
			break
		}
		p := a.Parent
		var secs []*html.Node
		secText, holds := 0, 0
		for c := p.FirstChild; c != nil; c = c.NextSibling {
			if x.isSection(c) {
				secs = append(secs, c)
				secText += x.stat(c).text
				if taken == nil {
					holds += held[c]
				} else if c == a {
					holds = len(roots)
				}
			}
		}
		if len(secs) >= minSections && holds == len(roots) {
			inA := heldText[a]
			if taken != nil {
				inA = text
			}
			if float64(text) >= x.runShare()*float64(secText) || float64(inA) < sectionsShare*float64(x.stat(a).text) {
				// The content is most of the run, or only a small part of
				// its own section (whose other parts it left out).
				break
			}
			taken, text = x.runBetween(secs), secText
		}
		if p == body || isLandmark(p) {
			break
		}
	}
	if taken == nil {
		return roots
	}
	return taken
}

// runShare is the share of the run's text below which the chosen
// containers give way to the run: sectionsShare on a page that declares
// itself an article (one piece of content, which the sections around it
// do not widen lightly), pageSectionsShare on other pages.
func (x *extraction) runShare() float64 {
	if x.article {
		return sectionsShare
	}
	return pageSectionsShare
}

// maxSectionRoots is the most roots withSections looks at.
const maxSectionRoots = 16

// isSection reports whether n is an element with a heading, at least
// sectionChars characters and few links.
func (x *extraction) isSection(n *html.Node) bool {
	if n.Type != html.ElementNode || headingTags[n.Data] || n.Data == removedMark {
		return false
	}
	st := x.stat(n)
	return st != nil && st.heads > 0 && st.text >= sectionChars && st.linkDensity() <= partsLinkShare
}

// runBetween returns secs with the siblings between the first and the
// last of them that hold text with few links (a call to action, a
// heading of its own).
func (x *extraction) runBetween(secs []*html.Node) []*html.Node {
	last := secs[len(secs)-1]
	var out []*html.Node
	for c := secs[0]; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			if st := x.stat(c); st != nil && st.text > 0 && st.linkDensity() <= betweenLinkShare {
				out = append(out, c)
			}
		}
		if c == last {
			break
		}
	}
	return out
}

// betweenLinkShare is the most share of link text of a sibling taken
// between sections.
const betweenLinkShare = 0.5
