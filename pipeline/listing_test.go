package pipeline_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
)

// countingStore counts what a listing asks of a store.
type countingStore struct {
	archive.Store
	refs, lists, paged int
}

func (s *countingStore) Ref(ctx context.Context, name string) (archive.Hash, error) {
	s.refs++
	return s.Store.Ref(ctx, name)
}

func (s *countingStore) ListRefs(ctx context.Context, prefix string, fn func(string, archive.Hash) error) error {
	s.lists++
	return s.Store.ListRefs(ctx, prefix, fn)
}

// pagingStore passes archive.RefPager on, counting the names it yields.
type pagingStore struct{ *countingStore }

func (s pagingStore) ListRefNamesAfter(ctx context.Context, prefix, after string, fn func(string) error) error {
	return s.countingStore.Store.(archive.RefPager).ListRefNamesAfter(ctx, prefix, after, func(name string) error {
		s.paged++
		return fn(name)
	})
}

// legacyPosition is a source's name under the flat index of archives
// written before the sharded one.
func legacyName(at time.Time, text archive.Hash) string {
	return fmt.Sprintf("sources-by-time/%020d-%s", uint64(1<<63-1)-uint64(at.UnixNano()), text.Hex())
}

// TestListingPages archives 30 sources, and 5 more under the flat index of
// older archives, and pages through them five at a time: a store that lists
// names in order reads a page's own names and references, and the same
// pages come out, newest first, as from a store that reads every name.
func TestListingPages(t *testing.T) {
	ctx := context.Background()
	fs, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: fs, Now: func() time.Time { at = at.Add(time.Second); return at }}
	var want []string // newest first
	for i := range 30 {
		res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: fmt.Sprintf("Source number %d is about tides.", i)}, Query: "tides"})
		if err != nil {
			t.Fatal(err)
		}
		want = append([]string{res.Source.ArchiveHash.String()}, want...)
		if i%6 == 2 {
			// An older archive's source (its record, and its entry in the
			// flat index), between two of the new index.
			legacy := archive.SumString(fmt.Sprintf("legacy %d", i))
			rec, err := archive.PutBytes(ctx, fs, []byte(`{"kind":"text"}`))
			if err != nil {
				t.Fatal(err)
			}
			if err := fs.SetRef(ctx, "sources/"+legacy.Hex(), rec); err != nil {
				t.Fatal(err)
			}
			if err := fs.SetRef(ctx, legacyName(at.Add(time.Second/2), legacy), rec); err != nil {
				t.Fatal(err)
			}
			want = append([]string{legacy.String()}, want...)
		}
	}
	pages := func(store archive.Store, cs *countingStore) [][]string {
		lp := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
		var out [][]string
		after := ""
		for {
			cs.refs, cs.paged = 0, 0
			page, err := lp.ListSources(ctx, after, 5)
			if err != nil {
				t.Fatalf("list: %v", err)
			}
			// Each entry reads its source's reference and its labels'.
			if _, ok := store.(archive.RefPager); ok && (cs.refs > 3*5 || cs.paged > 2*(5+1)) {
				t.Errorf("a page of 5 read %d references and %d names", cs.refs, cs.paged)
			}
			var hashes []string
			for _, e := range page.Sources {
				hashes = append(hashes, e.ArchiveHash.String())
			}
			out = append(out, hashes)
			if !page.More {
				return out
			}
			after = page.Next
		}
	}
	plain := &countingStore{Store: fs}
	paged := &countingStore{Store: fs}
	whole := pages(plain, plain)
	got := pages(pagingStore{paged}, paged)
	if len(whole) != 7 || !reflect.DeepEqual(got, whole) {
		t.Errorf("pages in order differ from pages read whole:\n%v\n%v", got, whole)
	}
	var flat []string
	for _, pg := range got {
		flat = append(flat, pg...)
	}
	if !reflect.DeepEqual(flat, want) {
		t.Errorf("listing\n%v\nwant newest first\n%v", flat, want)
	}
	if paged.lists != 0 {
		t.Errorf("the paging store's references were all read %d times", paged.lists)
	}
}

// TestListingLimits checks the page size's bounds and a foreign position.
func TestListingLimits(t *testing.T) {
	fs, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: fs}
	for _, tc := range []struct {
		after string
		limit int
		code  fault.Code // "" for success
	}{
		{"", -1, fault.ValidationError},
		{"", pipeline.MaxListLimit + 1, fault.ValidationError},
		{"sources-by-time/1-ab", 1, fault.InvalidCursor},
		{"", 0, ""},
		{"", pipeline.MaxListLimit, ""},
	} {
		_, err := p.ListSources(context.Background(), tc.after, tc.limit)
		var got fault.Code
		var f *fault.Error
		if errors.As(err, &f) {
			got = f.Code
		} else if err != nil {
			got = "not a fault: " + fault.Code(err.Error())
		}
		if got != tc.code {
			t.Errorf("ListSources(%q, %d): %v, want %q", tc.after, tc.limit, err, tc.code)
		}
	}
}

// BenchmarkListSourcesPage reads a page of 20 in the middle of archives of
// 1,000 and 20,000 sources on disk: the cost of a page does not grow with
// the archive. The index is written straight into the store's layout
// (v1/refs/<name>), as SetRef would leave it without its fsyncs.
func BenchmarkListSourcesPage(b *testing.B) {
	for _, n := range []int{1_000, 20_000} {
		b.Run(fmt.Sprintf("sources=%d", n), func(b *testing.B) {
			ctx := context.Background()
			fs, err := fsstore.Open(b.TempDir())
			if err != nil {
				b.Fatal(err)
			}
			rec, _ := json.Marshal(ingest.Record{Kind: ingest.KindText, Title: "A source", TextChars: 1000})
			recHash, err := archive.PutBytes(ctx, fs, rec)
			if err != nil {
				b.Fatal(err)
			}
			at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
			var mid string
			for i := range n {
				text := archive.SumString(fmt.Sprint("text ", i))
				at = at.Add(250 * time.Millisecond)
				names := []string{pipeline.IndexName(at, text)}
				if i >= n/2-100 && i < n/2 { // older than the middle: the page after it
					names = append(names, "sources/"+text.Hex()) // the pages read
				}
				for _, name := range names {
					path := filepath.Join(fs.Dir(), filepath.FromSlash(archive.RefKey(name)))
					if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
						b.Fatal(err)
					}
					if err := os.WriteFile(path, []byte(recHash.String()+"\n"), 0o644); err != nil {
						b.Fatal(err)
					}
				}
				if i == n/2 {
					mid = pipeline.IndexPosition(at, text)
				}
			}
			// "seek" is the disk store as it is; "names" hides its ordered
			// listing, as a store that can only list every name would page.
			for _, st := range []struct {
				name  string
				store archive.Store
			}{{"seek", fs}, {"names", namesOnly{fs}}} {
				b.Run(st.name, func(b *testing.B) {
					p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: st.store}
					for range b.N {
						page, err := p.ListSources(ctx, mid, 20)
						if err != nil || len(page.Sources) != 20 || page.Sources[19].Title == "" {
							b.Fatalf("page: %+v, %v", page, err)
						}
					}
				})
			}
		})
	}
}

// namesOnly is a store that lists reference names only whole.
type namesOnly struct{ *fsstore.Store }

func (s namesOnly) ListRefNamesAfter() {} // hides the store's archive.RefPager

// TestListingUnknownLabel: a label no archived source carries is NOT_FOUND
// to the listing, as it is to search (docs/search.md); a label some source
// carries is a page, empty when the kind filter leaves none of them.
func TestListingUnknownLabel(t *testing.T) {
	ctx := context.Background()
	fs, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: fs}
	for i, labels := range [][]string{{"alps"}, nil} {
		req := pipeline.Request{Query: "glaciers", Labels: labels}
		req.Source.Text = fmt.Sprintf("Glacier %d lost half its volume since 1900.", i)
		if _, err := p.Digest(ctx, req); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		filter pipeline.ListFilter
		n      int
		code   fault.Code
	}{
		{pipeline.ListFilter{Label: "alps"}, 1, ""},
		{pipeline.ListFilter{Label: "alps", Kind: "pdf"}, 0, ""},
		{pipeline.ListFilter{Label: "andes"}, 0, fault.NotFound},
		{pipeline.ListFilter{Label: "andes", Kind: "text"}, 0, fault.NotFound},
	} {
		page, err := p.ListSourcesWhere(ctx, tc.filter, "", 0)
		if tc.code != "" {
			if fault.CodeOf(err) != tc.code {
				t.Errorf("%+v: %v, want %s", tc.filter, err, tc.code)
			}
			continue
		}
		if err != nil || len(page.Sources) != tc.n {
			t.Errorf("%+v: %v, %d sources, want %d", tc.filter, err, len(page.Sources), tc.n)
		}
	}
}
