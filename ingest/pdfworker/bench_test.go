package pdfworker

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/pdftext"
	"github.com/digestd/digestd/internal/shareddata"
	"github.com/digestd/digestd/internal/testenv"
)

// BenchmarkPDFBoxSet extracts every PDF of the pdfbox set per iteration,
// through a one-worker pool (one child process per document, as in the
// service) and in process, and reports pages per second.
func BenchmarkPDFBoxSet(b *testing.B) {
	files, _ := filepath.Glob(filepath.Join(shareddata.Set(b, "extract-pdf-pdfbox"), "pdf", "*.pdf"))
	testenv.Need(b, len(files) > 0, "the pdfbox set has no PDFs")
	var docs [][]byte
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		docs = append(docs, raw)
	}
	b.Run("pool", func(b *testing.B) {
		p := testPool(b, PoolConfig{Workers: 1, Deadline: 20 * time.Second})
		pages := 0
		start := time.Now()
		for b.Loop() {
			for _, d := range docs {
				if res, err := p.Extract(context.Background(), d); err == nil {
					pages += len(res.Pages)
				}
			}
		}
		b.ReportMetric(float64(pages)/time.Since(start).Seconds(), "pages/s")
	})
	b.Run("inprocess", func(b *testing.B) {
		pages := 0
		start := time.Now()
		for b.Loop() {
			for _, d := range docs {
				if res, err := pdftext.Extract(d, pdftext.Limits{}); err == nil {
					pages += len(res.Pages)
				}
			}
		}
		b.ReportMetric(float64(pages)/time.Since(start).Seconds(), "pages/s")
	})
}
