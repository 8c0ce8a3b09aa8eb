package pipeline_test

import (
	"context"
	"errors"
	"io/fs"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/search"
	"github.com/digestd/digestd/search/bleveindex"
)

// searchPipeline returns a pipeline over a fresh disk archive with an
// embedded search index, and the index's directory.
func searchPipeline(t *testing.T) (*pipeline.Pipeline, string) {
	t.Helper()
	dir := t.TempDir()
	store, err := fsstore.Open(filepath.Join(dir, "archive"))
	if err != nil {
		t.Fatal(err)
	}
	loc := filepath.Join(dir, "index")
	idx, err := bleveindex.Open(loc)
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store, Index: idx}
	t.Cleanup(func() {
		p.WaitIndexed(context.Background())
		idx.Close()
	})
	return p, loc
}

var searchTexts = []string{
	"Mother-to-child transmission (MTCT) is the main cause of HIV-1 infection in children. Placental DC-SIGNR plays a crucial role in MTCT.\nBreastfeeding adds to the risk of MTCT after birth.",
	"Glaciers in the Alps have lost half their volume since 1900. Warmer summers melt the ice faster than winter snow restores it.",
	"Mitochondria are the powerhouse of the cell. They produce ATP through oxidative phosphorylation.",
}

// Every archived text is searchable from the moment its digest returns;
// each hit's locator slices its canonical text to the hit's text; labels
// and kinds filter; a source archived while the index was away becomes
// searchable by Reindex, and one the archive no longer holds leaves it.
func TestSearchArchive(t *testing.T) {
	ctx := context.Background()
	p, _ := searchPipeline(t)
	var hashes []archive.Hash
	for i, text := range searchTexts {
		labels := []string{"all"}
		if i == 0 {
			labels = append(labels, "hiv")
		}
		res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: text}, Query: "anything", Labels: labels})
		if err != nil {
			t.Fatal(err)
		}
		hashes = append(hashes, res.Source.ArchiveHash)
	}
	page, err := p.Search(ctx, pipeline.SearchRequest{Query: "what causes MTCT in children?"})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Hits) == 0 || page.Hits[0].Source != hashes[0] {
		t.Fatalf("hits %+v, want the MTCT text first", page.Hits)
	}
	for _, h := range page.Hits {
		text, _, _, err := p.Archived(ctx, h.Source)
		if err != nil {
			t.Fatal(err)
		}
		loc, err := digest.ParseLocator(h.LocatorString())
		if err != nil {
			t.Fatal(err)
		}
		if got, err := loc.Slice(text.String()); err != nil || got != h.Text {
			t.Errorf("locator %s slices %q, want the hit's text %q", loc, got, h.Text)
		}
		if h.Score < 0 || h.Score > 1 || h.Score > h.Relevance {
			t.Errorf("score %v outside [0, relevance %v]", h.Score, h.Relevance)
		}
	}
	if !slices.Contains(page.Hits[0].MatchedTerms, "mtct") {
		t.Errorf("matched terms %v lack mtct", page.Hits[0].MatchedTerms)
	}

	// Filters.
	page, err = p.Search(ctx, pipeline.SearchRequest{Query: "MTCT glaciers", Filter: search.Filter{Labels: []string{"hiv"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, h := range page.Hits {
		if h.Source != hashes[0] {
			t.Errorf("label hiv found %s", h.Source)
		}
	}
	if _, err := p.Search(ctx, pipeline.SearchRequest{Query: "MTCT", Filter: search.Filter{Labels: []string{"nobody"}}}); fault.CodeOf(err) != fault.NotFound {
		t.Errorf("an unknown label: %v, want NOT_FOUND", err)
	}
	for _, c := range []struct {
		name string
		req  pipeline.SearchRequest
		code fault.Code
	}{
		{"empty query", pipeline.SearchRequest{Query: "  "}, fault.MissingRequired},
		{"long query", pipeline.SearchRequest{Query: string(make([]byte, pipeline.MaxSearchQueryChars+1))}, fault.ValidationError},
		{"limit", pipeline.SearchRequest{Query: "MTCT", Limit: pipeline.MaxSearchLimit + 1}, fault.ValidationError},
		{"offset", pipeline.SearchRequest{Query: "MTCT", Offset: search.MaxResults}, fault.InvalidCursor},
	} {
		if _, err := p.Search(ctx, c.req); fault.CodeOf(err) != c.code {
			t.Errorf("%s: %v, want %s", c.name, err, c.code)
		}
	}

	// Pages: the second page continues the first.
	all, err := p.Search(ctx, pipeline.SearchRequest{Query: "MTCT glaciers mitochondria", Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Hits) < 3 {
		t.Fatalf("%d hits for three sources' words", len(all.Hits))
	}
	first, err := p.Search(ctx, pipeline.SearchRequest{Query: "MTCT glaciers mitochondria", Limit: 2})
	if err != nil || !first.More || first.Next != 2 {
		t.Fatalf("first page %+v %v", first, err)
	}
	second, err := p.Search(ctx, pipeline.SearchRequest{Query: "MTCT glaciers mitochondria", Limit: 2, Offset: first.Next})
	if err != nil {
		t.Fatal(err)
	}
	if second.Hits[0].Rank != 3 || second.Hits[0].Text != all.Hits[2].Text {
		t.Errorf("second page starts with %+v, want the third hit %+v", second.Hits[0], all.Hits[2])
	}
	grouped, err := p.Search(ctx, pipeline.SearchRequest{Query: "MTCT glaciers mitochondria", GroupBySource: true, Limit: 50})
	if err != nil {
		t.Fatal(err)
	}
	seen := map[archive.Hash]bool{}
	for _, h := range grouped.Hits {
		if seen[h.Source] {
			t.Errorf("group_by source: %s twice", h.Source)
		}
		seen[h.Source] = true
	}
	if len(seen) != 3 {
		t.Errorf("group_by source: %d sources, want 3", len(seen))
	}
}

// A source acknowledged while the index missed it (a crash between the
// archive and the index) is searchable after Reindex; a source removed from
// the index but archived comes back; Reindex --all rebuilds.
func TestReindex(t *testing.T) {
	ctx := context.Background()
	p, _ := searchPipeline(t)
	idx := p.Index
	p.Index = nil // the index misses this one
	res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: searchTexts[1]}, Query: "glaciers", Labels: []string{"climate"}})
	if err != nil {
		t.Fatal(err)
	}
	p.Index = idx
	if _, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: searchTexts[2]}, Query: "cells"}); err != nil {
		t.Fatal(err)
	}
	found := func() bool {
		page, err := p.Search(ctx, pipeline.SearchRequest{Query: "glaciers Alps"})
		if err != nil {
			t.Fatal(err)
		}
		return len(page.Hits) > 0 && page.Hits[0].Source == res.Source.ArchiveHash
	}
	if found() {
		t.Fatal("a source archived without the index is found before the reconcile")
	}
	rep, err := p.Reindex(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	if rep != (pipeline.ReindexReport{Sources: 2, Indexed: 1}) {
		t.Errorf("reconcile: %+v, want 2 sources, 1 indexed", rep)
	}
	if !found() {
		t.Fatal("not found after the reconcile")
	}
	src, err := idx.Source(ctx, res.Source.ArchiveHash)
	if err != nil || !slices.Equal(src.Labels, []string{"climate"}) || src.Kind != "text" {
		t.Errorf("reindexed source %+v %v: labels or kind lost", src, err)
	}
	// A source the archive does not hold leaves the index.
	stray := archive.SumString("never archived")
	if err := idx.Put(ctx, search.Document{Source: search.Source{Hash: stray, Kind: "text"}, Passages: search.PassagesOf("Glaciers glaciers glaciers.")}); err != nil {
		t.Fatal(err)
	}
	if rep, err = p.Reindex(ctx, true); err != nil || rep != (pipeline.ReindexReport{Sources: 2, Indexed: 2, Removed: 1}) {
		t.Errorf("rebuild: %+v %v, want 2 sources indexed, 1 removed", rep, err)
	}
	if _, err := idx.Source(ctx, stray); err == nil {
		t.Error("a source the archive does not hold is still indexed")
	}
	// Digesting the same text again indexes nothing twice.
	if _, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: searchTexts[1]}, Query: "ice"}); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	cands, _, err := idx.Candidates(ctx, "glaciers", search.Filter{}, 50)
	if err != nil || len(cands) != len(search.PassagesOf(searchTexts[1])) {
		t.Errorf("%d candidates for a text of %d passages (%v)", len(cands), len(search.PassagesOf(searchTexts[1])), err)
	}
}

// Labels the archive gave a source while the index missed them (a crash
// before the indexer took them) reach the index with the reconcile.
func TestReindexRelabels(t *testing.T) {
	ctx := context.Background()
	p, _ := searchPipeline(t)
	res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: searchTexts[2]}, Query: "cells", Labels: []string{"bio"}})
	if err != nil {
		t.Fatal(err)
	}
	if err := p.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	idx := p.Index
	p.Index = nil
	if _, err := p.Digest(ctx, pipeline.Request{Archive: res.Source.ArchiveHash, Query: "ATP", Labels: []string{"energy"}}); err != nil {
		t.Fatal(err)
	}
	p.Index = idx
	rep, err := p.Reindex(ctx, false)
	if err != nil || rep != (pipeline.ReindexReport{Sources: 1, Relabeled: 1}) {
		t.Errorf("reconcile: %+v %v, want 1 source relabeled", rep, err)
	}
	if src, err := idx.Source(ctx, res.Source.ArchiveHash); err != nil || !slices.Equal(src.Labels, []string{"bio", "energy"}) {
		t.Errorf("after the reconcile the index holds %+v %v, want labels [bio energy]", src, err)
	}
	if rep, err := p.Reindex(ctx, false); err != nil || rep != (pipeline.ReindexReport{Sources: 1}) {
		t.Errorf("a second reconcile: %+v %v, want nothing done", rep, err)
	}
}

// An index that cannot be reached is UNAVAILABLE for search, degraded in
// health, and never fails a digest.
func TestSearchIndexUnavailable(t *testing.T) {
	ctx := context.Background()
	p, _ := searchPipeline(t)
	p.Index.Close()
	if _, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: searchTexts[0]}, Query: "MTCT"}); err != nil {
		t.Fatalf("a digest failed with the index down: %v", err)
	}
	if _, err := p.Search(ctx, pipeline.SearchRequest{Query: "MTCT"}); fault.CodeOf(err) != fault.Unavailable {
		t.Errorf("search with the index down: %v, want UNAVAILABLE", err)
	}
	if st, _ := p.IndexProbe(ctx); st != pipeline.Degraded {
		t.Errorf("index probe %s, want degraded", st)
	}
}

// A text that garbage collection removes leaves the search index with it;
// an archived source's text stays in both.
func TestCollectGarbageRemovesFromIndex(t *testing.T) {
	ctx := context.Background()
	p, _ := searchPipeline(t)
	res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: searchTexts[1]}, Query: "glaciers"})
	if err != nil {
		t.Fatal(err)
	}
	// A text no reference reaches, yet indexed (its source reference
	// lost): the collection finds it an orphan.
	orphanText := "Orphaned notes on volcanoes erupting in Iceland."
	orphan, err := archive.PutBytes(ctx, p.Store, []byte(orphanText))
	if err != nil {
		t.Fatal(err)
	}
	if err := p.Index.Put(ctx, search.Document{Source: search.Source{Hash: orphan, Kind: "text"}, Passages: search.PassagesOf(orphanText)}); err != nil {
		t.Fatal(err)
	}
	if err := p.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(48 * time.Hour)
	p.Now = func() time.Time { return later }
	rep, err := p.CollectGarbage(ctx, time.Hour, false)
	if err != nil || rep.Removed != 1 {
		t.Fatalf("gc: %+v %v, want the orphan removed", rep, err)
	}
	if _, err := p.Index.Source(ctx, orphan); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the collected text is still indexed: %v", err)
	}
	if cands, _, err := p.Index.Candidates(ctx, "volcanoes Iceland", search.Filter{}, 10); err != nil || len(cands) != 0 {
		t.Errorf("the collected text's passages are still found: %v %v", cands, err)
	}
	if _, err := p.Index.Source(ctx, res.Source.ArchiveHash); err != nil {
		t.Errorf("the archived source left the index: %v", err)
	}
}
