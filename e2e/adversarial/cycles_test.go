package adversarial

import (
	"bytes"
	"fmt"
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
)

// objStmPDF writes a PDF whose object 2 is looked up in object stream 3
// (with the given dictionary entries) through a cross-reference stream.
func objStmPDF(objStmDict string) []byte {
	var b bytes.Buffer
	b.WriteString("%PDF-1.7\n")
	off1 := b.Len()
	b.WriteString("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
	off3 := b.Len()
	data := "9 0 << >>"
	fmt.Fprintf(&b, "3 0 obj\n<< /Type /ObjStm %s /First 4 /Length %d >>\nstream\n%s\nendstream\nendobj\n", objStmDict, len(data), data)
	off4 := b.Len()
	var e []byte
	row := func(typ byte, f2, f3 int) {
		e = append(e, typ, byte(f2>>24), byte(f2>>16), byte(f2>>8), byte(f2), byte(f3>>8), byte(f3))
	}
	row(0, 0, 0xffff)
	row(1, off1, 0)
	row(2, 3, 0)
	row(1, off3, 0)
	row(1, off4, 0)
	fmt.Fprintf(&b, "4 0 obj\n<< /Type /XRef /Size 5 /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", len(e))
	b.Write(e)
	fmt.Fprintf(&b, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", off4)
	return b.Bytes()
}

// prevSelfPDF is a one-page file whose trailer's /Prev names its own
// cross-reference table.
func prevSelfPDF() []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
	}
	b := pdfgen.Assemble("1.7", objs, "/Root 1 0 R /Prev 0000000000")
	i := bytes.LastIndex(b, []byte("startxref\n"))
	off := bytes.TrimSpace(b[i+len("startxref\n"):])
	off = off[:bytes.IndexByte(off, '\n')]
	return bytes.Replace(b, []byte("/Prev 0000000000"), fmt.Appendf(nil, "/Prev %010s", off), 1)
}

// TestPDFReferenceCycles sends PDFs whose references loop (the reader
// would follow them until the worker's deadline), two at a time and
// repeatedly: each must be answered 4xx within seconds, not the 20 s
// deadline, and a valid PDF sent alongside must still get 200.
func TestPDFReferenceCycles(t *testing.T) {
	s := startServer(t, "--pdf-workers", "2")
	files := map[string][]byte{
		"prev_self":      prevSelfPDF(),
		"objstm_extends": objStmPDF("/N 1 /Extends 3 0 R"),
		"objstm_huge_n":  objStmPDF("/N 1000000000000"),
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
