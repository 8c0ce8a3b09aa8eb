package pipeline_test

import (
	"context"
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
)

// countingStore counts reference reads; it hides RefNamer (plain) or
// passes it on.
type countingStore struct {
	archive.Store
	refs, lists int
}

func (s *countingStore) Ref(ctx context.Context, name string) (archive.Hash, error) {
	s.refs++
	return s.Store.Ref(ctx, name)
}

func (s *countingStore) ListRefs(ctx context.Context, prefix string, fn func(string, archive.Hash) error) error {
	s.lists++
	return s.Store.ListRefs(ctx, prefix, fn)
}

type namingStore struct{ *countingStore }

func (s namingStore) ListRefNames(ctx context.Context, prefix string, fn func(string) error) error {
	return s.countingStore.Store.(archive.RefNamer).ListRefNames(ctx, prefix, fn)
}

// TestListingReadsOnlyItsPage archives 30 sources and pages through them
// five at a time: a store that lists names reads five references a page
// and the same pages come out as from a store that reads them all.
func TestListingReadsOnlyItsPage(t *testing.T) {
	ctx := context.Background()
	fs, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: fs, Now: func() time.Time { at = at.Add(time.Second); return at }}
	for i := range 30 {
		if _, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: fmt.Sprintf("Source number %d is about tides.", i)}, Query: "tides"}); err != nil {
			t.Fatal(err)
		}
	}
	pages := func(store archive.Store, cs *countingStore) [][]pipeline.SourceEntry {
		lp := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
		var out [][]pipeline.SourceEntry
		after := ""
		for {
			cs.refs = 0
			page, more, total, err := lp.ListSources(ctx, after, 5)
			if err != nil || total != 30 {
				t.Fatalf("list: %v, total %d", err, total)
			}
			if _, names := store.(archive.RefNamer); names && cs.refs > 5 {
				t.Errorf("a page of 5 read %d references", cs.refs)
			}
			out = append(out, page)
			if !more {
				return out
			}
			after = page[len(page)-1].Position
		}
	}
	plain := &countingStore{Store: fs}
	named := &countingStore{Store: fs}
	want := pages(plain, plain)
	got := pages(namingStore{named}, named)
	if len(want) != 6 || !reflect.DeepEqual(got, want) {
		t.Errorf("pages by name differ from pages read whole:\n%v\n%v", got, want)
	}
	if named.lists != 0 {
		t.Errorf("the naming store's references were all read %d times", named.lists)
	}
}
