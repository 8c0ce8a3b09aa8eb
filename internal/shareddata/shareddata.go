// Package shareddata locates the evaluation data shared beside the
// repository (../shared/data, or $DIGESTD_SHARED_DATA) for tests and
// benchmarks. The repository stands on its own without it: tests that need
// it skip, except under CI=true, where its absence is a failure.
package shareddata

import (
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/digestd/digestd/internal/testenv"
)

// Root returns where the shared data should be: $DIGESTD_SHARED_DATA, or
// ../shared/data beside the repository root. It may not exist.
func Root() string {
	if dir := os.Getenv("DIGESTD_SHARED_DATA"); dir != "" {
		return dir
	}
	_, file, _, _ := runtime.Caller(0)
	repo := filepath.Join(filepath.Dir(file), "..", "..")
	return filepath.Join(repo, "..", "shared", "data")
}

// Set returns the folder of one evaluation set (the root when name is
// empty). When it is absent the test is skipped, or fails under CI=true.
func Set(tb testing.TB, name string) string {
	tb.Helper()
	dir := filepath.Join(Root(), name)
	if _, err := os.Stat(dir); err != nil {
		testenv.Missing(tb, "shared evaluation data %s not present (set DIGESTD_SHARED_DATA): %v", dir, err)
	}
	return dir
}
