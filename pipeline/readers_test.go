package pipeline_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/digest/sentences"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/internal/shareddata"
	"github.com/digestd/digestd/pipeline"
)

// TestDigestsAReaderWouldKeep digests the pages issue 33 reported, through
// the whole pipeline, and checks what a reader would keep: key points are
// sentences (a stop ends them), the summary does not open with a sentence
// pointing back at one left out, no part repeats a sentence another part
// holds, and the digest is never longer than its source. Each case also
// names the line that must no longer appear.
func TestDigestsAReaderWouldKeep(t *testing.T) {
	tests := []struct {
		name, file, query string
		shared            bool     // file is in the trafilatura evaluation set
		notKeyPoint       []string // lines that must not be key points
		notInSummary      []string // texts the summary must not hold
		notSentence       []string // texts no sentence of the canonical text may be
	}{
		{name: "a heading", file: "page.html", query: "what causes MTCT?", notKeyPoint: []string{"What lowers the risk"}},
		{name: "a cart message", file: "lavazza.de.qualita.html.gz", shared: true, notKeyPoint: []string{"Sie haben etwas zum Warenkorb hinzugefügt"}},
		{name: "a call to action and a name with a stop", file: "datev-magazin.de-kommunikation.html.gz", shared: true,
			notKeyPoint: []string{"WebAkte kostenfrei testen"}, notSentence: []string{"Consult AG ist jetzt über eine Schnittstelle an DATEV Anwalt classic angebunden."}},
		{name: "a dangling pronoun", file: "gregoryszorc.com.python3.html.gz", shared: true},
		{name: "a byline with a date", file: "dtb-tennis.de-nominiert.html.gz", shared: true,
			notInSummary: []string{"Von Deutscher Tennis Bund"}, notSentence: []string{"Von Deutscher Tennis Bund 4."}},
	}
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := filepath.Join("..", "testdata", "walkthrough", tt.file)
			if tt.shared {
				path = filepath.Join(shareddata.Set(t, "extract-html-trafilatura"), "html", tt.file)
			}
			raw := readMaybeGzip(t, path)
			res, err := p.Digest(context.Background(), pipeline.Request{Source: ingest.Source{HTML: raw}, Query: tt.query})
			if err != nil {
				t.Fatal(err)
			}
			pl := res.Payload
			text, err := p.Blob(context.Background(), res.Source.ArchiveHash)
			if err != nil {
				t.Fatal(err)
			}
			if pl.DigestChars > pl.OriginalChars || pl.DigestChars != digest.CountDigestChars(pl) {
				t.Errorf("digest of %d code points for a source of %d", pl.DigestChars, pl.OriginalChars)
			}
			for _, k := range pl.KeyPoints {
				last, _ := utf8.DecodeLastRuneInString(strings.TrimRight(k, "\"'”’)]"))
				if !strings.ContainsRune(".!?", last) {
					t.Errorf("key point %q is not a sentence", k)
				}
				for _, bad := range tt.notKeyPoint {
					if k == bad {
						t.Errorf("key point %q", k)
					}
				}
			}
			for _, bad := range tt.notInSummary {
				if strings.Contains(pl.Summary, bad) {
					t.Errorf("summary holds %q: %q", bad, pl.Summary)
				}
			}
			if first := strings.Fields(pl.Summary); len(first) > 0 && !strings.HasPrefix(string(text), pl.Summary[:min(len(pl.Summary), 40)]) {
				switch strings.ToLower(strings.Trim(first[0], ",;:")) {
				case "it", "its", "this", "these", "they", "their", "however", "also":
					t.Errorf("summary opens with a word pointing back: %q", pl.Summary)
				}
			}
			// No sentence appears both in a key point and elsewhere.
			parts := []string{pl.Summary}
			for _, e := range pl.EvidenceSnippets {
				parts = append(parts, e.Text)
			}
			for _, k := range pl.KeyPoints {
				for _, other := range parts {
					if strings.Contains(other, k) {
						t.Errorf("key point %q repeats %q", k, other)
					}
				}
				parts = append(parts, k)
			}
			for _, s := range sentences.Strings(string(text)) {
				for _, bad := range tt.notSentence {
					if s == bad {
						t.Errorf("sentence %q split from its start", s)
					}
				}
			}
		})
	}
}

// readMaybeGzip reads a file, decompressing it when its name ends in .gz.
func readMaybeGzip(t *testing.T, path string) []byte {
	t.Helper()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(path, ".gz") {
		return raw
	}
	zr, err := gzip.NewReader(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	out, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
