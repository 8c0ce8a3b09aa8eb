package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/ocr/ocrtest"
)

// TestOCRDigest digests a PNG and a PDF of a text page and a scanned page
// through the worker processes and Tesseract: the scanned page is read by
// OCR, the record says so, and every locator checks out by slicing, a
// page:2 locator on the scanned page among them. --ocr never refuses the
// image.
func TestOCRDigest(t *testing.T) {
	eng := ocrtest.Engine(t)
	if !eng.ReadsPDF() {
		t.Skip("poppler-utils is not installed")
	}
	scan := ocrtest.Page(1275, 40, "Lighthouse keepers logged the storm at midnight.", "The harbour wall held until the morning tide.")
	dir := t.TempDir()
	png := filepath.Join(dir, "scan.png")
	pdf := filepath.Join(dir, "report.pdf")
	os.WriteFile(png, ocrtest.PNG(scan), 0o644)
	os.WriteFile(pdf, ocrtest.ScannedPDF(ocrtest.ScanPage{Text: "A typed cover page about the storm."}, ocrtest.ScanPage{Image: scan}), 0o644)
	for _, tc := range []struct {
		file     string
		kind     string
		ocrPages []int
		page     string // a locator prefix some snippet has
	}{
		{png, "image", []int{1}, "page:1:"},
		{pdf, "pdf", []int{2}, "page:2:"},
	} {
		stdout, stderr, code := runCLI(t, "", "digest", "--archive", t.TempDir(), "--index", "off", "--query", "when did the harbour wall hold?", tc.file)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s %s", tc.file, code, stdout, stderr)
		}
		var env struct {
			Data struct {
				Digest struct {
					EvidenceSnippets []struct {
						Text    string `json:"text"`
						Locator string `json:"locator"`
					} `json:"evidence_snippets"`
				} `json:"digest"`
				Source struct {
					ArchiveHash string `json:"archive_hash"`
					Record      struct {
						Kind          string  `json:"kind"`
						OCRPages      []int   `json:"ocr_pages"`
						OCREngine     string  `json:"ocr_engine"`
						OCRConfidence float64 `json:"ocr_confidence"`
					} `json:"record"`
				} `json:"source"`
			} `json:"data"`
		}
		if err := json.Unmarshal([]byte(stdout), &env); err != nil {
			t.Fatal(err)
		}
		rec := env.Data.Source.Record
		if rec.Kind != tc.kind || !slices.Equal(rec.OCRPages, tc.ocrPages) || rec.OCREngine != eng.Name() || rec.OCRConfidence < 0.6 {
			t.Errorf("%s: record %+v", tc.file, rec)
		}
		found := false
		for _, s := range env.Data.Digest.EvidenceSnippets {
			found = found || strings.HasPrefix(s.Locator, tc.page) && strings.Contains(s.Text, "harbour wall held")
		}
		if !found {
			t.Errorf("%s: no %s snippet of the harbour wall in %+v", tc.file, tc.page, env.Data.Digest.EvidenceSnippets)
		}
	}
	stdout, _, code := runCLI(t, "", "extract", "--ocr", "never", png)
	if code != 2 || strings.Contains(stdout, "Lighthouse") {
		t.Errorf("--ocr never on an image: exit %d, %q", code, stdout)
	}
	if stdout, _, code := runCLI(t, "", "extract", "--ocr", "sometimes", png); code != 2 || stdout != "" {
		t.Errorf("--ocr sometimes: exit %d, %q", code, stdout)
	}
}
