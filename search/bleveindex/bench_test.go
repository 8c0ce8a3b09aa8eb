package bleveindex_test

import (
	"path/filepath"
	"testing"

	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/search/bleveindex"
	"github.com/digestd/digestd/search/searchtest"
)

// BenchmarkSearch is searchtest.Benchmark on the embedded engine on disk.
func BenchmarkSearch(b *testing.B) {
	dir := filepath.Join(b.TempDir(), "index")
	idx, err := bleveindex.Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	searchtest.Benchmark(b, corpus(b), idx, func() int64 {
		n, err := bleveindex.Size(dir)
		if err != nil {
			return -1
		}
		return n
	})
}

// corpus reads the evaluation sets as the benchmark's corpus, skipping
// without them.
func corpus(b *testing.B) searchtest.Corpus {
	data := searchtest.SharedData(filepath.Join("..", ".."))
	texts, questions, err := evaluate.SearchCorpus(data, searchtest.HTMLText)
	if err != nil {
		b.Skipf("evaluation data not found at %s (set DIGESTD_SHARED_DATA): %v", data, err)
	}
	return searchtest.Corpus{Texts: texts, Questions: questions}
}
