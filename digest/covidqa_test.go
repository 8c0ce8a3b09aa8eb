package digest_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/normalize"
)

// TestCovidQAPayloadsVerify digests a sample of the evidence-covidqa
// questions (every 10th) and checks that every payload validates and every
// locator slices to its snippet, for plain and paginated forms of the text.
func TestCovidQAPayloadsVerify(t *testing.T) {
	dir := filepath.Join(sharedData(t), "evidence-covidqa")
	b, err := os.ReadFile(filepath.Join(dir, "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	checked := 0
	for i := 0; i < len(lines); i += 10 {
		var c struct{ Doc, Question string }
		if err := json.Unmarshal([]byte(lines[i]), &c); err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		raw, err := os.ReadFile(filepath.Join(dir, c.Doc))
		if err != nil {
			t.Fatal(err)
		}
		text := normalize.Canonical(string(raw))
		// The same text cut into pages exercises page locators.
		paged := normalize.Pages(strings.SplitAfterN(text, "\n", 4))
		for _, tx := range []string{text, paged} {
			p, _, err := digest.Build(tx, c.Question, digest.Options{})
			if err != nil {
				t.Fatalf("%s: %v", c.Doc, err)
			}
			if _, err := digest.Verify(p, archive.NewBlob(tx)); err != nil {
				t.Fatalf("%s %q: %v", c.Doc, c.Question, err)
			}
			if len(p.EvidenceSnippets) == 0 {
				t.Errorf("%s %q: no evidence", c.Doc, c.Question)
			}
		}
		checked++
	}
	if checked == 0 {
		t.Fatal("no cases checked")
	}
}
