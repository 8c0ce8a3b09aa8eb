package adversarial

import (
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
)

// TestPDFReferenceCycles sends PDFs whose references loop (the reader
// would follow them until the worker's deadline), each twice: each must be
// refused with a 4xx that is no PDF_TIMEOUT (the cycle found, not followed
// until the deadline), and a valid PDF sent after them must still get 200.
// How fast the refusal comes is a benchmark bar (≤ 1 s, docs/BENCHMARKS.md),
// read from this test's log (-v), not asserted on a machine that other work
// may load.
func TestPDFReferenceCycles(t *testing.T) {
	s := startServer(t, "--pdf-workers", "2")
	files := map[string][]byte{
		"prev_self":      pdfgen.PrevSelf(),
		"objstm_extends": pdfgen.ObjStmXRef("/N 1 /Extends 3 0 R"),
		"objstm_huge_n":  pdfgen.ObjStmXRef("/N 1000000000000"),
	}
	for name, pdf := range files {
		for range 2 {
			start := time.Now()
			r := s.do(t, "POST", "/v1/digest?query=what+is+here", "application/pdf", pdf)
			el := time.Since(start)
			t.Logf("%s: %s in %v", name, r.outcome(), el)
			if r.Status < 400 || r.Status >= 500 || r.Code == "PDF_TIMEOUT" {
				t.Errorf("%s: %s, want a 4xx that is no timeout: the cycle found, not followed", name, r.outcome())
			}
		}
	}
	if r := s.do(t, "POST", "/v1/digest?query=hello", "application/pdf", validPDF()); r.Status != 200 {
		t.Errorf("valid PDF after the cycles: %s", r.outcome())
	}
	s.checkHealthy(t)
}
