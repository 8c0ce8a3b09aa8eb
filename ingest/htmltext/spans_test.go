package htmltext

import (
	"cmp"
	"net/url"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/archive"
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

// maxSidecarRatio bounds a dev set's sidecars, in bytes of its texts. In
// structure/2 the sidecar is 0.119 of the text on the WCXB dev set and
// 0.103 on trafilatura's (structure/1: 0.217 and 0.165), under the 0.15
// the sidecar is held to.
const maxSidecarRatio = 0.125

// maxOutsideRatio bounds a dev set's outside links, in bytes of its
// texts. In outside-links/2, within each page's budget
// (structure.OutsideBudget), they are 0.236 of the text on the WCXB dev
// set and 0.375 on trafilatura's (outside-links/1, bounded by its 1000
// links only: 0.819 and 1.582).
var maxOutsideRatio = map[string]float64{"extract-html-wcxb-dev": 0.25, "extract-html-trafilatura": 0.40}

// checkListedLinks checks a page's listed links: absolute targets, each
// listed once, the main content's first, each with its text at its span.
// It returns how many are of the main content, how many outside it, and
// how many break a rule.
func checkListedLinks(t *testing.T, page, text string, listed []structure.SourceLink) (main, outside, bad int) {
	t.Helper()
	seen := map[string]bool{}
	runes := []rune(text)
	outsideSeen := false
	for i, l := range listed {
		u, err := url.Parse(l.Href)
		switch {
		case err != nil || !u.IsAbs() || u.Host == "" && u.Opaque == "":
			t.Errorf("%s: link %d: %q is not absolute", page, i, l.Href)
			bad++
		case seen[l.Href]:
			t.Errorf("%s: link %d: %q is listed twice", page, i, l.Href)
			bad++
		case l.InMain && (outsideSeen || !strings.HasPrefix(string(runes[l.Start:l.End]), l.Text)):
			t.Errorf("%s: link %d: %q: a main content link after an outside one, or its text %q not at its span", page, i, l.Href, l.Text)
			bad++
		}
		seen[l.Href] = true
		outsideSeen = outsideSeen || !l.InMain
		if l.InMain {
			main++
		} else {
			outside++
		}
	}
	return main, outside, bad
}

// TestDevStructure measures the structure of every page of the HTML dev
// sets: each page's spans keep every rule, its Markdown reads back to its
// canonical text, and the sidecar and the outside links stay small beside
// the text (no page's outside links larger than its text by more than
// structure.MinOutsideBytes). Its links,
// as a source's are listed (structure.Links, with the page's links outside
// its text), have absolute targets, each listed once, the main content's
// first, each with its text at its span. It logs the figures (headings,
// links, sidecar and outside links' sizes).
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
		var listedMain, listedOutside, outsideBytes, outsideCut, outsideAll, badListed int
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
			base := cmp.Or(res.Meta.BaseURL, c.URL)
			s, err := structure.Map(res.Text, res.Text, structure.ResolveLinks(res.Spans, base))
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
			anchors := res.PageLinks()
			outside, total := structure.Outside(anchors, base, s)
			if anchors != nil {
				// Archived as ingest archives it: for every page read
				// from its tree.
				blob, n, err := structure.WriteOutside(outside, total, archive.SumString(res.Text), len(res.Text))
				if err != nil {
					t.Fatalf("%s: %v", c.ID, err)
				}
				outsideBytes += len(blob)
				if len(blob) > len(res.Text)+structure.MinOutsideBytes {
					t.Errorf("%s: %d bytes of outside links, %d of text", c.ID, len(blob), len(res.Text))
				}
				if _, read, err := structure.ReadOutside(blob, archive.SumString(res.Text), len(res.Text)); err != nil || read != total {
					t.Errorf("%s: the blob counts %d outside links, the page has %d (%v)", c.ID, read, total, err)
				}
				outsideCut += len(outside) - n
				outsideAll += total
				outside = outside[:n]
			}
			m, o, bad := checkListedLinks(t, set+" "+c.ID, res.Text, structure.Links(res.Text, s, outside))
			listedMain, listedOutside, badListed = listedMain+m, listedOutside+o, badListed+bad
		}
		ratio := float64(sidecar) / float64(max(text, 1))
		t.Logf("%s: %d pages, %d read back from Markdown, %d headings, %d links (%d not absolute), sidecar %.3f of the text's bytes",
			set, pages, roundTrip, headings, links, relative, ratio)
		outsideRatio := float64(outsideBytes) / float64(max(text, 1))
		t.Logf("%s: links listed: %d of the main content (%d targets repeated there), %d outside it (%d more over their budget within the first %d, of %d outside links in all); outside links %.3f of the text's bytes",
			set, listedMain, links-listedMain, listedOutside, outsideCut, structure.MaxOutsideLinks, outsideAll, outsideRatio)
		if badListed > 0 {
			t.Errorf("%s: %d links listed out of their rules", set, badListed)
		}
		if float64(roundTrip) < 0.97*float64(pages) {
			t.Errorf("%s: %d of %d pages read back from their Markdown, want ≥ 97%%", set, roundTrip, pages)
		}
		if relative > 0 {
			t.Errorf("%s: %d links are not absolute", set, relative)
		}
		if ratio > maxSidecarRatio {
			t.Errorf("%s: the sidecar is %.3f of the text, want ≤ %.2f", set, ratio, maxSidecarRatio)
		}
		if outsideRatio > maxOutsideRatio[set] {
			t.Errorf("%s: the outside links are %.3f of the text, want ≤ %.2f", set, outsideRatio, maxOutsideRatio[set])
		}
	}
}

// TestPageLinks: a page's links are every <a href> it shows, in document
// order, with what each reads as; its <base href> is what they are
// relative to.
func TestPageLinks(t *testing.T) {
	page := `<html><head><base href="../docs/"><script>var a = '<a href="/s">x</a>';</script></head><body>
<nav><a href="/"><img src="l.png" alt="Site"></a><a href="/x" aria-label="Search"><svg><text>Q</text></svg></a>
<a href="a.html">First<br>page</a> <a href="/hidden" hidden>Hidden</a><div style="display: none"><a href="/h2">Hidden too</a></div></nav>
<article><p>The <a href=" a.html ">first page</a> again, and <a href="b.html">the <b>second</b> one</a>, which is long enough to be a paragraph of an article.</p></article>
<template><a href="/t">Template</a></template><a name="anchor">No target</a><a href="">Empty</a></body></html>`
	res, err := Extract([]byte(page), "", "https://e.org/site/page.html")
	if err != nil {
		t.Fatal(err)
	}
	if res.Meta.BaseURL != "https://e.org/docs/" {
		t.Errorf("base %q, want https://e.org/docs/", res.Meta.BaseURL)
	}
	var got []string
	for _, a := range res.PageLinks() {
		got = append(got, a.Href+" "+a.Text)
	}
	want := "/ Site|/x Search|a.html First page|b.html the second one"
	if strings.Join(got, "|") != want {
		t.Errorf("links\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}
	if res, _ := Extract([]byte(`<base href="/relative/"><p>A page without a URL.</p>`), "", ""); res.Meta.BaseURL != "" {
		t.Errorf("a relative base without a page URL: %q", res.Meta.BaseURL)
	}
}
