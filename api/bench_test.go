package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/http/httptest"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/pipeline"
)

// syntheticDocument returns about n characters of sentence-like text in
// paragraphs, the same for the same seed.
func syntheticDocument(n int, seed uint64) string {
	words := strings.Fields(`the of transmission infection children mother placental expression study
	risk virus cells protein analysis results patients clinical trial immune response samples data
	increase decrease significant method model observed reported population health treatment vaccine`)
	r := rand.New(rand.NewPCG(seed, 7))
	var b strings.Builder
	for b.Len() < n {
		for s := 0; s < 5; s++ {
			k := 8 + r.IntN(16)
			for i := 0; i < k; i++ {
				w := words[r.IntN(len(words))]
				if i == 0 {
					w = strings.ToUpper(w[:1]) + w[1:]
				}
				b.WriteString(w)
				if i < k-1 {
					b.WriteByte(' ')
				}
			}
			b.WriteString(". ")
		}
		b.WriteString("\n")
	}
	return b.String()
}

// BenchmarkPostDigest100k measures POST /v1/digest for a 100k-character text
// source, end to end through the handler (decode, canonicalize, archive,
// digest, verify, envelope), each iteration a new text so nothing is cached.
func BenchmarkPostDigest100k(b *testing.B) {
	h, _ := newTestServer(b, api.Config{MaxBodyBytes: 4 << 20})
	doc := syntheticDocument(100_000, 1)
	var durations []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		body := fmt.Sprintf("Document %d.\n%s", i, doc)
		req := httptest.NewRequest("POST", "/v1/digest?query=placental+expression+risk+of+transmission", strings.NewReader(body))
		req.Header.Set("Content-Type", "text/plain")
		rec := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(rec, req)
		durations = append(durations, time.Since(start))
		if rec.Code != http.StatusOK {
			b.Fatalf("status %d: %s", rec.Code, rec.Body.String())
		}
	}
	sort.Slice(durations, func(i, j int) bool { return durations[i] < durations[j] })
	b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(durations[len(durations)*95/100].Microseconds())/1000, "p95-ms")
}

// BenchmarkDigests20Cached measures POST /v1/digests with 20 text sources
// whose digests are all cached (the request repeated), with a budget, on a
// server with the embedded search index as digestd serve runs by default.
// The index work a request causes, which runs off its path, is waited for
// before the timer stops, so that ns/op and allocs/op count it.
func BenchmarkDigests20Cached(b *testing.B) {
	h, pipe := newSearchServer(b)
	var srcs []map[string]string
	for i := 0; i < 20; i++ {
		srcs = append(srcs, map[string]string{"id": fmt.Sprintf("s%02d", i), "text": syntheticDocument(20_000, uint64(i))})
	}
	body, _ := json.Marshal(map[string]any{"query": "placental expression risk", "sources": srcs, "budget": map[string]int{"max_chars": 40000}})
	benchCached(b, h, pipe, "/v1/digests", body)
}

// BenchmarkDigestCached measures POST /v1/digest of one 8,000-character
// text whose digest is cached (digestload's cached kind), as
// BenchmarkDigests20Cached does.
func BenchmarkDigestCached(b *testing.B) {
	h, pipe := newSearchServer(b)
	body, _ := json.Marshal(map[string]any{"query": "placental expression risk", "source": map[string]string{"text": syntheticDocument(8_000, 1)}})
	benchCached(b, h, pipe, "/v1/digest", body)
}

// benchCached posts body to path once to warm the cache and index, then
// b.N times, each answer a cached 200, and reports allocations and the
// p50 and p95 of the requests' time.
func benchCached(b *testing.B, h http.Handler, pipe *pipeline.Pipeline, path string, body []byte) {
	post := func() (*httptest.ResponseRecorder, time.Duration) {
		req := httptest.NewRequest("POST", path, bytes.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		start := time.Now()
		h.ServeHTTP(rec, req)
		return rec, time.Since(start)
	}
	if rec, _ := post(); rec.Code != 200 {
		b.Fatalf("warm-up: %d %s", rec.Code, rec.Body.String())
	}
	if err := pipe.WaitIndexed(context.Background()); err != nil {
		b.Fatal(err)
	}
	durations := make([]time.Duration, 0, b.N)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		rec, d := post()
		if rec.Code != 200 || !strings.Contains(rec.Body.String(), `"cache_hit":true`) {
			b.Fatalf("not a cached 200: %d", rec.Code)
		}
		durations = append(durations, d)
	}
	if err := pipe.WaitIndexed(context.Background()); err != nil {
		b.Fatal(err)
	}
	b.StopTimer()
	sort.Slice(durations, func(i, j int) bool { return durations[i] < durations[j] })
	b.ReportMetric(float64(durations[len(durations)/2].Microseconds())/1000, "p50-ms")
	b.ReportMetric(float64(durations[len(durations)*95/100].Microseconds())/1000, "p95-ms")
}
