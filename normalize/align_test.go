package normalize

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestAlign maps the words of raw texts to their canonical forms: each
// word, found in raw by its bytes, maps to the same word in canon.
func TestAlign(t *testing.T) {
	tests := []struct {
		name, raw string
		words     []string // raw substrings, each mapped
		want      []string // what each maps to in canon
	}{
		{"plain", "one two", []string{"one", "two", "one two"}, []string{"one", "two", "one two"}},
		{"spaces collapse", "  a \t bb\u00a0\u2003c  ", []string{"bb", "c  ", "a \t bb"}, []string{"bb", "c", "a bb"}},
		{"blocks", "one\n\n\ntwo\r\nthree", []string{"two", "one\n\n\ntwo"}, []string{"two", "one\ntwo"}},
		{"nfc", "e\u0301cole ok", []string{"e\u0301cole", "ok"}, []string{"\u00e9cole", "ok"}},
		{"hangul", "\u1100\u1161 x", []string{"x", "\u1100\u1161"}, []string{"x", "\uac00"}},
		{"control between base and mark", "ab e\x01\u0301 cd", []string{"cd", "e\x01\u0301"}, []string{"cd", "\u00e9"}},
		{"zero width", "foo\u200bbar baz", []string{"baz", "foo\u200bbar"}, []string{"baz", "foobar"}},
		{"invalid utf8", "a\xffb c", []string{"c", "a\xffb"}, []string{"c", "ab"}},
		{"emoji", "東京  🎉\tok", []string{"🎉", "ok"}, []string{"🎉", "ok"}},
	}
	for _, tc := range tests {
		canon := Canonical(tc.raw)
		for i, w := range tc.words {
			s := strings.Index(tc.raw, w)
			before, after, err := Align(tc.raw, canon, []int{s, s + len(w)})
			if err != nil {
				t.Fatalf("%s: %v", tc.name, err)
			}
			got := strings.TrimSpace(cpSlice(canon, after[0], before[1]))
			if got != tc.want[i] {
				t.Errorf("%s: %q maps to %q, want %q", tc.name, w, got, tc.want[i])
			}
		}
	}
}

// TestAlignPages aligns the pages of a paginated text joined by the page
// separator.
func TestAlignPages(t *testing.T) {
	pages := []string{"first  page\n\nmore", "", " \u00a0", "third\fwith"}
	raw := strings.Join(pages, PageBreak)
	canon := Pages(pages)
	s := strings.Index(raw, "third")
	before, after, err := Align(raw, canon, []int{s, s + len("third\fwith")})
	if err != nil {
		t.Fatal(err)
	}
	if got := cpSlice(canon, after[0], before[1]); got != "third\nwith" {
		t.Errorf("got %q", got)
	}
}

// TestAlignRefusesAnotherText: a text that is not raw's canonical form is
// ErrMisaligned.
func TestAlignRefusesAnotherText(t *testing.T) {
	if _, _, err := Align("one two", "one tw0", []int{0}); err == nil {
		t.Error("aligned against another text")
	}
}

// FuzzAlign: on any raw text, alignment with its canonical form succeeds,
// and offsets map in order within the text.
func FuzzAlign(f *testing.F) {
	for _, s := range []string{"a b", "e\u0301\u200b\u0301 x", " \n\f\u2028y", "a\xff\u0300"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		canon := Canonical(raw)
		offs := make([]int, 0, len(raw)+1)
		for i := 0; i <= len(raw); i++ {
			offs = append(offs, i)
		}
		before, after, err := Align(raw, canon, offs)
		if err != nil {
			t.Fatalf("Align(%q): %v", raw, err)
		}
		n := utf8.RuneCountInString(canon)
		for i := range offs {
			if before[i] < 0 || after[i] > n || before[i] > after[i] || (i > 0 && (after[i] < after[i-1] || before[i] < before[i-1])) {
				t.Fatalf("Align(%q): offset %d maps to %d, %d", raw, offs[i], before[i], after[i])
			}
		}
	})
}

// cpSlice is s[from:to] in code points.
func cpSlice(s string, from, to int) string {
	r := []rune(s)
	if from > to {
		return ""
	}
	return string(r[from:to])
}
