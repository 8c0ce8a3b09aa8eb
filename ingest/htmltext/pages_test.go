package htmltext

import (
	"bytes"
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// A pageCase is a fixture page and what the text extracted from it must
// show. Its name says which rule of the extractor the case guards.
type pageCase struct {
	name    string
	fixture string
	// edit, when set, rewrites the fixture before it is extracted (the same
	// page declaring another type); an edit that changes nothing fails.
	edit   func(raw []byte) []byte
	has    []string       // phrases the text holds
	hasNot []string       // phrases the text does not hold
	counts map[string]int // phrases the text holds exactly so many times
	order  []string       // phrases the text holds in this order
}

// checkPages extracts each case's page in a subtest of its own and checks
// its text.
func checkPages(t *testing.T, cases []pageCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			raw := readFixture(t, tc.fixture)
			if tc.edit != nil {
				edited := tc.edit(raw)
				if bytes.Equal(edited, raw) {
					t.Fatalf("the edit leaves %s unchanged", tc.fixture)
				}
				raw = edited
			}
			res, err := Extract(raw, "text/html", "")
			if err != nil {
				t.Fatal(err)
			}
			checkPageText(t, res.Text, tc)
		})
	}
}

func checkPageText(t *testing.T, text string, tc pageCase) {
	t.Helper()
	for _, w := range tc.has {
		if !strings.Contains(text, w) {
			t.Errorf("text lacks %q:\n%s", w, text)
		}
	}
	for _, w := range tc.hasNot {
		if strings.Contains(text, w) {
			t.Errorf("text has %q:\n%s", w, text)
		}
	}
	for w, want := range tc.counts {
		if n := strings.Count(text, w); n != want {
			t.Errorf("text holds %q %d times, want %d:\n%s", w, n, want, text)
		}
	}
	for i := 1; i < len(tc.order); i++ {
		a, b := strings.Index(text, tc.order[i-1]), strings.Index(text, tc.order[i])
		if a < 0 || b < a {
			t.Errorf("%q does not come before %q:\n%s", tc.order[i-1], tc.order[i], text)
		}
	}
}

// replaceOnce returns an edit that replaces the first from in a page by to.
func replaceOnce(from, to string) func([]byte) []byte {
	return func(raw []byte) []byte {
		return bytes.Replace(raw, []byte(from), []byte(to), 1)
	}
}

// pageJSONLD is the page's JSON-LD as the page checks (isProductPage,
// isThreadPage, ...) see it: Extract reads it once with the page's other
// declarations (readDeclarations).
func pageJSONLD(doc *html.Node) []any {
	return readDeclarations(doc).pageLD
}
