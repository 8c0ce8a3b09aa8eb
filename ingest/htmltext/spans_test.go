package htmltext

import (
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/internal/testenv"
	"github.com/digestd/digestd/structure"
	"github.com/digestd/digestd/structure/structuretest"
)

// TestPageSpans: the structure of a page's canonical text is found in its
// tree: headings, a list with its items, a table with rows and cells,
// links and emphasis, each over its own words.
func TestPageSpans(t *testing.T) {
	page := `<html><body><article><h1>Harbour works</h1>
<p>The <a href="/walls">old walls</a> were <em>finally</em> repaired after two winters of storms broke them in three places.</p>
<h2>What changed</h2>
<ul><li>Fishing boats came back first.</li><li>The ferry runs twice a day.</li></ul>
<table><tr><th>Boat</th><th>Trips</th></tr><tr><td>Ferry</td><td>2</td></tr></table>
</article></body></html>`
	res, err := Extract([]byte(page), "", "https://example.org/news/harbour")
	if err != nil {
		t.Fatal(err)
	}
	s, err := structure.Map(res.Text, res.Text, structure.ResolveLinks(res.Spans, "https://example.org/news/harbour"))
	if err != nil {
		t.Fatal(err)
	}
	runes := []rune(res.Text)
	var got []string
	for _, sp := range s.Spans {
		line := string(sp.Kind) + ":" + string(runes[sp.Start:sp.End])
		if sp.Href != "" {
			line += "→" + sp.Href
		}
		got = append(got, line)
	}
	for _, want := range []string{
		"h:Harbour works", "a:old walls→https://example.org/walls", "em:finally", "h:What changed",
		"list:Fishing boats came back first.\nThe ferry runs twice a day.", "li:Fishing boats came back first.",
		"tr:Ferry 2", "td:Ferry", "td:2",
	} {
		found := false
		for _, g := range got {
			found = found || g == want
		}
		if !found {
			t.Errorf("no span %q in:\n%s\ntext:\n%s", want, strings.Join(got, "\n"), res.Text)
		}
	}
}

// maxSidecarRatio bounds a dev set's sidecars, in bytes of its texts.
const maxSidecarRatio = 0.23

// TestDevStructure measures the structure of every page of the HTML dev
// sets: each page's spans keep every rule, its Markdown reads back to its
// canonical text, and the sidecar stays small beside the text. It logs
// the figures (headings, links, sidecar size).
func TestDevStructure(t *testing.T) {
	testenv.FullSuite(t, "extracts every page of the HTML dev sets")
	root := sharedData(t)
	for _, set := range []string{"extract-html-wcxb-dev", "extract-html-trafilatura"} {
		dir := filepath.Join(root, set)
		cases, err := evaluate.ReadExtractCases(dir)
		if err != nil {
			t.Fatal(err)
		}
		var pages, roundTrip, headings, links, relative, sidecar, text int
		for _, c := range cases {
			if c.Kind != "html" {
				continue
			}
			raw, err := evaluate.ReadCaseFile(dir, c.File)
			if err != nil {
				t.Fatal(err)
			}
			res, err := Extract(raw, "", c.URL)
			if err != nil || res.Text == "" {
				continue
			}
			pages++
			s, err := structure.Map(res.Text, res.Text, structure.ResolveLinks(res.Spans, c.URL))
			if err != nil {
				t.Fatalf("%s: %v", c.ID, err)
			}
			if err := structure.Check(s, res.Text); err != nil {
				t.Fatalf("%s: %v", c.ID, err)
			}
			md := structure.Markdown(res.Text, s).Markdown
			back := structuretest.Read(md)
			if structuretest.Words(strings.Join(back.Text, " ")) == structuretest.Words(res.Text) {
				roundTrip++
			} else {
				t.Logf("%s %s: the Markdown reads back to another text", set, c.ID)
			}
			for _, sp := range s.Spans {
				switch sp.Kind {
				case structure.Heading:
					headings++
				case structure.Link:
					links++
					if u, err := url.Parse(sp.Href); err != nil || !u.IsAbs() {
						relative++
					}
				}
			}
			data, err := structure.Encode(&structure.Sidecar{Version: structure.Version, Structure: *s})
			if err != nil {
				t.Fatal(err)
			}
			sidecar += len(data)
			text += len(res.Text)
		}
		ratio := float64(sidecar) / float64(max(text, 1))
		t.Logf("%s: %d pages, %d read back from Markdown, %d headings, %d links (%d not absolute), sidecar %.3f of the text's bytes",
			set, pages, roundTrip, headings, links, relative, ratio)
		if float64(roundTrip) < 0.97*float64(pages) {
			t.Errorf("%s: %d of %d pages read back from their Markdown, want ≥ 97%%", set, roundTrip, pages)
		}
		if relative > 0 {
			t.Errorf("%s: %d links are not absolute", set, relative)
		}
		// The sidecar is 0.217 of the text on the WCXB dev set and 0.165 on
		// trafilatura's (structure/1, 2026-12-07): over the 0.15 aimed at.
		// This bound keeps it from growing.
		if ratio > maxSidecarRatio {
			t.Errorf("%s: the sidecar is %.3f of the text, want ≤ %.2f", set, ratio, maxSidecarRatio)
		}
	}
}
