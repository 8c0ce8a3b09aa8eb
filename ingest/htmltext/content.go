package htmltext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/internal/htmlwalk"
	"golang.org/x/net/html"
)

// maxDepth bounds the depth of the trees the extraction walks.
const maxDepth = 1024

// extraction is the state of one attempt at finding the main content:
// the measures of the cleaned tree, the search's choices and what the
// emission needs of them.
type extraction struct {
	measures
	// roots are the containers findMain chose.
	roots []*html.Node
	// article is set when the page declares itself an article (see
	// runShare).
	article bool
	// lists holds runs of link cards inside a chosen root that hold most
	// of its text: the listing is the content, emitted without the
	// filters that drop link-dense blocks.
	lists map[*html.Node]bool
	// holders are the containers between a chosen root and a listing
	// in it (see lists): emission keeps them for the listing they hold.
	holders map[*html.Node]bool
	// best is the best-scoring container, before topCandidate moves up
	// from it (see holdBest).
	best *html.Node
	// appeal holds the containers close around a call to action (see
	// cleaner.appeal).
	appeal map[*html.Node]bool
	// stageDriver runs the search's and the emission's rules; its
	// trace records their decisions in the named reading: cleanPass
	// numbers the cleaning's pass, searchPass the search's and its
	// emission's, emitPass that of the last emission since (see
	// emitList, wholeBody).
	stageDriver
	reading                         string
	cleanPass, searchPass, emitPass int
	// by holds, with a trace, the search's rule that brought each root;
	// body is the body searched.
	by   map[*html.Node]*stageRule
	body *html.Node
}

// newExtraction prepares the measurement of a tree of about elems elements.
func newExtraction(elems int) *extraction {
	return &extraction{measures: measures{index: make(map[*html.Node]int32, elems), all: make([]nodeStats, 0, elems)}}
}

// mainBlocks returns the main-content blocks of a parsed document. Attempts
// go from strict to lenient, as long as the result stays short; a run of
// repeated items that dwarfs the article-like text (see itemList.isContent)
// or that the main landmark holds apart from it (see listInLandmark)
// replaces it, whatever its length; a page that shows next to nothing is
// read again with the elements it hides by markup; a page without an
// article-like body yields the text of its whole body. page says what the
// page declares itself to be (its reviews and posts fields); each attempt
// cleans with it. The steps are pageSteps, taken in order until one
// gives the text.
func mainBlocks(doc *html.Node, elems int, page cleaner, reparse func() *html.Node) []string {
	strict := page
	strict.byHints = true
	o := &readings{page: page, elems: elems, reparse: reparse, doc: doc}
	o.strict, o.xs = findMain(doc, elems, strict)
	o.best, o.bx, o.x, o.tree = o.strict, o.xs, o.xs, doc
	// Decisions weigh the article-like text: a listing inside the chosen
	// root (see markLists) comes along with it but is no article.
	o.retry = o.strict.articleLen() < lenientReadingLimits.retryChars
	// Steps other than list's find a listing too, and read it as the
	// content only when list-content is on.
	o.listOn = page.on(&ruleListContent)
	for _, s := range pageSteps {
		if !page.on(s.rule) {
			continue
		}
		if out, ok := s.step(o); ok {
			return out
		}
	}
	o.bx.settleReading(o.best.articleLen())
	return o.best.text()
}

// readings are the page's readings as far as mainBlocks took them.
type readings struct {
	page    cleaner
	elems   int
	reparse func() *html.Node
	doc     *html.Node
	// strict is the strict reading's text, and xs its search.
	strict found
	xs     *extraction
	// best is the longest text so far, and bx the search it comes from;
	// x is the last reading's search, of tree.
	best  found
	bx, x *extraction
	tree  *html.Node
	// retry is set when the strict reading found less than retryChars.
	retry bool
	// listOn is set when Options.Off did not turn list-content off.
	listOn bool
}

// pageStep is a step of the page's outcome and its rule: the step
// returns the page's text, and true, when it decides.
type pageStep struct {
	rule *stageRule
	step func(o *readings) ([]string, bool)
}

// pageSteps are the steps of mainBlocks, in order; a step whose rule
// Options.Off turned off is not taken.
var pageSteps = []pageStep{
	{&ruleLenientReading, (*readings).lenient},
	{&ruleListContent, (*readings).list},
	{&ruleStrictReading, (*readings).enough},
	{&ruleShownReading, (*readings).shown},
	{&ruleWholeBody, (*readings).wholeBody},
}

// lenient reads the page again without class hints when the strict
// reading found little: a short result may mean that the strict cleaning
// removed part of the content (a wrapper with a misleading class). It
// reads a fresh tree and keeps the longer result. It decides when the
// strict reading found a listing that stays the content.
func (o *readings) lenient() ([]string, bool) {
	if !o.retry {
		return nil, false
	}
	strictList := o.xs.listContainer(findBody(o.doc))
	clone := o.reparse()
	lenient, xl := findMain(clone, o.elems, o.page)
	if lenient.articleLen() > o.best.articleLen() {
		o.best, o.bx = lenient, xl
	}
	o.x, o.tree = xl, clone
	// The strict reading found a listing of many items; the lenient
	// one found some text the hints had removed (a cookie notice, a
	// footer) and no listing: unless that text dwarfs the items, the
	// listing stays the content.
	strictLen := o.strict.articleLen()
	if o.best.articleLen() <= strictLen || !strictList.keepsOver(strictLen, o.best.articleLen()) || !o.listOn {
		return nil, false
	}
	if list := xl.listContainer(findBody(clone)); list.isContent(o.best.articleLen()) || xl.listInLandmark(list) {
		return nil, false
	}
	items := o.xs.emitList(strictList.node, strictList.items)
	if textLen(items) <= strictLen {
		return nil, false
	}
	out := withList(o.strict.article(), items)
	o.xs.settleList(o.xs, strictList, strictLen, len(out) > len(items), o.doc)
	return out, true
}

// list reads a long run of repeated items beside little article-like
// text (a listing, a collection, a schedule), or inside the main landmark
// while the text is outside it, as the content.
func (o *readings) list() ([]string, bool) {
	x, tree := o.x, o.tree
	list := x.listContainer(findBody(tree))
	if !list.isContent(o.best.articleLen()) && !x.listInLandmark(list) {
		return nil, false
	}
	items := x.emitList(list.node, list.items)
	if textLen(items) <= o.best.articleLen() {
		return nil, false
	}
	out := withList(o.best.article(), items)
	var prose []*html.Node
	if len(out) == len(items) {
		out, prose = x.withProse(list.node, findBody(tree), items)
	}
	x.settleList(o.bx, list, o.best.articleLen(), len(prose) == 0 && len(out) > len(items), tree, prose...)
	return out, true
}

// enough takes the best reading's text when it is long enough, or when
// the strict reading's was.
func (o *readings) enough() ([]string, bool) {
	if o.best.articleLen() < shownReadingLimits.minContentChars && o.retry {
		return nil, false
	}
	o.bx.settleReading(o.best.articleLen())
	return o.best.text(), true
}

// shown reads the page with its hidden parts: next to nothing is
// visible, and a page whose scripts reveal the content hides it by
// markup until they run.
func (o *readings) shown() ([]string, bool) {
	shownCleaner := o.page
	shownCleaner.byHints = true
	shownCleaner.shown = true
	hidden := o.reparse()
	shown, xh := findMain(hidden, o.elems, shownCleaner)
	// Hidden parts of one shape (cards a script puts in place) are a list
	// when the visible page holds next to nothing.
	visible := 0
	if st := o.x.stat(findBody(o.tree)); st != nil {
		visible = st.text
	}
	if list := xh.listContainer(findBody(hidden)); visible < shownReadingLimits.minContentChars && list.isContent(shown.articleLen()) && o.listOn {
		if items := xh.emitList(list.node, list.items); textLen(items) > shown.articleLen() && textLen(items) >= shownReadingLimits.minContentChars {
			out := withList(shown.article(), items)
			xh.settleList(xh, list, shown.articleLen(), len(out) > len(items), hidden)
			return out, true
		}
	}
	// As above, the article-like text decides: hidden cards (a gallery's
	// slides) are no reason to drop the visible page.
	if shown.articleLen() < shownReadingLimits.minContentChars {
		return nil, false
	}
	xh.settleReading(shown.articleLen())
	return shown.text(), true
}

// wholeBody takes the whole body of the last reading's tree, which its
// search measured, when it holds more text than the best reading, or
// every block of it when the best reading found none (nothing but links:
// a list page, a site map).
func (o *readings) wholeBody() ([]string, bool) {
	whole := o.x.wholeBody(o.tree, false)
	if textLen(whole) <= textLen(o.best.text()) {
		if len(o.best) > 0 {
			return nil, false
		}
		whole = o.x.wholeBody(o.tree, true)
	}
	o.x.settleWhole(o.tree, textLen(whole))
	return whole, true
}

// withProse returns items, the blocks of list read as content, between
// the paragraphs of running text just before and just after the list
// inside its ancestors (see withLead, withTrail): an index's
// introduction, which the article search left out with the links around
// it. It also returns those paragraphs.
func (x *extraction) withProse(list, body *html.Node, items []string) ([]string, []*html.Node) {
	roots := x.withTrail(x.withLead([]*html.Node{list}, body), body)
	if len(roots) == 1 {
		return items, nil
	}
	var out []string
	var prose []*html.Node
	for _, r := range roots {
		if r == list {
			out = append(out, items...)
			continue
		}
		prose = append(prose, r)
		out = append(out, x.emit([]*html.Node{r}, false)...)
	}
	return out, prose
}

// settleReading ends a trace of the page's readings with the text x's
// search found, of articleChars characters outside listings.
func (x *extraction) settleReading(articleChars int) {
	if x.trace == nil {
		return
	}
	r := &ruleStrictReading
	switch x.reading {
	case "lenient":
		r = &ruleLenientReading
	case "shown":
		r = &ruleShownReading
	}
	x.trace.settle(r, x.root(), []limit{{"articleChars", articleChars}}, x.cleanPass, x.searchPass)
}

// settleWhole ends a trace with the whole body of tree, emitted by x
// (see wholeBody), of chars characters.
func (x *extraction) settleWhole(tree *html.Node, chars int) {
	x.trace.settle(&ruleWholeBody, findBody(tree), []limit{{"chars", chars}}, x.cleanPass, x.emitPass)
}

// settleList ends a trace with list, read by x (see emitList) as the
// content of tree, after the text of bx's search when withArticle (of
// articleChars characters) or beside the paragraphs prose (see
// withProse): the blocks outside them are recorded as left out.
func (x *extraction) settleList(bx *extraction, list itemList, articleChars int, withArticle bool, tree *html.Node, prose ...*html.Node) {
	if x.trace == nil {
		return
	}
	passes := []int{x.cleanPass, x.emitPass}
	kept := append([]*html.Node{list.node}, prose...)
	if withArticle {
		passes = append(passes, bx.cleanPass, bx.searchPass)
		if bx == x {
			kept = append(kept, x.roots...)
		}
	}
	x.trace.begin(x.reading)
	x.traceOutside(&ruleOutsideList, findBody(tree), kept)
	passes = append(passes, x.trace.pass)
	x.trace.settle(&ruleListContent, list.node, []limit{{"items", list.items}, {"cards", list.cards}, {"itemChars", list.text}, {"articleChars", articleChars}}, passes...)
}

// root is the first root x's search chose, or the body when it chose
// none.
func (x *extraction) root() *html.Node {
	if len(x.roots) == 0 {
		return x.body
	}
	return x.roots[0]
}

// found is the emission of the chosen roots.
type found []block

// text returns the found blocks' text.
func (f found) text() []string { return texts(f) }

// article returns the text of the found blocks outside listings.
func (f found) article() []string {
	var out []string
	for _, b := range f {
		if !b.listed {
			out = append(out, b.text)
		}
	}
	return out
}

// articleLen is the length of article().
func (f found) articleLen() int {
	n := 0
	for _, b := range f {
		if !b.listed {
			n += utf8.RuneCountInString(b.text)
		}
	}
	return n
}

func textLen(blocks []string) int {
	n := 0
	for _, b := range blocks {
		n += utf8.RuneCountInString(b)
	}
	return n
}

// findMain cleans doc with c (whose keep it sets), scores its containers
// and emits the best one with its related siblings. elems, the number of
// elements of doc, sizes the measurements. It also returns the
// measurements of the cleaned body.
func findMain(doc *html.Node, elems int, c cleaner) (found, *extraction) {
	x := newExtraction(elems)
	x.trace, x.reading = c.trace, c.readingName()
	x.cleanPass = c.trace.begin(x.reading)
	body := findBody(doc)
	c.keep = wrappersOfMostText(body)
	c.quiet = map[*html.Node]bool{}
	c.appeal = map[*html.Node]bool{}
	c.clean(body, 0, false)
	x.searchPass = x.trace.begin(x.reading)
	x.body = body
	x.posts = c.posts
	x.off = c.off
	x.article = c.article
	x.quiet = c.quiet
	x.appeal = c.appeal
	x.measure(body, false, 0)
	x.score(body, 0)
	top := x.topCandidate(body)
	if top == nil {
		x.trace.recordRule(&ruleMainBody, body, 0)
		return x.emitBlocks([]*html.Node{body}, false), x
	}
	x.search(top, body, c.byHints)
	x.markLists(x.roots)
	mark := x.trace.size()
	blocks := x.emitBlocks(x.roots, false)
	if c.byHints && x.holdBest(found(blocks).articleLen()) {
		// The first emission's decisions are superseded.
		x.trace.truncate(mark)
		blocks = x.emitBlocks(x.roots, false)
	}
	x.traceSearch(body)
	x.lists = nil
	x.holders = nil
	return blocks, x
}

// searchRules are the search's steps after main-top, in the order they
// are taken: each widens the roots the one before chose.
var searchRules = []*stageRule{&ruleMainProseRun, &ruleMainSibling, &ruleMainLead, &ruleMainTrail, &ruleMainLandmark, &ruleMainPart, &ruleMainSections}

// search sets x.roots to the containers of the main content under body:
// top, the best container, widened by each step of searchRules in turn
// but those Options.Off turned off (their roots pass unchanged) and, in a
// reading without hints (byHints false), those that read them.
func (x *extraction) search(top, body *html.Node, byHints bool) {
	x.roots = x.credit(&ruleMainTop, []*html.Node{top})
	for _, r := range searchRules {
		if x.on(r) && (byHints || !r.hints) {
			x.roots = x.credit(r, r.widen(x, x.roots, body))
		}
	}
}

// wholeBody emits every block of the body x measured (after cleaning), with
// the boilerplate filters of emission unless keepAll.
func (x *extraction) wholeBody(doc *html.Node, keepAll bool) []string {
	x.emitPass = x.trace.begin(x.reading)
	return x.emit([]*html.Node{findBody(doc)}, keepAll)
}

func findBody(doc *html.Node) *html.Node {
	var find func(n *html.Node, depth int) *html.Node
	find = func(n *html.Node, depth int) *html.Node {
		if n.Type == html.ElementNode && n.Data == "body" {
			return n
		}
		if depth > 3 {
			return nil
		}
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if b := find(c, depth+1); b != nil {
				return b
			}
		}
		return nil
	}
	if b := find(doc, 0); b != nil {
		return b
	}
	return doc
}

// removedMark is the tag of the empty element clean leaves in place of
// removed furniture. It cannot clash with a parsed tag (those are never
// upper case).
const removedMark = "REMOVED"

// emptyMarkAttr marks a removedMark left for furniture without text.
const emptyMarkAttr = "empty"

// cleaner removes what is never main content (see clean).
type cleaner struct {
	// byHints enables removal by class, id and role hints.
	byHints bool
	// reviews enables removal of customer reviews, fine print, offers of
	// other products and badges (on a product page, see isProductPage and
	// isProductFurniture).
	reviews bool
	// cards enables removal of runs of cards for other products (on a
	// page describing one product with its description, see isCardRun).
	cards bool
	// shown keeps the elements hidden by markup.
	shown bool
	// posts reads class and id names of comments and replies as posts of
	// the content, not as furniture (on a discussion thread, see
	// isThreadPage).
	posts bool
	// keep holds wrappers of most of the page that stay whatever their
	// hints or hiding say (see wrappersOfMostText).
	keep map[*html.Node]bool
	// quiet collects the headlines clean keeps despite a furniture hint
	// (see isHeadline).
	quiet map[*html.Node]bool
	// controlled holds the ids that an aria-controls of the page names
	// (see controlledIDs).
	controlled map[string]bool
	// author is the declared author of a page that declares an article,
	// lowercased (empty otherwise): a box naming them is about the
	// author (see isAuthorBox).
	author string
	// appeal collects the containers close around a call to action (see
	// markAppeal).
	appeal map[*html.Node]bool
	// article is set when the page declares itself an article.
	article bool
	// rules is the table the cleaner asks (see decide); nil means
	// cleanRules, the whole of it.
	rules []rule
	// stageDriver's trace, when not nil, records the table's decisions;
	// it runs the page's rules, and hands its trace and the stage rules
	// turned off to the search and emission after the cleaning.
	stageDriver
	// removed, when not nil, logs what clean takes out (see Result.Tree).
	removed *[]removal
}

// isDisclosure reports whether n is a hidden panel of text that a control
// of the page opens: an element whose id an aria-controls attribute names
// (an accordion's answer, a collapsed section, a tab) or whose class names
// it collapsed (namesCollapsed), holding text rather
// than links, as a tab panel does (see isTabPanel). The page shows each
// panel on a click; together they are part of the content (the questions
// and answers of a service page). The text is running text in paragraphs
// or in blocks of bare text (an answer written without a <p>). Menus that
// a button opens are links and stay hidden.
func (cl cleaner) isDisclosure(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	if !isHidden(n) || !cl.namesPanel(n) && !namesCollapsed(n) {
		return false
	}
	text, link := textAndLinks(n)
	return text > 0 && panelButtonLimits.panelLinkParts*link < text && (isPanelText(n) || hasTag(n, "pre", 0))
}

// isPanelText reports whether panel n holds running text: in paragraphs
// or blocks of text (see hasProse, hasRunningText), or as its own bare
// text (an answer written straight into the panel).
func isPanelText(n *html.Node) bool {
	return hasProse(n, 0) || hasRunningText(n, 0) || !hasBlockChild(n) && isProse(n)
}

// namesCollapsed reports whether element n's class or id names a
// collapsed panel: a "collapse" (collapsible, collapsed) or an "expander"
// (the rest of a description behind "Read more"). Such a panel holding
// running text is part of the content the page shows on a click, whether
// or not a control names it by aria-controls.
func namesCollapsed(n *html.Node) bool {
	h := hintText(n)
	return strings.Contains(h, "expander") || strings.Contains(h, "collapse")
}

// namesPanel reports whether an aria-controls of the page names n, or an
// element that n wraps alone (its only element child, within
// hiddenLimits.panelWrapDepth levels).
func (cl cleaner) namesPanel(n *html.Node) bool {
	for range hiddenLimits.panelWrapDepth + 1 {
		if id := attr(n, "id"); id != "" && cl.controlled[id] {
			return true
		}
		var only *html.Node
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type == html.ElementNode {
				if only != nil {
					return false
				}
				only = c
			} else if c.Type == html.TextNode && strings.TrimSpace(c.Data) != "" {
				return false
			}
		}
		if only == nil {
			return false
		}
		n = only
	}
	return false
}

// controlledIDs returns the ids named by the aria-controls attributes of
// the elements under doc (each may name several, space-separated), or nil
// when there are none. One pre-order walk.
func controlledIDs(doc *html.Node) map[string]bool {
	var ids map[string]bool
	for c := doc; c != nil; c = htmlwalk.Next(c, doc) {
		if c.Type == html.ElementNode {
			if v := attr(c, "aria-controls"); v != "" && len(v) <= maxControlsLen {
				if ids == nil {
					ids = map[string]bool{}
				}
				for _, f := range strings.Fields(v) {
					ids[f] = true
				}
			}
		}
	}
	return ids
}

// maxControlsLen bounds the aria-controls value controlledIDs reads: a
// control names one panel or a few.
const maxControlsLen = 1024

// clean removes what is never main content: non-content elements, hidden
// elements, comments, navigation and asides, (byHints) elements whose
// class, id or role names page furniture, and (reviews) elements whose
// class or id names reviews; on a thread (posts), the user panels beside
// the posts (see isShortPairs). Tables of contents go too: an outermost
// list (not inList) is tested once, so the test stays linear.
func (cl cleaner) clean(n *html.Node, depth int, inList bool) {
	for c := n.FirstChild; c != nil; {
		next := c.NextSibling
		v := visit{n: c, depth: depth, inList: inList, kept: cl.keep[c]}
		v.list = c.Type == html.ElementNode && (c.Data == "ul" || c.Data == "ol")
		kept, list := v.kept, v.list
		var r *rule
		if depth > maxDepth {
			// Deeper than any walk of the extractor reads: a bound, not
			// a judgement of the node.
			r = &depthBound
			cl.trace.record(stageClean, r.name, r.action.String(), nil, c)
		} else {
			r = cl.decide(&v)
		}
		if r != nil && r.action == dropUnmarked {
			// Stickers and fine print sit beside the product's name and
			// description: no mark is left, so no title goes with them.
			cl.remove(n, c, nil)
			c = next
			continue
		}
		if r != nil && r.action == drop {
			if cl.appeal != nil && c.Type == html.ElementNode && c.Data == "form" && holdsEmailField(c, 0) {
				markAppeal(n, cl.appeal)
			}
			if c.Type == html.ElementNode && !dropTags[c.Data] {
				// Leave a mark where furniture was, so that a title
				// introducing it can be dropped too.
				mark := &html.Node{Type: html.ElementNode, Data: removedMark}
				if visibleChars(c, 1, 0) == 0 {
					// An empty slot: an advertisement's place, or a
					// box a script fills (see emitter.slot).
					mark.Attr = []html.Attribute{{Key: emptyMarkAttr}}
				}
				n.InsertBefore(mark, c)
				cl.remove(n, c, mark)
			} else {
				cl.remove(n, c, nil)
			}
		} else if c.Type == html.ElementNode {
			if cl.byHints && cl.quiet != nil && !kept && furnitureHint(c, cl.posts) == 1 && countParagraphs(c, furnitureWeakLimits.furnitureParas, 0) < furnitureWeakLimits.furnitureParas &&
				!(isBuilderBlock(c) && hasProse(c, 0)) && isHeadline(c) {
				cl.quiet[c] = true
			}
			if cl.byHints && (c.Data == "pre" || c.Data == "code") {
				// Class names inside code are a highlighter's tokens
				// ("comment", "tag", "meta"), not page furniture.
				inner := cl
				inner.byHints = false
				inner.clean(c, depth+1, inList || list)
			} else {
				cl.clean(c, depth+1, inList || list)
			}
		}
		c = next
	}
}

// markAppeal marks n, the parent of a call to action (a sign-up form, see
// holdsEmailField), and its ancestors up to appealLevels of them (see
// appealLimits)
// below <body>: one of them may be the box of an appeal (see
// extraction.isAppeal).
func markAppeal(n *html.Node, appeal map[*html.Node]bool) {
	for i := 0; i < appealLimits.appealLevels && n != nil && n.Type == html.ElementNode && n.Data != "body"; i++ {
		appeal[n] = true
		n = n.Parent
	}
}

// holdsEmailField reports whether form n holds a field for an email
// address: a sign-up form (a newsletter, a waiting list), not a search box
// or an order form.
func holdsEmailField(n *html.Node, depth int) bool {
	for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.Data == "input" && strings.EqualFold(strings.TrimSpace(attr(c, "type")), "email") {
			return true
		}
		if holdsEmailField(c, depth+1) {
			return true
		}
	}
	return false
}

// isReviews reports whether element n's class or id names customer
// reviews ("reviews", "customer-review", "pdp-reviews-section"; not
// "preview") or their ratings ("rating", "star-rating", "product_ratings";
// not "operating").
func isReviews(n *html.Node) bool {
	if n.Type != html.ElementNode {
		return false
	}
	for _, name := range strings.Fields(hintText(n)) {
		if i := strings.Index(name, "review"); i >= 0 && (i == 0 || name[i-1] != 'p') {
			return true
		}
		if i := strings.Index(name, "rating"); i >= 0 && (i == 0 || name[i-1] < 'a' || name[i-1] > 'z') {
			// A rating's stars and counts, not "operating" or "decorating".
			return true
		}
	}
	return false
}

// isDateline reports whether n is a short line (a <p>, <div> or <span>)
// whose text is mostly in a <time>: the date an article was published or
// updated, with a word or two around it.
func isDateline(n *html.Node) bool {
	if n.Data != "p" && n.Data != "div" && n.Data != "span" {
		return false
	}
	total := visibleChars(n, datelineLimits.datelineChars, 0)
	if total == 0 || total >= datelineLimits.datelineChars {
		return false
	}
	timed, seen := 0, 0
	for c := n.FirstChild; c != nil; c = htmlwalk.Next(c, n) {
		if seen++; seen > datelineLimits.datelineNodes {
			return false
		}
		if c.Type == html.ElementNode && c.Data == "time" {
			timed += visibleChars(c, datelineLimits.datelineChars, 0)
		}
	}
	return 2*timed >= total
}

// isSectionHead reports whether n, a <header> or a block with a weak
// furniture hint ("section-header"), heads a section of the page rather
// than the page: it lies inside <main> or a <section> (not inside an
// <article>, whose header holds its byline), holds a heading and text
// beside it, and no links (the page's banner holds its name and menu).
func isSectionHead(n *html.Node) bool {
	inside := false
	for p := n.Parent; p != nil && p.Type == html.ElementNode && p.Data != "body"; p = p.Parent {
		switch p.Data {
		case "article":
			return false
		case "main", "section":
			inside = true
		}
	}
	return inside && isSectionHeader(n)
}

// isSectionHeader reports whether n holds a heading and, beside it, at
// least proseChars characters of text, none of them in links, within
// sectionHeaderNodes nodes (see pageHeaderLimits): the header of one section of the page (its
// title and introduction) that the page names like its own header
// ("section-header", "pageblock__subheader"). The page's header holds
// links (the site's name, its menu).
func isSectionHeader(n *html.Node) bool {
	seen, head, other := 0, 0, 0
	linked := false
	var walk func(n *html.Node, inHead bool, depth int) bool
	walk = func(n *html.Node, inHead bool, depth int) bool {
		for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
			if seen++; seen > pageHeaderLimits.sectionHeaderNodes {
				return false
			}
			switch c.Type {
			case html.TextNode:
				t, _ := runLen(c.Data)
				if inHead {
					head += t
				} else {
					other += t
				}
			case html.ElementNode:
				if dropTags[c.Data] {
					continue
				}
				if isAnchor(c) && visibleChars(c, 1, 0) > 0 {
					linked = true
					return false
				}
				if !walk(c, inHead || headingTags[c.Data], depth+1) {
					return false
				}
			}
		}
		return true
	}
	return walk(n, false, 0) && !linked && head > 0 && other >= mainLeadLimits.proseChars
}

// isWholeEntry reports whether header n holds all the text of the
// <article> it heads: a teaser (a title, a summary, a byline) in a list of
// posts is an article made of its header alone, and is content.
func isWholeEntry(n *html.Node) bool {
	if n.Parent == nil || n.Parent.Type != html.ElementNode || n.Parent.Data != "article" {
		return false
	}
	for c := n.Parent.FirstChild; c != nil; c = c.NextSibling {
		if c == n {
			continue
		}
		switch c.Type {
		case html.TextNode:
			if t, _ := runLen(c.Data); t > 0 {
				return false
			}
		case html.ElementNode:
			if !dropTags[c.Data] && visibleChars(c, 1, 0) > 0 {
				return false
			}
		}
	}
	return true
}

// isHeadline reports whether n holds the page's headline (an <h1>) with
// running text and no other heading: a title and its introduction that the
// page wraps in a block named like furniture ("page-header",
// "hero-banner"), not a wrapper of the page's sections.
func isHeadline(n *html.Node) bool {
	h1, other := headings(n, 0)
	return h1 && !other && hasProse(n, 0)
}

// headings reports whether n holds an <h1> and whether it holds a heading
// of another rank.
func headings(n *html.Node, depth int) (h1, other bool) {
	for c := n.FirstChild; c != nil && depth < maxDepth && !other; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		switch {
		case c.Data == "h1":
			h1 = true
		case headingTags[c.Data]:
			other = true
		default:
			a, b := headings(c, depth+1)
			h1, other = h1 || a, other || b
		}
	}
	return h1, other
}

// holdsHeading reports whether n holds a heading.
func holdsHeading(n *html.Node, depth int) bool {
	for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
		if c.Type == html.ElementNode && (headingTags[c.Data] || holdsHeading(c, depth+1)) {
			return true
		}
	}
	return false
}

// isTableOfContents reports whether list n is a table of contents of the
// page itself: at least tocMinLinks links, all of them to a place in the
// page ("#usage"), holding nearly all of the list's text.
func isTableOfContents(n *html.Node) bool {
	links, text, linked := 0, 0, 0
	other := false
	walkText(n, isAnchor, func(c *html.Node, inLink bool) bool {
		switch {
		case c.Type == html.TextNode:
			t, _ := runLen(c.Data)
			text += t
			if inLink {
				linked += t
			}
		case c.Type == html.ElementNode && c.Data == "a":
			if !inPageLink(attr(c, "href")) {
				other = true
				return false
			}
			links++
		}
		return true
	})
	return !other && links >= tocLimits.tocMinLinks && linked*tocLimits.tocLinkedShare >= text*(tocLimits.tocLinkedShare-1)
}

// inPageLink reports whether href points to a place in the page itself: a
// fragment, not an empty one nor a script route ("#", "#!/", "#/").
func inPageLink(href string) bool {
	href = strings.TrimSpace(href)
	return len(href) > 1 && href[0] == '#' && href[1] != '!' && href[1] != '/'
}

// isTabPanel reports whether n is a tab panel (role="tabpanel") of text
// rather than links: the page hides all but one until clicked, yet each
// is part of the content (a product's description, its specifications, a
// code sample in another language). Panels of links (recent posts,
// popular tags) stay hidden.
func isTabPanel(n *html.Node) bool {
	if !isTabPanelRole(n) {
		return false
	}
	text, link := textAndLinks(n)
	return text > 0 && panelButtonLimits.panelLinkParts*link < text && (hasProse(n, 0) || hasTag(n, "pre", 0))
}

// isTabPanelRole reports whether n has role="tabpanel".
func isTabPanelRole(n *html.Node) bool {
	return strings.EqualFold(strings.TrimSpace(attr(n, "role")), "tabpanel")
}

// hasTag reports whether n has a descendant element with tag.
func hasTag(n *html.Node, tag string, depth int) bool {
	for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
		if c.Type == html.ElementNode && (c.Data == tag || hasTag(c, tag, depth+1)) {
			return true
		}
	}
	return false
}

// wrappersOfMostText returns the elements under body that hold the
// page's headline or article element and at least half of its text, yet
// that cleaning would remove with the content inside: those whose class
// or id names furniture or reviews (a "sticky-sidebar" layout around the
// whole article, a review of a product; half of the visible text), and
// those hidden by markup (a page
// that a script reveals once it has loaded; half of all the text, hidden
// or not). A long comment thread holds no headline and stays removable.
// A <form> around at least half of the visible text stays too, headline or
// not (forum software wraps the posts of a thread in one); clean keeps it
// whatever its paragraphs. One post-order pass.
func wrappersOfMostText(body *html.Node) map[*html.Node]bool {
	type wrapper struct {
		n      *html.Node
		text   int
		hidden bool
	}
	var found []wrapper
	// walk returns the visible text of n, all of its text (hidden or
	// not) and whether it holds a headline.
	var walk func(n *html.Node, hidden bool, depth int) (text, all int, head bool)
	walk = func(n *html.Node, hidden bool, depth int) (text, all int, head bool) {
		for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				t, _ := runLen(c.Data)
				all += t
				if !hidden {
					text += t
				}
			case html.ElementNode:
				if dropTags[c.Data] {
					continue
				}
				hid := !hidden && isHidden(c)
				t, a, h := walk(c, hidden || hid, depth+1)
				h = h || c.Data == "h1" || c.Data == "article" || c.Data == "main"
				text += t
				all += a
				// A hidden headline heads its hidden wrapper only.
				head = head || h && !hid
				switch {
				case c.Data == "form" && !hidden && !hid:
					// A form around most of the page (forum software
					// wraps a thread's posts in one for moderation)
					// needs no headline: a form of the page's own
					// furniture never holds half of its text.
					found = append(found, wrapper{c, t, false})
				case !h:
				case hid:
					found = append(found, wrapper{c, a, true})
				case !hidden && (boilerplateHint(c) > 0 || isReviews(c)):
					found = append(found, wrapper{c, t, false})
				}
			}
		}
		return text, all, head
	}
	total, all, _ := walk(body, false, 0)
	var keep map[*html.Node]bool
	for _, f := range found {
		of := total
		if f.hidden {
			of = all
		}
		if of > 0 && 2*f.text >= of {
			if keep == nil {
				keep = map[*html.Node]bool{}
			}
			keep[f.n] = true
		}
	}
	return keep
}

// visibleChars counts the non-space characters of n's text, stopping at
// limit: the count is exact below limit and at least limit otherwise.
func visibleChars(n *html.Node, limit, depth int) int {
	count := 0
	for c := n.FirstChild; c != nil && count < limit && depth < maxDepth; c = c.NextSibling {
		switch c.Type {
		case html.TextNode:
			count += visibleRunes(c.Data, limit-count)
		case html.ElementNode:
			if !dropTags[c.Data] {
				count += visibleChars(c, limit-count, depth+1)
			}
		}
	}
	return count
}

// hasProse reports whether n holds a paragraph of running text: at least
// proseChars characters, few of them in links, ending like a sentence.
func hasProse(n *html.Node, depth int) bool {
	for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
		if c.Type != html.ElementNode || dropTags[c.Data] {
			continue
		}
		if c.Data == "p" {
			if isProse(c) {
				return true
			}
			continue
		}
		if hasProse(c, depth+1) {
			return true
		}
	}
	return false
}

// isHeadedStandfirst reports whether n is a <header>, not hidden, that
// holds an article's standfirst: a <p> or a subheading (h2-h6 below
// another heading, the title; a card's header holds its title alone) of at
// least proseChars characters, none of them in links (a summary line, not
// a byline or a disclosure ending in "Learn more"), with or without a
// sentence end (a summary line often has none). On a page that declares
// an article such a header stays for the lead step to find (see
// withLead).
func isHeadedStandfirst(n *html.Node) bool {
	if n.Type != html.ElementNode || n.Data != "header" || isHidden(n) {
		return false
	}
	found, titled := false, false
	walkText(n, isAnchor, func(c *html.Node, _ bool) bool {
		if c.Type != html.ElementNode {
			return true
		}
		if c.Data == "p" || titled && subheadTags[c.Data] {
			text, link := textAndLinks(c)
			found = text >= mainLeadLimits.proseChars && link == 0
		}
		titled = titled || headingTags[c.Data]
		return !found
	})
	return found
}

// hasRunningText is hasProse, also reading as a paragraph a <div> of
// text without blocks inside (page builders write a quote, a
// testimonial, a feature's description so) and a list item written as a
// sentence (a guide's steps).
func hasRunningText(n *html.Node, depth int) bool {
	for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
		if c.Type != html.ElementNode || dropTags[c.Data] {
			continue
		}
		if c.Data == "p" || c.Data == "li" || c.Data == "div" && !hasBlockChild(c) {
			if isProse(c) {
				return true
			}
			continue
		}
		if hasRunningText(c, depth+1) {
			return true
		}
	}
	return false
}

// hasBlockChild reports whether n has a child element that starts a block.
func hasBlockChild(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && blockTags[c.Data] {
			return true
		}
	}
	return false
}

// isProse reports whether paragraph p is running text: at least
// proseChars characters, few of them in links, ending like a sentence.
func isProse(p *html.Node) bool {
	text, link := textAndLinks(p)
	return text >= mainLeadLimits.proseChars && float64(link) < mainLeadLimits.proseLinkShare*float64(text) && endsSentence(p)
}

// textAndLinks counts the visible characters of n's text and those of them
// inside links.
func textAndLinks(n *html.Node) (text, link int) {
	walkText(n, isAnchor, func(c *html.Node, inLink bool) bool {
		if c.Type == html.TextNode {
			t, _ := runLen(c.Data)
			text += t
			if inLink {
				link += t
			}
		}
		return true
	})
	return text, link
}

// walkText visits the nodes under n in document order, at most maxDepth
// deep, without entering dropTags elements: visit sees every node (text,
// element, comment) with whether it lies inside a link, an element that
// opensLink accepts, and the walk ends at the first visit that returns
// false. It is the one text-and-links walk of the checks that weigh how
// much of a block's text is linked.
func walkText(n *html.Node, opensLink func(*html.Node) bool, visit func(c *html.Node, inLink bool) bool) {
	var walk func(n *html.Node, inLink bool, depth int) bool
	walk = func(n *html.Node, inLink bool, depth int) bool {
		for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
			if !visit(c, inLink) {
				return false
			}
			if c.Type == html.ElementNode && !dropTags[c.Data] && !walk(c, inLink || opensLink(c), depth+1) {
				return false
			}
		}
		return true
	}
	walk(n, false, 0)
}

// isAnchor reports whether n is an <a> element, with an href or not.
func isAnchor(n *html.Node) bool { return n.Data == "a" }

// weakParagraphs counts the paragraphs that keep an element with a weak
// furniture hint: on a thread only paragraphs of at least proseChars
// characters count (a notice's short lines beside the posts are no
// text of the thread).
func weakParagraphs(n *html.Node, posts bool) int {
	if !posts {
		return countParagraphs(n, furnitureWeakLimits.furnitureParas, 0)
	}
	return countLongParagraphs(n, furnitureWeakLimits.furnitureParas, 0)
}

// countLongParagraphs counts <p> descendants of n with at least
// proseChars characters, stopping at limit.
func countLongParagraphs(n *html.Node, limit, depth int) int {
	count := 0
	for c := n.FirstChild; c != nil && count < limit && depth < maxDepth; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.Data == "p" {
			if visibleChars(c, mainLeadLimits.proseChars, 0) >= mainLeadLimits.proseChars {
				count++
			}
			continue
		}
		count += countLongParagraphs(c, limit-count, depth+1)
	}
	return count
}

// countParagraphs counts <p> descendants of n with some text, stopping at limit.
func countParagraphs(n *html.Node, limit, depth int) int {
	count := 0
	for c := n.FirstChild; c != nil && count < limit && depth < maxDepth; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.Data == "p" && c.FirstChild != nil {
			count++
			continue
		}
		count += countParagraphs(c, limit-count, depth+1)
	}
	return count
}

// visibleRunes counts the visible characters of s as runLen does,
// stopping at limit: a long text node is not read to its end when only
// whether it reaches limit matters.
func visibleRunes(s string, limit int) int {
	count := 0
	for i := 0; i < len(s) && count < limit; {
		if c := s[i]; c < utf8.RuneSelf {
			// ASCII, most of most pages: no decoding.
			switch c {
			case ' ', '\t', '\n', '\v', '\f', '\r':
			default:
				count++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if !unicode.IsSpace(r) {
			count++
		}
	}
	return count
}

// runLen counts visible characters (non-space runes) and commas of s.
func runLen(s string) (chars, commas int) {
	for i := 0; i < len(s); {
		if c := s[i]; c < utf8.RuneSelf {
			// ASCII, most of most pages: no decoding.
			switch c {
			case ' ', '\t', '\n', '\v', '\f', '\r':
			case ',':
				commas++
				chars++
			default:
				chars++
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		switch {
		case r == ',' || r == '，' || r == '、' || r == '،':
			commas++
			chars++
		case !unicode.IsSpace(r):
			chars++
		}
	}
	return chars, commas
}

// isCitationList reports whether list n is a list of cited works, the
// references under an article: at least citationListMin items, nearly
// all of them (all but one in ten) holding a <cite>.
func isCitationList(n *html.Node) bool {
	items, cited := 0, 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.Data != "li" {
			continue
		}
		items++
		if citesUnlinked(c, false, 0) {
			cited++
		}
	}
	return items >= citationListLimits.citationListMin && 100*cited >= citationListLimits.citedPct*items
}

// citesUnlinked reports whether n holds a <cite> that is not the text
// of a link: a cited work, not a linked title to visit.
func citesUnlinked(n *html.Node, inLink bool, depth int) bool {
	for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.Data == "cite" && !inLink || citesUnlinked(c, inLink || c.Data == "a", depth+1) {
			return true
		}
	}
	return false
}

// isAuthorBox reports whether n is a box about the article's author: a
// short block with a picture, a link to the author's page (rel="author",
// or a path with an "author" segment) or the name of the page's declared
// author (author, lowercased with spaces collapsed; may be empty), and a
// few sentences, not the page's headline, after the article's text. A
// box whose own class or id names an author ("author-bio",
// "entry-author"; not a quote's attribution inside a box) needs only one
// of the picture and the author's link or name, beside a paragraph of
// running text or a sentence outside links (a biography, not a byline);
// on a thread (posts) such names are the posters' panels and do not
// count.
func isAuthorBox(n *html.Node, author string, posts bool) bool {
	if n.Data != "div" && n.Data != "section" {
		return false
	}
	if visibleChars(n, authorBoxLimits.authorBoxChars, 0) >= authorBoxLimits.authorBoxChars || repeatedShape(n) {
		return false
	}
	img, link := false, false
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		for c := n.FirstChild; c != nil && depth < maxDepth && !(img && link); c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			switch c.Data {
			case "img", "picture":
				img = true
			case "a":
				link = link || isAuthorLink(c)
			}
			walk(c, depth+1)
		}
	}
	walk(n, 0)
	declared := func() bool {
		return len(author) >= authorBoxLimits.minAuthorName && strings.Contains(boxText(n), author)
	}
	// A box written without paragraphs: a sentence of text outside links
	// will do.
	sentence := func() bool {
		unlinked, linked := textAndLinks(n)
		return unlinked-linked >= mainLeadLimits.proseChars && strings.ContainsAny(boxText(n), ".!?")
	}
	if !posts && namesAuthor(n) && (img || link || declared()) && (hasProse(n, 0) || sentence()) {
		return !isHeadline(n) && afterProse(n)
	}
	if !img {
		return false
	}
	// On an article's page (author is set) the box may be written
	// without paragraphs.
	if !hasProse(n, 0) && (author == "" || !sentence()) {
		return false
	}
	// Without a link to the author's page, the box names the page's
	// author.
	if !link && !declared() {
		return false
	}
	return !isHeadline(n) && afterProse(n)
}

// namesAuthor reports whether n's class or id holds the word "author".
func namesAuthor(n *html.Node) bool {
	names := hintNames(n)
	for _, name := range names[:2] {
		if len(name) >= len("author") && strings.Contains(strings.ToLower(name), "author") {
			return true
		}
	}
	return false
}

// boxText is the text of n (short: see authorBoxChars), lowercased with
// its spaces collapsed.
func boxText(n *html.Node) string {
	var b strings.Builder
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		for c := n.FirstChild; c != nil && depth < maxDepth && b.Len() < utf8.UTFMax*authorBoxLimits.authorBoxChars; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
				b.WriteByte(' ')
			case c.Type == html.ElementNode && !dropTags[c.Data]:
				walk(c, depth+1)
			}
		}
	}
	walk(n, 0)
	return strings.Join(strings.Fields(strings.ToLower(b.String())), " ")
}

// afterProse reports whether running text comes before n in the page:
// an earlier sibling of n or of one of its nearest ancestors (up to
// afterProseLevels, see authorBoxLimits) holds prose.
// A box before the article's text is its byline and lead, not the note
// about the author that closes it.
func afterProse(n *html.Node) bool {
	for a, up := n, 0; a != nil && up < authorBoxLimits.afterProseLevels; a, up = a.Parent, up+1 {
		for s := a.PrevSibling; s != nil; s = s.PrevSibling {
			if s.Type == html.ElementNode && (s.Data == "p" && isProse(s) || hasProse(s, 0)) {
				return true
			}
		}
	}
	return false
}

// isAuthorLink reports whether link a leads to an author's page.
func isAuthorLink(a *html.Node) bool {
	for _, r := range strings.Fields(strings.ToLower(attr(a, "rel"))) {
		if r == "author" {
			return true
		}
	}
	for _, seg := range strings.Split(hrefPath(a), "/") {
		if seg == "author" || seg == "authors" {
			return true
		}
	}
	return false
}

// hrefPath is link a's address, lower-cased, without its query and
// fragment.
func hrefPath(a *html.Node) string {
	href := strings.ToLower(attr(a, "href"))
	if i := strings.IndexAny(href, "?#"); i >= 0 {
		href = href[:i]
	}
	return href
}

// repeatedShape reports whether n, or an ancestor it is the only element
// of, has an element sibling next to it of the same tag and first class
// word: n is (inside) one of a run of items (cards, posts, list entries).
func repeatedShape(n *html.Node) bool {
	for depth := 0; n != nil && n.Type == html.ElementNode && depth < maxDepth; depth++ {
		if sameShape(n, prevElement(n.PrevSibling, -1)) || sameShape(n, prevElement(n.NextSibling, 1)) {
			return true
		}
		p := n.Parent
		if p == nil || prevElement(p.FirstChild, 1) != n || prevElement(p.LastChild, -1) != n {
			return false
		}
		n = p
	}
	return false
}

// prevElement is the first element from c on, walking back (dir -1) or
// forward (dir 1).
func prevElement(c *html.Node, dir int) *html.Node {
	for c != nil && c.Type != html.ElementNode {
		if dir < 0 {
			c = c.PrevSibling
		} else {
			c = c.NextSibling
		}
	}
	return c
}

// sameShape reports whether elements a and b have one tag and one first
// class word (the component; the names after it are modifiers, such as
// an item's number).
func sameShape(a, b *html.Node) bool {
	if b == nil || a.Data != b.Data {
		return false
	}
	first := func(n *html.Node) string {
		f := strings.Fields(attr(n, "class"))
		if len(f) == 0 {
			return ""
		}
		return f[0]
	}
	return first(a) == first(b)
}

// labelsControl reports whether label n names a form control: it has a
// for attribute, holds an input, select or textarea (within its first
// labelNodes nodes), or comes right before one, or before a button or a
// box that starts with one (a sorting order's "Sort by" beside the menu
// that sets it). A label of a control (a size, a colour, a filter's
// value, the switch of a menu) is part of the page's machinery, not of
// its content; a label naming nothing is often used as a heading.
func labelsControl(n *html.Node) bool {
	if attr(n, "for") != "" || holdsControl(n, false) {
		return true
	}
	next := prevElement(n.NextSibling, 1)
	return next != nil && (controlTags[next.Data] || next.Data == "button" || holdsControl(next, true))
}

// controlTags are the form controls a label names.
var controlTags = setOf("input", "select", "textarea")

// holdsControl reports whether a form control (or, with buttons, a
// button) is among the first labelNodes nodes under n.
func holdsControl(n *html.Node, buttons bool) bool {
	nodes := 0
	for c := htmlwalk.Next(n, n); c != nil && nodes < controlLabelLimits.labelNodes; c = htmlwalk.Next(c, n) {
		nodes++
		if c.Type == html.ElementNode && (controlTags[c.Data] || buttons && c.Data == "button") {
			return true
		}
	}
	return false
}

// isShortPairs reports whether list n is a list of short terms and values
// ("Posts: 9179", "Joined: 2015"): at least two items, each of them a
// fragment rather than a sentence.
func isShortPairs(n *html.Node) bool {
	items := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.Data != "dt" && c.Data != "dd" {
			return false
		}
		if visibleChars(c, threadUserPanelLimits.shortPairChars, 0) >= threadUserPanelLimits.shortPairChars {
			return false
		}
		items++
	}
	return items >= 2
}

// isHeadedSection reports whether n is a <section> holding a heading and
// running text: a headed section of the page that its class names like
// furniture ("banner-bundle", "profile-banner"). A strong furniture word
// softened by a content word ("advertiser-disclosure-body") still marks
// furniture.
func isHeadedSection(n *html.Node) bool {
	if n.Data != "section" || strongInCompound(n) {
		return false
	}
	return holdsHeading(n, 0) && hasProse(n, 0)
}

// opensPanel reports whether button b controls (aria-controls) a panel
// that follows it, as the next element after it or after one of its
// containers up to panelControlLevels above (see panelButtonLimits), and that panel holds running
// text with few links: the button's label is the question an accordion's
// answer replies to, or the title of a collapsed section.
func opensPanel(b *html.Node) bool {
	id := strings.TrimSpace(attr(b, "aria-controls"))
	if id == "" || strings.ContainsAny(id, " \t\n") {
		return false
	}
	a := b
	for range panelButtonLimits.panelControlLevels {
		s := a.NextSibling
		for s != nil && s.Type != html.ElementNode {
			s = s.NextSibling
		}
		if s != nil {
			if attr(s, "id") != id {
				return false
			}
			text, link := textAndLinks(s)
			return text > 0 && panelButtonLimits.panelLinkParts*link < text && isPanelText(s)
		}
		if a.Parent == nil || a.Parent.Type != html.ElementNode {
			return false
		}
		a = a.Parent
	}
	return false
}
