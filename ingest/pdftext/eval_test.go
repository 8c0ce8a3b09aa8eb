package pdftext

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/pdftext/textmetric"
	"github.com/digestd/digestd/internal/testenv"
	"github.com/digestd/digestd/normalize"
)

// TestEvalPDFBox prints per-document word and shingle F1 on the pdfbox set
// when PDFTEXT_EVAL=1 (a development aid; the asserted figure is measured
// through the worker pool in package pdfworker).
func TestEvalPDFBox(t *testing.T) {
	if os.Getenv("PDFTEXT_EVAL") != "1" {
		t.Skip("set PDFTEXT_EVAL=1 to print per-document figures")
	}
	dir := filepath.Join("..", "..", "..", "shared", "data", "extract-pdf-pdfbox")
	cases := readCases(t, dir)
	only := os.Getenv("PDFTEXT_ONLY")
	var sumW, sumS float64
	for _, c := range cases {
		if only != "" && !strings.Contains(c.ID, only) {
			continue
		}
		raw, _ := os.ReadFile(filepath.Join(dir, c.File))
		ref, _ := os.ReadFile(filepath.Join(dir, c.ReferenceFile))
		start := time.Now()
		res, err := Extract(raw, Limits{})
		text := ""
		if err == nil {
			text = normalize.Pages(res.Pages)
		}
		w := textmetric.WordF1(text, string(ref))
		s := textmetric.ShingleF1(text, string(ref))
		sumW += w
		sumS += s
		t.Logf("%-60s word=%.3f shingle=%.3f %v err=%v", c.ID, w, s, time.Since(start).Round(time.Millisecond), err)
		if only != "" {
			t.Logf("GOT:\n%s", text)
		}
	}
	n := float64(len(cases))
	if only == "" {
		t.Logf("MEAN word F1 %.4f  shingle F1 %.4f over %d", sumW/n, sumS/n, len(cases))
	}
}

type evalCase struct {
	ID            string `json:"id"`
	File          string `json:"file"`
	ReferenceFile string `json:"reference_file"`
}

func readCases(t *testing.T, dir string) []evalCase {
	f, err := os.Open(filepath.Join(dir, "cases.jsonl"))
	if err != nil {
		testenv.Missing(t, "the pdfbox set: %v", err)
	}
	defer f.Close()
	var out []evalCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c evalCase
		if json.Unmarshal(sc.Bytes(), &c) == nil {
			out = append(out, c)
		}
	}
	return out
}
