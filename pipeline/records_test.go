package pipeline_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/doctext/doctexttest"
	"github.com/digestd/digestd/ingest/fetch"
	"github.com/digestd/digestd/pipeline"
)

// sameTextDocuments returns a DOCX and an ODT made here of the same two
// paragraphs, so that they have one canonical text.
func sameTextDocuments() (docx, odt []byte) {
	paras := []string{"Nitrate in the central zone rose by a third between 2019 and 2023.", "The rise followed the new fertiliser schedule."}
	docx = doctexttest.DOCX(doctexttest.S(doctexttest.DocumentXML(doctexttest.Paragraph(paras[0]) + doctexttest.Paragraph(paras[1]))))
	odt = doctexttest.Zip(
		doctexttest.Entry{Name: "mimetype", Body: doctexttest.S("application/vnd.oasis.opendocument.text")},
		doctexttest.Entry{Name: "content.xml", Body: doctexttest.S(`<?xml version="1.0" encoding="UTF-8"?>` +
			`<office:document-content xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0">` +
			`<office:body><office:text><text:p>` + paras[0] + `</text:p><text:p>` + paras[1] + `</text:p></office:text></office:body></office:document-content>`)})
	return docx, odt
}

// TestRecordPerInput digests a DOCX, an ODT with the same text, the DOCX
// again and the text itself into one archive: each answer's record is the
// one of the bytes it was sent (kind, raw_sha256, raw_bytes), the archive
// keeps all three, and a garbage collection keeps them.
func TestRecordPerInput(t *testing.T) {
	ctx := context.Background()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	docx, odt := sameTextDocuments()
	digest := func(src ingest.Source) *pipeline.Result {
		t.Helper()
		res, err := p.Digest(ctx, pipeline.Request{Source: src, Query: "how much did nitrate rise"})
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	first := digest(ingest.Source{File: docx, Name: "report.docx"})
	text, err := p.Blob(ctx, first.Source.ArchiveHash)
	if err != nil {
		t.Fatal(err)
	}
	records := map[string]archive.Hash{}
	for _, in := range []struct {
		kind string
		src  ingest.Source
		raw  []byte
	}{
		{"docx", ingest.Source{File: docx, Name: "report.docx"}, docx},
		{"odt", ingest.Source{File: odt, Name: "report.odt"}, odt},
		{"docx", ingest.Source{File: docx, Name: "report.docx"}, docx},
		{"text", ingest.Source{Text: string(text)}, text},
	} {
		res := digest(in.src)
		rec := res.Source.Record
		if res.Source.ArchiveHash != first.Source.ArchiveHash {
			t.Fatalf("%s: not the same text (%s, %s)", in.kind, res.Source.ArchiveHash, first.Source.ArchiveHash)
		}
		if res.Source.Kind != in.kind || rec.Kind != in.kind || rec.RawSHA256 != archive.Sum(in.raw) || rec.RawBytes != len(in.raw) {
			t.Errorf("%s: answered kind %s, record %s %s %d bytes; want the record of the %d bytes sent (%s)",
				in.kind, res.Source.Kind, rec.Kind, rec.RawSHA256, rec.RawBytes, len(in.raw), archive.Sum(in.raw))
		}
		if d, ok := records[in.kind]; ok && d != res.Source.RecordHash {
			t.Errorf("%s again: record %s, was %s", in.kind, res.Source.RecordHash, d)
		}
		records[in.kind] = res.Source.RecordHash
	}
	// Archiving without a digest answers with its own record too.
	info, err := p.Archive(ctx, pipeline.Request{Source: ingest.Source{File: odt, Name: "report.odt"}})
	if err != nil || info.Kind != "odt" || info.RecordHash != records["odt"] {
		t.Errorf("archive the ODT again: %+v, %v", info, err)
	}

	check := func(when string) {
		t.Helper()
		got, err := p.Records(ctx, first.Source.ArchiveHash)
		if err != nil {
			t.Fatalf("%s: %v", when, err)
		}
		kinds := map[string]archive.Hash{}
		for _, r := range got.Records {
			if r.Record == nil {
				t.Errorf("%s: record %s unreadable (%s)", when, r.RecordHash, r.ErrorCode)
				continue
			}
			kinds[r.Record.Kind] = r.RecordHash
		}
		if got.RecordCount != 3 || len(got.Records) != 3 || fmt.Sprint(kinds) != fmt.Sprint(records) {
			t.Errorf("%s: %d records %v, want %v", when, got.RecordCount, kinds, records)
		}
		if kinds[got.Record.Kind] != got.RecordHash {
			t.Errorf("%s: the source's record %s (%s) is not among its records", when, got.RecordHash, got.Record.Kind)
		}
	}
	check("archived")
	p.Now = func() time.Time { return time.Now().Add(48 * time.Hour) }
	if _, err := p.CollectGarbage(ctx, time.Hour, false); err != nil {
		t.Fatal(err)
	}
	check("after a garbage collection")
}

// TestRecordPerURL fetches one page from twelve URLs: each answer names
// its URL, the archive keeps the twelve records, and a URL fetched again
// replaces its own record with the newer one.
func TestRecordPerURL(t *testing.T) {
	ctx := context.Background()
	page := `<html><head><title>Tides</title></head><body><article><p>The Moon's gravity raises two bulges of water on opposite sides of the Earth.</p>` +
		`<p>As the Earth turns, a coast passes through both bulges, so most places see two high tides a day.</p></article></body></html>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Write([]byte(page))
	}))
	defer srv.Close()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	var tick atomic.Int64
	in := &ingest.Ingester{
		Fetcher: fetch.New(fetch.Config{TotalTimeout: 5 * time.Second, AllowLoopback: []string{srv.Listener.Addr().String()}}),
		Now:     func() time.Time { return time.Unix(1_800_000_000+tick.Add(1), 0) },
	}
	p := &pipeline.Pipeline{Ingester: in, Store: store}
	var text archive.Hash
	for i := range 12 {
		url := fmt.Sprintf("%s/page/%d", srv.URL, i)
		res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{URL: url}, Query: "why two tides"})
		if err != nil {
			t.Fatal(err)
		}
		if text.Valid() && res.Source.ArchiveHash != text {
			t.Fatalf("%s: another text", url)
		}
		text = res.Source.ArchiveHash
		if res.Source.Record.RequestedURL != url {
			t.Errorf("%s: the answer names %s", url, res.Source.Record.RequestedURL)
		}
	}
	again, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{URL: srv.URL + "/page/3"}, Query: "why two tides"})
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.Records(ctx, text)
	if err != nil {
		t.Fatal(err)
	}
	var urls []string
	for _, r := range got.Records {
		urls = append(urls, r.Record.RequestedURL)
		if r.Record.RequestedURL == srv.URL+"/page/3" && (r.RecordHash != again.Source.RecordHash || !r.Record.FetchedAt.Equal(again.Source.Record.FetchedAt)) {
			t.Errorf("page 3 fetched again: kept %s fetched at %s, want %s fetched at %s", r.RecordHash, r.Record.FetchedAt, again.Source.RecordHash, again.Source.Record.FetchedAt)
		}
	}
	slices.Sort(urls)
	if got.RecordCount != 12 || len(slices.Compact(urls)) != 12 {
		t.Errorf("%d records for the URLs %v, want one for each of 12", got.RecordCount, urls)
	}
}

// oneRecordArchive is an archive written by digestd before records were
// kept per raw input (d9d99b6), with `digestd digest --archive DIR --index
// off --query 'what causes MTCT?'` of testdata/walkthrough/notes.txt, the
// dev set's report.docx and then report.odt (one text: the ODT's record
// replaced the DOCX's), and one page fetched from two URLs (the second's
// record replaced the first's).
const oneRecordArchive = "testdata/archive-one-record"

// copyArchive copies an archive directory into a temporary one.
func copyArchive(t *testing.T, dir string) string {
	t.Helper()
	dst := filepath.Join(t.TempDir(), "archive")
	if err := os.CopyFS(dst, os.DirFS(dir)); err != nil {
		t.Fatal(err)
	}
	return dst
}

// TestArchiveWrittenWithOneRecordPerText reads an archive the previous
// version wrote, before and after MigrateRecords keys its records, and
// adds a record beside one of them.
func TestArchiveWrittenWithOneRecordPerText(t *testing.T) {
	ctx := context.Background()
	store, err := fsstore.Open(copyArchive(t, oneRecordArchive))
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	page, err := p.ListSources(ctx, "", 10)
	if err != nil || len(page.Sources) != 3 {
		t.Fatalf("listing: %+v, %v", page, err)
	}
	wantKinds := []string{"html", "odt", "text"}
	check := func(when string) {
		t.Helper()
		var kinds []string
		for _, src := range page.Sources {
			got, err := p.Records(ctx, src.ArchiveHash)
			if err != nil {
				t.Fatalf("%s: records of %s: %v", when, src.ArchiveHash, err)
			}
			if got.RecordCount != 1 || len(got.Records) != 1 || got.Records[0].RecordHash != src.RecordHash || got.Records[0].Record == nil {
				t.Errorf("%s: records of %s: %+v, want its one record %s", when, src.ArchiveHash, got, src.RecordHash)
				continue
			}
			kinds = append(kinds, got.Records[0].Record.Kind)
			res, err := p.Digest(ctx, pipeline.Request{Archive: src.ArchiveHash, Query: "what causes MTCT?"})
			if err != nil || res.Source.RecordHash != src.RecordHash || res.Payload.SourceTextHash != src.ArchiveHash.String() {
				t.Errorf("%s: digest %s by its hash: %v", when, src.ArchiveHash, err)
			}
		}
		slices.Sort(kinds)
		if !slices.Equal(kinds, wantKinds) {
			t.Errorf("%s: kinds %v, want %v", when, kinds, wantKinds)
		}
	}
	check("before the migration")
	if n, err := p.MigrateRecords(ctx); err != nil || n != 3 {
		t.Fatalf("migration keyed %d records (%v), want 3", n, err)
	}
	if n, err := p.MigrateRecords(ctx); err != nil || n != 0 {
		t.Fatalf("second migration keyed %d records (%v), want none", n, err)
	}
	keyed := 0
	store.ListRefNames(ctx, "records/", func(string) error { keyed++; return nil })
	if keyed != 3 {
		t.Errorf("%d records keyed, want 3", keyed)
	}
	check("after the migration")

	// The text file's text again, from other bytes: a second record.
	var notes pipeline.ListedSource
	for _, src := range page.Sources {
		if src.Kind == "text" {
			notes = src
		}
	}
	text, err := p.Blob(ctx, notes.ArchiveHash)
	if err != nil {
		t.Fatal(err)
	}
	raw := string(text) + "\n\n"
	res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: raw}, Query: "what causes MTCT?"})
	if err != nil || res.Source.ArchiveHash != notes.ArchiveHash || res.Source.Record.RawSHA256 != archive.SumString(raw) {
		t.Fatalf("the text from other bytes: %+v, %v", res, err)
	}
	got, err := p.Records(ctx, notes.ArchiveHash)
	if err != nil || got.RecordCount != 2 {
		t.Errorf("records of the text: %+v, %v; want 2", got, err)
	}
	if page, err := p.ListSources(ctx, "", 10); err != nil || len(page.Sources) != 3 {
		t.Errorf("listing after: %+v, %v", page, err)
	}
}

// TestRecordsOfUnmigratedArchive reads the records of the previous
// version's archive through a store that refuses every write, as a
// read-only disk does: the migration fails and says so, the records read.
func TestRecordsOfUnmigratedArchive(t *testing.T) {
	ctx := context.Background()
	fs, err := fsstore.Open(copyArchive(t, oneRecordArchive))
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: &failingStore{fs, errors.New("read-only")}}
	if _, err := p.MigrateRecords(ctx); err == nil {
		t.Error("a migration that could write nothing succeeded")
	}
	page, err := p.ListSources(ctx, "", 10)
	if err != nil || len(page.Sources) != 3 {
		t.Fatalf("listing: %+v, %v", page, err)
	}
	for _, src := range page.Sources {
		got, err := p.Records(ctx, src.ArchiveHash)
		if err != nil || got.RecordCount != 1 || got.Records[0].RecordHash != src.RecordHash {
			t.Errorf("records of %s: %+v, %v", src.ArchiveHash, got, err)
		}
		if strings.HasPrefix(src.URL, "http://127.0.0.1:18765/") && got.Record.RequestedURL != "http://127.0.0.1:18765/b.html" {
			t.Errorf("the page's record asks for %s, want the second URL", got.Record.RequestedURL)
		}
	}
}
