package doctext_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/structure"
	"github.com/digestd/digestd/structure/structuretest"
)

// headingKinds are the kinds whose headings are structure: each heading
// of the reference is a heading span.
var headingKinds = map[string]bool{"markdown": true, "odt": true, "docx": true, "pptx": true, "odp": true}

// TestDevSetStructure: every dev document's spans land on its canonical
// text and keep every rule; its Markdown reads back (through goldmark) to
// the canonical text; and the headings of the reference are its heading
// spans (its ATX headings, and the title of a Pandoc title block), at
// precision and recall ≥ 0.9 for the kinds in headingKinds.
func TestDevSetStructure(t *testing.T) {
	atx := regexp.MustCompile(`(?m)^#{1,6} +(.+?)\s*$`)
	for _, c := range devCases {
		t.Run(c.File, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(devset, c.File))
			if err != nil {
				t.Fatal(err)
			}
			text, res := canonical(t, c.Kind, raw)
			s, err := structure.Map(res.Text(), text, structure.ResolveLinks(res.Spans, ""))
			if err != nil {
				t.Fatal(err)
			}
			if err := structure.Check(s, text); err != nil {
				t.Fatal(err)
			}
			md := structure.Markdown(text, s).Markdown
			back := structuretest.Read(md)
			if g, w := structuretest.Words(strings.Join(back.Text, " ")), structuretest.Words(text); g != w {
				t.Errorf("the Markdown reads back to another text:\n got %q\nwant %q", g, w)
			}
			ref, err := os.ReadFile(filepath.Join(devset, c.Source))
			if err != nil {
				t.Fatal(err)
			}
			want := map[string]bool{}
			for _, m := range atx.FindAllStringSubmatch(string(ref), -1) {
				want[structuretest.Collapse(m[1])] = true
			}
			// A Pandoc title block's first line is the document's title.
			if title, ok := strings.CutPrefix(string(ref), "% "); ok {
				title, _, _ = strings.Cut(title, "\n")
				want[structuretest.Collapse(title)] = true
			}
			runes := []rune(text)
			got := map[string]bool{}
			for _, sp := range s.Spans {
				if sp.Kind == structure.Heading {
					got[string(runes[sp.Start:sp.End])] = true
				}
			}
			hit := 0
			for h := range got {
				if want[h] {
					hit++
				}
			}
			p, r := ratio(hit, len(got)), ratio(hit, len(want))
			t.Logf("headings: %d found, %d in the reference, precision %.3f, recall %.3f; %d spans, sidecar %d bytes for %d of text",
				len(got), len(want), p, r, len(s.Spans), sidecarBytes(t, s, text), len(text))
			if headingKinds[c.Kind] && (p < 0.9 || r < 0.9) {
				t.Errorf("headings: precision %.3f, recall %.3f, want ≥ 0.9", p, r)
			}
		})
	}
}

// TestMarkdownStructure: a Markdown document's lists, quotes, code,
// tables, links and emphasis are spans over the words they hold.
func TestMarkdownStructure(t *testing.T) {
	src := "# Title\n\nSee [the site](https://e.org/a \"t\") and [a page](page.html) and [here](#top), *really*.\n\n" +
		"- one\n- two\n  1. deep\n\n> quoted\n\n```\ncode line\n```\n\n| h1 | h2 |\n|---|---|\n| a | **b** |\n"
	res, err := doctext.Extract("markdown", []byte(src), doctext.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	text := res.Pages[0]
	s, err := structure.Map(res.Text(), normalize.Canonical(text), structure.ResolveLinks(res.Spans, "https://e.org/dir/doc.md"))
	if err != nil {
		t.Fatal(err)
	}
	runes := []rune(normalize.Canonical(text))
	var got []string
	for _, sp := range s.Spans {
		line := string(sp.Kind) + ":" + string(runes[sp.Start:sp.End])
		switch {
		case sp.Href != "":
			line += "→" + sp.Href
		case sp.Level != 0:
			line += "@" + string(rune('0'+sp.Level))
		case sp.Ordered || sp.Header || sp.Strong:
			line += "!"
		}
		got = append(got, line)
	}
	want := []string{
		"h:Title@1",
		"a:the site→https://e.org/a",
		"a:a page→https://e.org/dir/page.html",
		"em:really",
		"list:one\ntwo\ndeep",
		"li:one@1",
		"li:two\ndeep@1",
		"list:deep!", "li:deep@2",
		"quote:quoted",
		"code:code line",
		"table:h1 | h2\na | b",
		"tr:h1 | h2", "td:h1!", "td:h2!",
		"tr:a | b", "td:a", "td:b",
	}
	if g, w := strings.Join(got, "\n"), strings.Join(want, "\n"); g != w {
		t.Errorf("spans:\n%s\nwant:\n%s", g, w)
	}
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 1
	}
	return float64(a) / float64(b)
}

func sidecarBytes(t *testing.T, s *structure.Structure, text string) int {
	t.Helper()
	data, err := structure.Encode(&structure.Sidecar{Version: structure.Version, Structure: *s})
	if err != nil {
		t.Fatal(err)
	}
	return len(data)
}
