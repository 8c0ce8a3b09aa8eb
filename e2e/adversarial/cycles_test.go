package adversarial

import (
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
)

// TestPDFReferenceCycles sends PDFs whose references loop (the reader
// would follow them until the worker's deadline), two at a time and
// repeatedly: each must be answered 4xx within seconds, not the 20 s
// deadline, and a valid PDF sent alongside must still get 200.
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
			if r.Status < 400 || r.Status >= 500 {
				t.Errorf("%s: %s, want a 4xx", name, r.outcome())
			}
			if el > 5*time.Second {
				t.Errorf("%s: answered after %v, want well under the PDF deadline", name, el)
			}
		}
	}
	if r := s.do(t, "POST", "/v1/digest?query=hello", "application/pdf", validPDF()); r.Status != 200 {
		t.Errorf("valid PDF after the cycles: %s", r.outcome())
	}
	s.checkHealthy(t)
}
