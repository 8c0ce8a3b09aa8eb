package normalize

import (
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestCanonical(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"empty", "", ""},
		{"spaces collapse", "  a \t b\u00a0\u2003c  ", "a b c"},
		{"blocks", "one\n\n\ntwo\r\nthree\rfour", "one\ntwo\nthree\nfour"},
		{"unicode line breaks", "a\u2028b\u2029c\u0085d\vE", "a\nb\nc\nd\nE"},
		{"blank blocks dropped", "\n \n\t\nx\n \n", "x"},
		{"nfc", "e\u0301cole", "\u00e9cole"},
		{"hangul jamo compose", "\u1100\u1161", "\uac00"},
		{"controls dropped", "a\x00b\x07c\x1bd", "abcd"},
		{"control between base and mark", "e\x01\u0301", "\u00e9"},
		{"zero width dropped", "foo\u200bbar\ufeff", "foobar"},
		{"soft hyphen dropped", "hy\u00adphen", "hyphen"},
		{"invalid utf8 dropped", "a\xffb", "ab"},
		{"form feed is a block break", "p1 a\np1 b\fp2\f\fp4", "p1 a\np1 b\np2\np4"},
		{"form feed edges trimmed", " \n a \n\f\n b ", "a\nb"},
		{"emoji and cjk", "東京  🎉\tok", "東京 🎉 ok"},
	}
	for _, tc := range tests {
		if got := Canonical(tc.in); got != tc.want {
			t.Errorf("%s: Canonical(%q) = %q, want %q", tc.name, tc.in, got, tc.want)
		}
	}
}

func TestPages(t *testing.T) {
	got := Pages([]string{"first page\n\nmore", "", "third\fwith a stray form feed"})
	want := "first page\nmore\f\fthird\nwith a stray form feed"
	if got != want {
		t.Errorf("Pages = %q, want %q", got, want)
	}
	if n := strings.Count(got, "\f"); n != 2 {
		t.Errorf("%d page separators for 3 pages", n)
	}
}

// checkCanonical asserts every rule of canonical text on s.
func checkCanonical(t *testing.T, in, s string) {
	t.Helper()
	if !utf8.ValidString(s) {
		t.Fatalf("Canonical(%q) is not UTF-8", in)
	}
	// x/text's IsNormalString rejects runs of over 30 marks (stream-safe
	// format), so NFC is checked as a fixed point of the exact composer.
	if nfc(s) != s {
		t.Fatalf("Canonical(%q) = %q is not NFC", in, s)
	}
	if strings.ContainsRune(s, PageSeparator) {
		t.Fatalf("Canonical(%q) = %q has a page separator", in, s)
	}
	for _, page := range strings.Split(s, "\f") {
		if page == "" {
			continue
		}
		for _, block := range strings.Split(page, "\n") {
			if block == "" || strings.HasPrefix(block, " ") || strings.HasSuffix(block, " ") || strings.Contains(block, "  ") {
				t.Fatalf("Canonical(%q) = %q has a bad block %q", in, s, block)
			}
			for _, r := range block {
				if unicode.IsControl(r) || (unicode.IsSpace(r) && r != ' ') {
					t.Fatalf("Canonical(%q) = %q keeps %U", in, s, r)
				}
			}
		}
	}
}

func FuzzCanonical(f *testing.F) {
	for _, s := range []string{"", "a b", "e\u0301", "a" + strings.Repeat("\u0301", 40), "x\fy", "\u1100\x01\u1161", "a\u2028b", "\xff\xfe", " \f ", "東京🎉"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, in string) {
		once := Canonical(in)
		checkCanonical(t, in, once)
		if twice := Canonical(once); twice != once {
			t.Fatalf("not idempotent: Canonical(%q) = %q, again %q", in, once, twice)
		}
	})
}
