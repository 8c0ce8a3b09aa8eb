package ocr_test

import (
	"context"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/ocr/ocrtest"
)

func TestReadPNG(t *testing.T) {
	e := ocrtest.Engine(t)
	img := ocrtest.Page(1200, 32, "The quick brown fox jumps over the lazy dog near the riverbank.", "Second paragraph about scanned documents and their extraction.")
	p, err := e.Read(context.Background(), ocrtest.PNG(img), []string{"eng"}, ocr.Limits{MemoryBytes: 1 << 30, CPUSeconds: 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%q %v %d", p.Text, p.Confidence, p.Words)
	if !strings.Contains(p.Text, "quick brown fox") {
		t.Errorf("text %q", p.Text)
	}
}
