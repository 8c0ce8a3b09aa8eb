package digestd_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A content address is spelled by one type: no non-test Go file but
// archive/archive.go (where archive.Hash lives) builds "sha256:<hex>" by
// hand, with + or a format verb.
func TestHashSpelledByOneType(t *testing.T) {
	building := regexp.MustCompile(`"sha256:"\s*\+|"sha256:%[xsv]`)
	files := sourceFiles(t)
	for _, path := range files {
		if filepath.ToSlash(path) == "archive/archive.go" {
			continue
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for i, line := range strings.Split(string(b), "\n") {
			if building.MatchString(line) {
				t.Errorf("%s:%d builds a content address by hand (use archive.Hash): %s", path, i+1, strings.TrimSpace(line))
			}
		}
	}
	if len(files) < 50 {
		t.Fatalf("read %d Go files; the walk missed the module", len(files))
	}
}
