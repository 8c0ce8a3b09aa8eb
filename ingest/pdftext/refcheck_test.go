package pdftext

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"testing"

	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
)

// xrefStreamPDF writes a PDF whose objects 2 and on live in object stream
// 3 with the given dictionary entries, indexed by a cross-reference stream,
// so that looking up object 2 makes the reader search the object stream.
func xrefStreamPDF(objStmDict string) []byte {
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

// prevSelfPDF is a valid file whose trailer's /Prev names its own table.
func prevSelfPDF() []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
	}
	b := pdfgen.Assemble("1.7", objs, "/Root 1 0 R /Prev 0000000000")
	m := regexp.MustCompile(`startxref\s+(\d+)`).FindSubmatch(b)
	return bytes.Replace(b, []byte("/Prev 0000000000"), fmt.Appendf(nil, "/Prev %010s", m[1]), 1)
}

// TestReferenceCycles gives the reader files it would follow forever;
// each must fail as unreadable (the test's own timeout is the failure mode
// without the check).
func TestReferenceCycles(t *testing.T) {
	for name, pdf := range map[string][]byte{
		"xref /Prev names its own section": prevSelfPDF(),
		"object stream extends itself":     xrefStreamPDF("/N 1 /Extends 3 0 R"),
		"object stream with a huge /N":     xrefStreamPDF("/N 1000000000000"),
		"object stream with /N over bound": xrefStreamPDF(fmt.Sprintf("/N %d", maxObjStmObjects+1)),
	} {
		_, err := Extract(pdf, Limits{})
		if name == "xref /Prev names its own section" {
			// The rebuilt cross-reference table reads it: its one page
			// has no text.
			if !errors.Is(err, ErrNoText) {
				t.Errorf("%s: %v, want ErrNoText from the rebuilt table", name, err)
			}
			continue
		}
		if !errors.Is(err, ErrUnreadable) {
			t.Errorf("%s: %v, want ErrUnreadable", name, err)
		}
		if checkReferences(pdf) == nil {
			t.Errorf("%s: the check passes it", name)
		}
	}
	if err := checkPrevChain(prevSelfPDF()); err == nil {
		t.Error("the /Prev cycle passes the check")
	}
	ok := pdfgen.Build("t", []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 720, 12, 14, "Hello there.")}})
	if err := checkReferences(ok); err != nil {
		t.Errorf("a valid file: %v", err)
	}
}
