package pipeline_test

import (
	"context"
	"os"
	"sync/atomic"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
)

// listed counts the archive's blobs and bytes the slow way.
func listed(t *testing.T, store archive.Store) (blobs, bytes int64) {
	t.Helper()
	err := store.List(context.Background(), func(bi archive.BlobInfo) error {
		blobs++
		bytes += bi.Size
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return blobs, bytes
}

// listCounter counts full listings of the archive.
type listCounter struct {
	archive.Store
	n atomic.Int64
}

func (l *listCounter) List(ctx context.Context, fn func(archive.BlobInfo) error) error {
	l.n.Add(1)
	return l.Store.List(ctx, fn)
}

// TestStatsKeepArchiveSize runs the pipeline's writes and collections and
// checks after each step that the archive size Stats reports, counted once,
// is what a full listing finds, and that Stats itself lists nothing.
func TestStatsKeepArchiveSize(t *testing.T) {
	ctx := context.Background()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now()
	lists := &listCounter{Store: store}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: lists, Now: func() time.Time { return now }}
	if _, err := archive.PutBytes(ctx, store, []byte("a blob written before the count")); err != nil {
		t.Fatal(err)
	}
	if err := p.CountArchive(ctx); err != nil {
		t.Fatal(err)
	}
	digest := func(text, query string) func() {
		return func() {
			if _, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: text}, Query: query}); err != nil {
				t.Fatal(err)
			}
		}
	}
	steps := []struct {
		name         string
		do           func()
		hits, misses int64
	}{
		{"counted", func() {}, 0, 0},
		{"first digest", digest("Rivers carry silt to the sea. Tides move it back.", "tides"), 0, 1},
		{"same digest, cached", digest("Rivers carry silt to the sea. Tides move it back.", "tides"), 1, 1},
		{"same text, new query", digest("Rivers carry silt to the sea. Tides move it back.", "silt"), 1, 2},
		{"another text", digest("Glaciers grind rock into flour.", "glaciers"), 1, 3},
		{"a day on, rewritten", func() { now = now.Add(24 * time.Hour); digest("Glaciers grind rock into flour.", "rock")() }, 1, 4},
		{"collected", func() {
			now = now.Add(24 * time.Hour)
			rep, err := p.CollectGarbage(ctx, time.Hour, false)
			if err != nil || rep.Removed != 1 {
				t.Fatalf("gc: %+v %v", rep, err)
			}
		}, 1, 4},
	}
	for _, s := range steps {
		s.do()
		before := lists.n.Load()
		st := p.Stats()
		for range 10 {
			p.Stats()
		}
		if n := lists.n.Load() - before; n != 0 {
			t.Errorf("%s: Stats listed the archive %d times", s.name, n)
		}
		blobs, bytes := listed(t, store)
		if st.ArchiveBlobs != blobs || st.ArchiveBytes != bytes || st.CacheHits != s.hits || st.CacheMisses != s.misses || st.ArchiveCountedAt.IsZero() {
			t.Errorf("%s: stats %+v, listing %d blobs %d bytes, want %d hits %d misses", s.name, st, blobs, bytes, s.hits, s.misses)
		}
	}
}

// TestHealth checks the service state for each mix of component states,
// and that only an unhealthy archive makes the service unhealthy.
func TestHealth(t *testing.T) {
	ctx := context.Background()
	probe := func(name, status string) pipeline.Probe {
		return pipeline.Probe{Name: name, Check: func(context.Context) (string, map[string]any) { return status, nil }}
	}
	tests := []struct {
		name         string
		lose         bool // remove the archive's directory
		probes       []pipeline.Probe
		want         string
		healthy, all int
	}{
		{"archive alone", false, nil, pipeline.Healthy, 1, 1},
		{"all healthy", false, []pipeline.Probe{probe("pdf", pipeline.Healthy), probe("fetch", pipeline.Healthy)}, pipeline.Healthy, 3, 3},
		{"one degraded", false, []pipeline.Probe{probe("pdf", pipeline.Degraded), probe("fetch", pipeline.Healthy)}, pipeline.Degraded, 2, 3},
		{"a component down", false, []pipeline.Probe{probe("pdf", pipeline.Unhealthy)}, pipeline.Degraded, 1, 2},
		{"archive lost", true, []pipeline.Probe{probe("pdf", pipeline.Healthy)}, pipeline.Unhealthy, 1, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			store, err := fsstore.Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			if tt.lose {
				if err := os.RemoveAll(dir); err != nil {
					t.Fatal(err)
				}
			}
			p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
			h := p.Health(ctx, tt.probes)
			if h.Status != tt.want || h.HealthyServices != tt.healthy || h.TotalServices != tt.all || len(h.Components) != tt.all {
				t.Errorf("health %+v, want %s with %d of %d healthy", h, tt.want, tt.healthy, tt.all)
			}
			if err := h.Err(); (err != nil) != (tt.want == pipeline.Unhealthy) {
				t.Errorf("Err() = %v for %s", err, h.Status)
			}
		})
	}
}
