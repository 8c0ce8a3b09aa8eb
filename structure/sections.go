package structure

import (
	"slices"
	"sort"
)

// Sections is the outline of a text's headings, for finding the section
// an offset lies in: a heading's section runs from its start to the start
// of the next heading of the same or a higher level (a lower Level), and
// holds the sections of the headings below it. Build it once with
// Outline; each Path is a binary search.
type Sections struct {
	heads []Span
	// parent[i] is the index of the heading whose section holds heading
	// i's, -1 for a top-level one.
	parent []int
}

// Outline returns the headings of s (nil for none) as Sections.
func Outline(s *Structure) *Sections {
	o := &Sections{}
	if s == nil {
		return o
	}
	for _, sp := range s.Spans {
		if sp.Kind == Heading {
			o.heads = append(o.heads, sp)
		}
	}
	// Spans are ordered by start already (Check holds it); a heading
	// never holds another, so starts are distinct.
	slices.SortStableFunc(o.heads, compare)
	o.parent = make([]int, len(o.heads))
	var open []int // indexes of the headings whose sections are open, outermost first
	for i, h := range o.heads {
		for len(open) > 0 && o.heads[open[len(open)-1]].Level >= h.Level {
			open = open[:len(open)-1]
		}
		o.parent[i] = -1
		if len(open) > 0 {
			o.parent[i] = open[len(open)-1]
		}
		open = append(open, i)
	}
	return o
}

// Len is the number of headings.
func (o *Sections) Len() int { return len(o.heads) }

// Path returns the headings whose sections hold code point offset at,
// outermost first: the last heading that starts at or before at, and the
// headings whose sections hold its own. A heading's own text lies in its
// section. Nil when at lies before every heading.
func (o *Sections) Path(at int) []Span {
	i := sort.Search(len(o.heads), func(i int) bool { return o.heads[i].Start > at }) - 1
	if i < 0 {
		return nil
	}
	var path []Span
	for ; i >= 0; i = o.parent[i] {
		path = append(path, o.heads[i])
	}
	slices.Reverse(path)
	return path
}
