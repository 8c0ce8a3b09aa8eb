package structure

import (
	"unicode/utf8"

	"github.com/digestd/digestd/normalize"
)

// Check reports the first rule s breaks over text, the canonical text it
// annotates, as a *CheckError; nil when s keeps them all. Spans are in
// order (see Structure), each of a known kind with the attributes its kind
// takes, inside the text, starting and ending on a character that is not
// white space or a separator, at its kind's place (whole blocks, or inside
// one block), and properly nested at most MaxDepth deep.
func Check(s *Structure, text string) error {
	runes := []rune(text)
	n := len(runes)
	sep := func(i int) bool { return runes[i] == '\n' || runes[i] == normalize.PageSeparator }
	blank := func(i int) bool { return runes[i] == ' ' || sep(i) }
	// seps[i] counts the separators before code point i, so that a span
	// holds one when the counts at its ends differ.
	seps := make([]int32, n+1)
	for i, r := range runes {
		seps[i+1] = seps[i]
		if r == '\n' || r == normalize.PageSeparator {
			seps[i+1]++
		}
	}
	var open []Span
	for i, sp := range s.Spans {
		fail := func(rule string) error { return &CheckError{Index: i, Rule: rule} }
		if err := checkAttrs(sp); err != "" {
			return fail(err)
		}
		switch {
		case sp.Start < 0 || sp.End > n || sp.Start >= sp.End:
			return fail("bounds outside the text or empty")
		case blank(sp.Start) || blank(sp.End-1):
			return fail("starts or ends on white space or a separator")
		case i > 0 && compare(s.Spans[i-1], sp) > 0:
			return fail("out of order")
		}
		switch placeOf(sp.Kind) {
		case blocks:
			if (sp.Start > 0 && !sep(sp.Start-1)) || (sp.End < n && !sep(sp.End)) {
				return fail("a block kind that does not begin and end at block boundaries")
			}
		case inline:
			if seps[sp.End] != seps[sp.Start] {
				return fail("an inline kind across blocks")
			}
		}
		for len(open) > 0 && open[len(open)-1].End <= sp.Start {
			open = open[:len(open)-1]
		}
		if len(open) > 0 {
			outer := open[len(open)-1]
			if sp.End > outer.End {
				return fail("overlaps a span it is not inside")
			}
			if placeOf(outer.Kind) == inline && placeOf(sp.Kind) == blocks {
				return fail("a block kind inside an inline kind")
			}
		}
		if len(open) == MaxDepth {
			return fail("nested too deep")
		}
		open = append(open, sp)
	}
	return nil
}

// checkAttrs says what is wrong with sp's attributes for its kind ("" for
// nothing).
func checkAttrs(sp Span) string {
	switch sp.Kind {
	case Heading:
		if sp.Level < 1 || sp.Level > MaxHeadingLevel {
			return "a heading's level outside 1-6"
		}
	case Item:
		if sp.Level < 1 || sp.Level > MaxDepth {
			return "a list item's depth outside 1-32"
		}
	case Link:
		if sp.Href == "" || len(sp.Href) > MaxHrefBytes || !utf8.ValidString(sp.Href) {
			return "a link without a target, or one too long"
		}
	default:
		if rank(sp.Kind) == len(Kinds) {
			return "an unknown kind"
		}
	}
	if sp.Level != 0 && sp.Kind != Heading && sp.Kind != Item ||
		sp.Ordered && sp.Kind != List || sp.Header && sp.Kind != Cell ||
		sp.Strong && sp.Kind != Emphasis || sp.Href != "" && sp.Kind != Link {
		return "an attribute its kind does not take"
	}
	return ""
}
