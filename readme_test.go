package digestd_test

import (
	"os"
	"regexp"
	"testing"
)

// The README's examples run from the repository's own fixtures: every
// testdata path it names exists.
func TestReadmeFixturesExist(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	paths := regexp.MustCompile(`[A-Za-z0-9_./-]*testdata/[A-Za-z0-9_./-]*[A-Za-z0-9_]`).FindAll(readme, -1)
	if len(paths) < 4 {
		t.Fatalf("the README names %d fixtures; its examples should use testdata/walkthrough", len(paths))
	}
	for _, p := range paths {
		if _, err := os.Stat(string(p)); err != nil {
			t.Errorf("the README names %s: %v", p, err)
		}
	}
}
