package htmltext

import (
	"fmt"

	"golang.org/x/net/html"
)

// After the cleaner's table (see cleanRules) the extractor decides in three
// more stages: the search chooses the containers of the main content, the
// emission writes them as blocks and leaves some out, and the page's
// outcome picks among the readings. Their decisions are named rules too,
// declared here with their step or predicate and the value of the
// thresholds they read (limits.go), and each stage asks its own list of
// them (searchRules; containerRules, blockRules and emitFilters;
// pageSteps) through one driver (stageDriver), so that a trace can say
// which one kept or removed each block (see Trace). Options.Off turns
// them off one by one, as it does the cleaner's rules, where the off state
// is well defined: a search step that widens the roots passes them through
// unchanged, an emission's drop keeps the block, and a page's choice of a
// reading does not choose it. A fixed rule (main-top, main-body,
// outside-main, strict-reading, outside-list) is the method itself, with
// nothing to turn off.

// The stages of the extractor, as named in a trace.
const (
	stageClean  = "clean"
	stageSearch = "search"
	stageEmit   = "emit"
	stagePage   = "page"
)

// stageRule is a named decision of a stage after the cleaner.
type stageRule struct {
	name, stage, doc string
	action           action
	// lim holds the rule's thresholds (see limitsOf), reads those of
	// other rules it reads too.
	lim   any
	reads []string
	// fixed: Options.Off cannot turn the rule off (its doc says why).
	fixed bool
	// bit is the rule's place in a stageSet (see init).
	bit stageSet
	// The rule's step or predicate, by stage: widen is a search rule's
	// step, which returns the roots it widens roots to (see
	// searchRules); container and block are an emission rule's
	// predicates, on a container inside a root and on a block written
	// (see containerRules, blockRules), and filter its filter of the
	// blocks written, which returns those it keeps (see emitFilters).
	widen     func(x *extraction, roots []*html.Node, body *html.Node) []*html.Node
	container func(e *emitter, n *html.Node) bool
	block     func(e *emitter, b *block) bool
	filter    func([]block) []block
	// boilerplate: the filter leaves out boilerplate, which an emission
	// that keeps every block (keepAll) keeps.
	boilerplate bool
	// drops is a page rule's predicate on a block of the page's text
	// (see stageDriver.dropTexts).
	drops func(b string) bool
	// hints: the rule reads class and id names, so it applies only in a
	// reading that trusts them (the strict one).
	hints bool
}

// stageDriver runs the stage rules for one extraction: it skips those
// Options.Off turned off and records the others' decisions in the trace,
// when there is one. Its methods are the only places the stages ask
// either, as cleaner.decide is for the cleaner's table.
type stageDriver struct {
	// trace, when not nil, records the decisions.
	trace *Trace
	// off holds the stage rules turned off (see Options.Off).
	off stageSet
}

// on reports whether rule r decides: Options.Off did not turn it off.
func (d stageDriver) on(r *stageRule) bool { return d.off.on(r) }

// dropsNode reports whether rule r, whose predicate holds for node n,
// drops it: unless r is off, it does, recorded with n's score.
func (d stageDriver) dropsNode(r *stageRule, n *html.Node, score float64) bool {
	if !d.on(r) {
		return false
	}
	d.trace.recordRule(r, n, score)
	return true
}

// dropTexts returns blocks, the page's text, without those the predicate
// of rule r holds for (see stageRule.drops), in place, unless r is off;
// each it leaves out is recorded as a decision of the page.
func (d stageDriver) dropTexts(r *stageRule, blocks []string) []string {
	if !d.on(r) {
		return blocks
	}
	kept := blocks[:0]
	for _, b := range blocks {
		if r.drops(b) {
			d.trace.recordPage(r, b)
			continue
		}
		kept = append(kept, b)
	}
	return kept
}

// decidesPage reports whether rule r, whose condition holds for the
// page, decides it: unless r is off, it does, recorded as the page's
// decision with removed, what it leaves out, and the page's measures.
func (d stageDriver) decidesPage(r *stageRule, removed func() string, measures ...limit) bool {
	if !d.on(r) {
		return false
	}
	if d.trace != nil {
		d.trace.recordPage(r, removed(), measures...)
	}
	return true
}

// dropsBlock reports whether rule r, whose predicate holds for block b,
// drops it: unless r is off, it does, recorded.
func (d stageDriver) dropsBlock(r *stageRule, b *block) bool {
	if !d.on(r) {
		return false
	}
	d.trace.recordBlock(r, *b)
	return true
}

// apply runs filter, the filter of rule r, on blocks and returns the
// blocks it keeps, unless r is off; with a trace, it records each block
// the filter leaves out.
func (d stageDriver) apply(r *stageRule, blocks []block, filter func([]block) []block) []block {
	if !d.on(r) {
		return blocks
	}
	if d.trace == nil {
		return filter(blocks)
	}
	before := append([]block(nil), blocks...)
	blocks = filter(blocks)
	d.trace.recordDropped(r, before, blocks)
	return blocks
}

// stageSet is a set of stage rules: those Options.Off turned off. The
// empty set, Extract's, costs one test of a bit at each decision.
type stageSet uint64

func init() {
	if len(stageRules) > 64 {
		panic("htmltext: more stage rules than a stageSet holds")
	}
	for i, r := range stageRules {
		r.bit = 1 << i
	}
}

// on reports whether rule r is in no set of s: Options.Off did not turn
// it off.
func (s stageSet) on(r *stageRule) bool { return s&r.bit == 0 }

// stageOff returns the set of the stage rules named in off, and off
// without them. Naming a fixed rule fails with ErrUnknownRule.
func stageOff(off []string) (stageSet, []string, error) {
	var set stageSet
	var rest []string
	for _, name := range off {
		r := stageRuleNamed(name)
		switch {
		case r == nil:
			rest = append(rest, name)
		case r.fixed:
			return 0, nil, fmt.Errorf("extract html: rule %q is fixed: %w", name, ErrUnknownRule)
		default:
			set |= r.bit
		}
	}
	return set, rest, nil
}

// stageRuleNamed returns the stage rule named name, or nil.
func stageRuleNamed(name string) *stageRule {
	for _, r := range stageRules {
		if r.name == name {
			return r
		}
	}
	return nil
}

// limits returns the thresholds r reads: its own, then those it reads of
// other rules.
func (r *stageRule) limits() []limit { return append(limitsOf(r.lim), readLimits(r.reads)...) }

// pct expresses a share as a threshold in per cent.
func pct(share float64) int { return int(share*100 + 0.5) }

// The search's rules: the containers it takes and what it leaves.
var (
	ruleMainTop = stageRule{name: "main-top", stage: stageSearch, action: keep,
		doc:   "the best-scoring container: text runs vote for the containers above them, scaled by their share of unlinked text; moved up to a common ancestor of strong candidates or a parent that scores higher (fixed: the search starts from it)",
		fixed: true,
		lim:   &mainTopLimits}
	ruleMainBody = stageRule{name: "main-body", stage: stageSearch, action: keep,
		doc: "the whole body, when no text run voted for a container (fixed: there is nothing else to search)", fixed: true}
	ruleMainProseRun = stageRule{name: "main-prose-run", stage: stageSearch, action: keep,
		doc: "the container of the run of parts holding prose that the best container is one of (see withProseRun)",
		lim: &mainProseRunLimits,
		widen: func(x *extraction, roots []*html.Node, body *html.Node) []*html.Node {
			return []*html.Node{x.withProseRun(roots[0], body)}
		}}
	ruleMainSibling = stageRule{name: "main-sibling", stage: stageSearch, action: keep,
		doc: "a sibling of the chosen container that scores a share of it, or a paragraph of text with few links (see withSiblings)",
		lim: &mainSiblingLimits,
		widen: func(x *extraction, roots []*html.Node, body *html.Node) []*html.Node {
			return x.withSiblings(roots[0], body)
		}}
	ruleMainLead = stageRule{name: "main-lead", stage: stageSearch, action: keep,
		doc:   "a paragraph of prose just before the content, a lead set apart from the body (see withLead)",
		lim:   &mainLeadLimits,
		widen: (*extraction).withLead}
	ruleMainTrail = stageRule{name: "main-trail", stage: stageSearch, action: keep,
		doc:   "a paragraph of prose just after the content (see withTrail)",
		reads: []string{"leadScopeLevels", "proseChars"},
		widen: (*extraction).withTrail}
	ruleMainLandmark = stageRule{name: "main-landmark", stage: stageSearch, action: keep,
		doc:   "the main landmark, when the chosen containers hold a small share of its text (see withLandmark)",
		lim:   &mainLandmarkLimits,
		widen: (*extraction).withLandmark}
	ruleMainPart = stageRule{name: "main-part", stage: stageSearch, action: keep,
		doc: "a top-level part of the page holding another strong candidate (see withParts)",
		lim: &mainPartLimits, reads: []string{"splitSharePct"},
		widen: (*extraction).withParts}
	ruleMainSections = stageRule{name: "main-sections", stage: stageSearch, action: keep,
		doc:   "a section of the run of headed sections around the chosen containers (see withSections)",
		lim:   &mainSectionsLimits,
		hints: true,
		widen: (*extraction).withSections}
	ruleOutsideMain = stageRule{name: "outside-main", stage: stageSearch, action: drop,
		doc: "a block outside the containers the search chose (main-*): the page around its content (fixed: what the search leaves, not a decision of its own)", fixed: true}
)

// The emission's rules: what it leaves out of the chosen containers.
var (
	ruleLinkDenseContainer = stageRule{name: "link-dense-container", stage: stageEmit, action: drop,
		doc: "a container mostly of links (menus, related links, teasers), or named as furniture and holding links (see isBoilerplateContainer)",
		lim: &linkDenseContainerLimits,
		container: func(e *emitter, n *html.Node) bool {
			return !e.listed && !e.x.holders[n] && e.x.isBoilerplateContainer(n)
		}}
	ruleAppeal = stageRule{name: "appeal", stage: stageEmit, action: drop,
		doc: "a short box around a call to action, such as a newsletter's sign-up form (see isAppeal)",
		lim: &appealLimits,
		container: func(e *emitter, n *html.Node) bool {
			return !e.listed && !e.x.holders[n] && e.isAppeal(n)
		}}
	ruleMarkedFurniture = stageRule{name: "marked-furniture", stage: stageEmit, action: drop,
		doc: "in a container as broad as the page, a block surely named as furniture holding less than half of its text (see isMarkedFurniture)",
		container: func(e *emitter, n *html.Node) bool {
			return e.broad && e.isMarkedFurniture(n)
		}}
	ruleNestedCards = stageRule{name: "nested-card-run", stage: stageEmit, action: drop,
		doc: "inside a listing read as content, a nested run of link cards that is furniture (see isNestedCards)",
		lim: &nestedCardsLimits, reads: []string{"minListItems"},
		container: func(e *emitter, n *html.Node) bool {
			return e.listed && !e.x.holders[n] && e.isNestedCards(n)
		}}
	ruleIntroduction = stageRule{name: "introduction", stage: stageEmit, action: drop,
		doc: "a short heading or line ending in ':' or '?' that introduced furniture left out (\"Related articles\")",
		lim: &introductionLimits}
	ruleSlotIntroduction = stageRule{name: "slot-introduction", stage: stageEmit, action: drop,
		doc:   "a short heading or line that introduced an empty box (a script's related links) and no prose after it",
		reads: []string{"introChars", "proseChars"}}
	ruleLinkDenseBlock = stageRule{name: "link-dense-block", stage: stageEmit, action: drop,
		doc: "a block, not a heading, more than half of whose text is in links",
		block: func(e *emitter, b *block) bool {
			return !e.keepAll && !e.listed && b.level == 0 && b.links*2 > b.chars
		}}
	ruleGeneratedIDs = stageRule{name: "generated-ids", stage: stageEmit, action: drop,
		doc: "a block mostly of generated identifiers (UUIDs)",
		lim: &generatedIDsLimits,
		block: func(e *emitter, b *block) bool {
			return !b.data && !e.document && isGeneratedIDs(b.text)
		}}
	ruleTwin = stageRule{name: "screen-reader-twin", stage: stageEmit, action: drop,
		doc: "an inline copy, for screen readers, of the label just before it",
		lim: &twinLimits}
	ruleItemCopy = stageRule{name: "item-copy", stage: stageEmit, action: drop,
		doc: "a short block repeating one a few blocks before it within one card (see dropItemCopies)",
		lim: &itemCopyLimits, reads: []string{"proseChars"},
		filter: dropItemCopies}
	ruleRepeat = stageRule{name: "repeat", stage: stageEmit, action: drop,
		doc: "a block repeating an earlier one word for word, or the shortened copy of its neighbour (see dropRepeats)",
		lim: &repeatLimits, reads: []string{"proseChars"},
		filter: dropRepeats}
	ruleLinkedTitle = stageRule{name: "linked-title", stage: stageEmit, action: drop,
		doc:    "a heading mostly of links that no text of its own follows (see dropLinkedTitles)",
		filter: dropLinkedTitles, boilerplate: true}
	ruleOrphanHeading = stageRule{name: "orphan-heading", stage: stageEmit, action: drop,
		doc:    "a heading that introduces nothing: the last block, or one a heading of its rank or higher follows",
		filter: dropOrphanHeadings}
	ruleHeadFragment = stageRule{name: "head-fragment", stage: stageEmit, action: drop,
		doc:    "a short line with digits that is not a sentence (a date, a byline) before the first text block",
		lim:    &headFragmentLimits,
		filter: trimHead}
	ruleTailFragment = stageRule{name: "tail-fragment", stage: stageEmit, action: drop,
		doc: "a short trailing line that is not a sentence, or a short one with a link (a credit, \"Share:\")",
		lim: &tailFragmentLimits, reads: []string{"fragmentChars"},
		filter: trimTail}
	ruleCardLabel = stageRule{name: "card-label", stage: stageEmit, action: drop,
		doc: "a label of a card's template that recurs in half of a listing's cards (\"Price\", \"Read more\"; see dropLabels)",
		lim: &cardLabelLimits, reads: []string{"minListItems"}}
)

// The page's rules: which reading gives the text, and what is left out
// of it as a whole.
var (
	ruleStrictReading = stageRule{name: "strict-reading", stage: stagePage, action: keep,
		doc:   "the reading with class and id hints trusted gives the text (fixed: the first reading, the others its fallbacks)",
		fixed: true,
		reads: []string{"retryChars"}}
	ruleLenientReading = stageRule{name: "lenient-reading", stage: stagePage, action: keep,
		doc: "the reading without class and id hints, when the strict one found less than retryChars of text",
		lim: &lenientReadingLimits}
	ruleShownReading = stageRule{name: "shown-reading", stage: stagePage, action: keep,
		doc: "the reading with the parts hidden by markup, when the others found less than minContentChars",
		lim: &shownReadingLimits}
	ruleWholeBody = stageRule{name: "whole-body", stage: stagePage, action: keep,
		doc:   "the whole cleaned body, when no reading found minContentChars of content",
		reads: []string{"minContentChars"}}
	ruleListContent = stageRule{name: "list-content", stage: stagePage, action: keep,
		doc: "a long run of repeated items (a few groups of link cards count by their cards) that dwarfs the article-like text, or that the main landmark holds: the items are the content, with the paragraphs of prose beside them when the search kept none (see itemList.isContent, withProse)",
		lim: &listContentLimits}
	ruleOutsideList = stageRule{name: "outside-list", stage: stagePage, action: drop,
		doc: "a block outside the run of items read as the content (list-content) (fixed: what list-content leaves, not a decision of its own)", fixed: true}
	rulePostCounter = stageRule{name: "post-counter", stage: stagePage, action: drop,
		doc:   "on a thread, a block that is only a count (likes, replies: \"12\", \"1 Reply\")",
		drops: isCounter}
	ruleAppShell = stageRule{name: "app-shell", stage: stagePage, action: drop,
		doc: "a few words out of a whole page's markup: what an application's shell shows while its scripts fetch the content",
		lim: &appShellLimits}
	ruleFlatText = stageRule{name: "flat-text", stage: stagePage, action: keep,
		doc: "the page's visible text in order, when its tree cannot be weighed (too deep or too many elements) or the cleaning left nothing (off: only the latter keeps its empty text)"}
)

// stageRules lists the stages' rules, in the order of the stages.
var stageRules = []*stageRule{
	&ruleMainTop, &ruleMainBody, &ruleMainProseRun, &ruleMainSibling, &ruleMainLead, &ruleMainTrail, &ruleMainLandmark, &ruleMainPart, &ruleMainSections, &ruleOutsideMain,
	&ruleLinkDenseContainer, &ruleAppeal, &ruleMarkedFurniture, &ruleNestedCards, &ruleIntroduction, &ruleSlotIntroduction,
	&ruleLinkDenseBlock, &ruleGeneratedIDs, &ruleTwin, &ruleItemCopy, &ruleRepeat, &ruleLinkedTitle, &ruleOrphanHeading, &ruleHeadFragment, &ruleTailFragment, &ruleCardLabel,
	&ruleStrictReading, &ruleLenientReading, &ruleShownReading, &ruleWholeBody, &ruleListContent, &ruleOutsideList, &rulePostCounter, &ruleAppShell, &ruleFlatText,
}

// Stages lists the named rules of the stages after the cleaner's table
// (Rules): the main-content search, the emission and the page's outcome.
// Their Kinds are "any" and they read no hints; Stage names the stage.
func Stages() []Rule {
	out := make([]Rule, 0, len(stageRules))
	for _, r := range stageRules {
		out = append(out, Rule{Name: r.name, Doc: r.doc, Stage: r.stage, Kinds: "any", Action: r.action.String(), Limits: limitMap(r.limits()), Fixed: r.fixed})
	}
	return out
}
