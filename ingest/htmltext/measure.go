package htmltext

import "golang.org/x/net/html"

// measures are the measurements of one cleaned tree, taken in one
// post-order pass (see measure), and the predicates that read only them.
// Measurements live in one slice indexed through index, so that a page of
// many elements costs one map entry and no allocation per element.
type measures struct {
	index      map[*html.Node]int32
	all        []nodeStats
	runs       []run
	pending    []run        // runs of the elements being measured, a stack
	candidates []*html.Node // in order of first vote
	// posts reads names of comments as posts (see cleaner.posts).
	posts bool
	// quiet holds the headlines kept despite a furniture hint, which cast
	// no votes in scoring (see cleaner.quiet).
	quiet map[*html.Node]bool
}

// nodeStats holds measurements of one element's subtree.
type nodeStats struct {
	text      int // visible characters
	link      int // of which inside links
	paras     int // paragraph elements with text
	heads     int // heading elements with text
	score     float64
	candidate bool
}

func (s *nodeStats) linkDensity() float64 {
	if s == nil || s.text == 0 {
		return 0
	}
	return float64(s.link) / float64(s.text)
}

// run is a stretch of inline text that votes for the container that holds it.
type run struct {
	voter  *html.Node // first element to receive the vote
	chars  int
	commas int
}

// stat returns the measurements of element n, or nil for an element that
// was not measured (one added after measuring, or beyond maxDepth).
func (x *measures) stat(n *html.Node) *nodeStats {
	i, ok := x.index[n]
	if !ok {
		return nil
	}
	return &x.all[i]
}

// measure fills stats for n's subtree and returns n's visible text length,
// link text length, commas and paragraphs. It records the runs of inline content with
// enough text and few links, each voting for the element that holds it: a
// paragraph-like element (or a leaf container) votes for its parent, text
// beside block children votes for the element itself.
func (x *measures) measure(n *html.Node, inLink bool, depth int) (text, link, commas, paras, heads int) {
	if n.Type == html.TextNode {
		t, c := runLen(n.Data)
		if inLink {
			return t, t, c, 0, 0
		}
		return t, 0, c, 0, 0
	}
	if n.Type != html.ElementNode && n.Type != html.DocumentNode || depth > maxDepth {
		return 0, 0, 0, 0, 0
	}
	if x.quiet[n] {
		// A headline kept despite its furniture hint: its text is read
		// where the content lies around it, yet it casts no vote for
		// where that is.
		defer func(runs, pending int) {
			x.runs, x.pending = x.runs[:runs], x.pending[:pending]
		}(len(x.runs), len(x.pending))
	}
	i := int32(len(x.all))
	x.index[n] = i
	x.all = append(x.all, nodeStats{})
	isLink := inLink || n.Data == "a"
	var runText, runLink, runCommas int
	// This element's runs wait on the pending stack above those of its
	// ancestors until its children are measured: they follow the
	// children's runs in x.runs.
	base := len(x.pending)
	hasBlockChild := false
	endRun := func() {
		if runText >= mainTopLimits.minRunChars && runLink*2 < runText {
			x.pending = append(x.pending, run{chars: runText, commas: runCommas})
		}
		runText, runLink, runCommas = 0, 0, 0
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		t, l, cm, p, h := x.measure(c, isLink, depth+1)
		text += t
		link += l
		commas += cm
		paras += p
		heads += h
		if c.Type == html.ElementNode && blockTags[c.Data] {
			hasBlockChild = true
			endRun()
			continue
		}
		runText += t
		runLink += l
		runCommas += cm
	}
	endRun()
	if paragraphTags[n.Data] && text > 0 {
		paras++
		if headingTags[n.Data] {
			heads++
		}
	}
	if local := x.pending[base:]; len(local) > 0 && !headingTags[n.Data] {
		voter := n
		if !hasBlockChild || paragraphTags[n.Data] {
			voter = n.Parent
		}
		for _, r := range local {
			r.voter = voter
			x.runs = append(x.runs, r)
		}
	}
	x.pending = x.pending[:base]
	x.all[i] = nodeStats{text: text, link: link, paras: paras, heads: heads}
	return text, link, commas, paras, heads
}

// score turns the recorded runs into container scores: a run of c
// characters with k commas is worth 1 + k + min(runBonusMax,
// c/runBonusChars) (see mainTopLimits), given in full to its first voter,
// half to the next ancestor and 1/(levelDivisor×level) to the ancestor
// level levels up beyond that. A candidate's final score is scaled by its
// share of non-link text.
func (x *measures) score(root *html.Node, _ int) {
	for _, r := range x.runs {
		value := 1 + float64(r.commas) + min(mainTopLimits.runBonusMax, float64(r.chars/mainTopLimits.runBonusChars))
		n := r.voter
		for level := 0; level < mainTopLimits.maxAncestorLevels && n != nil && n.Type == html.ElementNode; level++ {
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
				div = float64(level * mainTopLimits.levelDivisor)
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

// isProse reports whether n is a paragraph of running text: enough
// characters, few of them in links, ending like a sentence.
func (x *measures) isProse(n *html.Node) bool {
	if n.Data != "p" && n.Data != "blockquote" {
		return false
	}
	st := x.stat(n)
	return st != nil && st.text >= mainLeadLimits.proseChars && st.linkDensity() < mainLeadLimits.proseLinkShare && endsSentence(n)
}

// isBareProse reports whether n is a paragraph of running text written
// without a <p>: a <div> of text and inline elements only (no block
// inside it), otherwise as isProse asks. Articles set their standfirst so,
// in a block of its own above the body: withLead takes one on a page that
// declares an article, when it is a sibling of the content or of a
// wrapper of it (not text nested in another box, such as a caption).
func (x *measures) isBareProse(n *html.Node) bool {
	if n.Data != "div" {
		return false
	}
	st := x.stat(n)
	if st == nil || st.text < mainLeadLimits.proseChars || st.linkDensity() >= mainLeadLimits.proseLinkShare || !endsSentence(n) {
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
func (x *measures) isStandfirst(n *html.Node) bool {
	if n.Data != "p" && n.Data != "div" && !subheadTags[n.Data] {
		return false
	}
	st := x.stat(n)
	if st == nil || st.text < mainLeadLimits.proseChars || st.link > 0 {
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

// proseParas counts the paragraphs of running text (see isProse) under n,
// at any depth below it up to maxDepth, and stops counting at limit. It
// does not enter a paragraph it counted.
func (x *measures) proseParas(n *html.Node, depth, limit int) int {
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

// isCardRun reports whether most of n's text is in at least minListItems
// same-shaped children, each holding a link, with link text making at
// least cardLinkShare of theirs.
func (x *measures) isCardRun(n *html.Node) bool {
	return x.isLinkedRun(n, nestedCardsLimits.cardLinkShare, listContentLimits.minListItems)
}

// isLinkedRun is isCardRun with the least link share and item count given.
func (x *measures) isLinkedRun(n *html.Node, share float64, least int) bool {
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

// scoreOf is n's content score in the search, 0 when it is no candidate.
func (x *measures) scoreOf(n *html.Node) float64 {
	if st := x.stat(n); st != nil && st.candidate {
		return st.score
	}
	return 0
}

// cardRunIn returns n, or the child holding most of its text, and so on
// down, the first that is a run of link cards (see isCardRun): a grid
// with its heading and frames. It returns nil when there is none.
func (x *measures) cardRunIn(n *html.Node) *html.Node {
	for depth := 0; n != nil && depth < maxDepth; depth++ {
		if x.isCardRun(n) {
			return n
		}
		st := x.stat(n)
		if st == nil {
			return nil
		}
		var next *html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if cs := x.stat(c); c.Type == html.ElementNode && cs != nil && 2*cs.text >= st.text {
				next = c
				break
			}
		}
		n = next
	}
	return nil
}

// describedCards reports whether most of the cards of run (at least
// minListItems) hold a title and the sentence that describes it: an
// offering's name and its description, not a bare list of linked titles.
// The title is a heading or a paragraph made mostly of a link, and the
// description a paragraph, or a block of bare text, written as a sentence,
// linked or not (a card that is one link around its title and text).
func (x *measures) describedCards(run *html.Node) bool {
	cards, described := 0, 0
	for c := run.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.Data == removedMark {
			continue
		}
		cards++
		if holdsHeading(c, 0) && hasTag(c, "p", 0) {
			described++
			continue
		}
		if title, text := x.titleAndSentence(c, 0); (title || holdsHeading(c, 0)) && text {
			described++
		}
	}
	return described >= listContentLimits.minListItems && 2*described >= cards
}

// titleAndSentence reports whether n holds a short paragraph made mostly
// of a link (a card's linked title) and whether it holds a paragraph, or
// a block of bare text, of at least proseChars ending like a sentence
// (the card's description, inside its link or not).
func (x *measures) titleAndSentence(n *html.Node, depth int) (title, text bool) {
	for c := n.FirstChild; c != nil && depth < maxDepth && !(title && text); c = c.NextSibling {
		if c.Type != html.ElementNode || dropTags[c.Data] || c.Data == removedMark {
			continue
		}
		if c.Data != "p" && !(c.Data == "div" && !hasBlockChild(c)) {
			t, d := x.titleAndSentence(c, depth+1)
			title, text = title || t, text || d
			continue
		}
		st := x.stat(c)
		if st == nil || st.text == 0 {
			continue
		}
		if st.text >= mainLeadLimits.proseChars && endsSentence(c) {
			text = true
		} else if c.Data == "p" && 2*st.link > st.text {
			title = true
		}
	}
	return title, text
}

// lastProseIn returns the last paragraph of running text (see isProse)
// in n's subtree, or nil.
func (x *measures) lastProseIn(n *html.Node, depth int) *html.Node {
	for c := n.LastChild; c != nil && depth < maxDepth; c = c.PrevSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if l := x.lastProseIn(c, depth+1); l != nil {
			return l
		}
		if x.isProse(c) {
			return c
		}
	}
	return nil
}

// isBoilerplateContainer reports whether a container inside the main
// content is mostly links (menus, related-article lists, teasers) or is
// marked as furniture while holding links.
func (x *measures) isBoilerplateContainer(n *html.Node) bool {
	st := x.stat(n)
	if st == nil || st.text == 0 {
		return false
	}
	ld := st.linkDensity()
	w := contentWeight(n, x.posts)
	switch {
	case w < linkDenseContainerLimits.weakWeight && ld > linkDenseContainerLimits.weakLinkShare && st.paras < linkDenseContainerLimits.weakParas:
		return true
	case ld > linkDenseContainerLimits.boilerplateLinkShare:
		return true
	case w < 0 && ld > linkDenseContainerLimits.namedLinkShare && !(isBuilderBlock(n) && hasRunningText(n, 0) && !hasLinkedHeading(n, 0)) && !x.wrapsProse(n):
		// A page builder's block holding running text is named like a
		// widget whatever it holds (see isBuilderBlock); one holding
		// linked titles is a block of cards (related posts).
		return true
	}
	return false
}

// wrapsProse reports whether n's only element child is a paragraph of
// running text (see isProse), a wrapper around one paragraph of the
// article (a lead paragraph in a box named for its media) whatever its
// name says.
func (x *measures) wrapsProse(n *html.Node) bool {
	var only *html.Node
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if only != nil {
			return false
		}
		only = c
	}
	return only != nil && x.isProse(only)
}
