package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/fetch"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/structure"
)

// handLink is a link of a fixture as a reader lists it by hand.
type handLink struct {
	URL    string `json:"url"`
	Text   string `json:"text"`
	InMain bool   `json:"in_main"`
}

// readHandLinks reads a fixture's hand-listed links, with {origin} the
// address it is served from.
func readHandLinks(t *testing.T, name, origin string) []handLink {
	t.Helper()
	b, err := os.ReadFile("testdata/links/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var links []handLink
	if err := json.Unmarshal([]byte(strings.ReplaceAll(string(b), "{origin}", origin)), &links); err != nil {
		t.Fatal(err)
	}
	return links
}

// TestLinksAgainstHandLists digests two pages whose links were listed by
// hand — one with a <base href>, sent as HTML, one fetched from its URL —
// and holds their links to the lists: relative targets made absolute,
// javascript: and fragment-only links and links to the page itself left
// out, hidden and template links left out, each target once (the main
// content's first), the main content's with a locator whose slice is
// their text, the others without. Precision and recall of (url, text,
// in_main) against the hand list are at least 0.95.
func TestLinksAgainstHandLists(t *testing.T) {
	ctx := context.Background()
	page, err := os.ReadFile("testdata/links/guide.html")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	defer srv.Close()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Store: store, Ingester: &ingest.Ingester{
		Fetcher: fetch.New(fetch.Config{TotalTimeout: 5 * time.Second, AllowLoopback: []string{srv.Listener.Addr().String()}}),
	}}
	harbour, err := os.ReadFile("testdata/links/harbour.html")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name string
		src  ingest.Source
		hand []handLink
	}{
		{"harbour.html (base href)", ingest.Source{HTML: harbour}, readHandLinks(t, "harbour.links.json", "")},
		{"guide.html (fetched)", ingest.Source{URL: srv.URL + "/walks/guide.html"}, readHandLinks(t, "guide.links.json", srv.URL)},
	} {
		res, err := p.Digest(ctx, pipeline.Request{Source: c.src, Query: "when", Links: true})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if res.Source.Links == nil {
			t.Fatalf("%s: no links", c.name)
		}
		got := *res.Source.Links
		text, err := p.Blob(ctx, res.Source.ArchiveHash)
		if err != nil {
			t.Fatal(err)
		}
		want := map[handLink]bool{}
		for _, l := range c.hand {
			want[l] = true
		}
		hits := 0
		seen := map[string]bool{}
		lastMain := -1
		for i, l := range got {
			if want[handLink{l.URL, l.Text, l.InMain}] {
				hits++
			} else {
				t.Logf("%s: %+v is not in the hand list", c.name, l)
			}
			if seen[l.URL] {
				t.Errorf("%s: %s listed twice", c.name, l.URL)
			}
			seen[l.URL] = true
			switch {
			case l.InMain && l.Locator == nil, !l.InMain && l.Locator != nil:
				t.Errorf("%s: %+v: in_main %v with locator %v", c.name, l, l.InMain, l.Locator)
			case l.InMain:
				if lastMain != i-1 {
					t.Errorf("%s: the main content's link %s comes after a link outside it", c.name, l.URL)
				}
				lastMain = i
				if s, err := l.Locator.Slice(string(text)); err != nil || s != l.Text {
					t.Errorf("%s: %s at %s is %q (%v), its text is %q", c.name, l.URL, l.Locator, s, err, l.Text)
				}
			}
			if strings.HasPrefix(l.URL, "javascript:") || !strings.Contains(l.URL, ":") {
				t.Errorf("%s: %s is no absolute target", c.name, l.URL)
			}
		}
		precision := float64(hits) / float64(max(len(got), 1))
		recall := float64(hits) / float64(len(c.hand))
		t.Logf("%s: %d links, %d of the hand list's %d: precision %.3f, recall %.3f", c.name, len(got), hits, len(c.hand), precision, recall)
		if precision < 0.95 || recall < 0.95 {
			for _, l := range c.hand {
				if !slices.ContainsFunc(got, func(g pipeline.Link) bool { return handLink{g.URL, g.Text, g.InMain} == l }) {
					t.Logf("%s: missed %+v", c.name, l)
				}
			}
			t.Errorf("%s: precision %.3f, recall %.3f, want both ≥ 0.95", c.name, precision, recall)
		}
		// The route's pages hold the same links, in the same order.
		var paged []pipeline.Link
		for offset := 0; ; {
			pg, err := p.SourceLinks(ctx, res.Source.ArchiveHash, archive.Hash{}, offset, 5)
			if err != nil {
				t.Fatal(err)
			}
			if len(pg.Warnings) != 0 || pg.Total != len(got) || pg.RecordHash != res.Source.RecordHash {
				t.Fatalf("%s: page at %d: %+v", c.name, offset, pg)
			}
			paged = append(paged, pg.Links...)
			if !pg.More {
				break
			}
			offset += len(pg.Links)
		}
		if fmt.Sprint(paged) != fmt.Sprint(got) {
			t.Errorf("%s: the pages hold\n%v\nthe digest\n%v", c.name, paged, got)
		}
	}
}

// TestLinksBound: a source with more links than an answer carries gives
// the first MaxSourceLinks of them and says how many it has; its pages
// hold them all, each once, in order.
func TestLinksBound(t *testing.T) {
	ctx := context.Background()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	n := pipeline.MaxSourceLinks + 137
	var md strings.Builder
	md.WriteString("# Stations\n\n")
	for i := range n {
		// Every target twice: the second is not listed again.
		fmt.Fprintf(&md, "Station %d has a [timetable](https://rail.example/s/%d) and a [second one](https://rail.example/s/%d).\n\n", i, i, i)
	}
	res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{File: []byte(md.String()), Name: "stations.md"}, Query: "timetable", Links: true})
	if err != nil {
		t.Fatal(err)
	}
	if res.Source.Links == nil || len(*res.Source.Links) != pipeline.MaxSourceLinks {
		t.Fatalf("links: %v, want %d", res.Source.Links, pipeline.MaxSourceLinks)
	}
	truncated := false
	for _, w := range res.Warnings {
		if w.Code == fault.ContentTruncated && w.Context["links_total"] == n && w.Context["links_returned"] == pipeline.MaxSourceLinks {
			truncated = true
		}
	}
	if !truncated {
		t.Errorf("no CONTENT_TRUNCATED warning counting %d links: %+v", n, res.Warnings)
	}
	if _, err := p.SourceLinks(ctx, res.Source.ArchiveHash, archive.Hash{}, 0, pipeline.MaxLinksLimit+1); fault.CodeOf(err) != fault.ValidationError {
		t.Errorf("a limit over %d: %v, want VALIDATION_ERROR", pipeline.MaxLinksLimit, err)
	}
	var all []pipeline.Link
	pages := 0
	for offset := 0; ; pages++ {
		pg, err := p.SourceLinks(ctx, res.Source.ArchiveHash, archive.Hash{}, offset, 0)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, pg.Links...)
		if !pg.More {
			break
		}
		offset += len(pg.Links)
	}
	if len(all) != n || pages != (n+pipeline.DefaultLinksLimit-1)/pipeline.DefaultLinksLimit-1 {
		t.Fatalf("%d links in %d pages, want %d", len(all), pages+1, n)
	}
	for i, l := range all {
		if want := fmt.Sprintf("https://rail.example/s/%d", i); l.URL != want || l.Text != "timetable" || !l.InMain {
			t.Fatalf("link %d: %+v, want %s, timetable", i, l, want)
		}
	}
	if fmt.Sprint(all[:pipeline.MaxSourceLinks]) != fmt.Sprint(*res.Source.Links) {
		t.Error("the answer's links are not the first of the pages'")
	}
}

// TestLinksOfSourcesWithoutStructure: a source archived before structure
// was kept (the archive written by an earlier version), and a plain text,
// read as before, with no links known and a NO_STRUCTURE warning saying
// so; a source whose outside links are broken is ARCHIVE_CORRUPT, and
// garbage collection keeps them with their record.
func TestLinksOfSourcesWithoutStructure(t *testing.T) {
	ctx := context.Background()
	store, err := fsstore.Open(copyArchive(t, oneRecordArchive))
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	listed, err := p.ListSources(ctx, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: "Rivers carry silt to the sea."}, Query: "silt", Links: true})
	if err != nil {
		t.Fatal(err)
	}
	hashes := []archive.Hash{plain.Source.ArchiveHash}
	for _, src := range listed.Sources {
		hashes = append(hashes, src.ArchiveHash)
	}
	for _, d := range hashes {
		res, err := p.Digest(ctx, pipeline.Request{Archive: d, Query: "what causes MTCT?", Links: true})
		if err != nil {
			t.Fatalf("%s: %v", d, err)
		}
		if res.Source.Links == nil || len(*res.Source.Links) != 0 {
			t.Errorf("%s (%s): links %v, want an empty list", d, res.Source.Kind, res.Source.Links)
		}
		if !slices.ContainsFunc(res.Warnings, func(w pipeline.Warning) bool { return w.Code == fault.NoStructure }) {
			t.Errorf("%s (%s): no NO_STRUCTURE warning: %+v", d, res.Source.Kind, res.Warnings)
		}
		pg, err := p.SourceLinks(ctx, d, archive.Hash{}, 0, 0)
		if err != nil || len(pg.Warnings) != 1 || pg.Warnings[0].Code != fault.NoStructure || pg.Outside != nil || pg.Total != 0 || len(pg.Links) != 0 || pg.More {
			t.Errorf("%s: page %+v, %v", d, pg, err)
		}
		// Without links asked for, the answer is what it was.
		again, err := p.Digest(ctx, pipeline.Request{Archive: d, Query: "what causes MTCT?"})
		if err != nil || again.Source.Links != nil || len(again.Warnings) != len(res.Warnings)-1 {
			t.Errorf("%s: without links: %v, %v, %+v", d, again.Source.Links, err, again.Warnings)
		}
	}
	if _, err := p.SourceLinks(ctx, archive.SumString("never archived"), archive.Hash{}, 0, 0); fault.CodeOf(err) != fault.NotFound {
		t.Errorf("a text never archived: %v, want NOT_FOUND", err)
	}

	// A page with outside links: they are archived beside its text, kept
	// by garbage collection, and refused when they do not belong to it.
	res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{HTML: []byte(`<html><head><base href="https://x.example/a/"></head><body><nav><a href="b">Next page</a></nav>
<article><p>A page about rivers, which carry silt to the sea and build deltas where they slow down, as <a href="c">this survey</a> shows in detail for three rivers.</p></article></body></html>`)}, Query: "silt", Links: true})
	if err != nil {
		t.Fatal(err)
	}
	rec := res.Source.Record
	if !rec.OutsideLinksHash.Valid() || !rec.StructureHash.Valid() {
		t.Fatalf("the record names no outside links or sidecar: %+v", rec)
	}
	if got := fmt.Sprint(*res.Source.Links); !strings.Contains(got, "https://x.example/a/c this survey true") || !strings.Contains(got, "https://x.example/a/b Next page false <nil>") {
		t.Errorf("links %s", got)
	}
	// The same page's record as a version that kept no outside links
	// wrote it: its text's links, and a NO_STRUCTURE warning for the rest.
	text, err := p.Blob(ctx, res.Source.ArchiveHash)
	if err != nil {
		t.Fatal(err)
	}
	older := *rec
	older.OutsideLinksHash = archive.Hash{}
	links, outside, missing, err := p.Links(ctx, archive.NewBlob(string(text)), &older)
	if err != nil || len(links) != 1 || !links[0].InMain || outside != nil || len(missing) != 1 || missing[0].Code != fault.NoStructure || missing[0].Context["missing"] != "outside" {
		t.Errorf("a page archived before its outside links: %v, %+v, %+v, %v", links, outside, missing, err)
	}
	// The same page's outside links as outside-links/1 wrote them: listed
	// as those of outside-links/2 are.
	v1 := archive.NewBlob(`{"version":"outside-links/1","text_hash":"` + res.Source.ArchiveHash.String() + `","links":[["https://x.example/a/b","Next page"]]}`)
	if _, err := store.Put(ctx, v1.Hash(), v1.Reader()); err != nil {
		t.Fatal(err)
	}
	older.OutsideLinksHash = v1.Hash()
	links, outside, missing, err = p.Links(ctx, archive.NewBlob(string(text)), &older)
	if err != nil || missing != nil || outside == nil || *outside != (pipeline.OutsideCount{Total: 1, Listed: 1}) || fmt.Sprint(links) != fmt.Sprint(*res.Source.Links) {
		t.Errorf("outside links of outside-links/1: %v, %+v, %+v, %v; want %v", links, outside, missing, err, *res.Source.Links)
	}
	// A page whose links are all in its text keeps its (empty) outside
	// links, so that nothing is said missing.
	all, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{HTML: []byte(`<html><body><article><p>A page about rivers, which carry silt to the sea and build deltas where they slow down, as <a href="https://x.example/c">this survey</a> shows in detail for three rivers.</p></article></body></html>`)}, Query: "silt", Links: true})
	if err != nil || !all.Source.Record.OutsideLinksHash.Valid() || len(*all.Source.Links) != 1 || slices.ContainsFunc(all.Warnings, func(w pipeline.Warning) bool { return w.Code == fault.NoStructure }) {
		t.Errorf("a page without outside links: %+v, %v, %+v", all.Source.Links, err, all.Warnings)
	}
	p.Now = func() time.Time { return time.Now().Add(48 * time.Hour) }
	if _, err := p.CollectGarbage(ctx, time.Hour, false); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Stat(ctx, rec.OutsideLinksHash); err != nil {
		t.Errorf("the outside links were collected: %v", err)
	}
	other := archive.NewBlob("Another text entirely.")
	if _, _, _, err := p.Links(ctx, other, rec); fault.CodeOf(err) != fault.ArchiveCorrupt {
		t.Errorf("another text's links: %v, want ARCHIVE_CORRUPT", err)
	}
	if _, _, err := structure.ReadOutside([]byte(`{"version":"outside-links/1","text_hash":"`+other.Hash().String()+`","links":[["/relative","x"]]}`), other.Hash(), other.Len()); err == nil {
		t.Error("a relative target was read")
	}
}

// TestOutsideLinksCut: a page with more links outside its text than its
// archive keeps lists the first of them, in the page's order, and says how
// many it had, in the route's page (outside) and in a CONTENT_TRUNCATED
// warning (context.reason outside_links) of both the route and an answer's
// links; a page whose outside links are all kept says nothing is cut.
func TestOutsideLinksCut(t *testing.T) {
	ctx := context.Background()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	article := `<article><p>A page about rivers, which carry silt to the sea and build deltas where they slow down, as <a href="https://x.example/survey">this survey</a> shows in detail for three rivers.</p></article>`
	page := func(navLinks int) []byte {
		var nav strings.Builder
		for i := range navLinks {
			fmt.Fprintf(&nav, `<li><a href="https://x.example/menu/section-%d/page">Menu entry number %d</a></li>`, i, i)
		}
		return []byte(`<html><body><nav><ul>` + nav.String() + `</ul></nav>` + article + `</body></html>`)
	}
	cut := func(ws []pipeline.Warning) *pipeline.Warning {
		for i, w := range ws {
			if w.Code == fault.ContentTruncated && w.Context["reason"] == pipeline.ReasonOutsideLinks {
				return &ws[i]
			}
		}
		return nil
	}

	const n = 300 // far over the 2048 bytes a short text's links have
	res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{HTML: page(n)}, Query: "silt", Links: true})
	if err != nil {
		t.Fatal(err)
	}
	var outside []pipeline.Link
	for _, l := range *res.Source.Links {
		if !l.InMain {
			outside = append(outside, l)
		}
	}
	if len(outside) == 0 || len(outside) >= n {
		t.Fatalf("%d outside links listed of %d", len(outside), n)
	}
	for i, l := range outside {
		if want := fmt.Sprintf("https://x.example/menu/section-%d/page", i); l.URL != want {
			t.Fatalf("outside link %d: %s, want %s (the page's first)", i, l.URL, want)
		}
	}
	w := cut(res.Warnings)
	if w == nil || w.Context["outside_total"] != n || w.Context["outside_listed"] != len(outside) {
		t.Errorf("the answer's warnings: %+v, want one counting %d outside links, %d listed", res.Warnings, n, len(outside))
	}
	pg, err := p.SourceLinks(ctx, res.Source.ArchiveHash, archive.Hash{}, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if pg.Outside == nil || *pg.Outside != (pipeline.OutsideCount{Total: n, Listed: len(outside)}) || cut(pg.Warnings) == nil {
		t.Errorf("the route's page: outside %+v, warnings %+v; want %d of %d", pg.Outside, pg.Warnings, len(outside), n)
	}

	// Within its budget: all listed, nothing said cut.
	res, err = p.Digest(ctx, pipeline.Request{Source: ingest.Source{HTML: page(3)}, Query: "silt", Links: true})
	if err != nil {
		t.Fatal(err)
	}
	if len(*res.Source.Links) != 4 || cut(res.Warnings) != nil {
		t.Errorf("a page within its budget: links %v, warnings %+v", *res.Source.Links, res.Warnings)
	}
	pg, err = p.SourceLinks(ctx, res.Source.ArchiveHash, archive.Hash{}, 0, 0)
	if err != nil || pg.Outside == nil || *pg.Outside != (pipeline.OutsideCount{Total: 3, Listed: 3}) || len(pg.Warnings) != 0 {
		t.Errorf("a page within its budget: %+v, %v", pg, err)
	}
}
