package htmltext

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/internal/htmlwalk"
	"golang.org/x/net/html"
)

// emitter writes the text of chosen subtrees as blocks.
type emitter struct {
	x      *extraction
	blocks []block
	cur    strings.Builder
	chars  int  // visible characters in cur
	links  int  // of which inside links
	level  int  // heading level of cur, 0 for other blocks
	data   bool // cur is a table row or preformatted text
	panels int  // tab panels open around cur
	poster int  // poster links open around the text (see isPosterLink)
	// keepAll turns off the boilerplate filters.
	keepAll bool
	// document is set while writing a document (see documentBlocks):
	// every block is its text, none a web page's furniture.
	document bool
	// listed is set while walking a listing inside a root (see
	// extraction.lists); its blocks are kept by the final filters.
	listed bool
	// whole is set while walking a list read as the page's content (see
	// emitList).
	whole bool
	// broad is set while walking a root that is <body> or a child of it,
	// and rootText is that root's visible text.
	broad    bool
	rootText int
	// lastProse is the last paragraph of running text in the root being
	// walked, found on first need (see cardsInside); lastDone says it was.
	lastProse *html.Node
	lastDone  bool
	// grids holds the runs of link cards found by cardsInside: read like
	// a listing's cards.
	grids map[*html.Node]bool
	// pending is one more than the index of a block that introduced an
	// empty slot, until the next block settles it (see slot); 0 when none.
	pending int
	// at is the element holding the first text of cur.
	at *html.Node
}

// emit returns the blocks of roots in order, skipping boilerplate
// containers and link-dominated blocks unless keepAll is set.
func (x *extraction) emit(roots []*html.Node, keepAll bool) []string {
	return texts(x.emitBlocks(roots, keepAll))
}

// emitBlocks is emit returning the blocks with what is known of them.
func (x *extraction) emitBlocks(roots []*html.Node, keepAll bool) []block {
	e := &emitter{x: x, keepAll: keepAll}
	for _, r := range roots {
		e.broad = r.Data == "body" || r.Parent != nil && r.Parent.Data == "body"
		e.rootText = 0
		e.lastProse, e.lastDone = nil, false
		if st := x.stat(r); st != nil {
			e.rootText = st.text
		}
		e.walk(r, r, false, false, 0)
		e.flush()
		e.settleSlot(false)
	}
	return x.filter(e.blocks, emitFilters, keepAll)
}

// emitFilters are the emission's filters of the blocks written from the
// chosen roots, in the order they run.
var emitFilters = []*stageRule{&ruleItemCopy, &ruleRepeat, &ruleLinkedTitle, &ruleOrphanHeading, &ruleTailFragment, &ruleHeadFragment}

// filter applies the filters of rules in order to blocks (see
// stageDriver.apply), but, when keepAll, those of boilerplate.
func (x *extraction) filter(blocks []block, rules []*stageRule, keepAll bool) []block {
	for _, r := range rules {
		if !keepAll || !r.boilerplate {
			blocks = x.apply(r, blocks, r.filter)
		}
	}
	return blocks
}

// dropRepeats drops a block of at least proseChars characters that repeats
// an earlier block word for word: pages carry second copies of their text
// for other screen sizes (a mobile menu, a duplicated lead, a sticky
// header), which read once. Table rows and preformatted text, where
// repeated lines are data, stay, and so do blocks in tab panels: each
// panel is an alternative read whole (the same step for another
// platform).
func dropRepeats(blocks []block) []block {
	seen := make(map[string]bool, len(blocks))
	out := blocks[:0]
	for _, b := range blocks {
		if !b.data && !b.panel && b.chars >= mainLeadLimits.proseChars {
			if seen[b.text] {
				continue
			}
			seen[b.text] = true
		}
		if len(out) > 0 {
			if p := out[len(out)-1]; truncatedCopy(p, b) {
				if len(b.text) > len(p.text) {
					out[len(out)-1] = b
				}
				continue
			}
		}
		out = append(out, b)
	}
	return out
}

// dropItemCopies drops a short block (under proseChars) that repeats one
// of the itemRepeatWindow blocks before it within one item (see oneItem):
// a card shows its title, author or date twice, once per screen size or
// once as the label of its link, and reads once. Table rows, preformatted
// text and tab panels stay, as in dropRepeats.
func dropItemCopies(blocks []block) []block {
	last := make(map[string]int)
	out := blocks[:0]
	for _, b := range blocks {
		if !b.data && !b.panel && b.chars < mainLeadLimits.proseChars {
			if i, ok := last[b.text]; ok && len(out)-i <= itemCopyLimits.itemRepeatWindow && oneItem(out[i].at, b.at) {
				continue
			}
			last[b.text] = len(out)
		}
		out = append(out, b)
	}
	return out
}

// oneItem reports whether the blocks at elements a and b belong to one
// item: their lowest common ancestor reaches them through children of
// different kinds (tag and first class name, see sameShape), as a card's image link and its title
// do. Copies reached through children of one kind (the cards of a list,
// each stating the same terms) are items of their own.
func oneItem(a, b *html.Node) bool {
	if a == nil || b == nil {
		return false
	}
	da, db := nodeDepth(a), nodeDepth(b)
	for ; da > db; da-- {
		a = a.Parent
	}
	for ; db > da; db-- {
		b = b.Parent
	}
	if a == b {
		// One holds the other: the lines of one element (a song's
		// chorus) repeat by design.
		return false
	}
	for a.Parent != b.Parent {
		a, b = a.Parent, b.Parent
	}
	return !sameShape(a, b) && !inRun(a) && !inRun(b)
}

// nodeDepth is the number of ancestors of n.
func nodeDepth(n *html.Node) int {
	d := 0
	for p := n.Parent; p != nil; p = p.Parent {
		d++
	}
	return d
}

// inRun reports whether an element sibling next to n is of its kind (see
// sameShape): n is one of a run of items.
func inRun(n *html.Node) bool {
	return sameShape(n, prevElement(n.PrevSibling, -1)) || sameShape(n, prevElement(n.NextSibling, 1))
}

// truncatedCopy reports whether one of two neighbouring blocks is the
// other cut short (a caption shown whole and shortened, each ending in its
// "less" or "more" toggle): they share a start of at least proseChars
// bytes that makes up nearly all (nine tenths) of the shorter one.
func truncatedCopy(a, b block) bool {
	if a.data || b.data || a.panel || b.panel {
		return false
	}
	short := min(len(a.text), len(b.text))
	if short < mainLeadLimits.proseChars {
		return false
	}
	k := 0
	for k < short && a.text[k] == b.text[k] {
		k++
	}
	return k >= mainLeadLimits.proseChars && 100*k >= repeatLimits.copyPct*short
}

// emitList returns every block of a list of items cards read as content:
// no filters, and its short items (a name, a price) are not trimmed as
// fragments; only the labels every card repeats are left out (see
// dropLabels).
func (x *extraction) emitList(list *html.Node, items int) []string {
	x.emitPass = x.trace.begin(x.reading)
	e := &emitter{x: x, keepAll: true, whole: true}
	e.walk(list, list, false, false, 0)
	e.flush()
	blocks := x.apply(&ruleItemCopy, e.blocks, ruleItemCopy.filter)
	return texts(x.apply(&ruleCardLabel, blocks, func(b []block) []block { return dropLabels(b, list, items) }))
}

// dropLabels drops the labels of a card's template from a list read as
// content: a short block without digits (see isLabel) that recurs word
// for word in at least half of the list's items (and minListItems), as
// "Vendor:" or "Price" names each card's own value, and so does a short
// link that repeats another link of its card ("Read more", "View details"
// beside the linked title; see linkTargets). A repeated link to a place of
// its own (a brand's page, a variant) is a value and stays.
func dropLabels(blocks []block, list *html.Node, items int) []block {
	count := map[string]int{}
	for _, b := range blocks {
		if isLabel(b) || isLinkLabel(b) {
			count[b.text]++
		}
	}
	least := max(listContentLimits.minListItems, (items+1)/2)
	targets := &linkTargets{list: list}
	out := blocks[:0]
	for _, b := range blocks {
		if count[b.text] >= least && (isLabel(b) || isLinkLabel(b) && targets.twin(b.at)) {
			continue
		}
		out = append(out, b)
	}
	return out
}

// isLinkLabel reports whether b is short, without digits and all link
// text.
func isLinkLabel(b block) bool {
	return !b.data && b.chars > 0 && b.links == b.chars && b.chars <= cardLabelLimits.labelChars && !hasDigit(b.text)
}

// labelNames in a class or id name text kept for screen readers only:
// shown to nobody who sees the page.
var labelNames = substringsOf("visually-hidden", "visuallyhidden", "sr-only", "screen-reader")

// isLabel reports whether b may be the label of a field: short, without
// digits, and a term of a description list, a header cell or a form
// label, or text kept for screen readers (see labelNames) or a button's
// text in its block.
func isLabel(b block) bool {
	if b.data || b.chars > cardLabelLimits.labelChars || hasDigit(b.text) || b.at == nil {
		return false
	}
	switch b.at.Data {
	case "dt", "th", "label":
		return true
	}
	for p := b.at; p != nil && p.Type == html.ElementNode; p = p.Parent {
		if containsAny(hintText(p), labelNames) || isButton(p) {
			return true
		}
		if blockTags[p.Data] {
			break
		}
	}
	return false
}

// isButton reports whether n is a button: a <button> or an element
// whose role says it is one. Its text names what a press does
// ("Compare", "Add to wishlist"), not the card it sits on.
func isButton(n *html.Node) bool {
	return n.Data == "button" || strings.EqualFold(strings.TrimSpace(attr(n, "role")), "button")
}

// elementChildren counts n's element children.
func elementChildren(n *html.Node) int {
	count := 0
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data != removedMark {
			count++
		}
	}
	return count
}

func texts(blocks []block) []string {
	out := make([]string, len(blocks))
	for i, b := range blocks {
		out[i] = b.text
	}
	return out
}

// block is one emitted block of text with what the final filters need.
type block struct {
	text   string
	level  int        // heading level, 0 for other blocks
	data   bool       // a table row or preformatted text
	panel  bool       // inside a tab panel
	listed bool       // inside a listing read as content
	chars  int        // visible characters
	links  int        // of which inside links
	at     *html.Node // the element holding its first text
}

// trimTail drops short trailing fragments that are not sentences (dates,
// credits, "Share:" lines) left after the end of the content proper.
func trimTail(blocks []block) []block {
	for n := 0; n < tailFragmentLimits.tailBlocks && len(blocks) > 1; n++ {
		b := blocks[len(blocks)-1]
		last := b.text
		linked := b.links > 0 && b.chars < tailFragmentLimits.tailLinkedChars
		if !linked && (b.data || utf8.RuneCountInString(last) >= headFragmentLimits.fragmentChars || strings.HasSuffix(last, ".") || strings.HasSuffix(last, "!")) {
			break
		}
		blocks = blocks[:len(blocks)-1]
	}
	return blocks
}

// trimHead drops short fragments that are not sentences (dates, bylines,
// photo credits) between the headings at the start and the first text
// block of the content; headings stay.
func trimHead(blocks []block) []block {
	out := blocks[:0]
	body := false
	for i, b := range blocks {
		if !body && i < headFragmentLimits.headBlocks && b.level == 0 && !b.data && isFragment(b.text) && hasDigit(b.text) && i < len(blocks)-1 {
			continue
		}
		if b.level == 0 {
			body = true
		}
		out = append(out, b)
	}
	return out
}

func hasDigit(s string) bool {
	for _, r := range s {
		if unicode.IsDigit(r) {
			return true
		}
	}
	return false
}

// isFragment reports whether s is a short line that is not a sentence.
func isFragment(s string) bool {
	if utf8.RuneCountInString(s) >= headFragmentLimits.fragmentChars {
		return false
	}
	switch last, _ := utf8.DecodeLastRuneInString(s); last {
	case '.', '!', '?', ':', '"', '”', '»', '“', '«':
		return false
	}
	return true
}

// dropLinkedTitles removes headings made mostly of links that no text of
// their own follows: a linked title is kept as the title of a card or a
// section whose description comes next, and left out as one of a run of
// links (a menu of headings, a list of titles).
func dropLinkedTitles(blocks []block) []block {
	out := blocks[:0]
	for i, b := range blocks {
		if b.level > 0 && b.links*2 > b.chars && !b.listed {
			if i == len(blocks)-1 || blocks[i+1].level > 0 || blocks[i+1].links*2 > blocks[i+1].chars {
				continue
			}
		}
		out = append(out, b)
	}
	return out
}

// dropOrphanHeadings removes headings that introduce nothing: the last
// block, or one followed by a heading of the same or a higher rank. They
// are the titles of removed sections ("Related posts", "Comments").
func dropOrphanHeadings(blocks []block) []block {
	out := blocks[:0]
	for i, b := range blocks {
		if l := b.level; l > 0 {
			if i == len(blocks)-1 || blocks[i+1].level > 0 && blocks[i+1].level <= l {
				continue
			}
		}
		out = append(out, b)
	}
	return out
}

// flush ends the block being written: it joins the blocks unless a rule
// of blockRules drops it.
func (e *emitter) flush() {
	if e.chars > 0 {
		if s := strings.TrimSpace(e.cur.String()); s != "" {
			b := block{text: s, level: e.level, data: e.data, panel: e.panels > 0, listed: e.listed, chars: e.chars, links: e.links, at: e.at}
			if !e.dropsBlock(&b) {
				e.settleSlot(e.level == 0 && e.chars >= mainLeadLimits.proseChars)
				e.blocks = append(e.blocks, b)
			}
		}
	}
	e.data = false
	e.at = nil
	e.cur.Reset()
	e.chars, e.links = 0, 0
}

// blockRules are the emission's rules on a block written, in the order
// they are asked.
var blockRules = []*stageRule{&ruleLinkDenseBlock, &ruleGeneratedIDs}

// dropsBlock reports whether a rule of blockRules drops block b.
func (e *emitter) dropsBlock(b *block) bool {
	for _, r := range blockRules {
		if r.block(e, b) && e.x.dropsBlock(r, b) {
			return true
		}
	}
	return false
}

// containerRules are the emission's rules on a container inside a root,
// in the order they are asked.
var containerRules = []*stageRule{&ruleLinkDenseContainer, &ruleAppeal, &ruleNestedCards, &ruleMarkedFurniture}

// dropsContainer reports whether a rule of containerRules drops container
// n inside a root.
func (e *emitter) dropsContainer(n *html.Node) bool {
	for _, r := range containerRules {
		if r.container(e, n) && e.x.dropsNode(r, n, e.x.scoreOf(n)) {
			return true
		}
	}
	return false
}

// generatedID matches an identifier a program generated (a UUID), which
// no one writes as prose.
// uuidDashes is the number of dashes in a UUID (see generatedID).
const uuidDashes = 4

var generatedID = regexp.MustCompile(`[0-9A-Fa-f]{8}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{4}-[0-9A-Fa-f]{12}`)

// isGeneratedIDs reports whether block s is mostly generated identifiers:
// at least minGeneratedIDs of them, making more than half of its text
// (the scrambled label a page hides letter by letter among random ids, a
// tracking string). A line that quotes one identifier (a command, a path)
// is text. The expression is matched in linear time, and only on blocks
// with dashes enough for it.
func isGeneratedIDs(s string) bool {
	if strings.Count(s, "-") < uuidDashes*generatedIDsLimits.minGeneratedIDs {
		return false
	}
	ids := generatedID.FindAllStringIndex(s, -1)
	if len(ids) < generatedIDsLimits.minGeneratedIDs {
		return false
	}
	in := 0
	for _, m := range ids {
		in += m[1] - m[0]
	}
	return 2*in > len(s)-strings.Count(s, " ")
}

// slot notes an empty slot left out (see emptyMarkAttr) right after a
// block that could introduce it (see introduces): an advertisement's
// place inside the body, after which the body goes on, or a box of
// related links a script fills, after which it does not. Which one it was
// is settled by the next block (see settleSlot).
func (e *emitter) slot() {
	if e.chars > 0 || len(e.blocks) == 0 || !introduces(e.blocks[len(e.blocks)-1]) {
		return
	}
	e.pending = len(e.blocks)
}

// settleSlot settles a pending introduction (see slot) when the next
// block is known, or at the end of a root (prose false): it stays when a
// paragraph of running text follows, as the heading of what follows the
// advertisement's place; otherwise it only introduced the empty box and
// goes.
func (e *emitter) settleSlot(prose bool) {
	if e.pending == 0 {
		return
	}
	if e.pending == len(e.blocks) && !prose {
		e.dropLast(&ruleSlotIntroduction)
	}
	e.pending = 0
}

// dropLast drops the block just emitted, the one rule r matched, unless r
// is off.
func (e *emitter) dropLast(r *stageRule) {
	if e.x.dropsBlock(r, &e.blocks[len(e.blocks)-1]) {
		e.blocks = e.blocks[:len(e.blocks)-1]
	}
}

// introduces reports whether block b may only introduce what follows it:
// a short heading or a short line ending in ':' or '?'.
func introduces(b block) bool {
	if utf8.RuneCountInString(b.text) > introductionLimits.introChars {
		return false
	}
	return b.level > 0 || strings.HasSuffix(b.text, ":") || strings.HasSuffix(b.text, "?")
}

// dropIntroduction drops the block just emitted when it only introduces
// furniture that was left out: a short heading or a short line ending in
// ':' or '?' ("Related articles", "Share this:").
func (e *emitter) dropIntroduction() {
	if e.chars == 0 && len(e.blocks) > 0 && introduces(e.blocks[len(e.blocks)-1]) {
		e.dropLast(&ruleIntroduction)
	}
}

// lastLinked reports whether the block just emitted is mostly link text.
func (e *emitter) lastLinked() bool {
	if len(e.blocks) == 0 {
		return false
	}
	last := e.blocks[len(e.blocks)-1]
	return 2*last.links > last.chars
}

func (e *emitter) write(s string, inLink bool) {
	n := 0
	for _, r := range s {
		if !unicode.IsSpace(r) {
			n++
		}
	}
	e.chars += n
	if inLink && e.poster == 0 {
		e.links += n
	}
	e.cur.WriteString(s)
}

// walk writes the text of n's subtree, under root, as blocks: inLink and
// inPre say whether n is inside a link or preformatted text. A block
// starts and ends at a block element, a line break or a rule (see
// element); a listing inside the root is written as one (see listing);
// a container a rule of containerRules drops is left out (see leftOut).
func (e *emitter) walk(n, root *html.Node, inLink, inPre bool, depth int) {
	if depth > maxDepth {
		return
	}
	switch n.Type {
	case html.TextNode:
		e.text(n, inLink, inPre)
		return
	case html.ElementNode, html.DocumentNode:
	default:
		return
	}
	switch n.Data {
	case "br":
		if inPre {
			e.write("\n", false)
		} else {
			e.flush()
		}
		return
	case "hr":
		e.flush()
		return
	case "img":
		return
	}
	switch {
	case e.x.lists[n] && !e.listed || !e.listed && !e.keepAll && n != root && containerTags[n.Data] && e.cardsInside(n, root):
		e.listing(n, root, inLink, inPre, depth)
	case !e.leftOut(n, root):
		e.element(n, root, inLink, inPre, depth)
	}
}

// text writes text node n.
func (e *emitter) text(n *html.Node, inLink, inPre bool) {
	if e.at == nil && !isBlank(n.Data) {
		e.at = n.Parent
	}
	if inPre {
		e.write(strings.ReplaceAll(n.Data, "\r\n", "\n"), inLink)
	} else {
		e.write(spaceRun(n.Data), inLink)
	}
}

// listing writes n, a listing inside the root: its cards are content,
// without the labels every card repeats (see dropLabels), in blocks of
// their own.
func (e *emitter) listing(n, root *html.Node, inLink, inPre bool, depth int) {
	e.flush()
	start := len(e.blocks)
	e.listed = true
	e.walk(n, root, inLink, inPre, depth)
	e.flush()
	e.listed = false
	if run := e.x.cardRunIn(n); run != nil || e.x.lists[n] {
		if run == nil {
			run = n
		}
		e.blocks = append(e.blocks[:start], e.x.apply(&ruleCardLabel, e.blocks[start:], func(b []block) []block {
			return dropLabels(b, run, elementChildren(run))
		})...)
	}
}

// leftOut reports whether element n, under root, is left out: the mark
// of furniture the cleaning removed, or a container a rule of
// containerRules drops, after which the block that introduced it goes
// too (see dropIntroduction). An empty slot is settled by what follows
// it (see slot).
func (e *emitter) leftOut(n, root *html.Node) bool {
	tag := n.Data
	if tag == removedMark && len(n.Attr) > 0 && !e.keepAll {
		if !e.whole || !e.lastLinked() {
			e.slot()
		}
		return true
	}
	if tag != removedMark && (n == root || e.keepAll || !containerTags[tag] || !e.dropsContainer(n)) {
		return false
	}
	if !e.document && (!e.whole || !e.lastLinked()) {
		// In a list read as the page's content a linked heading is a
		// card's name, whatever the card leaves out after it; in a
		// document, a heading is the document's.
		e.dropIntroduction()
	}
	return true
}

// element writes element n, under root, and its subtree: a block
// element is a block of its own (table cells join their row's), and a
// heading's level, a table row's or preformatted text's being data, a
// tab panel and a poster's link hold while its subtree is written.
func (e *emitter) element(n, root *html.Node, inLink, inPre bool, depth int) {
	tag := n.Data
	block := blockTags[tag] && tag != "td" && tag != "th"
	if block {
		e.flush()
	}
	heading := headingTags[tag]
	if heading {
		e.level = int(tag[1] - '0')
	}
	if tag == "td" || tag == "th" {
		e.cur.WriteByte(' ')
		e.data = true
	}
	if tag == "pre" {
		e.data = true
	}
	panel := isTabPanelRole(n)
	if panel {
		e.panels++
	}
	poster := e.x.posts && tag == "a" && isPosterLink(n)
	if poster {
		// A post's poster and date are the post's, not links away.
		e.poster++
	}
	e.children(n, root, inLink || tag == "a", inPre || preTags[tag], depth)
	if block {
		e.flush()
	}
	if panel {
		e.panels--
	}
	if poster {
		e.poster--
	}
	if heading {
		e.level = 0
	}
}

// preTags are the elements whose text is preformatted.
var preTags = setOf("pre", "listing", "xmp", "plaintext")

// children writes the children of n, under root, but an inline copy for
// screen readers (see ruleTwin).
func (e *emitter) children(n, root *html.Node, inLink, inPre bool, depth int) {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if !inPre && !e.document && isTwin(c) && e.x.dropsNode(&ruleTwin, c, 0) {
			continue
		}
		if (e.listed || e.whole) && !inPre && c.Type == html.ElementNode && c.PrevSibling != nil && c.PrevSibling.Type == html.ElementNode {
			// In a listing, two elements side by side are two fields
			// of a card (a brand and a name, a price and the price it
			// replaces): two words, whatever space the markup leaves.
			// White space is not counted, so no measure changes.
			e.cur.WriteByte(' ')
		}
		e.walk(c, root, inLink, inPre, depth+1)
	}
}

// cardsInside reports whether container n, which the filters would drop
// for its links, is a run of link cards (see isCardRun), not named as
// furniture, that the root's running text continues after: a grid of
// cards between parts of the content (a service page's offerings, each a
// linked title and a sentence) is content, read like a listing, while
// cards after the last paragraph (related posts) stay out. A run of many
// entries (see entryRun) is content wherever it stands.
func (e *emitter) cardsInside(n, root *html.Node) bool {
	if e.x.holders[n] || !e.x.isBoilerplateContainer(n) || contentWeight(n, e.x.posts) < 0 {
		return false
	}
	run := e.x.cardRunIn(n)
	if run == nil {
		return false
	}
	if entryRun(run) && !e.x.article {
		if e.grids == nil {
			e.grids = map[*html.Node]bool{}
		}
		e.grids[run] = true
		return true
	}
	if !e.x.describedCards(run) {
		return false
	}
	if !e.lastDone {
		e.lastDone = true
		e.lastProse = e.x.lastProseIn(root, 0)
	}
	l := e.lastProse
	if l == nil || e.x.index[l] <= e.x.index[n] || isAncestor(n, l) {
		return false
	}
	if e.grids == nil {
		e.grids = map[*html.Node]bool{}
	}
	e.grids[run] = true
	return true
}

// isMarkedFurniture reports whether n, inside a root as broad as the page
// (<body> or a child of it, which brings the whole page along), is surely
// furniture by its class, id or role (comments, teasers, the site footer)
// and holds less than half of the root's text. The cleaning without hints
// keeps such containers; a narrower root rarely holds them.
func (e *emitter) isMarkedFurniture(n *html.Node) bool {
	if furnitureHint(n, e.x.posts) < 2 {
		return false
	}
	st := e.x.stat(n)
	return st == nil || 2*st.text < e.rootText
}

// isNestedCards reports whether container n inside a listing read as
// content is a nested run of link cards that is boilerplate too (see
// isBoilerplateContainer), a list of further links in a card: the cards
// themselves are mostly links, and so are the listing's own runs (see
// extraction.lists) and those of a grid read like one (see cardsInside),
// which stay.
func (e *emitter) isNestedCards(n *html.Node) bool {
	if e.x.lists[n] || e.x.lists[n.Parent] || e.grids[n] || e.grids[n.Parent] {
		return false
	}
	return e.x.isCardRun(n) && e.x.isBoilerplateContainer(n)
}

// isAppeal reports whether container n inside a root is an appeal: a
// short box around a call to action (a newsletter's sign-up form; see
// markAppeal) with less than half of the root's text, which is not one of
// a run of items (cards with a form each).
func (e *emitter) isAppeal(n *html.Node) bool {
	if !e.x.appeal[n] {
		return false
	}
	st := e.x.stat(n)
	if st == nil || st.text == 0 || st.text > appealLimits.appealMaxChars || 2*st.text >= e.rootText {
		return false
	}
	return !repeatedShape(n)
}

// hasLinkedHeading reports whether n holds a heading that is or holds a
// link: the title of a card.
func hasLinkedHeading(n *html.Node, depth int) bool {
	for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if headingTags[c.Data] {
			if hasTag(c, "a", 0) {
				return true
			}
			continue
		}
		if c.Data == "a" && holdsHeading(c, depth+1) || hasLinkedHeading(c, depth+1) {
			return true
		}
	}
	return false
}

// linkTargets counts, per item of a list (a child of the list node), the
// links to each address the item holds; each item is walked once.
type linkTargets struct {
	list  *html.Node
	items map[*html.Node]map[string]int
}

// twin reports whether the link around n goes where another link of its
// item goes: a card's second way to its own page ("Read more" beside the
// linked title).
func (t *linkTargets) twin(n *html.Node) bool {
	var a *html.Node
	item := n
	for depth := 0; item != nil && item.Parent != t.list && depth < maxDepth; depth++ {
		if a == nil && item.Type == html.ElementNode && item.Data == "a" {
			a = item
		}
		item = item.Parent
	}
	if a == nil || item == nil || item.Parent != t.list {
		return false
	}
	href := attr(a, "href")
	if href == "" || href == "#" {
		return false
	}
	counts, ok := t.items[item]
	if !ok {
		counts = map[string]int{}
		countLinks(item, counts, 0)
		if t.items == nil {
			t.items = map[*html.Node]map[string]int{}
		}
		t.items[item] = counts
	}
	return counts[href] >= 2
}

// countLinks counts the links in n's subtree by address.
func countLinks(n *html.Node, counts map[string]int, depth int) {
	for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
		if c.Type != html.ElementNode {
			continue
		}
		if c.Data == "a" {
			counts[attr(c, "href")]++
		}
		countLinks(c, counts, depth+1)
	}
}

// entryRun reports whether every element child of run is an entry (an
// <article> or a microformat entry, see isEntry) holding a linked heading,
// and there are at least manyListItems of them: the page marks each card
// as an item of its own, a listing's cards however few words each holds
// (a name and when it was updated).
func entryRun(run *html.Node) bool {
	n := 0
	for c := run.FirstChild; c != nil; c = c.NextSibling {
		if c.Type != html.ElementNode || c.Data == removedMark {
			continue
		}
		if !(c.Data == "article" || isEntry(c)) || !hasLinkedHeading(c, 0) {
			return false
		}
		n++
	}
	return n >= listContentLimits.manyListItems
}

// isTwin reports whether n is an inline element whose text repeats, word
// for word, the text just before it in its parent: a visible label
// followed by its copy for screen readers ("Seller's other items" twice),
// which read inline runs the two together.
func isTwin(n *html.Node) bool {
	if n.Type != html.ElementNode || !phrasingTags[n.Data] {
		return false
	}
	prev := n.PrevSibling
	for prev != nil && prev.Type == html.TextNode && isBlank(prev.Data) {
		prev = prev.PrevSibling
	}
	if prev == nil || prev.Type != html.TextNode && prev.Type != html.ElementNode {
		return false
	}
	t := shortText(n)
	if utf8.RuneCountInString(t) < twinLimits.twinMinChars || !strings.ContainsFunc(t, unicode.IsLetter) {
		// A mark repeated (rating stars, bullets) counts.
		return false
	}
	return t == shortText(prev)
}

// shortText returns the collapsed text of n (a text node or an element),
// or "" when it runs past twinChars or past twinChars nodes.
func shortText(n *html.Node) string {
	if n.Type == html.TextNode {
		if len(n.Data) > utf8.UTFMax*twinLimits.twinChars {
			return ""
		}
		return collapse(n.Data)
	}
	var b strings.Builder
	nodes := 0
	for c := n.FirstChild; c != nil; c = htmlwalk.Next(c, n) {
		if nodes++; nodes > twinLimits.twinChars || b.Len() > utf8.UTFMax*twinLimits.twinChars {
			return ""
		}
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
			b.WriteByte(' ')
		}
	}
	s := collapse(b.String())
	if len(s) > utf8.UTFMax*twinLimits.twinChars {
		return ""
	}
	return s
}
