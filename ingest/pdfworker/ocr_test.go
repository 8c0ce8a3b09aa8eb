package pdfworker

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/ocr/ocrtest"
)

// scan is a page image of two paragraphs, as a 150 dpi scanner gives it.
func scan() ([]string, *ocrtest.ScanPage) {
	paras := []string{"Tesseract reads scanned pages in worker processes.", "Every page keeps its locator when the text is archived."}
	return paras, &ocrtest.ScanPage{Image: ocrtest.Page(1275, 40, paras...)}
}

func TestOCRImage(t *testing.T) {
	eng := ocrtest.Engine(t)
	p := testPool(t, PoolConfig{OCR: eng})
	paras, page := scan()
	res, rep, err := p.OCR(context.Background(), true, ocrtest.PNG(page.Image), ocr.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if got := res.Pages[0]; got != strings.Join(paras, "\n") {
		t.Errorf("text %q, want the two paragraphs", got)
	}
	if rep.Engine != eng.Name() || !slices.Equal(rep.Languages, []string{"eng"}) || !slices.Equal(rep.Pages, []int{1}) || rep.Mean() < ocr.ConfidenceFloor {
		t.Errorf("report %+v", rep)
	}
}

// TestOCRPagedTIFF: a TIFF of two pages is read in a worker as two
// pages, each in the report; one of more pages than MaxOCRPages is
// TOO_LARGE.
func TestOCRPagedTIFF(t *testing.T) {
	eng := ocrtest.Engine(t)
	p := testPool(t, PoolConfig{OCR: eng, MaxOCRPages: 2})
	paras, page := scan()
	second := "A second scanned page of the same file."
	tiff := ocrtest.PagedTIFF(false, page.Image, ocrtest.Page(1275, 40, second))
	res, rep, err := p.OCR(context.Background(), true, tiff, ocr.Request{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(res.Pages, []string{strings.Join(paras, "\n"), second}) || len(res.EmptyPages) != 0 {
		t.Errorf("pages %q, empty %v", res.Pages, res.EmptyPages)
	}
	if rep == nil || !slices.Equal(rep.Pages, []int{1, 2}) || len(rep.Confidence) != 2 {
		t.Errorf("report %+v", rep)
	}
	_, _, err = p.OCR(context.Background(), true, ocrtest.PagedTIFF(false, page.Image, page.Image, page.Image), ocr.Request{})
	var e *Error
	if !errors.As(err, &e) || e.Code != CodeTooLarge {
		t.Errorf("three pages, at most two: %v, want %s", err, CodeTooLarge)
	}
}

// TestOCRScannedPDF: a PDF of a text page and a scanned page keeps the
// first page's text layer and reads the second by OCR, whether the scan
// has no text layer or one that is not text (drawn invisibly over it, as
// under many scans); "always" reads both.
func TestOCRScannedPDF(t *testing.T) {
	eng := ocrtest.Engine(t)
	if !eng.ReadsPDF() {
		t.Skip("poppler-utils is not installed")
	}
	p := testPool(t, PoolConfig{OCR: eng})
	paras, page := scan()
	garbled := *page
	garbled.Text, garbled.Invisible = strings.Repeat("#$%& *+<=>@ ^_`{|}~ ", 4), true
	for name, second := range map[string]ocrtest.ScanPage{"no layer": *page, "a layer not text": garbled} {
		pdf := ocrtest.ScannedPDF(ocrtest.ScanPage{Text: "A text layer on the first page."}, second)
		res, rep, err := p.OCR(context.Background(), false, pdf, ocr.Request{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(res.Pages) != 2 || res.Pages[0] != "A text layer on the first page." || res.Pages[1] != strings.Join(paras, "\n") {
			t.Errorf("%s: pages %q", name, res.Pages)
		}
		if rep == nil || !slices.Equal(rep.Pages, []int{2}) || len(res.EmptyPages) != 0 {
			t.Errorf("%s: report %+v, empty pages %v", name, rep, res.EmptyPages)
		}
	}
	pdf := ocrtest.ScannedPDF(ocrtest.ScanPage{Text: "A text layer on the first page."}, *page)
	_, rep, err := p.OCR(context.Background(), false, pdf, ocr.Request{Always: true})
	if err != nil || !slices.Equal(rep.Pages, []int{1, 2}) {
		t.Errorf("always: %+v, %v", rep, err)
	}
	// A PDF with text on every page needs no OCR.
	_, rep, err = p.OCR(context.Background(), false, ocrtest.ScannedPDF(ocrtest.ScanPage{Text: "Text only."}), ocr.Request{})
	if err != nil || rep != nil {
		t.Errorf("text PDF: report %+v, %v", rep, err)
	}
}

// TestOCRTooLarge: an image over the pixel caps and a page too large to
// render are TOO_LARGE, the image from its header before any worker runs.
func TestOCRTooLarge(t *testing.T) {
	eng := ocrtest.Engine(t)
	p := testPool(t, PoolConfig{OCR: eng})
	for _, tc := range []struct {
		name  string
		image bool
		raw   []byte
	}{
		{"100000×100000 PNG", true, ocrtest.BombPNG(100_000, 100_000)},
		{"40000×10 PNG", true, ocrtest.BombPNG(40_000, 10)},
		{"200-inch page", false, ocrtest.ScannedPDF(ocrtest.ScanPage{Image: ocrtest.Page(100, 10), Width: 14400, Height: 14400})},
	} {
		_, _, err := p.OCR(context.Background(), tc.image, tc.raw, ocr.Request{})
		if !errors.Is(err, &Error{Code: CodeTooLarge}) {
			t.Errorf("%s: %v, want TOO_LARGE", tc.name, err)
		}
	}
}

func TestOCRDisabled(t *testing.T) {
	p := testPool(t, PoolConfig{})
	_, _, err := p.OCR(context.Background(), true, ocrtest.PNG(ocrtest.Page(100, 10, "x")), ocr.Request{})
	if !errors.Is(err, &Error{Code: CodeFeatureDisabled}) || !strings.Contains(err.Error(), ocr.Install) {
		t.Errorf("%v, want FEATURE_DISABLED saying how to install", err)
	}
}
