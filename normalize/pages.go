package normalize

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// PageBreak is PageSeparator as a string, for searching and splitting.
const PageBreak = string(PageSeparator)

// PageIndex says where the pages of a canonical text begin, in code points.
// It is built once per text, by IndexPages, and answers every question about
// pages from then on (which page holds an offset, whether a span stays on
// one page, an offset relative to its page) without reading the text again.
// Page numbers are 1-based. A text without a page separator has one page,
// beginning at 0. The zero PageIndex is that of a text of one page.
type PageIndex struct {
	// starts[i] is the code point offset at which page i+2 begins (page 1
	// begins at 0 and is not stored, so an unpaged text allocates nothing).
	starts []int
}

// IndexPages reads text once and returns its page index.
func IndexPages(text string) PageIndex {
	var x PageIndex
	cp, from := 0, 0
	for {
		i := strings.IndexByte(text[from:], PageSeparator)
		if i < 0 {
			return x
		}
		cp += utf8.RuneCountInString(text[from:from+i]) + 1
		x.starts = append(x.starts, cp)
		from += i + 1
	}
}

// Count is the number of pages: one more than the page separators.
func (x PageIndex) Count() int { return len(x.starts) + 1 }

// Paged reports whether the text holds a page separator (has two pages or
// more). A PDF of one page is paginated without being Paged.
func (x PageIndex) Paged() bool { return len(x.starts) > 0 }

// Starts returns the code point offset at which each page begins, page 1's
// (0) first.
func (x PageIndex) Starts() []int { return append([]int{0}, x.starts...) }

// PageOf returns the page that holds code point offset off: 1 plus the
// page separators before off. An offset past the end is on the last page.
func (x PageIndex) PageOf(off int) int {
	return 1 + sort.SearchInts(x.starts, off+1)
}

// Span returns the page that holds the span [start, end) of code points and
// whether the span lies wholly on it: false when a page begins inside the
// span, past start (a span may end with its page's separator, not run over
// it). An empty span is on the page of start.
func (x PageIndex) Span(start, end int) (page int, onePage bool) {
	page = x.PageOf(start)
	return page, x.PageOf(max(start, end-1)) == page
}

// HasBreak reports whether a page separator lies in the span [start, end)
// of code points, even as its last character: such a span is not the text
// of one page.
func (x PageIndex) HasBreak(start, end int) bool { return x.PageOf(end) != x.PageOf(start) }

// Relative returns the page holding code point offset off and off's offset
// from the page's beginning.
func (x PageIndex) Relative(off int) (page, rel int) {
	page = x.PageOf(off)
	if page == 1 {
		return 1, off
	}
	return page, off - x.starts[page-2]
}
