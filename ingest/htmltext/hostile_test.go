package htmltext

import (
	"fmt"
	"strings"
	"testing"
)

// hostileShape builds a page of n repetitions of a markup shape that
// inflates the parsed tree: the parser's reconstruction of formatting
// elements, many siblings, wide tables, deep nesting.
type hostileShape struct {
	name string
	page func(n int) string
	// want is text the extraction must keep.
	want string
}

var hostileShapes = []hostileShape{
	{"p-i", func(n int) string {
		// A sentence: a few words in a thousand elements read as an
		// application shell (see minMainChars).
		return "<html><body>" + strings.Repeat("<p><i>", n) + "Deep text here. A sentence of running text long enough to be the content of a page."
	}, "Deep text here."},
	{"formatting-soup", func(n int) string {
		return "<html><body>" + strings.Repeat("<b><i><u>word ", n) + "Deep text here."
	}, "Deep text here."},
	{"p-formatting-soup", func(n int) string {
		return "<html><body>" + strings.Repeat("<p><b><i><u>word, ", n) + "Deep text here."
	}, "Deep text here."},
	{"sibling-divs", func(n int) string {
		return "<html><body>" + strings.Repeat("<div>word</div>", n) + "<p>Deep text here.</p>"
	}, "Deep text here."},
	{"sibling-paragraphs", func(n int) string {
		return "<html><body><div>" + strings.Repeat("<p>A sentence of running text, long enough to vote for its container.</p>", n) + "</div>"
	}, "A sentence of running text"},
	{"list-items", func(n int) string {
		return "<html><body><ul>" + strings.Repeat("<li>item, word", n) + "</ul><p>Deep text here.</p>"
	}, "Deep text here."},
	{"deep-nesting", func(n int) string {
		return "<html><body>" + strings.Repeat("<div>", n) + "Deep text here." + strings.Repeat("</div>", n)
	}, "Deep text here."},
	{"wide-table", func(n int) string {
		// n cells in rows of 100.
		row := "<tr>" + strings.Repeat("<td>cell, text</td>", 100) + "</tr>"
		return "<html><body><table>" + strings.Repeat(row, max(1, n/100)) + "</table><p>Deep text here.</p>"
	}, "Deep text here."},
	{"breaks", func(n int) string {
		return "<html><body><div>" + strings.Repeat("a line of text, with commas<br>", n) + "</div><p>Deep text here.</p>"
	}, "Deep text here."},
	{"choice-controls", func(n int) string {
		// Every <select> makes clean measure its box (see controlBox);
		// empty elements around them cost nodes, not characters.
		return "<html><body><div>" + strings.Repeat("<select><option>one</select><b></b><i></i>", n) +
			"<p>Deep text here. A sentence of running text long enough to be the content of a page.</p></div>"
	}, "Deep text here."},
	{"nested-lists", func(n int) string {
		return "<html><body>" + strings.Repeat("<ul><li>item text, with a comma and words enough", n) + "Deep text here."
	}, "Deep text here."},
}

// BenchmarkExtractHostile extracts pages of each hostile shape at two
// sizes; the ns/B metric (time per input byte) stays flat from one size to
// the next when extraction is linear in the input.
func BenchmarkExtractHostile(b *testing.B) {
	for _, s := range hostileShapes {
		for _, n := range []int{10_000, 20_000, 40_000} {
			page := []byte(s.page(n))
			b.Run(fmt.Sprintf("%s/n=%d", s.name, n), func(b *testing.B) {
				b.SetBytes(int64(len(page)))
				for b.Loop() {
					if _, err := Extract(page, "", ""); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(len(page)), "ns/B")
			})
		}
	}
}

// TestHostileShapesBounded extracts each hostile shape at two sizes: the
// text survives, and the main-content search measures each element of the
// cleaned body at most once per attempt.
func TestHostileShapesBounded(t *testing.T) {
	sizes := []int{1_000, 30_000}
	if testing.Short() {
		sizes = sizes[:1] // the quick tier checks the shapes; the full suite their scale
	}
	for _, s := range hostileShapes {
		for _, n := range sizes {
			page := []byte(s.page(n))
			res, err := Extract(page, "", "")
			if err != nil {
				t.Fatalf("%s/%d: %v", s.name, n, err)
			}
			if !strings.Contains(res.Text, s.want) {
				t.Errorf("%s/%d: text %.100q… lacks %q", s.name, n, res.Text, s.want)
			}
			doc, err := parse(page)
			if err != nil {
				continue // the flat scan handled it
			}
			elems := countElements(doc, "", MaxElements)
			if elems > MaxElements {
				continue
			}
			for _, byHints := range []bool{true, false} {
				d, _ := parse(page)
				_, x := findMain(d, elems, cleaner{byHints: byHints})
				if len(x.all) > elems || len(x.index) != len(x.all) {
					t.Errorf("%s/%d: %d elements, %d measured (%d indexed)", s.name, n, elems, len(x.all), len(x.index))
				}
			}
		}
	}
}

func TestCountElements(t *testing.T) {
	tests := []struct {
		doc   string
		limit int
		want  int
	}{
		{"", 10, 3}, // html, head, body
		{"<p>a<p>b", 10, 5},
		{"<p><i>a<p>b", 10, 7}, // the second paragraph reopens <i>
		{strings.Repeat("<div>", 100), 10, 11},
	}
	for _, tt := range tests {
		doc, err := parse([]byte(tt.doc))
		if err != nil {
			t.Fatal(err)
		}
		if got := countElements(doc, "", tt.limit); got != tt.want {
			t.Errorf("countElements(%q, %d) = %d, want %d", tt.doc, tt.limit, got, tt.want)
		}
	}
}

// TestTooManyElementsFallsBack checks that a tree above MaxElements is
// extracted by the flat scan: all of its text, in order.
func TestTooManyElementsFallsBack(t *testing.T) {
	page := "<html><body><nav>Menu</nav>" + strings.Repeat("<p><i>", MaxElements/4) + "Deep text here."
	res, err := Extract([]byte(page), "", "")
	if err != nil {
		t.Fatal(err)
	}
	// The flat scan keeps navigation that the main-content search drops.
	if want := "Menu\nDeep text here."; res.Text != want {
		t.Errorf("text = %.100q, want %q", res.Text, want)
	}
}

// Many self-closed iframes in <noscript>, each swallowing the rest of the
// page, are repaired a bounded number of times: the extraction ends and
// keeps the text the first repairs bring back.
func TestManyNoscriptIframes(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><body>")
	for i := 0; i < 2000; i++ {
		fmt.Fprintf(&b, `<noscript><iframe src="/ns%d" /></noscript><p>Paragraph number %d of a page that repeats its tag manager fallback.</p>`, i, i)
	}
	b.WriteString("</body></html>")
	res, err := Extract([]byte(b.String()), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "Paragraph number 0 of a page") {
		t.Errorf("text lacks the first paragraph:\n%.500s", res.Text)
	}
	if strings.Contains(res.Text, "<iframe") && strings.Index(res.Text, "<iframe") < strings.Index(res.Text, "Paragraph number 3 ") {
		t.Errorf("early fallbacks not repaired:\n%.500s", res.Text)
	}
}
