package ocr_test

import (
	"math"
	"testing"

	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/ocr/ocrtest"
)

// TestDeskew: the skew of a page of text turned by up to 2° either way is
// found within a step of the search, and undone from a degree up; a
// straight page, and a page without ink, are left as they are.
func TestDeskew(t *testing.T) {
	page := ocr.GreyMap(ocrtest.Page(1200, 24,
		"The first paragraph of a scanned page speaks of rivers and the bridges across them, and of the towns beside them.",
		"The second paragraph speaks of mountains and the roads over them, and of the passes closed in winter."))
	if a := ocr.SkewOf(page); a != 0 {
		t.Errorf("a straight page: skew %v, want 0", a)
	}
	if out, err := ocr.Deskew(page); err != nil || out != nil {
		t.Errorf("a straight page: deskew gave %d bytes, %v; want none", len(out), err)
	}
	for _, deg := range []float64{-2, -1.2, 1.1, 1.5, 2} {
		turned := ocr.Turn(page, -deg)
		if a := ocr.SkewOf(turned); math.Abs(a-deg) > 0.15 {
			t.Errorf("turned by %v°: skew %v", -deg, a)
		}
		out, err := ocr.Deskew(turned)
		if err != nil || out == nil {
			t.Fatalf("turned by %v°: deskew gave %d bytes, %v", -deg, len(out), err)
		}
		if a := ocr.SkewOf(out); math.Abs(a) > 0.15 {
			t.Errorf("turned by %v° and straightened: skew %v", -deg, a)
		}
	}
	// A turn under a degree is left to Tesseract.
	if out, err := ocr.Deskew(ocr.Turn(page, -0.6)); err != nil || out != nil {
		t.Errorf("turned by 0.6°: deskew gave %d bytes, %v; want none", len(out), err)
	}
	blank := ocr.GreyMap(ocrtest.Page(600, 24))
	if a := ocr.SkewOf(blank); a != 0 {
		t.Errorf("a blank page: skew %v", a)
	}
	if _, err := ocr.Deskew([]byte("P5\n2 2\n255\n\x00")); err == nil {
		t.Error("a grey map cut short: no error")
	}
}
