package main

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/format"
)

// digestd batch --dir picks up every document of the dev set, by its
// extension, and digests each as its kind (office documents, EPUB and the
// paginated kinds through the worker processes); digestd digest reads one
// by its name alone.
func TestBatchDirDocuments(t *testing.T) {
	src := "../../ingest/doctext/testdata/devset"
	// Two runs into one archive: the dev set's documents of one text in
	// several formats (report.docx, .odt, .md) share one archived text, and
	// each answer names the record, and so the kind, of its own file.
	archiveDir := t.TempDir()
	for _, group := range [][]string{
		{"report.docx", "slides.pptx", "sheets.xlsx", "book.epub", "stations.csv"},
		{"report.odt", "slides.odp", "sheets.ods", "report.md"},
	} {
		dir := t.TempDir()
		for _, name := range group {
			b, err := os.ReadFile(filepath.Join(src, name))
			if err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		out := filepath.Join(t.TempDir(), "out.jsonl")
		_, stderr, code := runCLI(t, "", "batch", "--archive", archiveDir, "--dir", dir, "--query", "what is here", "--out", out)
		if code != 0 {
			t.Fatalf("exit %d: %s", code, stderr)
		}
		got := batchKinds(t, out)
		for _, name := range group {
			if got[name] != format.KindOfName(name) {
				t.Errorf("%s: kind %q, want %q", name, got[name], format.KindOfName(name))
			}
		}
		if len(got) != len(group) {
			t.Errorf("%d output lines for %d files", len(got), len(group))
		}
	}
	stdout, stderr, code := runCLI(t, "", "digest", "--archive", t.TempDir(), "--query", "why did cables lose margin", filepath.Join(src, "slides.pptx"))
	var env struct {
		Data struct {
			Digest struct {
				EvidenceSnippets []struct {
					Locator string `json:"locator"`
				} `json:"evidence_snippets"`
			} `json:"digest"`
			Source struct {
				Kind string `json:"kind"`
			} `json:"source"`
		} `json:"data"`
	}
	json.Unmarshal([]byte(stdout), &env)
	snips := env.Data.Digest.EvidenceSnippets
	if code != 0 || env.Data.Source.Kind != "pptx" || len(snips) == 0 || !strings.HasPrefix(snips[0].Locator, "page:3:") {
		t.Errorf("digestd digest slides.pptx: exit %d, kind %q, snippets %v: %s", code, env.Data.Source.Kind, snips, stderr)
	}
}

// batchKinds reads a batch output: each id's source kind, failing the test
// on any error line.
func batchKinds(t *testing.T, out string) map[string]string {
	t.Helper()
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	got := map[string]string{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var line struct {
			ID       string `json:"id"`
			Envelope struct {
				Success bool `json:"success"`
				Data    struct {
					Source struct {
						Kind string `json:"kind"`
					} `json:"source"`
				} `json:"data"`
			} `json:"envelope"`
		}
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatal(err)
		}
		if !line.Envelope.Success {
			t.Errorf("%s failed: %.300s", line.ID, sc.Text())
		}
		got[line.ID] = line.Envelope.Data.Source.Kind
	}
	return got
}
