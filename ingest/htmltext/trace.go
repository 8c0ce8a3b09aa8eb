package htmltext

import (
	"fmt"
	"io"
	"maps"
	"slices"
	"strings"

	"golang.org/x/net/html"
)

// Trace records the decisions of the extractor's rule table on one page,
// in the order they were taken. Extract takes a trace only when asked (see
// Options.Trace); without one, no decision is recorded.
type Trace struct {
	Decisions []Decision
}

// Decision is one rule's decision on one block of the page.
type Decision struct {
	// Reading is the reading of the page the decision was taken in:
	// "strict" (class and id hints trusted), "lenient" (hints ignored,
	// when the strict reading found little) or "shown" (hidden parts
	// read, when both found next to nothing).
	Reading string `json:"reading"`
	// Rule names the rule (see Rules), or "rule/exception" for a node a
	// rule matched and one of its exceptions kept; Action is "keep",
	// "drop" or "drop-unmarked".
	Rule   string `json:"rule"`
	Action string `json:"action"`
	// Element is the block's tag, with its id and classes when it has
	// them ("div#promo.box.wide").
	Element string `json:"element"`
	// Chars is the block's visible characters (white space not counted)
	// and LinkChars those inside links.
	Chars     int `json:"chars"`
	LinkChars int `json:"link_chars"`
	// Limits are the thresholds the rule reads, by name.
	Limits map[string]int `json:"limits,omitempty"`
	// Text is the start of the block's text, at most traceTextChars
	// characters.
	Text string `json:"text"`
}

// traceTextChars bounds the text a decision quotes of its block.
const traceTextChars = 80

// record adds the decision of the rule (or "rule/exception") named rule
// on n in cl's reading, with the thresholds it read.
func (t *Trace) record(cl *cleaner, rule, action string, limits []limit, n *html.Node) {
	d := Decision{Reading: cl.reading(), Rule: rule, Action: action, Element: describe(n)}
	if n.Type == html.ElementNode {
		d.Chars, d.LinkChars = textAndLinks(n)
		d.Text = quote(n, traceTextChars)
	}
	if len(limits) > 0 {
		d.Limits = make(map[string]int, len(limits))
		for _, l := range limits {
			d.Limits[l.name] = l.value
		}
	}
	t.Decisions = append(t.Decisions, d)
}

// reading names the reading cl cleans with (see Decision.Reading).
func (cl *cleaner) reading() string {
	switch {
	case cl.shown:
		return "shown"
	case cl.byHints:
		return "strict"
	}
	return "lenient"
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

// WriteText writes the trace as lines of text, one decision a line:
// reading, action, rule, element, its numbers and the start of its text.
func (t *Trace) WriteText(w io.Writer) error {
	for _, d := range t.Decisions {
		var lim []string
		for _, name := range slices.Sorted(maps.Keys(d.Limits)) {
			lim = append(lim, fmt.Sprintf(" %s=%d", name, d.Limits[name]))
		}
		if _, err := fmt.Fprintf(w, "%-7s %-13s %-20s %s chars=%d links=%d%s %q\n",
			d.Reading, d.Action, d.Rule, d.Element, d.Chars, d.LinkChars, strings.Join(lim, ""), d.Text); err != nil {
			return err
		}
	}
	return nil
}
