// Package pdfgen writes small, valid PDFs with positioned text, as test
// fixtures for the PDF extraction packages.
package pdfgen

import (
	"bytes"
	"fmt"
	"strings"
)

// Text is one string shown at (X, Y) in points with the given size. Font
// "F1" is Helvetica (WinAnsi); "F2" maps byte 0xB0 to the ligature U+FB01
// through a ToUnicode CMap. Angle 90 rotates the text counterclockwise.
type Text struct {
	X, Y, Size float64
	S          string
	Font       string
	Angle      int
}

// Page is the text of one 612×792 page.
type Page struct {
	Texts []Text
}

// Build returns a PDF of the pages, with title set in the information
// dictionary when non-empty.
func Build(title string, pages []Page) []byte {
	var objs []string // object i+1
	add := func(s string) int {
		objs = append(objs, s)
		return len(objs)
	}
	catalog := add("") // filled below
	pagesObj := add("")
	widths := strings.TrimSpace(strings.Repeat("500 ", 224))
	f1 := add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding /FirstChar 32 /LastChar 255 /Widths [250 %s] >>",
		strings.TrimSpace(strings.Repeat("500 ", 223))))
	cmap := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap\n1 begincodespacerange <00> <FF> endcodespacerange\n" +
		"1 beginbfchar <B0> <FB01> endbfchar\n1 beginbfrange <20> <7E> <0020> endbfrange\nendcmap end end\n"
	tu := add(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(cmap), cmap))
	f2 := add(fmt.Sprintf("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /FirstChar 32 /LastChar 255 /Widths [250 %s] /ToUnicode %d 0 R >>", widths[4:], tu))
	var kids []string
	for _, p := range pages {
		var c bytes.Buffer
		for _, t := range p.Texts {
			font := t.Font
			if font == "" {
				font = "F1"
			}
			a, b, cc, d := 1, 0, 0, 1
			if t.Angle == 90 {
				a, b, cc, d = 0, 1, -1, 0
			}
			fmt.Fprintf(&c, "BT /%s %g Tf %d %d %d %d %g %g Tm (%s) Tj ET\n", font, t.Size, a, b, cc, d, t.X, t.Y, escape(t.S))
		}
		content := add(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", c.Len(), c.String()))
		page := add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 %d 0 R /F2 %d 0 R >> >> /Contents %d 0 R >>",
			pagesObj, f1, f2, content))
		kids = append(kids, fmt.Sprintf("%d 0 R", page))
	}
	objs[catalog-1] = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pagesObj)
	objs[pagesObj-1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	info := add(fmt.Sprintf("<< /Title (%s) >>", escape(title)))

	return Assemble("1.4", objs, fmt.Sprintf("/Root %d 0 R /Info %d 0 R", catalog, info))
}

// Assemble writes a PDF of the given version from object bodies (object
// i+1 is objs[i]) with a classic cross-reference table and the given
// trailer entries (besides /Size). Tests use it to build damaged files.
func Assemble(version string, objs []string, trailer string) []byte {
	var out bytes.Buffer
	fmt.Fprintf(&out, "%%PDF-%s\n%%\xe2\xe3\xcf\xd3\n", version)
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&out, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d %s >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, trailer, xref)
	return out.Bytes()
}

func escape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `(`, `\(`, `)`, `\)`)
	return r.Replace(s)
}

// Paragraph lays out lines of text from (x, y) downwards with the given size
// and leading (baseline to baseline).
func Paragraph(x, y, size, leading float64, lines ...string) []Text {
	out := make([]Text, len(lines))
	for i, l := range lines {
		out[i] = Text{X: x, Y: y - float64(i)*leading, Size: size, S: l}
	}
	return out
}
