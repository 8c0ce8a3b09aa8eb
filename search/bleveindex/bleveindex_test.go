package bleveindex_test

import (
	"path/filepath"
	"testing"

	"github.com/digestd/digestd/search"
	"github.com/digestd/digestd/search/bleveindex"
	"github.com/digestd/digestd/search/searchtest"
)

func TestConformance(t *testing.T) {
	searchtest.Test(t, func(t *testing.T) search.Index {
		x, err := bleveindex.Open(filepath.Join(t.TempDir(), "index"))
		if err != nil {
			t.Fatal(err)
		}
		return x
	})
}
