package digest

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"
)

// benchText returns about n code points of synthetic prose in blocks.
func benchText(n int) string {
	r := rand.New(rand.NewPCG(3, 5))
	var b strings.Builder
	b.WriteString(sampleText(r, 1, false))
	for utf8.RuneCountInString(b.String()) < n {
		b.WriteString("\n")
		b.WriteString(sampleText(r, 200, false))
	}
	return string([]rune(b.String())[:n])
}

func benchmarkBuild(b *testing.B, n int) {
	text := benchText(n)
	b.SetBytes(int64(len(text)))
	b.ResetTimer()
	for b.Loop() {
		if _, _, err := Build(text, "vaccine efficacy in patients with virus", Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkBuild100k digests a 100,000-character text.
func BenchmarkBuild100k(b *testing.B) { benchmarkBuild(b, 100_000) }

// BenchmarkBuild500k digests a 500,000-character text.
func BenchmarkBuild500k(b *testing.B) { benchmarkBuild(b, 500_000) }
