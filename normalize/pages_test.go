package normalize

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestPageIndex(t *testing.T) {
	text := "ab" + PageBreak + "cd" + PageBreak + "é🎉"
	x := IndexPages(text)
	if x.Count() != 3 || !x.Paged() || !slices.Equal(x.Starts(), []int{0, 3, 6}) {
		t.Fatalf("IndexPages: %d pages at %v, paged %t; want 3 at [0 3 6]", x.Count(), x.Starts(), x.Paged())
	}
	for _, tc := range []struct{ off, page, rel int }{{0, 1, 0}, {2, 1, 2}, {3, 2, 0}, {5, 2, 2}, {6, 3, 0}, {8, 3, 2}, {100, 3, 94}} {
		if got := x.PageOf(tc.off); got != tc.page {
			t.Errorf("PageOf(%d) = %d, want %d", tc.off, got, tc.page)
		}
		if page, rel := x.Relative(tc.off); page != tc.page || rel != tc.rel {
			t.Errorf("Relative(%d) = %d, %d; want %d, %d", tc.off, page, rel, tc.page, tc.rel)
		}
	}
	for _, tc := range []struct {
		start, end, page  int
		onePage, hasBreak bool
	}{
		{0, 2, 1, true, false},
		{0, 3, 1, true, true}, // ends with page 1's separator
		{1, 4, 1, false, true},
		{3, 5, 2, true, false},
		{2, 2, 1, true, false}, // empty, at the separator
		{3, 3, 2, true, false},
		{6, 8, 3, true, false},
	} {
		page, one := x.Span(tc.start, tc.end)
		if page != tc.page || one != tc.onePage {
			t.Errorf("Span(%d, %d) = %d, %t; want %d, %t", tc.start, tc.end, page, one, tc.page, tc.onePage)
		}
		if got := x.HasBreak(tc.start, tc.end); got != tc.hasBreak {
			t.Errorf("HasBreak(%d, %d) = %t, want %t", tc.start, tc.end, got, tc.hasBreak)
		}
	}
}

func TestPageIndexOfUnpagedText(t *testing.T) {
	for _, text := range []string{"", "one page\nof two blocks"} {
		x := IndexPages(text)
		if x.Count() != 1 || x.Paged() || x.PageOf(len(text)) != 1 || !slices.Equal(x.Starts(), []int{0}) {
			t.Errorf("IndexPages(%q): %d pages at %v", text, x.Count(), x.Starts())
		}
	}
	if (PageIndex{}).Count() != 1 {
		t.Error("the zero PageIndex is not one page")
	}
}

// The index agrees with counting separators rune by rune, on the pages
// Pages makes of texts in several scripts.
func TestPageIndexAgreesWithTheText(t *testing.T) {
	text := Pages([]string{"Grüße aus Köln", "", "日本語のページ", "🎉 and a\nsecond block", "last"})
	x := IndexPages(text)
	if x.Count() != 5 {
		t.Fatalf("%d pages, want 5", x.Count())
	}
	page, rel, off := 1, 0, 0
	for _, r := range text {
		if p, q := x.Relative(off); p != page || q != rel {
			t.Fatalf("Relative(%d) = %d, %d; counting gives %d, %d", off, p, q, page, rel)
		}
		off++
		rel++
		if r == PageSeparator {
			page++
			rel = 0
		}
	}
	if n := utf8.RuneCountInString(text); x.PageOf(n) != 5 || len(strings.Split(text, PageBreak)) != 5 {
		t.Errorf("the end of the text is on page %d", x.PageOf(n))
	}
}

// On any string, the index agrees with walking it rune by rune (as Go and
// Python count code points) and counting separators.
func FuzzPageIndex(f *testing.F) {
	f.Add("ab" + PageBreak + "cd" + PageBreak + "é🎉")
	f.Add(PageBreak + PageBreak)
	f.Add("\xff" + PageBreak + "x")
	f.Fuzz(func(t *testing.T, text string) {
		x := IndexPages(text)
		page, rel, off := 1, 0, 0
		for _, r := range text {
			if p, q := x.Relative(off); p != page || q != rel {
				t.Fatalf("Relative(%d) = %d, %d; counting gives %d, %d", off, p, q, page, rel)
			}
			off++
			rel++
			if r == PageSeparator {
				page++
				rel = 0
			}
		}
		if x.Count() != page || x.PageOf(off) != page || x.Paged() != (page > 1) {
			t.Fatalf("%d pages, end on page %d; counting gives %d", x.Count(), x.PageOf(off), page)
		}
	})
}
