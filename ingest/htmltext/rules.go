package htmltext

import (
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"sync"

	"golang.org/x/net/html"
)

// The cleaner's keep and drop decisions are one declared table, cleanRules:
// each rule names what it recognises, the page kinds it applies to, the
// thresholds it reads and what it does. The cleaner asks the table about
// every node it visits (see cleaner.decide): the first rule that applies
// and matches decides; when none does, the node stays and its children
// are visited. Options.Off turns rules off (an ablation) and Options.Trace
// records every decision.

// pageKind is a set of the kinds a page declares itself to be or shows
// itself to be (see Extract): a rule applies on some of them.
type pageKind uint8

const (
	// kindArticle: the page declares an article (JSON-LD, Open Graph).
	kindArticle pageKind = 1 << iota
	// kindThread: the page is a discussion thread (see isThreadPage,
	// hasPostRun, isCommentThread).
	kindThread
	// kindProduct: the page describes a product (see isProductPage).
	kindProduct
)

// kindNames names each page kind in the table's documentation and trace.
var kindNames = []struct {
	kind pageKind
	name string
}{{kindArticle, "article"}, {kindThread, "thread"}, {kindProduct, "product"}}

// String lists the kinds of k, or "any" for none.
func (k pageKind) String() string {
	var names []string
	for _, kn := range kindNames {
		if k&kn.kind != 0 {
			names = append(names, kn.name)
		}
	}
	if len(names) == 0 {
		return "any"
	}
	return strings.Join(names, ",")
}

// action is what a rule does with the node it matches.
type action uint8

const (
	// keep: the node stays and its children are visited; later rules are
	// not asked about it.
	keep action = iota
	// drop: the node goes, leaving a mark where it was (see removedMark),
	// so that a title introducing it can go too.
	drop
	// dropUnmarked: the node goes without a mark.
	dropUnmarked
)

func (a action) String() string {
	switch a {
	case drop:
		return "drop"
	case dropUnmarked:
		return "drop-unmarked"
	}
	return "keep"
}

// limit is a named threshold a rule reads, as the docs and the trace
// print it: a count, or a share in per cent when its name ends in "Pct".
type limit struct {
	name  string
	value int
}

// A rule's thresholds are one value of its own, a pointer to a struct
// whose every field is a threshold its predicate or step reads, tagged
// with the name the docs and the trace print it by (`limit:"name"`). A
// float64 field whose name ends in "Pct" is a share, printed in per
// cent; any other field is a whole number, printed as it is. The rule's logic reads the fields,
// so the numbers printed are the numbers used. A threshold several rules
// read belongs to one of them; the others name it in their reads.

// limitsOf returns the thresholds of lim, a rule's limits value (see
// above), in the order of its fields; nil when lim is nil.
func limitsOf(lim any) []limit {
	if lim == nil {
		return nil
	}
	v := reflect.ValueOf(lim).Elem()
	out := make([]limit, 0, v.NumField())
	for i := range v.NumField() {
		f := v.Field(i)
		name := v.Type().Field(i).Tag.Get("limit")
		switch {
		case f.Kind() != reflect.Float64:
			out = append(out, limit{name, int(f.Int())})
		case strings.HasSuffix(name, "Pct"):
			out = append(out, limit{name, pct(f.Float())})
		default:
			out = append(out, limit{name, int(math.Round(f.Float()))})
		}
	}
	return out
}

// readLimits returns the thresholds named, each from the rule that owns
// it (see ownedLimits).
func readLimits(names []string) []limit {
	out := make([]limit, 0, len(names))
	for _, name := range names {
		l, ok := ownedLimits()[name]
		if !ok {
			panic("htmltext: no rule owns the limit " + name)
		}
		out = append(out, l)
	}
	return out
}

// ownedLimits returns every rule's own thresholds by name.
var ownedLimits = sync.OnceValue(func() map[string]limit {
	m := map[string]limit{}
	for _, lim := range allLimits() {
		for _, l := range limitsOf(lim) {
			m[l.name] = l
		}
	}
	return m
})

// allLimits returns the limits value of every rule: the cleaner's table,
// a document's and the stages'.
func allLimits() []any {
	var out []any
	for _, table := range [][]rule{cleanRules, documentRules} {
		for _, r := range table {
			if r.lim != nil {
				out = append(out, r.lim)
			}
		}
	}
	for _, r := range append(stageRules, &ruleRunningHead) {
		if r.lim != nil {
			out = append(out, r.lim)
		}
	}
	return out
}

// visit is one node the cleaner asks the table about, with where it is.
type visit struct {
	n      *html.Node
	depth  int
	inList bool // under a list already tested (see the toc rule)
	list   bool // n is a <ul> or <ol>
	kept   bool // n wraps most of the page's text (see wrappersOfMostText)
}

// rule is one keep or drop decision of the cleaner.
type rule struct {
	// name identifies the rule in the trace, the ablation and the docs.
	name string
	// doc says in one line what the rule recognises.
	doc string
	// on, when not empty, holds the page kinds the rule applies on; the
	// rule does not apply on a page of a kind in notOn.
	on, notOn pageKind
	// hints: the rule reads class and id names, so it applies only in a
	// reading that trusts them (the strict one) and not to a node that
	// wraps most of the page's text.
	hints bool
	// routine: a keep rule that only says the later rules do not concern
	// the node (text, structural markup); the trace leaves it out.
	routine bool
	action  action
	// lim holds the rule's thresholds (see limitsOf), reads those of
	// other rules it reads too.
	lim   any
	reads []string
	match func(cl *cleaner, v *visit) bool
	// unless are the exceptions of a matching rule: when one of them
	// holds, the rule does not decide and the next ones are asked.
	unless []exception
}

// exception is a named case a rule leaves alone. Options.Off names it
// "rule/exception" to turn it off alone.
type exception struct {
	name, doc string
	match     func(cl *cleaner, v *visit) bool
}

// cleanRules is the cleaner's table, in the order it is asked.
var cleanRules = []rule{
	{
		name: "product-furniture", on: kindProduct, action: dropUnmarked,
		doc: "a badge, sticker or fine print beside a product (class or id: productFurnitureWords)",
		match: func(cl *cleaner, v *visit) bool {
			return !v.kept && isProductFurniture(v.n)
		},
	},
	{
		name: "thread-user-panel", on: kindThread, action: drop,
		doc: "a poster's panel of short terms and values (<dl> of \"Posts: 9179\", \"Joined: 2015\")",
		lim: &threadUserPanelLimits,
		match: func(cl *cleaner, v *visit) bool {
			return v.n.Type == html.ElementNode && v.n.Data == "dl" && isShortPairs(v.n)
		},
	},
	{
		name: "product-reviews", on: kindProduct, action: drop,
		doc: "customer reviews and ratings on a product page (class or id: review, rating)",
		match: func(cl *cleaner, v *visit) bool {
			return !v.kept && isReviews(v.n)
		},
	},
	{
		name: "product-card-run", on: kindProduct, action: drop,
		doc: "a run of cards for other products on a page describing one product",
		lim: &productCardRunLimits,
		match: func(cl *cleaner, v *visit) bool {
			return cl.cards && !v.kept && isCardRun(v.n)
		},
	},
	{
		name: "table-of-contents", action: drop,
		doc: "an outermost list of links to places in the page itself",
		lim: &tocLimits,
		match: func(cl *cleaner, v *visit) bool {
			return v.list && !v.inList && !v.kept && isTableOfContents(v.n)
		},
	},
	{
		name: "citation-list", action: drop,
		doc: "an outermost list of citations (see isCitationList)",
		lim: &citationListLimits,
		match: func(cl *cleaner, v *visit) bool {
			return v.list && !v.inList && !v.kept && isCitationList(v.n)
		},
	},
	{
		name: "markup-comment", action: drop,
		doc: "an HTML comment or doctype",
		match: func(cl *cleaner, v *visit) bool {
			return v.n.Type == html.CommentNode || v.n.Type == html.DoctypeNode
		},
	},
	{
		name: "text", action: keep, routine: true,
		doc: "text and other nodes that are not elements",
		match: func(cl *cleaner, v *visit) bool {
			return v.n.Type != html.ElementNode
		},
	},
	{
		name: "kept-form", action: keep,
		doc: "a form that wraps most of the page's text",
		match: func(cl *cleaner, v *visit) bool {
			return v.kept && v.n.Data == "form"
		},
	},
	{
		name: "headed-standfirst", on: kindArticle, action: keep,
		doc:   "an article's <header> holding a summary line (see isHeadedStandfirst)",
		reads: []string{"proseChars"},
		match: func(cl *cleaner, v *visit) bool {
			return isHeadedStandfirst(v.n)
		},
	},
	{
		name: "panel-button", action: keep,
		doc: "a button that opens a panel: an accordion's question stays with its answer",
		lim: &panelButtonLimits,
		match: func(cl *cleaner, v *visit) bool {
			return v.n.Data == "button" && opensPanel(v.n)
		},
	},
	{
		name: "non-content-element", action: drop,
		doc: "scripts, styles, media, controls and other elements without text of the page (dropTags)",
		match: func(cl *cleaner, v *visit) bool {
			return dropTags[v.n.Data]
		},
	},
	{
		name: "hidden", action: drop,
		doc:   "an element hidden by markup (hidden, aria-hidden, inline display:none)",
		lim:   &hiddenLimits,
		reads: []string{"panelLinkParts"},
		match: func(cl *cleaner, v *visit) bool {
			return !v.kept && !cl.shown && isHidden(v.n)
		},
		unless: []exception{
			{"tab-panel", "a tab panel of text (role=\"tabpanel\")", func(cl *cleaner, v *visit) bool { return isTabPanel(v.n) }},
			{"disclosure", "a panel of text a control of the page opens (aria-controls, a collapsed class)", func(cl *cleaner, v *visit) bool { return cl.isDisclosure(v.n) }},
		},
	},
	{
		name: "dateline", notOn: kindThread, hints: true, action: drop,
		doc: "a short line whose text is mostly a <time>",
		lim: &datelineLimits,
		match: func(cl *cleaner, v *visit) bool {
			return isDateline(v.n)
		},
	},
	{
		name: "byline", notOn: kindThread, hints: true, action: drop,
		doc:   "a short paragraph whose class or id names a byline",
		reads: []string{"datelineChars"},
		match: func(cl *cleaner, v *visit) bool {
			return v.n.Data == "p" && strings.Contains(hintText(v.n), "byline") && visibleChars(v.n, datelineLimits.datelineChars, 0) < datelineLimits.datelineChars
		},
	},
	{
		name: "nav-aside-footer", action: drop,
		doc: "the semantic elements of page furniture: <nav>, <aside>, <footer>",
		match: func(cl *cleaner, v *visit) bool {
			switch v.n.Data {
			case "nav", "aside", "footer":
				return true
			}
			return false
		},
	},
	{
		name: "figcaption-credit", action: drop,
		doc: "a short <figcaption>: a photo's caption or credit",
		lim: &figcaptionCreditLimits,
		match: func(cl *cleaner, v *visit) bool {
			return v.n.Data == "figcaption" && visibleChars(v.n, figcaptionCreditLimits.figcaptionTextChars, 0) < figcaptionCreditLimits.figcaptionTextChars && countParagraphs(v.n, 2, 0) < 2
		},
	},
	{
		name: "page-header", action: drop,
		doc: "a <header> of fewer than three paragraphs: the site's banner",
		lim: &pageHeaderLimits,
		match: func(cl *cleaner, v *visit) bool {
			return v.n.Data == "header" && countParagraphs(v.n, pageHeaderLimits.headerParas, 0) < pageHeaderLimits.headerParas
		},
		unless: []exception{
			{"prose", "it holds a paragraph of running text (a standfirst)", func(cl *cleaner, v *visit) bool { return hasProse(v.n, 0) }},
			{"whole-entry", "it holds all the text of its <article> (a teaser in a list of posts)", func(cl *cleaner, v *visit) bool { return isWholeEntry(v.n) }},
			{"section-head", "it heads a section inside <main> or a <section>: by HTML's sectioning, the section's header, not the page's (see isSectionHead)", func(cl *cleaner, v *visit) bool { return isSectionHead(v.n) }},
		},
	},
	{
		name: "control-label", action: drop,
		doc: "a <label> of a form control",
		lim: &controlLabelLimits,
		match: func(cl *cleaner, v *visit) bool {
			return v.n.Data == "label" && labelsControl(v.n)
		},
	},
	{
		name: "form-noscript", action: drop,
		doc: "a <form> or <noscript> of fewer than three paragraphs",
		lim: &formNoscriptLimits,
		match: func(cl *cleaner, v *visit) bool {
			return (v.n.Data == "form" || v.n.Data == "noscript") && countParagraphs(v.n, formNoscriptLimits.formParas, 0) < formNoscriptLimits.formParas
		},
	},
	{
		name: "structural", action: keep, routine: true,
		doc: "document structure, paragraphs, links, tables, code, and the elements the rules above decided by tag",
		match: func(cl *cleaner, v *visit) bool {
			return structuralTags[v.n.Data]
		},
	},
	{
		name: "modal", action: drop,
		doc: "a modal dialog (role dialog or alertdialog, aria-modal=\"true\")",
		match: func(cl *cleaner, v *visit) bool {
			return isModal(v.n)
		},
	},
	{
		name: "article-body", hints: true, action: keep,
		doc: "an element declared the article's body (itemprop=\"articleBody\")",
		match: func(cl *cleaner, v *visit) bool {
			return strings.EqualFold(attr(v.n, "itemprop"), "articleBody")
		},
	},
	{
		name: "author-box", hints: true, action: drop,
		doc: "a box about the article's author (see isAuthorBox)",
		lim: &authorBoxLimits,
		match: func(cl *cleaner, v *visit) bool {
			return isAuthorBox(v.n, cl.author, cl.posts)
		},
	},
	{
		name: "caption-credit-hint", hints: true, action: drop,
		doc: "a short block whose class or id names a caption or credit",
		lim: &captionCreditHintLimits,
		match: func(cl *cleaner, v *visit) bool {
			h := hintText(v.n)
			return (strings.Contains(h, "caption") || strings.Contains(h, "credit")) && visibleChars(v.n, captionCreditHintLimits.figcaptionKeepChars, 0) < captionCreditHintLimits.figcaptionKeepChars
		},
	},
	{
		name: "furniture-strong", hints: true, action: drop,
		doc: "a block whose class, id or role names page furniture outright (see furnitureHint)",
		match: func(cl *cleaner, v *visit) bool {
			return furnitureHint(v.n, cl.posts) == 2
		},
	},
	{
		name: "furniture-weak", hints: true, action: drop,
		doc:   "a block of fewer than three paragraphs whose class or id names furniture weakly (see furnitureHint)",
		lim:   &furnitureWeakLimits,
		reads: []string{"sectionHeaderNodes"},
		match: func(cl *cleaner, v *visit) bool {
			return furnitureHint(v.n, cl.posts) == 1 && weakParagraphs(v.n, cl.posts) < furnitureWeakLimits.furnitureParas
		},
		unless: []exception{
			{"builder-text", "a page builder's block of running text (see isBuilderBlock)", func(cl *cleaner, v *visit) bool { return isBuilderBlock(v.n) && hasRunningText(v.n, 0) }},
			{"headline", "the page's <h1> with its introduction (see isHeadline)", func(cl *cleaner, v *visit) bool { return isHeadline(v.n) }},
			{"headed-section", "a <section> with a heading and running text (see isHeadedSection)", func(cl *cleaner, v *visit) bool { return isHeadedSection(v.n) }},
			{"post", "a post of a thread (see holdsPost)", func(cl *cleaner, v *visit) bool { return cl.posts && holdsPost(v.n) }},
			{"section-head", "the head of a section inside <main> or a <section> (see isSectionHead)", func(cl *cleaner, v *visit) bool { return isSectionHead(v.n) }},
		},
	},
}

// structuralTags are the elements the hint and modal rules never remove,
// with those an earlier rule decided by their tag alone.
var structuralTags = setOf("body", "html", "article", "main", "a", "p", "table", "tbody", "tr", "td", "th", "pre", "code",
	"figcaption", "header", "label", "form", "noscript")

// kinds returns the page kinds the cleaner reads the page as.
func (cl *cleaner) kinds() pageKind {
	var k pageKind
	if cl.article {
		k |= kindArticle
	}
	if cl.posts {
		k |= kindThread
	}
	if cl.reviews {
		k |= kindProduct
	}
	return k
}

// decide asks the table about v and returns the rule that decides it, or
// nil when none does (v stays).
func (cl *cleaner) decide(v *visit) *rule {
	kinds := cl.kinds()
	hints := cl.byHints && !v.kept
	rules := cl.rules
	if rules == nil {
		rules = cleanRules
	}
	for i := range rules {
		r := &rules[i]
		if r.on != 0 && kinds&r.on == 0 || kinds&r.notOn != 0 || r.hints && !hints {
			continue
		}
		if !r.match(cl, v) {
			continue
		}
		if e := r.excepted(cl, v); e != nil {
			if cl.trace != nil {
				cl.trace.record(stageClean, r.name+"/"+e.name, "keep", nil, v.n)
			}
			continue
		}
		if !r.routine {
			cl.trace.recordClean(r, v.n)
		}
		return r
	}
	return nil
}

// Options change how ExtractWith reads a page. The zero value is Extract's
// reading.
type Options struct {
	Limits
	// Off names rules the extraction does without, to measure what each
	// one does: the cleaner's (see Rules) it does not ask, and the stages'
	// (see Stages) that are not fixed.
	Off []string
	// Trace, when not nil, receives every decision of the rule table, in
	// every reading of the page.
	Trace *Trace
	// Document reads the page as a document, a chapter of a book: its
	// whole body is content but for markup without text and the
	// publisher's navigation (see documentRules, DocumentRules). Off
	// does not apply to it.
	Document bool
}

// ErrUnknownRule is returned (wrapped) for an Options.Off name that names
// no rule.
var ErrUnknownRule = errors.New("no such extraction rule")

// activeRules returns the table without the rules named in off: cleanRules
// itself when off is empty.
func activeRules(off []string) ([]rule, error) {
	if len(off) == 0 {
		return cleanRules, nil
	}
	drop := map[string]bool{}
	for _, name := range off {
		drop[name] = true
	}
	var rules []rule
	for _, r := range cleanRules {
		if drop[r.name] {
			delete(drop, r.name)
			continue
		}
		var unless []exception
		for _, e := range r.unless {
			if name := r.name + "/" + e.name; drop[name] {
				delete(drop, name)
				continue
			}
			unless = append(unless, e)
		}
		r.unless = unless
		rules = append(rules, r)
	}
	for _, name := range off {
		if drop[name] {
			return nil, fmt.Errorf("extract html: rule %q: %w", name, ErrUnknownRule)
		}
	}
	return rules, nil
}

// Rule describes one rule of the extractor's table.
type Rule struct {
	// Name identifies the rule; Doc says in one line what it recognises.
	Name, Doc string
	// Stage is the part of the extractor the rule belongs to: "clean"
	// for the table, "search", "emit" or "page" for the stages after it
	// (see Stages).
	Stage string
	// Kinds lists the page kinds the rule applies on ("any", or names
	// such as "article,product"); NotOn those it does not apply on.
	Kinds, NotOn string
	// Hints is set for a rule that reads class and id names (it applies
	// only in the strict reading).
	Hints bool
	// Action is "keep", "drop" or "drop-unmarked".
	Action string
	// Limits are the thresholds the rule reads, by name.
	Limits map[string]int
	// Routine is set for a keep rule that only passes over nodes no later
	// rule concerns (text, structural markup); the trace leaves it out.
	Routine bool
	// Fixed is set for a stage rule Options.Off cannot turn off: a step
	// of the method with nothing to turn off (see Stages).
	Fixed bool
	// Unless are the rule's exceptions: cases it leaves to the next
	// rules. Options.Off turns one off as "rule/name".
	Unless []Exception
}

// Exception is a named case a rule leaves alone.
type Exception struct {
	Name, Doc string
}

// Rules lists the rule table in the order it is asked.
func Rules() []Rule { return describeRules(cleanRules) }

// describeRules describes the rules of a cleaner's table.
func describeRules(table []rule) []Rule {
	out := make([]Rule, 0, len(table))
	for _, r := range table {
		d := Rule{Name: r.name, Doc: r.doc, Stage: stageClean, Kinds: r.on.String(), Hints: r.hints, Action: r.action.String(), Routine: r.routine}
		if r.notOn != 0 {
			d.NotOn = r.notOn.String()
		}
		for _, e := range r.unless {
			d.Unless = append(d.Unless, Exception{Name: e.name, Doc: e.doc})
		}
		d.Limits = limitMap(r.limits())
		out = append(out, d)
	}
	return out
}

// limits returns the thresholds r reads: its own, then those it reads of
// other rules.
func (r *rule) limits() []limit { return append(limitsOf(r.lim), readLimits(r.reads)...) }

// excepted returns the first exception of r that holds for v, or nil.
func (r *rule) excepted(cl *cleaner, v *visit) *exception {
	for i := range r.unless {
		if r.unless[i].match(cl, v) {
			return &r.unless[i]
		}
	}
	return nil
}

// depthBound is what the cleaner does with a node deeper than maxDepth: it
// drops it without asking the table.
var depthBound = rule{name: "depth-bound", action: drop}

// readingName names the reading cl cleans with (see Decision.Reading).
func (cl *cleaner) readingName() string {
	switch {
	case cl.shown:
		return "shown"
	case cl.byHints:
		return "strict"
	}
	return "lenient"
}
