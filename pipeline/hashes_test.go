package pipeline_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
)

// hashCounts counts, per content address, the hashes the archive computes
// until stop is called.
func hashCounts(t *testing.T) (counts map[archive.Hash]int, stop func()) {
	t.Helper()
	var mu sync.Mutex
	counts = map[archive.Hash]int{}
	end := archive.ObserveHashes(func(d archive.Hash) {
		mu.Lock()
		counts[d]++
		mu.Unlock()
	})
	t.Cleanup(end)
	return counts, end
}

// A fresh digest hashes its canonical text once, on the way in; the hash
// travels with the text to the archive (which does not hash it again), to
// the digest's source_text_hash and to the verification of its locators.
// The source record and the digest blob are hashed once each as well. A
// digest of an archived text hashes it once, as it is read and verified.
func TestOneHashPerFreshDigest(t *testing.T) {
	read := func(name string) []byte {
		b, err := os.ReadFile(filepath.Join("..", "testdata", "walkthrough", name))
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	const query = "what causes mother-to-child transmission?"
	for _, tc := range []struct {
		name string
		src  ingest.Source
	}{
		{"text", ingest.Source{Text: string(read("notes.txt"))}},
		{"canonical text", ingest.Source{Text: tidesText}},
		{"html", ingest.Source{HTML: read("page.html"), ContentType: "text/html; charset=utf-8"}},
		{"pdf", ingest.Source{PDF: read("paper.pdf")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ctx := context.Background()
			store, err := fsstore.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			p := &pipeline.Pipeline{Ingester: &ingest.Ingester{PDF: inProcessPDF{}}, Store: store}

			counts, stop := hashCounts(t)
			res, err := p.Digest(ctx, pipeline.Request{Source: tc.src, Query: query})
			stop()
			if err != nil || res.CacheHit {
				t.Fatalf("fresh digest: %v (cache hit %t)", err, res != nil && res.CacheHit)
			}
			text := res.Source.ArchiveHash
			// Once, or not at all when ingest remembers the text's
			// canonical form from an earlier request of this process.
			if n := counts[text]; n > 1 {
				t.Errorf("the canonical text was hashed %d times on a fresh digest, want 1", n)
			}
			for d, n := range counts {
				if n > 1 {
					t.Errorf("%s was hashed %d times on a fresh digest", d, n)
				}
			}
			for _, d := range []archive.Hash{res.Source.RecordHash, res.DigestHash} {
				if counts[d] != 1 {
					t.Errorf("stored blob %s was hashed %d times, want 1", d, counts[d])
				}
			}

			// Digested again by its hash, for another query: read once,
			// verified as it is read, and not hashed after that.
			counts, stop = hashCounts(t)
			again, err := p.Digest(ctx, pipeline.Request{Archive: text, Query: "who took part?"})
			stop()
			if err != nil || again.CacheHit || again.Payload.SourceTextHash != text.String() {
				t.Fatalf("digest by archive hash: %v", err)
			}
			if n := counts[text]; n != 1 {
				t.Errorf("an archived text was hashed %d times on a fresh digest, want 1 (its read)", n)
			}
		})
	}
}
