package bleveindex_test

import (
	"path/filepath"
	"testing"

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
	searchtest.Benchmark(b, searchtest.SharedData(filepath.Join("..", "..")), idx, func() int64 {
		n, err := bleveindex.Size(dir)
		if err != nil {
			return -1
		}
		return n
	})
}
