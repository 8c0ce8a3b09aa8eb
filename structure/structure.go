// Package structure is the standoff structure of a canonical text:
// headings, paragraphs, lists, quotes, code, tables, links, emphasis and
// figures as typed spans over the text's code points, archived beside the
// text as a small sidecar. The canonical text never changes for them.
//
// A span [Start, End) is in code points of the canonical text. Spans nest
// properly (two spans are disjoint or one holds the other), never start or
// end on white space or a separator, and keep to their kind's place: a
// block kind begins and ends at block boundaries, an inline kind lies in
// one block. Check enforces all of it, on write and on read.
package structure

import (
	"fmt"
	"slices"
)

// Version names the sidecar's format (its encoding and its rules), the
// one Encode writes; Decode reads Version1 too.
// A change in either is a new Version.
const Version = "structure/2"

// Kind is a span's type. Kinds lists them all.
type Kind string

// The kinds of span, outermost first: of two spans with the same bounds,
// the one whose kind comes first here holds the other.
const (
	// Table is a table: its rows, one block each.
	Table Kind = "table"
	// List is a list: its items; Ordered says it is numbered.
	List Kind = "list"
	// Quote is a block quote.
	Quote Kind = "quote"
	// Figure is a figure: its caption, and any text it shows.
	Figure Kind = "figure"
	// Code is a code block, one block per line.
	Code Kind = "code"
	// Item is a list item; Level is its depth (1 for a top-level list).
	Item Kind = "li"
	// Heading is a heading; Level is its level, 1 to 6.
	Heading Kind = "h"
	// Paragraph is a paragraph.
	Paragraph Kind = "p"
	// Caption is a figure's or a table's caption.
	Caption Kind = "caption"
	// Row is a table row, one block; its cells are joined by a separator
	// that lies outside them.
	Row Kind = "tr"
	// Cell is a table cell, inside its row; Header says it is a header
	// cell.
	Cell Kind = "td"
	// Link is a link; Href is its absolute target URL.
	Link Kind = "a"
	// Emphasis is emphasised text; Strong says it is strong emphasis.
	Emphasis Kind = "em"
)

// Kinds lists every kind, outermost first.
var Kinds = []Kind{Table, List, Quote, Figure, Code, Item, Heading, Paragraph, Caption, Row, Cell, Link, Emphasis}

// place is where a kind's spans lie.
type place int

const (
	// blocks: a span of one or more whole blocks.
	blocks place = iota
	// inline: a span inside one block.
	inline
)

// placeOf says where each kind's spans lie.
func placeOf(k Kind) place {
	switch k {
	case Cell, Link, Emphasis:
		return inline
	}
	return blocks
}

// rank is k's place in Kinds (len(Kinds) for an unknown kind).
func rank(k Kind) int {
	if i := slices.Index(Kinds, k); i >= 0 {
		return i
	}
	return len(Kinds)
}

// Limits of a sidecar's spans.
const (
	// MaxHeadingLevel is the deepest heading level (HTML's h6).
	MaxHeadingLevel = 6
	// MaxDepth is the deepest list nesting and span nesting kept.
	MaxDepth = 32
	// MaxHrefBytes caps a link's target URL.
	MaxHrefBytes = 2048
)

// Span is one typed span of a canonical text, in code points.
// Its JSON form (the fields' own, for passing spans between processes)
// is not the sidecar's, which Encode writes.
type Span struct {
	Kind  Kind `json:"k"`
	Start int  `json:"s"`
	End   int  `json:"e"`
	// Level is a heading's level or a list item's depth.
	Level int `json:"l,omitempty"`
	// Ordered marks a numbered list.
	Ordered bool `json:"o,omitempty"`
	// Header marks a table's header cell.
	Header bool `json:"th,omitempty"`
	// Strong marks strong emphasis.
	Strong bool `json:"st,omitempty"`
	// Href is a link's absolute target URL.
	Href string `json:"h,omitempty"`
}

// Structure is the structure of one canonical text: its spans, ordered by
// Start, then by End descending, then by kind (Kinds' order), so that a
// span comes before every span it holds.
type Structure struct {
	Spans []Span
}

// Sort puts s's spans in their order.
func (s *Structure) Sort() {
	slices.SortStableFunc(s.Spans, compare)
}

func compare(a, b Span) int {
	switch {
	case a.Start != b.Start:
		return a.Start - b.Start
	case a.End != b.End:
		return b.End - a.End
	}
	return rank(a.Kind) - rank(b.Kind)
}

// CheckError is a structure that breaks a rule of the format: which span,
// and what.
type CheckError struct {
	Index int // the span's index, -1 for the whole
	Rule  string
}

func (e *CheckError) Error() string {
	if e.Index < 0 {
		return "structure: " + e.Rule
	}
	return fmt.Sprintf("structure: span %d: %s", e.Index, e.Rule)
}
