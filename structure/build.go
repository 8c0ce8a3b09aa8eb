package structure

import (
	"slices"
	"unicode/utf8"

	"github.com/digestd/digestd/normalize"
)

// Builder records spans over an extractor's raw text as the extractor
// writes it, in byte offsets of that text; Map then carries them onto the
// canonical text. The zero value is ready to use.
type Builder struct {
	spans []Span
}

// Add records sp, whose Start and End are byte offsets of the raw text.
// A span with End <= Start is ignored (by Map).
func (b *Builder) Add(sp Span) {
	b.spans = append(b.spans, sp)
}

// Open records a span of sp's kind and attributes that starts at byte
// offset at, and returns its index for Close.
func (b *Builder) Open(sp Span, at int) int {
	sp.Start, sp.End = at, at
	b.spans = append(b.spans, sp)
	return len(b.spans) - 1
}

// Close ends the span Open returned as i at byte offset at.
func (b *Builder) Close(i, at int) {
	b.spans[i].End = at
}

// Spans returns the spans recorded, in raw byte offsets.
func (b *Builder) Spans() []Span { return b.spans }

// Map carries spans over raw (byte offsets) onto canon, raw's canonical
// form (Canonical, or Pages of the pages raw joins with the page
// separator), in code points: each span trimmed of white space and
// separators at its ends, and dropped when nothing is left of it, when it
// is not at its kind's place, or when it would cut across a span before
// it. Attributes out of their bounds are brought in (a heading below 6 is
// 6, a target over MaxHrefBytes drops its link). The result keeps every
// rule of Check. Its error is normalize.ErrMisaligned when canon is not
// raw's canonical form.
func Map(raw, canon string, spans []Span) (*Structure, error) {
	offs := make([]int, 0, 2*len(spans))
	for _, sp := range spans {
		if sp.End > sp.Start {
			offs = append(offs, sp.Start, sp.End)
		}
	}
	slices.Sort(offs)
	offs = slices.Compact(offs)
	var before, after []int
	if raw == canon {
		// Spans over the canonical text itself: bytes to code points.
		before = make([]int, len(offs))
		cp, b := 0, 0
		for i, o := range offs {
			cp += utf8.RuneCountInString(canon[b:min(o, len(canon))])
			b = min(o, len(canon))
			before[i] = cp
		}
		after = before
	} else {
		var err error
		if before, after, err = normalize.Align(raw, canon, offs); err != nil {
			return nil, err
		}
	}
	at := func(o int) int {
		i, _ := slices.BinarySearch(offs, o)
		return i
	}
	runes := []rune(canon)
	n := len(runes)
	sep := func(i int) bool { return runes[i] == '\n' || runes[i] == normalize.PageSeparator }
	blank := func(i int) bool { return runes[i] == ' ' || sep(i) }
	out := make([]Span, 0, len(spans))
	for _, sp := range spans {
		if sp.End <= sp.Start {
			continue
		}
		sp.Start, sp.End = after[at(sp.Start)], before[at(sp.End)]
		for sp.Start < sp.End && blank(sp.Start) {
			sp.Start++
		}
		for sp.End > sp.Start && blank(sp.End-1) {
			sp.End--
		}
		if sp.Start >= sp.End || !fitAttrs(&sp) {
			continue
		}
		switch placeOf(sp.Kind) {
		case blocks:
			if (sp.Start > 0 && !sep(sp.Start-1)) || (sp.End < n && !sep(sp.End)) {
				continue
			}
		case inline:
			if slices.ContainsFunc(runes[sp.Start:sp.End], func(r rune) bool { return r == '\n' || r == normalize.PageSeparator }) {
				continue
			}
		}
		out = append(out, sp)
	}
	s := &Structure{Spans: out}
	s.Sort()
	s.Spans = nested(s.Spans)
	return s, nil
}

// fitAttrs brings sp's attributes into their bounds, and reports whether
// sp is kept.
func fitAttrs(sp *Span) bool {
	switch sp.Kind {
	case Heading:
		sp.Level = min(max(sp.Level, 1), MaxHeadingLevel)
	case Item:
		sp.Level = min(max(sp.Level, 1), MaxDepth)
	case Link:
		return sp.Href != "" && len(sp.Href) <= MaxHrefBytes
	}
	return rank(sp.Kind) < len(Kinds) && checkAttrs(*sp) == ""
}

// nested drops from ordered spans each that cuts across a span before it,
// a block kind inside an inline one, and spans nested over MaxDepth deep.
func nested(spans []Span) []Span {
	out := spans[:0]
	var open []Span
	for _, sp := range spans {
		for len(open) > 0 && open[len(open)-1].End <= sp.Start {
			open = open[:len(open)-1]
		}
		if len(open) > 0 {
			outer := open[len(open)-1]
			if sp.End > outer.End || (placeOf(outer.Kind) == inline && placeOf(sp.Kind) == blocks) || outer == sp {
				continue
			}
		}
		if len(open) == MaxDepth {
			continue
		}
		open = append(open, sp)
		out = append(out, sp)
	}
	return out
}
