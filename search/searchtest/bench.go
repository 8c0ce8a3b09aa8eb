package searchtest

import (
	"context"
	"iter"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/search"
)

// BenchPassages is how many passages Benchmark indexes.
const BenchPassages = 100_000

// SharedData is the evaluation data: $DIGESTD_SHARED_DATA, or shared/data
// beside the repository's directory (root is the repository root as a
// path from the test's package).
func SharedData(root string) string {
	if d := os.Getenv("DIGESTD_SHARED_DATA"); d != "" {
		return d
	}
	return filepath.Join(root, "..", "shared", "data")
}

// HTMLText is an HTML page's canonical text, as the service reads a page.
func HTMLText(raw []byte) (string, error) {
	doc, err := (&ingest.Ingester{MaxTextChars: 5_000_000}).Ingest(context.Background(), ingest.Source{HTML: raw})
	if err != nil {
		return "", err
	}
	return doc.Text.String(), nil
}

// Corpus is what Benchmark indexes and asks (evaluate.SearchCorpus reads
// the evaluation sets as one).
type Corpus struct {
	// Texts yields canonical texts; Benchmark takes them until it has
	// BenchPassages passages.
	Texts     iter.Seq[string]
	Questions []string
}

// Benchmark indexes BenchPassages passages of the corpus's texts into idx,
// an empty index, and asks the corpus's questions: it reports indexing
// speed, the index's size against the text's (size returns the index's
// bytes, or -1 when it cannot tell), and the 50th and 95th percentiles of
// the engine's candidates alone and of the whole search with the
// digester's re-ranking.
func Benchmark(b *testing.B, corpus Corpus, idx search.Index, size func() int64) {
	ctx := context.Background()
	texts := map[archive.Hash]string{}
	var textBytes int64
	passages := 0
	var indexing time.Duration
	var docs []search.Document
	put := func() {
		start := time.Now()
		if err := idx.Put(ctx, docs...); err != nil {
			b.Fatal(err)
		}
		indexing += time.Since(start)
		docs = docs[:0]
	}
	for text := range corpus.Texts {
		if passages >= BenchPassages {
			break
		}
		h := archive.SumString(text)
		if _, ok := texts[h]; ok || text == "" {
			continue
		}
		texts[h] = text
		textBytes += int64(len(text))
		ps := search.PassagesOf(text)
		docs = append(docs, search.Document{Source: search.Source{Hash: h, Kind: "text", Added: time.Now()}, Passages: ps})
		if len(docs) == 64 {
			put()
		}
		passages += len(ps)
	}
	questions := corpus.Questions
	put()
	textOf := func(_ context.Context, h archive.Hash) (string, error) { return texts[h], nil }
	pct := func(d []time.Duration, p int) float64 {
		slices.Sort(d)
		return float64(d[len(d)*p/100].Microseconds()) / 1000
	}
	b.ResetTimer()
	var engine, whole []time.Duration
	for range b.N {
		for _, q := range questions {
			start := time.Now()
			if _, _, err := idx.Candidates(ctx, q, search.Filter{}, search.CandidatePassages); err != nil {
				b.Fatal(err)
			}
			engine = append(engine, time.Since(start))
			start = time.Now()
			if _, err := search.Search(ctx, idx, textOf, search.Request{Query: q}); err != nil {
				b.Fatal(err)
			}
			whole = append(whole, time.Since(start))
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(passages), "passages")
	b.ReportMetric(float64(passages)/indexing.Seconds(), "passages/s")
	if n := size(); n >= 0 {
		b.ReportMetric(float64(n)/float64(textBytes), "index/text")
	}
	b.ReportMetric(pct(engine, 50), "engine_p50_ms")
	b.ReportMetric(pct(engine, 95), "engine_p95_ms")
	b.ReportMetric(pct(whole, 50), "search_p50_ms")
	b.ReportMetric(pct(whole, 95), "search_p95_ms")
}
