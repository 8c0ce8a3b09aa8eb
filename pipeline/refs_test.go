package pipeline_test

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
)

// crashingStore fails the first SetRef whose name has the prefix, as a
// process killed between two reference writes would leave them.
type crashingStore struct {
	archive.Store
	prefix string
	failed bool
}

func (s *crashingStore) SetRef(ctx context.Context, name string, d archive.Hash) error {
	if !s.failed && strings.HasPrefix(name, s.prefix) {
		s.failed = true
		return errors.New("killed")
	}
	return s.Store.SetRef(ctx, name, d)
}

// TestAcknowledgedSourceIsListed interrupts the reference writes of an
// upload at each of them: the source is not listed (its record cannot be
// read by its hash), the next upload of the same text is acknowledged, and
// from then on the source is listed, once.
func TestAcknowledgedSourceIsListed(t *testing.T) {
	ctx := context.Background()
	for _, prefix := range []string{"sources/", "sources-index/"} {
		fs, err := fsstore.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		store := &crashingStore{Store: fs, prefix: prefix}
		p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
		req := pipeline.Request{Source: ingest.Source{Text: "A text about rivers and tides."}, Query: "tides"}
		if _, err := p.Digest(ctx, req); err == nil {
			t.Fatalf("%s: the interrupted upload was acknowledged", prefix)
		}
		if page, err := p.ListSources(ctx, "", 10); err != nil || len(page.Sources) != 0 {
			t.Errorf("interrupted at %s: listing %+v (%v) before the next upload, want nothing", prefix, page.Sources, err)
		}
		if _, err := p.Records(ctx, archive.SumString(req.Source.Text)); fault.CodeOf(err) != fault.NotFound {
			t.Errorf("interrupted at %s: the source's records: %v, want NOT_FOUND", prefix, err)
		}
		res, err := p.Digest(ctx, req)
		if err != nil {
			t.Fatalf("%s: the second upload: %v", prefix, err)
		}
		page, err := p.ListSources(ctx, "", 10)
		if err != nil || len(page.Sources) != 1 || page.More || page.Sources[0].ArchiveHash != res.Source.ArchiveHash {
			t.Errorf("interrupted at %s: listing %+v (%v), want %s once", prefix, page, err, res.Source.ArchiveHash)
		}
		// The interrupted upload's index entry was reused, not doubled.
		indexed := 0
		fs.ListRefNames(ctx, "sources-index/", func(string) error { indexed++; return nil })
		if indexed != 1 {
			t.Errorf("interrupted at %s: %d index entries, want 1", prefix, indexed)
		}
	}
}

// TestRecordNotReplacedByLarger uploads one text as plain text and then as
// an HTML page whose record is larger: the page's answer names its own
// record, kept beside the first, and the source's record (the one listings
// show) stays the first. Metadata is capped before it is stored.
func TestRecordNotReplacedByLarger(t *testing.T) {
	ctx := context.Background()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	first, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: "A text about rivers and tides."}, Query: "tides"})
	if err != nil {
		t.Fatal(err)
	}
	page := "<html><head><title>" + strings.Repeat("Long title ", 100_000) + "</title></head><body><p>A text about rivers and tides.</p></body></html>"
	second, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{HTML: []byte(page)}, Query: "tides"})
	if err != nil {
		t.Fatal(err)
	}
	if second.Source.ArchiveHash != first.Source.ArchiveHash {
		t.Fatalf("not the same text: %s %s", first.Source.ArchiveHash, second.Source.ArchiveHash)
	}
	if second.Source.RecordHash == first.Source.RecordHash || second.Source.Kind != ingest.KindHTML {
		t.Errorf("the page's answer names the record %s (%s), the first's", second.Source.RecordHash, second.Source.Kind)
	}
	d, _ := archive.ParseHash(first.Source.ArchiveHash.String())
	rec, recHash, err := p.Record(ctx, d)
	if err != nil || rec.Kind != ingest.KindText || recHash != first.Source.RecordHash {
		t.Errorf("a larger record replaced the first as the source's: %+v %v", rec, err)
	}
	if all, err := p.Records(ctx, d); err != nil || all.RecordCount != 2 {
		t.Errorf("records: %+v, %v; want both", all, err)
	}
	// On a fresh archive the same page is stored, its title capped.
	store2, _ := fsstore.Open(t.TempDir())
	p2 := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store2}
	res, err := p2.Digest(ctx, pipeline.Request{Source: ingest.Source{HTML: []byte(page)}, Query: "tides"})
	if err != nil {
		t.Fatal(err)
	}
	if n := len(res.Source.Title); n == 0 || n > ingest.MaxMetadataBytes {
		t.Errorf("title of %d bytes stored, cap %d", n, ingest.MaxMetadataBytes)
	}
}

// failingStore answers every write with one operating-system error.
type failingStore struct {
	archive.Store
	err error
}

func (s *failingStore) SetRef(context.Context, string, archive.Hash) error { return s.err }

// TestResourceErrorsAreUnavailable makes every reference write fail as a
// process out of file descriptors, a read-only or full disk would: the
// digest is UNAVAILABLE (retryable), never INTERNAL_ERROR, and the write
// probe fails.
func TestResourceErrorsAreUnavailable(t *testing.T) {
	ctx := context.Background()
	for _, errno := range []error{syscall.EMFILE, syscall.ENFILE, syscall.EACCES, syscall.EROFS, syscall.ENOSPC} {
		fs, err := fsstore.Open(t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: &failingStore{fs, &os.PathError{Op: "open", Path: "x", Err: errno}}}
		_, err = p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: "A text about rivers and tides."}, Query: "tides"})
		if fault.CodeOf(err) != fault.Unavailable {
			t.Errorf("%v: digest error %v (%s), want UNAVAILABLE", errno, err, fault.CodeOf(err))
		}
		if err := p.ProbeWrite(ctx); fault.CodeOf(err) != fault.Unavailable {
			t.Errorf("%v: write probe %v", errno, err)
		}
	}
}
