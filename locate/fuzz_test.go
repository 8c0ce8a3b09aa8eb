package locate

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzLocate holds the contract for any text and quote: no panic, and a
// found span is inside the text, its text being text[S:E].
func FuzzLocate(f *testing.F) {
	f.Add(sample, "the trans-\nmission of the virus")
	f.Add("a\u00ad-\n b ﬁ “x”", "A-B FI \"X\"")
	f.Add("x\fy  z", "Y Z")
	f.Add("abc", "")
	f.Fuzz(func(t *testing.T, text, quote string) {
		if !utf8.ValidString(text) || !utf8.ValidString(quote) {
			return
		}
		ix := NewIndex(text)
		m := ix.Locate(quote, 0)
		if m.Kind == NotFound {
			return
		}
		n := utf8.RuneCountInString(text)
		if m.Start < 0 || m.Start > m.End || m.End > n {
			t.Fatalf("span %d-%d outside a text of %d", m.Start, m.End, n)
		}
		got := ix.Slice(m.Start, m.End)
		if m.Kind == Exact && got != strings.TrimSpace(quote) {
			t.Fatalf("exact %q for %q", got, quote)
		}
		if m.Kind == Normalized && !strings.Contains(Fold(got), Fold(quote)) && Fold(got) != Fold(quote) {
			t.Fatalf("normalized %q does not fold to %q", got, quote)
		}
	})
}

// FuzzParseCitations: any report parses without panic into citations whose
// marker spans lie in the report.
func FuzzParseCitations(f *testing.F) {
	f.Add("It says “x y” [a#char:1-2]. [^1]\n\n[^1]: sha256:" + strings.Repeat("a", 64) + " \"q\"")
	f.Add("[a; b] [c](http://x) ![i] [^9] «quote» [1]")
	f.Add("\"open quote [a]\n\nnext\" [b]")
	f.Fuzz(func(t *testing.T, report string) {
		n := utf8.RuneCountInString(report)
		for _, c := range ParseCitations(report) {
			if c.Start < 0 || c.Start > c.End || c.End > n {
				t.Fatalf("marker %d-%d outside a report of %d", c.Start, c.End, n)
			}
		}
	})
}
