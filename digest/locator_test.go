package digest

import (
	"encoding/json"
	"errors"
	"strconv"
	"strings"
	"testing"
)

func TestParseLocator(t *testing.T) {
	tests := []struct {
		in   string
		want Locator
		ok   bool
	}{
		{"char:0-0", Locator{0, 0, 0}, true},
		{"char:3-17", Locator{0, 3, 17}, true},
		{"page:2:char:10-20", Locator{2, 10, 20}, true},
		{"char:5-4", Locator{}, false},
		{"page:0:char:1-2", Locator{}, false},
		{"page:-1:char:1-2", Locator{}, false},
		{"char:-1-2", Locator{}, false},
		{"char:+1-2", Locator{}, false},
		{"char:1-2-3", Locator{}, false},
		{"char: 1-2", Locator{}, false},
		{"char:1-99999999999999999999", Locator{}, false},
		{"chars:1-2", Locator{}, false},
		{"page:1:1-2", Locator{}, false},
		{"", Locator{}, false},
	}
	for _, tc := range tests {
		got, err := ParseLocator(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParseLocator(%q) = %+v, %v; want %+v ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
		if err != nil && !errors.Is(err, ErrLocator) {
			t.Errorf("ParseLocator(%q) error does not wrap ErrLocator", tc.in)
		}
		if tc.ok && got.String() != tc.in {
			t.Errorf("String() = %q, want %q", got.String(), tc.in)
		}
		// In JSON a Locator is its text form, read back by the same parser.
		var back Locator
		err = json.Unmarshal([]byte(strconv.Quote(tc.in)), &back)
		if (err == nil) != tc.ok || back != got {
			t.Errorf("json.Unmarshal(%q) = %+v, %v", tc.in, back, err)
		}
		if b, _ := json.Marshal(got); tc.ok && string(b) != strconv.Quote(tc.in) {
			t.Errorf("json.Marshal(%+v) = %s", got, b)
		}
		if tc.ok && !got.Valid() {
			t.Errorf("%+v: parsed but not Valid", got)
		}
	}
	if Invalid.Valid() {
		t.Error("Invalid is valid")
	}
}

// pySlice is Python's text[start:end] on a str: code point indexing.
func pySlice(text string, start, end int) string {
	r := []rune(text)
	return string(r[start:end])
}

func TestSliceIsPythonSlicing(t *testing.T) {
	// Accents (precomposed and combining), CJK, emoji (astral plane), a
	// flag (two code points), and ZWJ sequences: every offset counts code
	// points, never bytes or UTF-16 units.
	text := "Café e\u0301 東京都 🎉🇩🇪 👩‍💻 end"
	n := len([]rune(text))
	for start := 0; start <= n; start++ {
		for end := start; end <= n; end++ {
			got, err := Locator{Start: start, End: end}.Slice(text)
			if err != nil {
				t.Fatalf("Slice(%d,%d): %v", start, end, err)
			}
			if want := pySlice(text, start, end); got != want {
				t.Fatalf("Slice(%d,%d) = %q, want %q", start, end, got, want)
			}
		}
	}
	if _, err := (Locator{Start: 0, End: n + 1}).Slice(text); err == nil {
		t.Error("a span past the end sliced")
	}
}

func TestSlicePages(t *testing.T) {
	text := "page one\fpage two é\fthree"
	for _, tc := range []struct {
		loc  Locator
		want string
		ok   bool
	}{
		{Locator{1, 0, 4}, "page", true},
		{Locator{2, 9, 13}, "page", true},
		{Locator{2, 18, 19}, "é", true},
		{Locator{1, 9, 13}, "", false}, // wrong page
		{Locator{1, 5, 12}, "", false}, // crosses a page
		{Locator{3, 20, 25}, "three", true},
		{Locator{0, 5, 12}, "one\fpag", true}, // char form has no page rule
	} {
		got, err := tc.loc.Slice(text)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("%s: %q, %v; want %q ok=%v", tc.loc, got, err, tc.want, tc.ok)
		}
	}
}

func TestPaginateLocators(t *testing.T) {
	text := "Alpha beta.\fGamma 🎉 delta."
	p := &Payload{EvidenceSnippets: []EvidenceSnippet{
		{Text: "Gamma 🎉", Locator: Locator{Start: 12, End: 19}},
		{Text: "Alpha", Locator: Locator{Start: 0, End: 5}},
	}}
	if err := PaginateLocators(p, text); err != nil {
		t.Fatal(err)
	}
	if p.EvidenceSnippets[0].Locator.String() != "page:2:char:12-19" || p.EvidenceSnippets[1].Locator.String() != "page:1:char:0-5" {
		t.Errorf("got %+v", p.EvidenceSnippets)
	}
	for _, s := range p.EvidenceSnippets {
		if err := s.Locator.Verify(text, s.Text); err != nil {
			t.Error(err)
		}
	}
	cross := &Payload{EvidenceSnippets: []EvidenceSnippet{{Text: "beta.\fGamma", Locator: Locator{Start: 6, End: 17}}}}
	if err := PaginateLocators(cross, text); err == nil {
		t.Error("a snippet across pages was paginated")
	}
}

func TestHashes(t *testing.T) {
	// Reference values computed with Python: hashlib.sha256(s.encode()).hexdigest().
	if got := SourceTextHash("hello"); got != "sha256:2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" {
		t.Errorf("SourceTextHash = %s", got)
	}
	// The query is NFC'd, white space collapsed and trimmed before hashing.
	a, b := QueryHash("  what   is\tcafe\u0301?\n"), QueryHash("what is café?")
	if a != b || len(a) != 8 || strings.ToLower(a) != a {
		t.Errorf("QueryHash: %q vs %q", a, b)
	}
	if QueryHash("hello") != "2cf24dba" {
		t.Errorf("QueryHash(hello) = %s", QueryHash("hello"))
	}
}

func FuzzParseLocator(f *testing.F) {
	for _, s := range []string{"char:0-1", "page:3:char:10-20", "page:0:char:1-2", "char:9-3", "char:1-", "page::char:1-2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		loc, err := ParseLocator(s)
		if err != nil {
			return
		}
		if loc.Start < 0 || loc.Start > loc.End || loc.Page < 0 {
			t.Fatalf("ParseLocator(%q) accepted %+v", s, loc)
		}
		again, err := ParseLocator(loc.String())
		if err != nil || again != loc {
			t.Fatalf("round trip of %q: %+v, %v", s, again, err)
		}
	})
}
