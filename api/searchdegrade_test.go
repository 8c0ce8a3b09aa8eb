package api_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/search"
)

// searchMeta is what a search answer's meta says of what it left out.
type searchMeta struct {
	ContentFidelity string   `json:"content_fidelity"`
	Warnings        []string `json:"warnings"`
	WarningDetails  []struct {
		Code     string         `json:"code"`
		Severity string         `json:"severity"`
		Context  map[string]any `json:"context"`
	} `json:"warning_details"`
}

// A source whose archived text is corrupt does not fail a search that
// finds it: the other sources are answered, and the answer is partial with
// an ARCHIVE_CORRUPT warning naming the corrupt source's hash.
func TestSearchSkipsCorruptSource(t *testing.T) {
	h, pipe := newSearchServer(t)
	c := loadContract(t)
	texts := []string{
		"Glaciers in the Alps have lost half their volume since 1900. Warmer summers melt the glaciers faster.",
		"Glaciers in Norway grew in the 1990s. Snowy winters fed the glaciers.",
	}
	var hashes []archive.Hash
	for _, text := range texts {
		resp, b := c.do(t, h, "POST", "/v1/digest", "application/json", fmt.Appendf(nil, `{"query":"glaciers","source":{"text":%q}}`, text))
		if resp.StatusCode != 200 {
			t.Fatalf("digest: %d %s", resp.StatusCode, b)
		}
		var d struct {
			Source struct {
				ArchiveHash archive.Hash `json:"archive_hash"`
			} `json:"source"`
		}
		json.Unmarshal(decodeEnvelope(t, b).Data, &d)
		hashes = append(hashes, d.Source.ArchiveHash)
	}
	search := func() (int, searchData, searchMeta, []byte) {
		t.Helper()
		resp, b := c.do(t, h, "POST", "/v1/search", "application/json", []byte(`{"query":"glaciers","group_by":"source"}`))
		var (
			d    searchData
			meta searchMeta
		)
		if resp.StatusCode == 200 {
			env := decodeEnvelope(t, b)
			json.Unmarshal(env.Data, &d)
			var raw struct {
				Meta searchMeta `json:"meta"`
			}
			json.Unmarshal(b, &raw)
			meta = raw.Meta
		}
		return resp.StatusCode, d, meta, b
	}
	if code, d, meta, b := search(); code != 200 || len(d.Results) != 2 || meta.ContentFidelity != "full" || len(meta.Warnings) != 0 {
		t.Fatalf("search before the damage: %d %s", code, b)
	}

	// Damage the first text behind the archive's back, keeping its size.
	path := pipe.Store.(*fsstore.Store).BlobPath(hashes[0])
	os.Chmod(path, 0o644)
	if err := os.WriteFile(path, []byte(strings.ToUpper(texts[0])), 0o644); err != nil {
		t.Fatal(err)
	}
	code, d, meta, b := search()
	if code != 200 {
		t.Fatalf("search finding a corrupt source: %d %s", code, b)
	}
	if len(d.Results) != 1 || d.Results[0].ArchiveHash != hashes[1].String() {
		t.Errorf("search finding a corrupt source answered %s; want the other source only", b)
	}
	if meta.ContentFidelity != "partial" || len(meta.WarningDetails) != 1 {
		t.Fatalf("search finding a corrupt source: meta %+v, want partial with one warning", meta)
	}
	w := meta.WarningDetails[0]
	ids, _ := w.Context["archive_hashes"].([]any)
	if w.Code != "ARCHIVE_CORRUPT" || w.Severity != "error" || !slices.Equal(ids, []any{hashes[0].String()}) || !strings.Contains(meta.Warnings[0], hashes[0].String()) {
		t.Errorf("warning %+v %q, want ARCHIVE_CORRUPT naming %s", w, meta.Warnings[0], hashes[0])
	}
}

// gatedIndex is a search index whose Sources and Put each wait for their
// gate, once each has told that it was called.
type gatedIndex struct {
	search.Index
	sourcesCalled, putCalled chan struct{}
	sourcesGate, putGate     chan struct{}
}

func (x *gatedIndex) Sources(ctx context.Context, fn func(search.Source) error) error {
	x.sourcesCalled <- struct{}{}
	<-x.sourcesGate
	return x.Index.Sources(ctx, fn)
}

func (x *gatedIndex) Put(ctx context.Context, docs ...search.Document) error {
	x.putCalled <- struct{}{}
	<-x.putGate
	return x.Index.Put(ctx, docs...)
}

// While the reconcile at start has not indexed what the index lacks (after
// a crash, or with the index rebuilt), a search answers partial with an
// INDEX_LAGGING warning — how many archived sources are not yet
// searchable, or, while the reconcile still lists them, that it does not
// know yet — and health says the index is degraded; once the reconcile is
// done, the search is full and the index healthy.
func TestSearchWhileIndexLags(t *testing.T) {
	_, pipe := newSearchServer(t)
	h := api.New(pipe, api.Config{OpenAPI: digestd.OpenAPI, MaxBodyBytes: 1 << 20, Version: digestd.Version,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Probes: []pipeline.Probe{{Name: "search_index", Check: pipe.IndexProbe}}}).Handler()
	c := loadContract(t)
	idx := pipe.Index
	pipe.Index = nil // archived while the index was away
	for i := range 3 {
		resp, b := c.do(t, h, "POST", "/v1/digest", "application/json", fmt.Appendf(nil, `{"query":"tides","source":{"text":"Tides rise twice a day in harbour %d. The moon pulls the sea."}}`, i))
		if resp.StatusCode != 200 {
			t.Fatalf("digest: %d %s", resp.StatusCode, b)
		}
	}
	gated := &gatedIndex{Index: idx, sourcesCalled: make(chan struct{}, 1), putCalled: make(chan struct{}, 1),
		sourcesGate: make(chan struct{}), putGate: make(chan struct{})}
	pipe.Index = gated
	done := make(chan error, 1)
	go func() {
		_, err := pipe.Reindex(context.Background(), false)
		done <- err
	}()
	search := func() (searchData, searchMeta) {
		t.Helper()
		resp, b := c.do(t, h, "POST", "/v1/search", "application/json", []byte(`{"query":"tides harbour","group_by":"source"}`))
		if resp.StatusCode != 200 {
			t.Fatalf("search: %d %s", resp.StatusCode, b)
		}
		var (
			d   searchData
			raw struct {
				Meta searchMeta `json:"meta"`
			}
		)
		json.Unmarshal(decodeEnvelope(t, b).Data, &d)
		json.Unmarshal(b, &raw)
		return d, raw.Meta
	}
	indexHealth := func() (string, string, map[string]any) {
		t.Helper()
		_, _, hd := health(t, c, h)
		return hd.Status, hd.Components["search_index"].Status, hd.Components["search_index"].Details
	}

	<-gated.sourcesCalled // the reconcile lists the index
	_, meta := search()
	if meta.ContentFidelity != "partial" || len(meta.WarningDetails) != 1 || meta.WarningDetails[0].Code != "INDEX_LAGGING" || meta.WarningDetails[0].Context["reconciling"] != true {
		t.Errorf("search while the reconcile lists: meta %+v, want partial with INDEX_LAGGING, reconciling", meta)
	}
	if st, ist, details := indexHealth(); st != "degraded" || ist != "degraded" || details["reconciling"] != true {
		t.Errorf("health while the reconcile lists: %s, search_index %s %v", st, ist, details)
	}
	close(gated.sourcesGate)

	<-gated.putCalled // the reconcile indexes the three sources
	d, meta := search()
	if len(d.Results) != 0 || meta.ContentFidelity != "partial" || len(meta.WarningDetails) != 1 {
		t.Fatalf("search while the reconcile indexes: %d results, meta %+v", len(d.Results), meta)
	}
	if w := meta.WarningDetails[0]; w.Code != "INDEX_LAGGING" || w.Severity != "warning" || w.Context["unsearchable_sources"] != float64(3) || !strings.HasPrefix(meta.Warnings[0], "3 archived source(s) are not yet searchable") {
		t.Errorf("search while the reconcile indexes: warning %+v %q, want INDEX_LAGGING with 3 unsearchable sources", w, meta.Warnings[0])
	}
	if st, ist, details := indexHealth(); st != "degraded" || ist != "degraded" || details["unsearchable_sources"] != float64(3) {
		t.Errorf("health while the reconcile indexes: %s, search_index %s %v", st, ist, details)
	}
	close(gated.putGate)
	if err := <-done; err != nil {
		t.Fatal(err)
	}

	d, meta = search()
	if len(d.Results) != 3 || meta.ContentFidelity != "full" || len(meta.Warnings) != 0 {
		t.Errorf("search after the reconcile: %d results, meta %+v; want 3, full", len(d.Results), meta)
	}
	if st, ist, details := indexHealth(); st != "healthy" || ist != "healthy" || details["unsearchable_sources"] != float64(0) {
		t.Errorf("health after the reconcile: %s, search_index %s %v", st, ist, details)
	}
}
