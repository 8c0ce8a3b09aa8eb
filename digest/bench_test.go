package digest

import (
	"math/rand/v2"
	"testing"
)

// benchText returns about n code points of synthetic prose in blocks.
func benchText(n int) string {
	r := rand.New(rand.NewPCG(3, 5))
	text := sampleText(r, 1, false)
	for len([]rune(text)) < n {
		text += "\n" + sampleText(r, 200, false)
	}
	return string([]rune(text)[:n])
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
