package digestd_test

import (
	"io/fs"
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
	files := 0
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		files++
		if filepath.ToSlash(path) == "archive/archive.go" {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for i, line := range strings.Split(string(b), "\n") {
			if building.MatchString(line) {
				t.Errorf("%s:%d builds a content address by hand (use archive.Hash): %s", path, i+1, strings.TrimSpace(line))
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files < 50 {
		t.Fatalf("read %d Go files; the walk missed the module", files)
	}
}
