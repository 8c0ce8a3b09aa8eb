package digest

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// benchText returns about n code points of text in blocks: the
// evidence-covidqa papers concatenated when the shared data is present
// (real prose, real vocabulary), synthetic prose otherwise.
func benchText(n int) string {
	var b strings.Builder
	dir := os.Getenv("DIGESTD_SHARED_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "data")
	}
	files, _ := filepath.Glob(filepath.Join(dir, "evidence-covidqa", "docs", "*.txt"))
	slices.Sort(files)
	for _, f := range files {
		if b.Len() >= 4*n {
			break
		}
		raw, err := os.ReadFile(f)
		if err != nil || !utf8.Valid(raw) {
			continue
		}
		b.Write(raw)
		b.WriteString("\n")
	}
	if b.Len() == 0 {
		r := rand.New(rand.NewPCG(3, 5))
		b.WriteString(sampleText(r, 1, false))
		for utf8.RuneCountInString(b.String()) < n {
			b.WriteString("\n")
			b.WriteString(sampleText(r, 200, false))
		}
	}
	rs := []rune(b.String())
	for len(rs) < n {
		rs = append(rs, rs...)
	}
	return string(rs[:n])
}

// benchQueries are questions of the kinds the evidence sets ask.
var benchQueries = []string{
	"What is the main cause of HIV-1 infection in children?",
	"How many children were infected in 2008-2009 worldwide?",
	"What is the incubation period of the virus?",
	"vaccine efficacy in patients with virus",
}

// benchmarkBuild digests an n-character text for each benchmark query in
// turn and reports the 50th and 95th percentile latency of one Build.
func benchmarkBuild(b *testing.B, n int) {
	text := benchText(n)
	b.SetBytes(int64(len(text)))
	var lat []time.Duration
	i := 0
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		if _, _, err := Build(text, benchQueries[i%len(benchQueries)], Options{}); err != nil {
			b.Fatal(err)
		}
		lat = append(lat, time.Since(start))
		i++
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		return float64(lat[min(len(lat)-1, int(p*float64(len(lat))))].Microseconds()) / 1000
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.95), "p95-ms")
}

// BenchmarkBuild100k digests a 100,000-character text.
func BenchmarkBuild100k(b *testing.B) { benchmarkBuild(b, 100_000) }

// BenchmarkBuild500k digests a 500,000-character text.
func BenchmarkBuild500k(b *testing.B) { benchmarkBuild(b, 500_000) }

// BenchmarkBuildOneLongSentence digests 3 MB of words without one sentence
// mark, a matching question, so that every window lies inside one sentence:
// windowing within a sentence must stay linear in it.
func BenchmarkBuildOneLongSentence(b *testing.B) {
	text := strings.Repeat("word alpha, beta ", 180_000)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		if _, _, err := Build(text, "alpha word", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
