package pipeline_test

import (
	"context"
	"io"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
)

// getCountingStore counts the blobs read from a store, by hash.
type getCountingStore struct {
	archive.Store
	gets map[archive.Hash]*atomic.Int64
}

func (s *getCountingStore) Get(ctx context.Context, d archive.Hash) (io.ReadCloser, error) {
	if n, ok := s.gets[d]; ok {
		n.Add(1)
	}
	return s.Store.Get(ctx, d)
}

// TestCachedDigestIsReadOnce repeats a cached request: the archived digest
// is read from the store once, and later hits answer the same digest
// without reading it again. A caller changing the digest it was given
// changes no later answer.
func TestCachedDigestIsReadOnce(t *testing.T) {
	ctx := context.Background()
	fs, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	store := &getCountingStore{Store: fs, gets: map[archive.Hash]*atomic.Int64{}}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	req := pipeline.Request{Source: ingest.Source{Text: tidesText}, Query: "moon"}
	first, err := p.Digest(ctx, req)
	if err != nil || first.CacheHit {
		t.Fatalf("first: %+v, %v", first, err)
	}
	reads := new(atomic.Int64)
	store.gets[first.DigestHash] = reads
	var hits []*pipeline.Result
	for range 5 {
		res, err := p.Digest(ctx, req)
		if err != nil || !res.CacheHit || res.DigestHash != first.DigestHash {
			t.Fatalf("not the cached digest: %+v, %v", res, err)
		}
		if !reflect.DeepEqual(res.Payload, first.Payload) || !reflect.DeepEqual(res.Match, first.Match) {
			t.Fatalf("a hit answers another digest:\n%+v\nwant\n%+v", res.Payload, first.Payload)
		}
		hits = append(hits, res)
		// What a caller does to its answer stays its own.
		res.Payload.Summary = "changed by the caller"
		res.Payload.EvidenceSnippets[0].Text = "changed"
		res.Payload.KeyPoints = append(res.Payload.KeyPoints[:0], "changed")
		res.Match.Terms[0] = "changed"
	}
	if n := reads.Load(); n > 1 {
		t.Errorf("the archived digest was read %d times for %d hits, want at most once", n, len(hits))
	}
}
