package pdfgen

import (
	"bytes"
	"fmt"
	"regexp"
)

// ObjStmXRef writes a PDF whose object 2 lives in object stream 3, with
// the given extra dictionary entries ("/N 1 /Extends 3 0 R"), indexed by a
// cross-reference stream: looking up object 2 makes a reader search the
// object stream. It is the fixture for object-stream cycles and bounds.
func ObjStmXRef(objStmDict string) []byte {
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

// PrevSelf writes a valid one-page PDF whose trailer's /Prev names its own
// cross-reference table: a reader that follows /Prev loops.
func PrevSelf() []byte {
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
	}
	b := Assemble("1.7", objs, "/Root 1 0 R /Prev 0000000000")
	m := regexp.MustCompile(`startxref\s+(\d+)`).FindSubmatch(b)
	return bytes.Replace(b, []byte("/Prev 0000000000"), fmt.Appendf(nil, "/Prev %010s", m[1]), 1)
}
