package htmltext

import (
	"sort"

	"golang.org/x/net/html"
)

// partsLinkShare is the most share of link text a part of the page taken
// beside the chosen content may have.
const partsLinkShare = 0.33

// withParts adds to roots the top-level parts of the page (children of
// <body>, or of the main landmark around roots) that hold another strong candidate, when the strong candidates
// share no ancestor below that level: the content is split over sections
// laid out one after another (a service page: an overview, the list of
// services, questions and answers), which topCandidate cannot join
// without taking the whole body. roots stay in document order.
func (x *extraction) withParts(roots []*html.Node, body *html.Node) []*html.Node {
	if len(x.candidates) < 2 {
		return roots
	}
	text := 0
	for _, r := range roots {
		if r == body || r.Parent == nil {
			return roots
		}
		if st := x.stat(r); st != nil {
			text += st.text
		}
	}
	if text < minContentChars {
		// Short content goes to the fallbacks of mainBlocks as it is.
		return roots
	}
	// Within a main landmark, the parts are its children: the page says
	// that its content is there.
	scope := body
	for p := roots[0].Parent; p != nil && p != body; p = p.Parent {
		if isLandmark(p) {
			scope = p
			break
		}
	}
	ranked := append([]*html.Node(nil), x.candidates...)
	sort.SliceStable(ranked, func(i, j int) bool { return x.stat(ranked[i]).score > x.stat(ranked[j]).score })
	topScore := x.stat(ranked[0]).score
	if topScore <= 0 {
		return roots
	}
	// The child of scope holding each node.
	part := func(n *html.Node) *html.Node {
		for p := n; p != nil; p = p.Parent {
			if p.Parent == scope {
				return p
			}
		}
		return nil
	}
	held := map[*html.Node]bool{}
	rootPart := make([]*html.Node, len(roots))
	for i, r := range roots {
		rootPart[i] = part(r)
		held[rootPart[i]] = true
	}
	add := map[*html.Node]bool{}
	for _, n := range ranked[1:min(len(ranked), partsRanked)] {
		if x.stat(n).score < splitShare*topScore {
			break
		}
		if x.stat(n).text < partChars {
			continue
		}
		p := part(n)
		if p == nil || held[p] || p.Type != html.ElementNode {
			continue
		}
		if st := x.stat(p); st == nil || st.linkDensity() > partsLinkShare {
			continue
		}
		add[p] = true
	}
	if len(add) == 0 {
		return roots
	}
	var out []*html.Node
	i := 0
	for c := scope.FirstChild; c != nil; c = c.NextSibling {
		if add[c] {
			out = append(out, c)
			continue
		}
		for i < len(roots) && rootPart[i] == c {
			out = append(out, roots[i])
			i++
		}
	}
	return append(out, roots[i:]...)
}

// partChars is the least text of a candidate that brings its part in.
const partChars = 200

// partsRanked is how many of the best candidates withParts looks at.
const partsRanked = 5
