package ocr_test

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"testing"

	"github.com/digestd/digestd/ingest/ocr"
)

// TestResidue: ink outside every word read is worth a second reading, with
// the words painted out; ink inside the words read is not.
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
	ink(50, 50, 350, 120)  // a title
	ink(50, 200, 150, 230) // a line of small type
	pgm := ocr.GreyMap(img)
	title := ocr.W(1, 1, 1, 50, 50, 300, 70, 95, "Title")
	small := ocr.W(2, 1, 1, 50, 200, 100, 30, 95, "small")
	rest := ocr.Residue(pgm, []ocr.Word{title}, 300)
	if rest == nil {
		t.Fatal("a line left unread: no second reading")
	}
	head := fmt.Appendf(nil, "P5\n%d %d\n255\n", 600, 400)
	if !bytes.HasPrefix(rest, head) {
		t.Fatalf("residue header %q", rest[:20])
	}
	px := rest[len(head):]
	if px[80*600+100] != 255 || px[210*600+100] != 0 {
		t.Errorf("the title is not painted out (%d) or the small line is (%d)", px[80*600+100], px[210*600+100])
	}
	if r := ocr.Residue(pgm, []ocr.Word{title, small}, 300); r != nil {
		t.Error("every line read: a second reading")
	}
	if r := ocr.Residue(pgm, nil, 300); r != nil {
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
