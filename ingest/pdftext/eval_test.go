package pdftext

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/evaluate"
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
	cases, err := evaluate.ReadExtractCases(dir)
	if err != nil {
		t.Skip(err)
	}
	only := os.Getenv("PDFTEXT_ONLY")
	var sumW, sumS float64
	for _, c := range cases {
		if only != "" && !strings.Contains(c.ID, only) {
			continue
		}
		raw, _ := evaluate.ReadCaseFile(dir, c.File)
		ref, _ := evaluate.ReadCaseFile(dir, c.ReferenceFile)
		start := time.Now()
		res, err := Extract(raw, Limits{})
		text := ""
		if err == nil {
			text = normalize.Pages(res.Pages)
		}
		w := evaluate.WordF1(text, string(ref))
		s := evaluate.DocShingleF1(evaluate.ShingleMatch(text, string(ref)))
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
