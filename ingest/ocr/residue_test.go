package ocr_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"testing"

	"github.com/digestd/digestd/ingest/ocr"
)

// TestResidue: marks of letters' size left outside every word read are
// worth a second reading of the part of the page that holds them, the
// words painted out; a rule and a speck are not.
func TestResidue(t *testing.T) {
	img := image.NewGray(image.Rect(0, 0, 600, 400))
	for i := range img.Pix {
		img.Pix[i] = 255
	}
	ink := func(x0, y0, x1, y1 int) {
		for y := y0; y < y1; y++ {
			for x := x0; x < x1; x++ {
				img.Set(x, y, color.Gray{Y: 0})
			}
		}
	}
	for i := range 5 {
		ink(50+i*60, 50, 90+i*60, 110) // the letters of a title
	}
	for i := range 4 {
		ink(50+i*16, 200, 62+i*16, 220) // a line of small type
	}
	ink(20, 300, 580, 303)  // a rule
	ink(500, 100, 503, 103) // a speck
	pgm := ocr.GreyMap(img)
	title := ocr.W(1, 1, 1, 50, 50, 280, 60, 95, "Title")
	small := ocr.W(2, 1, 1, 50, 200, 60, 20, 95, "small")
	rest, at := ocr.Residue(pgm, []ocr.Word{title}, 300)
	if rest == nil {
		t.Fatal("a line left unread: no second reading")
	}
	// The small line's box, 50-110 × 200-220, with a margin of its
	// height.
	if want := image.Pt(30, 180); at != want {
		t.Errorf("second reading at %v, want %v", at, want)
	}
	head := fmt.Appendf(nil, "P5\n%d %d\n255\n", 100, 60)
	if !bytes.HasPrefix(rest, head) || len(rest) != len(head)+100*60 {
		t.Fatalf("residue header %q, %d bytes", rest[:min(len(rest), 16)], len(rest))
	}
	if px := rest[len(head):]; px[25*100+25] != 0 || px[5*100+5] != 255 {
		t.Errorf("the small line's pixel %d, the margin's %d", px[25*100+25], px[5*100+5])
	}
	if r, _ := ocr.Residue(pgm, []ocr.Word{title, small}, 300); r != nil {
		t.Error("every line read: a second reading")
	}
	if r, _ := ocr.Residue(pgm, nil, 300); r != nil {
		t.Error("nothing read: a second reading of the same page")
	}
}

// TestMerge: the sure lines of a second reading join the page as
// paragraphs of their own, before the first block of the first reading
// that starts below them; lines of low confidence, or of no letter or
// digit, are dropped.
func TestMerge(t *testing.T) {
	first := []ocr.Word{
		ocr.W(1, 1, 1, 50, 100, 200, 60, 95, "Apache"),
		ocr.W(1, 1, 1, 300, 100, 200, 60, 95, "PDFBox"),
		ocr.W(2, 1, 1, 50, 900, 200, 30, 90, "closing"),
		ocr.W(2, 1, 1, 300, 900, 200, 30, 90, "words"),
	}
	second := []ocr.Word{
		ocr.W(1, 1, 1, 50, 300, 60, 20, 92, "90°"),
		ocr.W(1, 1, 1, 120, 300, 60, 20, 88, "ctm"),
		ocr.W(2, 1, 1, 50, 600, 60, 20, 30, "Kx"),
		ocr.W(2, 1, 1, 120, 600, 60, 20, 40, "ijq"),
		ocr.W(3, 1, 1, 50, 700, 60, 20, 95, "—"),
		ocr.W(4, 1, 1, 50, 1200, 60, 20, 91, "footnote"),
	}
	want := "Apache PDFBox\n90° ctm\nclosing words\nfootnote"
	if got := ocr.MergeText(first, second); got != want {
		t.Errorf("merged:\n%q\nwant\n%q", got, want)
	}
	if got := ocr.MergeText(first, nil); got != "Apache PDFBox\nclosing words" {
		t.Errorf("nothing more read: %q", got)
	}
}
