package pdftext

import (
	"errors"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
)

var update = flag.Bool("update", false, "rewrite the PDF fixtures in testdata")

// fixture is a generated PDF with what its text must show.
type fixture struct {
	name    string
	pages   []pdfgen.Page
	want    []string // substrings of the joined text, in this order
	wantNot []string
	pages0  int // expected page count
}

func fixtures() []fixture {
	const (
		l1 = "The quick brown fox jumps over the lazy dog and"
		l2 = "keeps running through the long green meadow to"
		l3 = "reach the river before the sun goes down again."
	)
	twoCol := pdfgen.Page{Texts: append(
		pdfgen.Paragraph(72, 700, 10, 12, "Left column first line of text here", "left column second line continues", "left column ends the paragraph."),
		pdfgen.Paragraph(330, 700, 10, 12, "Right column begins after left one", "right column second line goes on", "right column closes the page.")...)}
	var running []pdfgen.Page
	for i := range 4 {
		p := pdfgen.Page{Texts: pdfgen.Paragraph(72, 600, 10, 12, "Body text of page number "+string(rune('A'+i))+" talks about", "something that differs on every page.")}
		p.Texts = append(p.Texts,
			pdfgen.Text{X: 72, Y: 760, Size: 9, S: "Journal of Repeated Headers"},
			pdfgen.Text{X: 300, Y: 40, Size: 9, S: string(rune('1' + i))})
		running = append(running, p)
	}
	var oneLine []pdfgen.Page
	for i := range 3 {
		oneLine = append(oneLine, pdfgen.Page{Texts: []pdfgen.Text{{X: 72, Y: 760, Size: 12, S: "Page " + string(rune('1'+i)) + " hello world"}}})
	}
	return []fixture{
		{name: "one-line-pages", pages: oneLine,
			want: []string{"Page 1 hello world", "Page 2 hello world", "Page 3 hello world"}, pages0: 3},
		{name: "one-column", pages: []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 700, 10, 12, l1, l2, l3)}},
			want: []string{l1 + " " + l2 + " " + l3}, pages0: 1},
		{name: "two-column", pages: []pdfgen.Page{twoCol},
			want:   []string{"Left column first line of text here left column second line continues left column ends the paragraph.", "Right column begins"},
			pages0: 1},
		{name: "hyphenated", pages: []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 700, 10, 12,
			"Extraction of text from portable docu-", "ments needs care with hyphens at line", "ends, but a well-known compound stays.")}},
			want: []string{"portable documents needs care", "well-known compound"}, wantNot: []string{"docu-"}, pages0: 1},
		{name: "running-header", pages: running,
			want:    []string{"Body text of page number A talks about something", "page number D"},
			wantNot: []string{"Journal of Repeated Headers"}, pages0: 4},
		{name: "ligature", pages: []pdfgen.Page{{Texts: []pdfgen.Text{{X: 72, Y: 700, Size: 12, Font: "F2", S: "The \xb0rst \xb0sh"}}}},
			want: []string{"The first fish"}, wantNot: []string{"\ufb01"}, pages0: 1},
		{name: "multi-page", pages: []pdfgen.Page{
			{Texts: pdfgen.Paragraph(72, 700, 10, 12, "Page one says hello.")},
			{},
			{Texts: pdfgen.Paragraph(72, 700, 10, 12, "Page three says goodbye.")}},
			want: []string{"Page one says hello.", "Page three says goodbye."}, pages0: 3},
		{name: "rotated", pages: []pdfgen.Page{{Texts: []pdfgen.Text{
			{X: 72, Y: 700, Size: 10, S: "Upright words come first."},
			{X: 500, Y: 100, Size: 10, S: "Sideways label", Angle: 90}}}},
			want: []string{"Upright words come first.", "Sideways label"}, pages0: 1},
	}
}

func TestFixtures(t *testing.T) {
	for _, fx := range fixtures() {
		t.Run(fx.name, func(t *testing.T) {
			raw := pdfgen.Build("Fixture "+fx.name, fx.pages)
			if *update {
				if err := os.WriteFile(filepath.Join("testdata", fx.name+".pdf"), raw, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			res, err := Extract(raw, Limits{})
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			if len(res.Pages) != fx.pages0 {
				t.Fatalf("pages = %d, want %d", len(res.Pages), fx.pages0)
			}
			if res.Title != "Fixture "+fx.name {
				t.Errorf("title = %q", res.Title)
			}
			text := strings.Join(res.Pages, "\f")
			at := 0
			for _, w := range fx.want {
				i := strings.Index(text[at:], w)
				if i < 0 {
					t.Fatalf("text lacks %q after offset %d:\n%s", w, at, text)
				}
				at += i + len(w)
			}
			for _, w := range fx.wantNot {
				if strings.Contains(text, w) {
					t.Errorf("text contains %q:\n%s", w, text)
				}
			}
		})
	}
}

func TestMultiPageEmptyPages(t *testing.T) {
	raw := pdfgen.Build("", []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 700, 10, 12, "Only text.")}, {}})
	res, err := Extract(raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.EmptyPages) != 1 || res.EmptyPages[0] != 2 {
		t.Errorf("EmptyPages = %v, want [2]", res.EmptyPages)
	}
}

func TestExtractErrors(t *testing.T) {
	good := pdfgen.Build("", []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 700, 10, 12, "Some text here.")}, {Texts: pdfgen.Paragraph(72, 700, 10, 12, "More.")}})
	tests := []struct {
		name string
		raw  []byte
		lim  Limits
		want error
	}{
		{"not a pdf", []byte("hello, this is plain text"), Limits{}, ErrNotPDF},
		{"no text", pdfgen.Build("", []pdfgen.Page{{}}), Limits{}, ErrNoText},
		{"garbage after header", []byte("%PDF-1.4\n" + strings.Repeat("x", 300)), Limits{}, ErrUnreadable},
		{"too many pages", good, Limits{MaxPages: 1}, ErrTooLarge},
		{"too many chars", good, Limits{MaxChars: 5}, ErrTooLarge},
		{"encrypted", encryptedStub(), Limits{}, ErrEncrypted},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Extract(tt.raw, tt.lim)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
		})
	}
}

// encryptedStub is a PDF whose trailer names a Standard security handler
// with an unsupported revision.
func encryptedStub() []byte {
	raw := string(pdfgen.Build("", []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 700, 10, 12, "Secret.")}}))
	return []byte(strings.Replace(raw, "trailer\n<<", "trailer\n<< /Encrypt << /Filter /Standard /V 5 /R 6 /Length 256 >> /ID [<00> <00>]", 1))
}

func TestTruncatedFileIsRepaired(t *testing.T) {
	raw := pdfgen.Build("", []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 700, 10, 12, "Survives truncation.")}})
	cut := raw[:strings.Index(string(raw), "xref")]
	res, err := Extract(cut, Limits{})
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	if !strings.Contains(res.Pages[0], "Survives truncation.") {
		t.Errorf("text = %q", res.Pages[0])
	}
}
