package pipeline_test

import (
	"context"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/search"
)

// countingIndex is a search.Index that counts the calls the indexer makes.
type countingIndex struct {
	search.Index
	sources, puts, relabels atomic.Int64
}

func (x *countingIndex) Source(ctx context.Context, h archive.Hash) (search.Source, error) {
	x.sources.Add(1)
	return x.Index.Source(ctx, h)
}

func (x *countingIndex) Put(ctx context.Context, docs ...search.Document) error {
	x.puts.Add(1)
	return x.Index.Put(ctx, docs...)
}

func (x *countingIndex) SetLabels(ctx context.Context, h archive.Hash, labels []string) error {
	x.relabels.Add(1)
	return x.Index.SetLabels(ctx, h, labels)
}

// A text already archived and indexed is not indexed again: a repeated
// digest asks the engine nothing; a new label reaches the index, once;
// and a source the reconcile removed from the index is indexed when it is
// archived again.
func TestRepeatedDigestAsksTheIndexNothing(t *testing.T) {
	ctx := context.Background()
	p, loc := searchPipeline(t)
	dir := filepath.Dir(loc)
	idx := &countingIndex{Index: p.Index}
	p.Index = idx
	digestOnce := func(labels ...string) archive.Hash {
		t.Helper()
		res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: searchTexts[0]}, Query: "what causes MTCT?", Labels: labels})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.WaitIndexed(ctx); err != nil {
			t.Fatal(err)
		}
		return res.Source.ArchiveHash
	}
	calls := func() [3]int64 { return [3]int64{idx.sources.Load(), idx.puts.Load(), idx.relabels.Load()} }

	h := digestOnce()
	if got := calls(); got != [3]int64{1, 1, 0} {
		t.Fatalf("first digest: Source, Put, SetLabels called %v times, want [1 1 0]", got)
	}
	for range 3 {
		digestOnce()
	}
	if got := calls(); got != [3]int64{1, 1, 0} {
		t.Errorf("three repeated digests: Source, Put, SetLabels called %v times in all, want [1 1 0] (the first digest's)", got)
	}
	digestOnce("new")
	digestOnce("new")
	if got := calls(); got != [3]int64{2, 1, 1} {
		t.Errorf("a new label, then the same again: Source, Put, SetLabels called %v times in all, want [2 1 1]", got)
	}
	if src, err := idx.Index.Source(ctx, h); err != nil || len(src.Labels) != 1 || src.Labels[0] != "new" {
		t.Errorf("the index holds %+v, %v; want the label new", src, err)
	}

	// A source the reconcile removes from the index (its source
	// reference lost) is forgotten: archived again, it is indexed again.
	ref := filepath.Join(dir, "archive", filepath.FromSlash(archive.RefKey("sources/"+h.Hex())))
	if err := os.Remove(ref); err != nil {
		t.Fatal(err)
	}
	if rep, err := p.Reindex(ctx, false); err != nil || rep.Removed != 1 {
		t.Fatalf("reconcile: %+v, %v; want the source removed", rep, err)
	}
	digestOnce("new")
	if _, err := idx.Index.Source(ctx, h); err != nil {
		t.Errorf("archived again after the reconcile removed it, the source is not indexed: %v", err)
	}
}
