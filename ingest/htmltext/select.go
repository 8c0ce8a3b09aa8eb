package htmltext

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// tagWeight is the initial content score of a candidate container by its tag.
func tagWeight(n *html.Node) float64 {
	switch n.Data {
	case "article":
		return 8
	case "div", "main":
		return 5
	case "pre", "td", "blockquote", "section":
		return 3
	case "address", "ol", "ul", "dl", "dd", "dt", "li", "form":
		return -3
	case "h1", "h2", "h3", "h4", "h5", "h6", "th":
		return -5
	}
	return 0
}

// score turns the recorded runs into container scores: a run of c
// characters with k commas is worth 1 + k + min(3, c/100), given in full to
// its first voter, half to the next ancestor and a third of that per level
// beyond. A candidate's final score is scaled by its share of non-link text.
func (x *extraction) score(root *html.Node, _ int) {
	for _, r := range x.runs {
		value := 1 + float64(r.commas) + min(3, float64(r.chars/100))
		n := r.voter
		for level := 0; level < maxAncestorLevels && n != nil && n.Type == html.ElementNode; level++ {
			st := x.stat(n)
			if st == nil {
				break
			}
			if !st.candidate {
				st.candidate = true
				st.score = tagWeight(n) + contentWeight(n, x.posts)
				x.candidates = append(x.candidates, n)
			}
			div := 1.0
			switch {
			case level == 1:
				div = 2
			case level > 1:
				div = float64(level * 3)
			}
			st.score += value / div
			if n == root {
				break
			}
			n = n.Parent
		}
	}
	for _, n := range x.candidates {
		st := x.stat(n)
		st.score *= 1 - st.linkDensity()
	}
}

// topCandidate returns the best-scoring container, moved up to a common
// ancestor when other strong candidates share it, or nil if nothing voted.
func (x *extraction) topCandidate(body *html.Node) *html.Node {
	if len(x.candidates) == 0 {
		return nil
	}
	ranked := append([]*html.Node(nil), x.candidates...)
	sort.SliceStable(ranked, func(i, j int) bool { return x.stat(ranked[i]).score > x.stat(ranked[j]).score })
	top := ranked[0]
	x.best = top
	topScore := x.stat(top).score
	if top == body {
		return top
	}

	// Several strong candidates under one ancestor: the content is split
	// into parts, take the ancestor.
	var alts []*html.Node
	for _, n := range ranked[1:min(len(ranked), 5)] {
		if x.stat(n).score >= splitShare*topScore {
			alts = append(alts, n)
		}
	}
	if len(alts) >= 3 {
		for a := top.Parent; a != nil && a != body; a = a.Parent {
			count := 0
			for _, alt := range alts {
				if isAncestor(a, alt) {
					count++
				}
			}
			if count >= 3 {
				top = a
				break
			}
		}
	}

	// Climb while the parent scores higher (it holds more of the content).
	last := x.stat(top).score
	threshold := last / 3
	for p := top.Parent; p != nil && p != body; p = p.Parent {
		st := x.stat(p)
		if st == nil || !st.candidate {
			continue
		}
		if st.score < threshold {
			break
		}
		if st.score > last {
			top = p
			break
		}
		last = st.score
	}
	// An only child stands for its parent.
	for top.Parent != nil && top.Parent != body && top.Parent.Type == html.ElementNode && onlyElementChild(top.Parent) == top {
		top = top.Parent
	}
	return top
}

func isAncestor(a, n *html.Node) bool {
	for p := n.Parent; p != nil; p = p.Parent {
		if p == a {
			return true
		}
	}
	return false
}

func onlyElementChild(n *html.Node) *html.Node {
	var only *html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data != removedMark {
			if only != nil {
				return nil
			}
			only = c
		} else if c.Type == html.TextNode && !isBlank(c.Data) {
			return nil
		}
	}
	return only
}

func isBlank(s string) bool {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '\f':
		default:
			return false
		}
	}
	return true
}

// withSiblings returns top and those of its siblings that also look like
// content (a good score, or a paragraph with enough text and few links),
// in document order.
func (x *extraction) withSiblings(top, body *html.Node) []*html.Node {
	if top == body || top.Parent == nil {
		return []*html.Node{top}
	}
	topSt := x.stat(top)
	threshold := max(siblingMinScore, topSt.score*siblingShare)
	topClass := attr(top, "class")
	var out []*html.Node
	for s := top.Parent.FirstChild; s != nil; s = s.NextSibling {
		if s == top {
			out = append(out, s)
			continue
		}
		if s.Type != html.ElementNode {
			continue
		}
		st := x.stat(s)
		if st == nil || st.text == 0 {
			continue
		}
		bonus := 0.0
		if topClass != "" && attr(s, "class") == topClass {
			bonus = topSt.score * 0.2
		}
		if st.candidate && st.score+bonus >= threshold {
			out = append(out, s)
			continue
		}
		if s.Data == "p" || paragraphTags[s.Data] && !headingTags[s.Data] {
			ld := st.linkDensity()
			if st.text > 80 && ld < 0.25 || st.text > 0 && st.text <= 80 && ld == 0 && endsSentence(s) {
				out = append(out, s)
			}
		}
	}
	return out
}

// endsSentence reports whether n's last text ends with sentence punctuation.
func endsSentence(n *html.Node) bool {
	for c := n.LastChild; c != nil; {
		if c.Type == html.TextNode {
			// White space of any kind ends no sentence: a no-break space
			// after the full stop is as blank as a plain one.
			t := strings.TrimRightFunc(c.Data, unicode.IsSpace)
			if t == "" {
				c = c.PrevSibling
				continue
			}
			switch r, _ := utf8.DecodeLastRuneInString(t); r {
			case '.', '!', '?', '。', '"', '”', '»', ':':
				return true
			}
			return false
		}
		if c.LastChild != nil {
			c = c.LastChild
			continue
		}
		c = c.PrevSibling
	}
	return false
}

// A sibling of the chosen container joins it when it scores at least
// siblingShare of the container's score and at least siblingMinScore.
const (
	siblingShare    = 0.2
	siblingMinScore = 10
)

// splitShare is the share of the best score from which another candidate
// counts as a part of content split over several containers.
const splitShare = 0.4

// leadScopeLevels is how far above the chosen container prose that comes
// before it (a lead paragraph, a standfirst) is looked for.
const leadScopeLevels = 4

// withLead prepends to roots the prose paragraphs that precede the first
// root inside its ancestor leadScopeLevels up: articles often set their
// lead apart from the body container. Only the run of prose closest to
// the content is taken; a block of other text (a link list, a teaser, a
// heading) ends it, except on a page that declares an article a line
// shorter than a paragraph (proseChars) or a picture with its caption,
// which are passed over.
func (x *extraction) withLead(roots []*html.Node, body *html.Node) []*html.Node {
	first := roots[0]
	if first == body {
		return roots
	}
	scope := first
	for i := 0; i < leadScopeLevels && scope.Parent != nil && scope.Parent != body && scope.Parent.Type == html.ElementNode; i++ {
		scope = scope.Parent
	}
	w := leadWalk{x: x, first: first}
	// Only prose before the content counts: when no ancestor could be
	// climbed to (the content is a child of <body>), the walk never meets
	// the first root, and what it gathered is the content itself.
	if !w.walk(scope, 0, true, false) || len(w.leads) == 0 {
		return roots
	}
	return append(w.leads, roots...)
}

// leadWalk gathers the run of prose before the first root (see withLead).
type leadWalk struct {
	x     *extraction
	first *html.Node
	leads []*html.Node
}

// What a block before the first root does to the run of prose.
const (
	leadJoins  = iota // it is prose: it joins the run
	leadPassed        // it neither joins nor ends the run
	leadBreaks        // other text: a break in the run
	leadInside        // a container: the run goes on inside it
)

// walk walks the children of n up to the first root, gathering the run
// of prose, and reports whether it met the first root. onPath: n is an
// ancestor of the first root, so its children are siblings of the
// content or of a wrapper of it. inHeader: n is inside an article's
// <header>, where the standfirst need not end like a sentence.
func (w *leadWalk) walk(n *html.Node, depth int, onPath, inHeader bool) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c == w.first {
			return true
		}
		if c.Type != html.ElementNode || depth > maxDepth {
			continue
		}
		st := w.x.stat(c)
		if st == nil || st.text == 0 {
			continue
		}
		header := inHeader || c.Data == "header"
		if isAncestor(c, w.first) {
			if w.walk(c, depth+1, true, header) {
				return true
			}
			continue
		}
		switch w.block(c, st, onPath, inHeader) {
		case leadJoins:
			w.leads = append(w.leads, c)
		case leadBreaks:
			w.leads = w.leads[:0]
		case leadInside:
			if w.walk(c, depth+1, false, header) {
				return true
			}
		}
	}
	return false
}

// block says what block c, of measures st, before the first root does to
// the run of prose (see walk).
func (w *leadWalk) block(c *html.Node, st *nodeStats, onPath, inHeader bool) int {
	x := w.x
	switch {
	case x.isProse(c) || onPath && x.article && x.isBareProse(c) || inHeader && x.article && x.isStandfirst(c):
		return leadJoins
	case x.article && st.text < figcaptionKeepChars && holdsPicture(c, 0):
		// On an article, a picture and its caption (shorter than a
		// caption kept as content) between the standfirst and the body
		// are passed over too.
		return leadPassed
	case (paragraphTags[c.Data] || !blockTags[c.Data]) && x.article && !headingTags[c.Data] && st.text < proseChars:
		// On an article, a short line between the standfirst and the
		// body (the byline, a date, a photo credit) is passed over: it
		// neither joins nor ends the run.
		return leadPassed
	case paragraphTags[c.Data] || !blockTags[c.Data]:
		return leadBreaks
	}
	return leadInside
}

// isProse reports whether n is a paragraph of running text: enough
// characters, few of them in links, ending like a sentence.
func (x *extraction) isProse(n *html.Node) bool {
	if n.Data != "p" && n.Data != "blockquote" {
		return false
	}
	st := x.stat(n)
	return st != nil && st.text >= proseChars && st.linkDensity() < 0.2 && endsSentence(n)
}

// isBareProse reports whether n is a paragraph of running text written
// without a <p>: a <div> of text and inline elements only (no block
// inside it), otherwise as isProse asks. Articles set their standfirst so,
// in a block of its own above the body: withLead takes one on a page that
// declares an article, when it is a sibling of the content or of a
// wrapper of it (not text nested in another box, such as a caption).
func (x *extraction) isBareProse(n *html.Node) bool {
	if n.Data != "div" {
		return false
	}
	st := x.stat(n)
	if st == nil || st.text < proseChars || st.linkDensity() >= 0.2 || !endsSentence(n) {
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && (blockTags[c.Data] || c.Data == removedMark) {
			return false
		}
	}
	return true
}

// isStandfirst reports whether n, a block inside an article's <header>, is
// its standfirst: a <p>, a subheading (h2-h6 right after the title) or a
// <div> of text and inline elements, at least proseChars long, without
// links (a byline links its author, a disclosure its policy). A standfirst is often
// written as a summary line without a full stop, so no sentence end is
// asked for (the header has already set it apart from the title).
func (x *extraction) isStandfirst(n *html.Node) bool {
	if n.Data != "p" && n.Data != "div" && !subheadTags[n.Data] {
		return false
	}
	st := x.stat(n)
	if st == nil || st.text < proseChars || st.link > 0 {
		return false
	}
	if subheadTags[n.Data] {
		// A subheading right under the title; alone, it is a
		// card's title.
		p := prevElement(n.PrevSibling, -1)
		return p != nil && headingTags[p.Data]
	}
	if n.Data == "div" {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode && (blockTags[c.Data] || c.Data == removedMark) {
				return false
			}
		}
	}
	return true
}

// withTrail appends to roots the prose paragraphs that follow the last
// root inside its ancestor leadScopeLevels up, up to the first block of
// other text.
func (x *extraction) withTrail(roots []*html.Node, body *html.Node) []*html.Node {
	last := roots[len(roots)-1]
	if last == body {
		return roots
	}
	scope := last
	for i := 0; i < leadScopeLevels && scope.Parent != nil && scope.Parent != body && scope.Parent.Type == html.ElementNode; i++ {
		scope = scope.Parent
	}
	var trail []*html.Node
	seen := false
	stop := false
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		for c := n.FirstChild; c != nil && !stop; c = c.NextSibling {
			if c == last {
				seen = true
				continue
			}
			if c.Type != html.ElementNode || depth > maxDepth {
				continue
			}
			if !seen {
				if isAncestor(c, last) {
					walk(c, depth+1)
				}
				continue
			}
			st := x.stat(c)
			if st == nil || st.text == 0 {
				continue
			}
			switch {
			case x.isProse(c):
				trail = append(trail, c)
			case paragraphTags[c.Data] || !blockTags[c.Data]:
				stop = true
			default:
				walk(c, depth+1)
			}
		}
	}
	walk(scope, 0)
	return append(roots, trail...)
}

// lostBestShare: the emission of the chosen roots lost the best-scoring
// container when it is shorter than 1/lostBestShare of that container's
// text (1, 2 and 4 gave the same wcxb and trafilatura results; with 1 the
// filters' ordinary trimming of a dateline or a credit line counted as a
// loss on an aeb article page, which took its furniture back).
const lostBestShare = 2

// bestProseParas is the fewest paragraphs of running text (see isProse)
// the best-scoring container holds, at any depth, for holdBest to keep it:
// an article's body, not a lone text block or a list (2 and 3 give the
// same results on the dev sets; with 1 a service page's short text block
// took over its grid of offerings).
const bestProseParas = 2

// proseParas counts the paragraphs of running text (see isProse) under n,
// at any depth below it up to maxDepth, and stops counting at limit. It
// does not enter a paragraph it counted.
func (x *extraction) proseParas(n *html.Node, depth, limit int) int {
	count := 0
	for c := n.FirstChild; c != nil && count < limit && depth < maxDepth; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if x.isProse(c) {
			count++
			continue
		}
		count += x.proseParas(c, depth+1, limit-count)
	}
	return count
}

// holdBest handles a chosen root whose emission, of emitted characters,
// lost the best-scoring container (see lostBestShare): the climb from it
// to a common ancestor (see topCandidate) passed a wrapper that also
// holds the page's link lists, and the filters dropped that wrapper with
// the article inside.
// When that container is an article's body, holdBest records it and the
// wrappers between it and its root in x.holders, which emission keeps
// (their link lists are still judged one by one), and reports true: the
// roots are to be emitted again. It walks the path and the container's
// descendants once, only on such pages. findMain asks it in the reading with
// class hints only: the reading without them keeps furniture that the
// wrappers would bring along (an article page's credit lines).
func (x *extraction) holdBest(emitted int) bool {
	st := x.stat(x.best)
	if st == nil || lostBestShare*emitted >= st.text {
		return false
	}
	var root *html.Node
	for _, r := range x.roots {
		if isAncestor(r, x.best) {
			root = r
			break
		}
	}
	if root == nil {
		return false
	}
	if x.proseParas(x.best, 0, bestProseParas) < bestProseParas {
		return false
	}
	if x.holders == nil {
		x.holders = map[*html.Node]bool{}
	}
	for p := x.best; p != root; p = p.Parent {
		x.holders[p] = true
	}
	return true
}

// pictureLevels is how deep below a block holdsPicture looks.
const pictureLevels = 4

// holdsPicture reports whether n is or holds, within pictureLevels
// levels, an image or a picture.
func holdsPicture(n *html.Node, depth int) bool {
	if n.Data == "img" || n.Data == "picture" || n.Data == "figure" {
		return true
	}
	if depth >= pictureLevels {
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && holdsPicture(c, depth+1) {
			return true
		}
	}
	return false
}
