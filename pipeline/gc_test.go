package pipeline_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
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
	for _, h := range []string{res.Source.ArchiveHash.String(), res.Source.RecordHash.String(), res.DigestHash.String()} {
		if _, err := store.Stat(ctx, archive.MustParseHash(h)); err != nil {
			t.Errorf("referenced blob %s removed: %v", h, err)
		}
	}
	// Expired content is a plain NOT_FOUND.
	_, err = p.Digest(ctx, pipeline.Request{Archive: orphan, Query: "q"})
	if err == nil {
		t.Error("digesting a removed blob succeeded")
	}
}

// listHook runs after a listing of the blobs, as a request would that
// arrives while garbage collection is deciding.
type listHook struct {
	archive.Store
	after func()
}

func (s listHook) List(ctx context.Context, fn func(archive.BlobInfo) error) error {
	err := s.Store.List(ctx, fn)
	if s.after != nil {
		s.after()
	}
	return err
}

// An old orphan that a request references again while the collection runs
// is kept, with everything its new reference reaches.
func TestCollectGarbageKeepsReReferencedOrphan(t *testing.T) {
	ctx := context.Background()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	const text = "An old text about estuaries, orphaned and then sent again."
	orphan, err := archive.PutBytes(ctx, store, []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	hooked := &listHook{Store: store}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: hooked}
	p.Now = func() time.Time { return time.Now().Add(48 * time.Hour) }
	var res *pipeline.Result
	hooked.after = func() {
		hooked.after = nil
		res, err = p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: text}, Query: "estuaries"})
		if err != nil {
			t.Error(err)
		}
	}
	if _, err := p.CollectGarbage(ctx, time.Hour, false); err != nil {
		t.Fatal(err)
	}
	if res == nil || res.Source.ArchiveHash.String() != orphan.String() {
		t.Fatalf("the text was not digested again as %s", orphan)
	}
	if _, err := store.Stat(ctx, orphan); err != nil {
		t.Fatalf("the re-referenced text was removed: %v", err)
	}
	if _, err := p.Digest(ctx, pipeline.Request{Archive: orphan, Query: "estuaries"}); err != nil {
		t.Fatalf("digesting the kept text by hash: %v", err)
	}
}

func TestCollectGarbageRefusesShortGrace(t *testing.T) {
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	if _, err := p.CollectGarbage(context.Background(), time.Second, true); err == nil {
		t.Error("a one-second grace was accepted")
	}
}

// The operations guide and gc's --help name the least grace MinGCGrace
// holds.
func TestMinGCGraceDocumented(t *testing.T) {
	readme, err := os.ReadFile("../docs/operations.md")
	if err != nil {
		t.Fatal(err)
	}
	if want := "at least 10 minutes"; pipeline.MinGCGrace != 10*time.Minute || !strings.Contains(string(readme), want) {
		t.Errorf("docs/operations.md should say the grace is %q (MinGCGrace = %s)", want, pipeline.MinGCGrace)
	}
}

// A source whose record blob is found corrupt keeps its text: the source's
// reference names the text, and the collection reports the record, even
// when no cached digest reaches the text any more (their references
// expired).
func TestCollectGarbageKeepsTextOfCorruptRecord(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	store, err := fsstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: "Kept text about rivers and tides."}, Query: "tides"})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "v1", "refs", "digests")); err != nil {
		t.Fatal(err)
	}
	record := store.BlobPath(res.Source.RecordHash)
	os.Chmod(record, 0o644)
	if err := os.WriteFile(record, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	p.Now = func() time.Time { return time.Now().Add(48 * time.Hour) }
	rep, err := p.CollectGarbage(ctx, time.Hour, false)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := store.Stat(ctx, res.Source.ArchiveHash); err != nil {
		t.Errorf("the text of a source whose record is corrupt was removed: %+v", rep)
	}
	if len(rep.Corrupt) != 1 || rep.Corrupt[0] != res.Source.RecordHash {
		t.Errorf("corrupt blobs reported: %v, want the record %s", rep.Corrupt, res.Source.RecordHash)
	}
}
