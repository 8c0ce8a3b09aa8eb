package pipeline_test

import (
	"context"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
)

func TestCollectGarbage(t *testing.T) {
	ctx := context.Background()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(48 * time.Hour)
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: "Kept text about rivers and tides."}, Query: "tides"})
	if err != nil {
		t.Fatal(err)
	}
	orphan, err := archive.PutBytes(ctx, store, []byte("an orphan nobody references"))
	if err != nil {
		t.Fatal(err)
	}
	// Nothing is old enough yet: nothing goes.
	rep, err := p.CollectGarbage(ctx, time.Hour, false)
	if err != nil || rep.Removed != 0 || rep.Young != 1 {
		t.Fatalf("fresh: %+v %v", rep, err)
	}
	// Two days on, the orphan goes, the text, record and digest stay.
	p.Now = func() time.Time { return later }
	rep, err = p.CollectGarbage(ctx, time.Hour, true)
	if err != nil || rep.Removed != 1 {
		t.Fatalf("dry run: %+v %v", rep, err)
	}
	if _, err := store.Stat(ctx, orphan); err != nil {
		t.Fatal("dry run removed a blob")
	}
	rep, err = p.CollectGarbage(ctx, time.Hour, false)
	if err != nil || rep.Removed != 1 || rep.Referenced != 3 {
		t.Fatalf("gc: %+v %v", rep, err)
	}
	if _, err := store.Stat(ctx, orphan); err == nil {
		t.Error("orphan survived")
	}
	for _, h := range []string{res.Source.ArchiveHash, res.Source.RecordHash, res.DigestHash.String()} {
		if _, err := store.Stat(ctx, archive.MustParseDigest(h)); err != nil {
			t.Errorf("referenced blob %s removed: %v", h, err)
		}
	}
	// Expired content is a plain NOT_FOUND.
	_, err = p.Digest(ctx, pipeline.Request{Archive: orphan, Query: "q"})
	if err == nil {
		t.Error("digesting a removed blob succeeded")
	}
}
