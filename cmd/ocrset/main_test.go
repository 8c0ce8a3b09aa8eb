package main

import (
	"bytes"
	"errors"
	"image"
	"image/jpeg"
	"math/rand/v2"
	"testing"

	"github.com/digestd/digestd/ingest/pdftext"
)

// A scanned PDF of two pages, one clean and one degraded, parses as a PDF
// with no text layer, and degrading keeps a page's size and darkens no
// blank page to black.
func TestScannedPDF(t *testing.T) {
	page := image.NewGray(image.Rect(0, 0, 300, 400))
	for i := range page.Pix {
		page.Pix[i] = 255
	}
	d := degrade(page, 300, rand.New(rand.NewPCG(1, 2)))
	if d.Bounds() != page.Bounds() {
		t.Fatalf("degraded to %v", d.Bounds())
	}
	var sum int
	for _, p := range d.Pix {
		sum += int(p)
	}
	if mean := sum / len(d.Pix); mean < 200 {
		t.Errorf("a blank page degrades to a mean grey of %d", mean)
	}
	var jb bytes.Buffer
	if err := jpeg.Encode(&jb, d, nil); err != nil {
		t.Fatal(err)
	}
	pdf := scannedPDF([]scanned{{gray: page, dpi: 300}, {gray: d, jpeg: jb.Bytes(), dpi: 200}})
	if _, err := pdftext.Extract(pdf, pdftext.Limits{}); !errors.Is(err, pdftext.ErrNoText) {
		t.Errorf("scanned PDF: %v, want ErrNoText (pages of images only)", err)
	}
}
