package htmltext

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/internal/testenv"
)

// pinnedHashes holds, for every page of every HTML dev set, the sha256 of
// its canonical text: one line "set<TAB>case id<TAB>hex". A change of the
// extractor that is meant to keep its output (a refactor) leaves it alone;
// one that changes output regenerates it with -update in the same commit.
const pinnedHashes = "testdata/dev-text-hashes.tsv"

// TestDevTextHashes extracts every page of the HTML dev sets
// (extract-html-* in the shared data) and compares the hash of each
// canonical text with the pinned one, naming every page that differs.
func TestDevTextHashes(t *testing.T) {
	testenv.FullSuite(t, "extracts every page of the HTML dev sets")
	root := sharedData(t)
	sets, err := filepath.Glob(filepath.Join(root, "extract-html-*"))
	if err != nil || len(sets) == 0 {
		t.Fatalf("no extract-html-* set under %s (%v)", root, err)
	}
	got := map[string]string{}
	for _, dir := range sets {
		set := filepath.Base(dir)
		cases, err := evaluate.ReadExtractCases(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if c.Kind != "html" {
				continue
			}
			raw, err := evaluate.ReadCaseFile(dir, c.File)
			if err != nil {
				t.Fatal(err)
			}
			sum := "error"
			if res, err := Extract(raw, "", c.URL); err == nil {
				h := sha256.Sum256([]byte(res.Text))
				sum = hex.EncodeToString(h[:])
			}
			got[set+"\t"+c.ID] = sum
		}
	}
	if *update {
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		var b strings.Builder
		for _, k := range keys {
			fmt.Fprintf(&b, "%s\t%s\n", k, got[k])
		}
		if err := os.WriteFile(pinnedHashes, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want := readPinnedHashes(t)
	changed := 0
	for k, w := range want {
		g, ok := got[k]
		switch {
		case !ok:
			t.Errorf("%s: pinned but not in the shared data", k)
		case g != w:
			changed++
			if changed <= 20 {
				t.Errorf("%s: canonical text changed (sha256 %s, pinned %s)", k, g, w)
			}
		}
	}
	for k := range got {
		if _, ok := want[k]; !ok {
			t.Errorf("%s: not pinned (go test -run TestDevTextHashes -update)", k)
		}
	}
	if changed > 0 {
		t.Errorf("%d of %d dev pages changed; if meant, re-pin with go test -run TestDevTextHashes -update", changed, len(want))
	}
}

// readPinnedHashes reads pinnedHashes into a map from "set<TAB>id" to hex.
func readPinnedHashes(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(pinnedHashes)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		parts := strings.Split(sc.Text(), "\t")
		if len(parts) != 3 {
			t.Fatalf("%s: malformed line %q", pinnedHashes, sc.Text())
		}
		want[parts[0]+"\t"+parts[1]] = parts[2]
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return want
}
