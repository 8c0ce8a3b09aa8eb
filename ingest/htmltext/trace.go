package htmltext

import (
	"fmt"
	"io"
	"maps"
	"math"
	"slices"
	"strings"

	"github.com/digestd/digestd/internal/htmlwalk"
	"golang.org/x/net/html"
)

// Trace records the extractor's decisions on one page, in the order they
// were taken: the cleaner's table (see Rules) and the named rules of the
// stages after it (see Stages): the main-content search, the emission and
// the page's outcome. Extract takes a trace only when asked (see
// Options.Trace); without one, nothing is recorded.
type Trace struct {
	Decisions []Decision
	// reading is the reading decisions are now taken in, pass the number
	// of the current pass over a tree (see begin).
	reading string
	pass    int
}

// Decision is one rule's decision on one block of the page.
type Decision struct {
	// Reading is the reading of the page the decision was taken in:
	// "strict" (class and id hints trusted), "lenient" (hints ignored,
	// when the strict reading found little) or "shown" (hidden parts
	// read, when both found next to nothing); "page" for a decision on
	// the outcome of the readings.
	Reading string `json:"reading"`
	// Stage is the part of the extractor that decided: "clean" (the
	// rule table), "search" (choosing the main content), "emit" (writing
	// it as blocks) or "page".
	Stage string `json:"stage"`
	// Final is set for a decision of the passes the text came from; the
	// others belong to readings the extractor tried and left.
	Final bool `json:"final"`
	// Rule names the rule (see Rules and Stages), or "rule/exception"
	// for a node a rule matched and one of its exceptions kept; Action
	// is "keep", "drop" or "drop-unmarked".
	Rule   string `json:"rule"`
	Action string `json:"action"`
	// Element is the block's tag, with its id and classes when it has
	// them ("div#promo.box.wide").
	Element string `json:"element"`
	// Chars is the block's visible characters (white space not counted)
	// and LinkChars those inside links.
	Chars     int `json:"chars"`
	LinkChars int `json:"link_chars"`
	// Score is the block's content score in the main-content search (0
	// when it has none).
	Score float64 `json:"score,omitempty"`
	// Limits are the thresholds the rule reads, by name, and for some
	// rules the page's own measures they were compared with.
	Limits map[string]int `json:"limits,omitempty"`
	// Text is the start of the block's text, at most traceTextChars
	// characters.
	Text string `json:"text"`
	// pass is the pass over a tree the decision was taken in (see
	// Trace.begin); removed is the whole text a drop removed.
	pass    int
	removed string
}

// traceTextChars bounds the text a decision quotes of its block.
const traceTextChars = 80

// A nil *Trace records nothing: its methods return at once, so that a
// trace that is off costs a test of a pointer.

// begin starts a pass over a tree in the named reading and returns its
// number: the decisions recorded until the next begin are its own.
func (t *Trace) begin(reading string) int {
	if t == nil {
		return 0
	}
	t.reading = reading
	t.pass++
	return t.pass
}

// finish marks final the decisions of the passes named.
func (t *Trace) finish(passes ...int) {
	if t == nil {
		return
	}
	for i := range t.Decisions {
		for _, p := range passes {
			if t.Decisions[i].pass == p {
				t.Decisions[i].Final = true
			}
		}
	}
}

// record adds the decision of the rule (or "rule/exception") named rule,
// of stage, on node n, with the thresholds it read.
func (t *Trace) record(stage, rule, action string, limits []limit, n *html.Node) {
	if t == nil {
		return
	}
	d := Decision{Reading: t.reading, Stage: stage, Rule: rule, Action: action, Element: describe(n), pass: t.pass}
	if n.Type == html.ElementNode {
		d.Chars, d.LinkChars = textAndLinks(n)
		d.Text = quote(n, traceTextChars)
		if action != "keep" {
			d.removed = allText(n)
		}
	} else if n.Type == html.TextNode && action != "keep" {
		d.removed = collapse(n.Data)
		d.Text = clip(d.removed, traceTextChars)
		d.Chars, _ = runLen(n.Data)
	}
	d.Limits = limitMap(limits)
	t.Decisions = append(t.Decisions, d)
}

// recordClean adds the decision of the cleaner's rule r on node n.
func (t *Trace) recordClean(r *rule, n *html.Node) {
	if t == nil {
		return
	}
	t.record(stageClean, r.name, r.action.String(), r.limits(), n)
}

// recordBlock adds the decision of rule r on emitted block b.
func (t *Trace) recordBlock(r *stageRule, b block) {
	if t == nil {
		return
	}
	d := Decision{Reading: t.reading, Stage: r.stage, Rule: r.name, Action: r.action.String(), Element: "#text",
		Chars: b.chars, LinkChars: b.links, Limits: limitMap(r.limits()), Text: clip(b.text, traceTextChars), pass: t.pass}
	if b.at != nil {
		d.Element = describe(b.at)
	}
	if r.action != keep {
		d.removed = b.text
	}
	t.Decisions = append(t.Decisions, d)
}

// recordFinal adds, as a final decision in the named reading, the
// decision of rule r on emitted block b.
func (t *Trace) recordFinal(reading string, r *stageRule, b block) {
	if t == nil {
		return
	}
	t.reading = reading
	t.recordBlock(r, b)
	t.Decisions[len(t.Decisions)-1].Final = true
}

// recordRule adds the decision of stage rule r on node n, with the
// page's measures beside its thresholds and n's score when it has one.
func (t *Trace) recordRule(r *stageRule, n *html.Node, score float64, measures ...limit) {
	if t == nil {
		return
	}
	t.record(r.stage, r.name, r.action.String(), append(append([]limit(nil), r.limits()...), measures...), n)
	t.Decisions[len(t.Decisions)-1].Score = math.Round(score*100) / 100
}

// recordDropped adds a decision of rule r for each block of before that
// the filter which made after (a subsequence of before) left out.
func (t *Trace) recordDropped(r *stageRule, before, after []block) {
	j := 0
	for _, b := range before {
		if j < len(after) && after[j].at == b.at && after[j].text == b.text {
			j++
			continue
		}
		t.recordBlock(r, b)
	}
}

// allText returns the text of every text node under n, scripts' and
// styles' included, white space collapsed: what a drop of n removes.
func allText(n *html.Node) string {
	var b strings.Builder
	for c := n; c != nil; c = htmlwalk.Next(c, n) {
		if c.Type == html.TextNode {
			b.WriteString(c.Data)
			b.WriteByte(' ')
		}
	}
	return collapse(b.String())
}

// limitMap returns limits by name, or nil when there are none.
func limitMap(limits []limit) map[string]int {
	if len(limits) == 0 {
		return nil
	}
	m := make(map[string]int, len(limits))
	for _, l := range limits {
		m[l.name] = l.value
	}
	return m
}

// describe names node n: an element by its tag, id and classes, other
// nodes by their kind.
func describe(n *html.Node) string {
	switch n.Type {
	case html.ElementNode:
	case html.CommentNode:
		return "#comment"
	case html.DoctypeNode:
		return "#doctype"
	default:
		return "#text"
	}
	var b strings.Builder
	b.WriteString(n.Data)
	if id := strings.TrimSpace(attr(n, "id")); id != "" {
		b.WriteString("#" + clip(id, 40))
	}
	for i, c := range strings.Fields(attr(n, "class")) {
		if i == 3 {
			b.WriteString(".…")
			break
		}
		b.WriteString("." + clip(c, 40))
	}
	return b.String()
}

// quote returns the start of n's visible text, white space collapsed, at
// most limit characters.
func quote(n *html.Node, limit int) string {
	var b strings.Builder
	chars := 0
	walkText(n, func(*html.Node) bool { return false }, func(c *html.Node, _ bool) bool {
		if c.Type != html.TextNode {
			return true
		}
		for _, f := range strings.Fields(c.Data) {
			if b.Len() > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(f)
			chars += len([]rune(f)) + 1
			if chars >= limit {
				return false
			}
		}
		return true
	})
	return clip(b.String(), limit)
}

// clip cuts s to at most limit characters, marking a cut with "…".
func clip(s string, limit int) string {
	r := []rune(s)
	if len(r) <= limit {
		return s
	}
	return string(r[:limit-1]) + "…"
}

// WriteText writes the trace as lines of text, one decision a line: "*"
// for a final decision (see Decision.Final), reading, stage, action,
// rule, element, its numbers and the start of its text.
func (t *Trace) WriteText(w io.Writer) error {
	for _, d := range t.Decisions {
		var lim []string
		for _, name := range slices.Sorted(maps.Keys(d.Limits)) {
			lim = append(lim, fmt.Sprintf(" %s=%d", name, d.Limits[name]))
		}
		if d.Score != 0 {
			lim = append(lim, fmt.Sprintf(" score=%g", d.Score))
		}
		final := " "
		if d.Final {
			final = "*"
		}
		if _, err := fmt.Fprintf(w, "%s %-7s %-6s %-13s %-20s %s chars=%d links=%d%s %q\n",
			final, d.Reading, d.Stage, d.Action, d.Rule, d.Element, d.Chars, d.LinkChars, strings.Join(lim, ""), d.Text); err != nil {
			return err
		}
	}
	return nil
}

// size is the number of decisions recorded, 0 without a trace.
func (t *Trace) size() int {
	if t == nil {
		return 0
	}
	return len(t.Decisions)
}

// truncate forgets the decisions after the first n (see size).
func (t *Trace) truncate(n int) {
	if t != nil {
		t.Decisions = t.Decisions[:n]
	}
}

// settle ends the page's readings: it marks final the decisions of the
// passes the text came from and records, as the page's decision, rule r
// on n (the body, or the list read as content) with its measures.
func (t *Trace) settle(r *stageRule, n *html.Node, measures []limit, passes ...int) {
	if t == nil {
		return
	}
	t.finish(passes...)
	t.reading = "page"
	t.pass++
	t.recordRule(r, n, 0, measures...)
	t.Decisions[len(t.Decisions)-1].Final = true
}

// recordPage records, as a final decision of the page, rule r on the
// page's text: removed is what it left out, if anything.
func (t *Trace) recordPage(r *stageRule, removed string, measures ...limit) {
	if t == nil {
		return
	}
	d := Decision{Reading: "page", Stage: r.stage, Final: true, Rule: r.name, Action: r.action.String(), Element: "body",
		Limits: limitMap(append(append([]limit(nil), r.limits()...), measures...)), Text: clip(removed, traceTextChars)}
	if r.action != keep {
		d.Chars, _ = runLen(removed)
		d.removed = removed
	}
	t.Decisions = append(t.Decisions, d)
}
