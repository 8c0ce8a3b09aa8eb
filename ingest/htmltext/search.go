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
		return mainTopLimits.articleWeight
	case "div", "main":
		return mainTopLimits.blockWeight
	case "pre", "td", "blockquote", "section":
		return mainTopLimits.cellWeight
	case "address", "ol", "ul", "dl", "dd", "dt", "li", "form":
		return mainTopLimits.listWeight
	case "h1", "h2", "h3", "h4", "h5", "h6", "th":
		return mainTopLimits.headingWeight
	}
	return 0
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
	for _, n := range ranked[1:min(len(ranked), mainTopLimits.splitRanked)] {
		if x.stat(n).score >= mainTopLimits.splitShare*topScore {
			alts = append(alts, n)
		}
	}
	if len(alts) >= mainTopLimits.splitParts {
		for a := top.Parent; a != nil && a != body; a = a.Parent {
			count := 0
			for _, alt := range alts {
				if isAncestor(a, alt) {
					count++
				}
			}
			if count >= mainTopLimits.splitParts {
				top = a
				break
			}
		}
	}

	// Climb while the parent scores higher (it holds more of the content).
	last := x.stat(top).score
	threshold := last / mainTopLimits.climbFraction
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
	threshold := max(mainSiblingLimits.siblingMinScore, topSt.score*mainSiblingLimits.siblingShare)
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
			bonus = topSt.score * mainSiblingLimits.classBonusShare
		}
		if st.candidate && st.score+bonus >= threshold {
			out = append(out, s)
			continue
		}
		if s.Data == "p" || paragraphTags[s.Data] && !headingTags[s.Data] {
			ld := st.linkDensity()
			if st.text > mainSiblingLimits.paragraphChars && ld < mainSiblingLimits.paragraphLinkShare || st.text > 0 && st.text <= mainSiblingLimits.paragraphChars && ld == 0 && endsSentence(s) {
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
	for i := 0; i < mainLeadLimits.leadScopeLevels && scope.Parent != nil && scope.Parent != body && scope.Parent.Type == html.ElementNode; i++ {
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
	case x.article && st.text < captionCreditHintLimits.figcaptionKeepChars && holdsPicture(c, 0):
		// On an article, a picture and its caption (shorter than a
		// caption kept as content) between the standfirst and the body
		// are passed over too.
		return leadPassed
	case (paragraphTags[c.Data] || !blockTags[c.Data]) && x.article && !headingTags[c.Data] && st.text < mainLeadLimits.proseChars:
		// On an article, a short line between the standfirst and the
		// body (the byline, a date, a photo credit) is passed over: it
		// neither joins nor ends the run.
		return leadPassed
	case paragraphTags[c.Data] || !blockTags[c.Data]:
		return leadBreaks
	}
	return leadInside
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
	for i := 0; i < mainLeadLimits.leadScopeLevels && scope.Parent != nil && scope.Parent != body && scope.Parent.Type == html.ElementNode; i++ {
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

// holdBest handles a chosen root whose emission, of emitted characters,
// lost the best-scoring container (see mainTopLimits): the climb from it
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
	if st == nil || mainTopLimits.lostBestShare*emitted >= st.text {
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
	if x.proseParas(x.best, 0, mainTopLimits.bestProseParas) < mainTopLimits.bestProseParas {
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

// holdsPicture reports whether n is or holds, within pictureLevels
// levels (see mainLeadLimits), an image or a picture.
func holdsPicture(n *html.Node, depth int) bool {
	if n.Data == "img" || n.Data == "picture" || n.Data == "figure" {
		return true
	}
	if depth >= mainLeadLimits.pictureLevels {
		return false
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && holdsPicture(c, depth+1) {
			return true
		}
	}
	return false
}

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
	if text < shownReadingLimits.minContentChars {
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
	for _, n := range ranked[1:min(len(ranked), mainPartLimits.partsRanked)] {
		if x.stat(n).score < mainTopLimits.splitShare*topScore {
			break
		}
		if x.stat(n).text < mainPartLimits.partChars {
			continue
		}
		p := part(n)
		if p == nil || held[p] || p.Type != html.ElementNode {
			continue
		}
		if st := x.stat(p); st == nil || st.linkDensity() > mainPartLimits.partsLinkShare {
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
	if len(roots) > mainSectionsLimits.maxSectionRoots || roots[0] == body {
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
		if len(secs) >= mainSectionsLimits.minSections && holds == len(roots) {
			inA := heldText[a]
			if taken != nil {
				inA = text
			}
			if float64(text) >= x.runShare()*float64(secText) || float64(inA) < mainSectionsLimits.sectionsShare*float64(x.stat(a).text) {
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
		return mainSectionsLimits.sectionsShare
	}
	return mainSectionsLimits.pageSectionsShare
}

// isSection reports whether n is an element with a heading, at least
// sectionChars characters and few links.
func (x *extraction) isSection(n *html.Node) bool {
	if n.Type != html.ElementNode || headingTags[n.Data] || n.Data == removedMark {
		return false
	}
	st := x.stat(n)
	return st != nil && st.heads > 0 && st.text >= mainSectionsLimits.sectionChars && st.linkDensity() <= mainPartLimits.partsLinkShare
}

// runBetween returns secs with the siblings between the first and the
// last of them that hold text with few links, betweenLinkShare at most
// (a call to action, a heading of its own).
func (x *extraction) runBetween(secs []*html.Node) []*html.Node {
	last := secs[len(secs)-1]
	var out []*html.Node
	for c := secs[0]; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode {
			if st := x.stat(c); st != nil && st.text > 0 && st.linkDensity() <= mainSectionsLimits.betweenLinkShare {
				out = append(out, c)
			}
		}
		if c == last {
			break
		}
	}
	return out
}

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
	if mst == nil || mst.text == 0 || mst.linkDensity() > mainLandmarkLimits.landmarkLinkShare {
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
	if float64(text) >= mainLandmarkLimits.landmarkShare*float64(mst.text) {
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

// withProseRun returns the container of the run of parts that top is one
// of: the nearest ancestor (at most runLevels up, postLevels on a thread
// page, below body) with at least two children that hold prose, one of them holding top. On a thread page
// (x.posts) the run of posts is the content as it is; elsewhere it must be
// little linked (runLinkShare) and top must hold at most runTopShare of
// its text. Otherwise top is returned.
func (x *extraction) withProseRun(top, body *html.Node) *html.Node {
	if top == body {
		return top
	}
	child := top
	levels := mainProseRunLimits.runLevels
	if x.posts {
		levels = mainProseRunLimits.postLevels
	}
	for level, a := 0, top.Parent; level < levels && a != nil && a != body && a.Type == html.ElementNode; level, a = level+1, a.Parent {
		parts, holds := 0, false
		for c := a.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || paragraphTags[c.Data] || !x.isPart(c) {
				continue
			}
			parts++
			holds = holds || c == child
		}
		if parts >= 2 && holds {
			if x.posts {
				return a
			}
			st, tst := x.stat(a), x.stat(top)
			if st == nil || tst == nil || st.linkDensity() > mainProseRunLimits.runLinkShare || float64(tst.text) > mainProseRunLimits.runTopShare*float64(st.text) {
				return top
			}
			return a
		}
		child = a
	}
	return top
}

// isPart reports whether n can be a part of a run: it holds prose, or, on
// a thread page, it holds running text whatever its markup (forum software
// often writes a post as text and line breaks, without paragraphs): at
// least proseChars characters, few of them in links.
func (x *extraction) isPart(n *html.Node) bool {
	if x.posts {
		if st := x.stat(n); st != nil && st.text >= mainLeadLimits.proseChars && st.linkDensity() < mainProseRunLimits.postLinkShare {
			return true
		}
	}
	return hasProse(n, 0)
}

// credit notes, with a trace, that rule r brought those of roots no
// earlier step of the search brought, and returns roots.
func (x *extraction) credit(r *stageRule, roots []*html.Node) []*html.Node {
	if x.trace == nil {
		return roots
	}
	if x.by == nil {
		x.by = map[*html.Node]*stageRule{}
	}
	for _, n := range roots {
		if x.by[n] == nil {
			x.by[n] = r
		}
	}
	return roots
}

// traceSearch records, with a trace, the search's decisions on the tree under body: the
// rule that brought each root, with its score, and an outside-main drop
// for each block outside the roots, with its score beside the best one.
func (x *extraction) traceSearch(body *html.Node) {
	if x.trace == nil {
		return
	}
	top := 0.0
	if st := x.stat(x.best); st != nil {
		top = st.score
	}
	for _, r := range x.roots {
		rule := x.by[r]
		if rule == nil {
			rule = &ruleMainTop
		}
		x.trace.recordRule(rule, r, x.scoreOf(r))
	}
	x.traceOutside(&ruleOutsideMain, body, x.roots, limit{"topScore", int(top)})
}

// traceOutside records a drop by rule r of every block under body that
// holds text and neither is nor holds nor lies in one of kept: the
// largest such blocks, each once.
func (x *extraction) traceOutside(r *stageRule, body *html.Node, kept []*html.Node, measures ...limit) {
	holds := map[*html.Node]bool{}
	in := map[*html.Node]bool{}
	for _, k := range kept {
		in[k] = true
		for p := k.Parent; p != nil && p != body; p = p.Parent {
			holds[p] = true
		}
	}
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
			switch {
			case in[c]:
			case holds[c]:
				walk(c, depth+1)
			case c.Type == html.TextNode && !isBlank(c.Data), c.Type == html.ElementNode && visibleChars(c, 1, 0) > 0:
				x.trace.recordRule(r, c, x.scoreOf(c), measures...)
			}
		}
	}
	if !in[body] {
		walk(body, 0)
	}
}

// listInLandmark reports whether l is a run of many items inside the main
// landmark while the chosen content lies outside it (a category's
// introduction or a filter panel beside the grid the page marks as its
// main content): the page's own statement makes the items the content,
// unless the list is named as furniture (comments).
func (x *extraction) listInLandmark(l itemList) bool {
	if l.node == nil || l.items < listContentLimits.manyListItems || l.text < listContentLimits.minListChars || len(x.roots) == 0 {
		return false
	}
	var main *html.Node
	for p := l.node; p != nil; p = p.Parent {
		if isLandmark(p) {
			main = p
			break
		}
		if boilerplateHint(p) == 2 {
			// Named as furniture (a comment thread below the article).
			return false
		}
	}
	if main == nil {
		return false
	}
	for _, r := range x.roots {
		if r == main || isAncestor(main, r) || isAncestor(r, main) {
			return false
		}
	}
	return true
}

// markLists records in x.lists, for each of roots, the run of link cards
// inside it (see isCardRun, isFieldCards) that holds at least half of the root's text,
// and in x.holders the wrappers of a run of many cards that the cards
// fill at least half of (a grid's frame, as linked as the cards):
// a root made mostly of cards is a listing, whose cards are its content
// however many links they hold. Paragraphs with links are an article's
// text, not cards.
func (x *extraction) markLists(roots []*html.Node) {
	for _, r := range roots {
		st := x.stat(r)
		if st == nil || st.text == 0 {
			continue
		}
		list := x.listContainer(r)
		if list.node == nil || list.tag == "p" || 2*list.text < st.text || !x.isCardRun(list.node) && !x.isFieldCards(list) {
			continue
		}
		if x.lists == nil {
			x.lists = map[*html.Node]bool{}
		}
		x.lists[list.node] = true
		// The wrappers of the listing (most of their text is the cards)
		// are as linked as the cards and stay for them.
		for p := list.node.Parent; p != nil && p != r && list.items >= listContentLimits.manyListItems; p = p.Parent {
			if ps := x.stat(p); ps == nil || 2*list.text < ps.text {
				break
			}
			if x.holders == nil {
				x.holders = map[*html.Node]bool{}
			}
			x.holders[p] = true
		}
	}
}

// isFieldCards reports whether l is a long run of cards each holding a
// link, whose text is mostly unlinked fields (a price, a rating, the
// attributes of a product: at least fieldLinkShare (see
// listContentLimits) of it in links, less
// than isCardRun asks), on a page that declares neither an article nor a
// thread: at least manyListItems cards and retryChars characters, fewer
// than half of them holding a paragraph of running text (posts and
// teasers have theirs; a product's card is its fields).
func (x *extraction) isFieldCards(l itemList) bool {
	if x.posts || x.article || l.items < listContentLimits.manyListItems || l.text < lenientReadingLimits.retryChars {
		return false
	}
	return x.isLinkedRun(l.node, listContentLimits.fieldLinkShare, listContentLimits.manyListItems) && 2*x.proseParas(l.node, 0, l.items) < l.items
}
