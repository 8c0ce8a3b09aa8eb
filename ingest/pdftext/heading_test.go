package pdftext

import (
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/structure"
)

// TestHeadingSpans reads a generated paper whose headings are set larger
// than its body text, and checks that exactly they are heading spans, one
// level per size, and that lines at body size or without words are not.
func TestHeadingSpans(t *testing.T) {
	body := func(y float64, lines ...string) []pdfgen.Text { return pdfgen.Paragraph(72, y, 10, 12, lines...) }
	page1 := []pdfgen.Text{{X: 72, Y: 720, Size: 20, S: "A Study of Layout"}}
	page1 = append(page1, pdfgen.Text{X: 72, Y: 680, Size: 14, S: "1 Introduction"})
	page1 = append(page1, body(660,
		"Documents set their headings in larger type than the text that follows",
		"them, and a reader finds the sections of a paper by that alone, which",
		"is what this paragraph is here to show with lines of ordinary length.")...)
	page1 = append(page1, pdfgen.Text{X: 72, Y: 600, Size: 12, S: "1.1 Data"})
	page1 = append(page1, body(580,
		"The data are lines of text at the body size, several of them in a row,",
		"so that the body size is the size that sets the most characters here.")...)
	page1 = append(page1, body(530, "A short line.")...)
	page1 = append(page1, pdfgen.Text{X: 72, Y: 500, Size: 20, S: "42"})
	page2 := []pdfgen.Text{{X: 72, Y: 720, Size: 14, S: "2 Results"}}
	page2 = append(page2, body(700,
		"The results follow the data on a page of their own, again at body size,",
		"with a second line long enough to read as the text of a paragraph.")...)
	raw := pdfgen.Build("", []pdfgen.Page{{Texts: page1}, {Texts: page2}})

	res, err := Extract(raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	canon := normalize.Pages(res.Pages)
	s, err := structure.Map(strings.Join(res.Pages, string(normalize.PageSeparator)), canon, res.Spans)
	if err != nil {
		t.Fatal(err)
	}
	type heading struct {
		level int
		text  string
	}
	var got []heading
	runes := []rune(canon)
	for _, sp := range s.Spans {
		if sp.Kind == structure.Heading {
			got = append(got, heading{sp.Level, string(runes[sp.Start:sp.End])})
		}
	}
	want := []heading{{1, "A Study of Layout"}, {2, "1 Introduction"}, {3, "1.1 Data"}, {2, "2 Results"}}
	if len(got) != len(want) {
		t.Fatalf("headings = %v, want %v\ntext:\n%s", got, want, canon)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("heading %d = %v, want %v", i, got[i], want[i])
		}
	}
}
