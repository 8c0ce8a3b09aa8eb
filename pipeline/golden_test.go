package pipeline_test

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"os"
	"path/filepath"
	"testing"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/pdftext"
	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/pipeline"
)

var update = flag.Bool("update", false, "rewrite the golden digests in ../testdata/golden")

// inProcessPDF extracts in the test process: the walkthrough PDF is our own.
type inProcessPDF struct{}

func (inProcessPDF) Extract(_ context.Context, raw []byte) (*ingest.PDFText, error) {
	res, err := pdftext.Extract(raw, pdftext.Limits{})
	if err != nil {
		return nil, err
	}
	return &ingest.PDFText{Pages: res.Pages, Title: res.Title, Author: res.Author, Extractor: pdftext.ExtractorName, Version: pdftext.ExtractorVersion}, nil
}

// golden is what a walkthrough source yields, with the versions of every
// stage that made it.
type golden struct {
	Canonicalizer    string          `json:"canonicalizer"`
	Extractor        string          `json:"extractor"`
	ExtractorVersion string          `json:"extractor_version"`
	Digester         string          `json:"digester"`
	PayloadVersion   string          `json:"payload_version"`
	Query            string          `json:"query"`
	SourceTextHash   string          `json:"source_text_hash"`
	Payload          *digest.Payload `json:"payload"`
}

// TestGolden pins the output of every stage to its version: the canonical
// text (by hash) and the digest of each walkthrough source may change only
// together with normalize.Version, the extractor's version,
// digest.DigesterVersion or digest.PayloadVersion. After a bump, regenerate with
// go test ./pipeline -run Golden -update.
func TestGolden(t *testing.T) {
	ctx := context.Background()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{PDF: inProcessPDF{}}, Store: store}
	const query = "what causes mother-to-child transmission?"
	for _, tc := range []struct {
		file string
		src  func([]byte) ingest.Source
	}{
		{"notes.txt", func(b []byte) ingest.Source { return ingest.Source{Text: string(b)} }},
		{"page.html", func(b []byte) ingest.Source { return ingest.Source{HTML: b, ContentType: "text/html; charset=utf-8"} }},
		{"paper.pdf", func(b []byte) ingest.Source { return ingest.Source{PDF: b} }},
	} {
		raw, err := os.ReadFile(filepath.Join("..", "testdata", "walkthrough", tc.file))
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Digest(ctx, pipeline.Request{Source: tc.src(raw), Query: query})
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		rec, _, err := p.Record(ctx, archive.MustParseHash(res.Payload.SourceTextHash))
		if err != nil {
			t.Fatalf("%s: %v", tc.file, err)
		}
		got := golden{
			Canonicalizer: normalize.Version, Extractor: rec.Extractor, ExtractorVersion: rec.ExtractorVersion,
			Digester: digest.DigesterVersion, PayloadVersion: digest.PayloadVersion, Query: query, SourceTextHash: res.Payload.SourceTextHash, Payload: res.Payload,
		}
		gotJSON, err := json.MarshalIndent(got, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		gotJSON = append(gotJSON, '\n')
		path := filepath.Join("..", "testdata", "golden", tc.file+".json")
		if *update {
			if err := os.WriteFile(path, gotJSON, 0o644); err != nil {
				t.Fatal(err)
			}
			continue
		}
		wantJSON, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (create it with -update)", err)
		}
		var want golden
		if err := json.Unmarshal(wantJSON, &want); err != nil {
			t.Fatal(err)
		}
		versionsSame := want.Canonicalizer == got.Canonicalizer && want.Extractor == got.Extractor &&
			want.ExtractorVersion == got.ExtractorVersion && want.Digester == got.Digester && want.PayloadVersion == got.PayloadVersion
		switch {
		case !versionsSame:
			t.Errorf("%s: made by %s, %s %s, %s, payload %s; now %s, %s %s, %s, payload %s: regenerate with go test ./pipeline -run Golden -update",
				tc.file, want.Canonicalizer, want.Extractor, want.ExtractorVersion, want.Digester, want.PayloadVersion,
				got.Canonicalizer, got.Extractor, got.ExtractorVersion, got.Digester, got.PayloadVersion)
		case want.SourceTextHash != got.SourceTextHash:
			t.Errorf("%s: the canonical text changed (%s, was %s) with the same canonicalizer and extractor versions: bump the version of the stage that changed", tc.file, got.SourceTextHash, want.SourceTextHash)
		case !bytes.Equal(wantJSON, gotJSON):
			t.Errorf("%s: the digest changed with the same %s: bump digest.DigesterVersion\ngot:\n%s", tc.file, got.Digester, gotJSON)
		}
	}
}
