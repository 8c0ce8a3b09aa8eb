package ocr_test

import (
	"bytes"
	"context"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/ocr/ocrtest"
)

// TestReadImage reads a PNG and a JPEG of two paragraphs drawn with Go's
// font: the paragraphs come back one a line, with a high confidence.
func TestReadImage(t *testing.T) {
	e := ocrtest.Engine(t)
	paras := []string{"The quick brown fox jumps over the lazy dog near the riverbank.", "Second paragraph about scanned documents and their extraction."}
	img := ocrtest.Page(1200, 32, paras...)
	var jpg bytes.Buffer
	if err := jpeg.Encode(&jpg, img, &jpeg.Options{Quality: 80}); err != nil {
		t.Fatal(err)
	}
	for name, raw := range map[string][]byte{"png": ocrtest.PNG(img), "jpeg": jpg.Bytes()} {
		pages, err := e.ReadImage(context.Background(), raw, []string{"eng"}, ocr.Limits{MemoryBytes: 1 << 30, CPUSeconds: 20}, 1)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if len(pages) != 1 {
			t.Fatalf("%s: %d pages", name, len(pages))
		}
		if p := pages[0]; p.Text != strings.Join(paras, "\n") || p.Confidence < ocr.ConfidenceFloor || p.Words != 20 {
			t.Errorf("%s: %q, confidence %v, %d words", name, p.Text, p.Confidence, p.Words)
		}
	}
}

// TestReadTIFFPages: every page of a TIFF is read, in order; a TIFF of
// more pages than the cap is TOO_LARGE before any is read, and one whose
// directories loop is unreadable.
func TestReadTIFFPages(t *testing.T) {
	e := ocrtest.Engine(t)
	paras := [][]string{
		{"The first page speaks of rivers and the bridges across them."},
		{"The second page speaks of mountains and the roads over them."},
		{"The third page speaks of harbours and the ships within them."},
	}
	var imgs []*image.Gray
	for _, p := range paras {
		imgs = append(imgs, ocrtest.Page(1200, 32, p...))
	}
	lim := ocr.Limits{MemoryBytes: 1 << 30, CPUSeconds: 20}
	pages, err := e.ReadImage(context.Background(), ocrtest.PagedTIFF(false, imgs...), []string{"eng"}, lim, 3)
	if err != nil {
		t.Fatal(err)
	}
	if len(pages) != 3 {
		t.Fatalf("%d pages read, want 3", len(pages))
	}
	for i, p := range pages {
		if p.Text != paras[i][0] || p.Confidence < ocr.ConfidenceFloor {
			t.Errorf("page %d: %q, confidence %v", i+1, p.Text, p.Confidence)
		}
	}
	if _, err := e.ReadImage(context.Background(), ocrtest.PagedTIFF(false, imgs...), []string{"eng"}, lim, 2); !errors.Is(err, ocr.ErrTooLarge) {
		t.Errorf("3 pages, at most 2: %v, want ErrTooLarge", err)
	}
	if _, err := e.ReadImage(context.Background(), ocrtest.PagedTIFF(true, imgs[:2]...), []string{"eng"}, lim, 10); !errors.Is(err, ocr.ErrUnreadable) {
		t.Errorf("directories in a loop: %v, want ErrUnreadable", err)
	}
	cut := ocrtest.PagedTIFF(false, imgs[:2]...)
	if _, err := e.ReadImage(context.Background(), cut[:len(cut)/2+200], []string{"eng"}, lim, 10); !errors.Is(err, ocr.ErrUnreadable) {
		t.Errorf("cut short: %v, want ErrUnreadable", err)
	}
}

func TestParseTSV(t *testing.T) {
	tsv := "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n" +
		"1\t1\t0\t0\t0\t0\t0\t0\t100\t100\t-1\t\n" +
		"5\t1\t1\t1\t1\t1\t0\t0\t1\t1\t90\tAn\n" +
		"5\t1\t1\t1\t1\t2\t0\t0\t1\t1\t80\textrac-\n" +
		"5\t1\t1\t1\t2\t1\t0\t0\t1\t1\t70\ttion\n" +
		"5\t1\t1\t1\t2\t2\t0\t0\t1\t1\t60\twell-\n" +
		"5\t1\t1\t1\t3\t1\t0\t0\t1\t1\t100\tKnown\n" +
		"5\t1\t2\t1\t1\t1\t0\t0\t1\t1\t-1\t \n" +
		"5\t1\t2\t1\t1\t2\t0\t0\t1\t1\t50\tNext.\n"
	p := ocr.ParseTSV([]byte(tsv))
	if want := "An extraction well- Known\nNext."; p.Text != want || p.Words != 6 || p.Confidence != 0.75 {
		t.Errorf("%q, %d words, confidence %v; want %q, 6 words, 0.75", p.Text, p.Words, p.Confidence, want)
	}
	if p := ocr.ParseTSV(nil); p.Text != "" || p.Words != 0 || p.Confidence != 0 {
		t.Errorf("no words: %+v", p)
	}
}

// TestCaps: an image's size is checked from its header, before decoding,
// and a PDF page's resolution is lowered to fit the pixel cap, down to
// ocr.MinRenderDPI.
func TestCaps(t *testing.T) {
	for _, tc := range []struct {
		name string
		raw  []byte
		err  error
	}{
		{"100000×100000", ocrtest.BombPNG(100_000, 100_000), ocr.ErrTooLarge},
		{"side over the cap", ocrtest.BombPNG(ocr.MaxSide+1, 1), ocr.ErrTooLarge},
		{"within the caps", ocrtest.PNG(image.NewGray(image.Rect(0, 0, 10, 10))), nil},
		{"not an image", []byte("GIF89a"), ocr.ErrUnreadable},
		{"truncated header", []byte("\x89PNG\r\n\x1a\n\x00\x00"), ocr.ErrUnreadable},
	} {
		if _, _, _, err := ocr.Config(tc.raw); !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.err)
		}
	}
	for _, tc := range []struct {
		w, h float64
		dpi  int
		err  error
	}{
		{612, 792, ocr.RenderDPI, nil},
		{2448, 3168, 163, nil}, // 34 × 44 inches: 5,542 × 7,172 pixels
		{14400, 14400, 0, ocr.ErrTooLarge},
		{0, 792, 0, ocr.ErrUnreadable},
	} {
		dpi, err := ocr.PageDPI(tc.w, tc.h)
		if dpi != tc.dpi || !errors.Is(err, tc.err) {
			t.Errorf("%g × %g: %d dpi, %v; want %d, %v", tc.w, tc.h, dpi, err, tc.dpi, tc.err)
		}
		if err == nil && int64(tc.w*float64(dpi)/72)*int64(tc.h*float64(dpi)/72) > ocr.MaxPixels {
			t.Errorf("%g × %g at %d dpi is over the cap", tc.w, tc.h, dpi)
		}
	}
}

func TestPDFInfo(t *testing.T) {
	count, sizes := ocr.ParsePDFInfo([]byte("Producer: x\nPages:           3\nPage    2 size: 612 x 792 pts (letter)\nPage    2 rot:  0\nPage    3 size: 595.276 x 841.89 pts (A4)\n"))
	if count != 3 || sizes[2] != [2]float64{612, 792} || sizes[3] != [2]float64{595.276, 841.89} || len(sizes) != 2 {
		t.Errorf("%d pages, sizes %v", count, sizes)
	}
}

func TestLanguages(t *testing.T) {
	installed := []string{"deu", "eng", "fra"}
	if got, err := ocr.Check([]string{"de", "eng", "deu"}, installed); err != nil || !slices.Equal(got, []string{"deu", "eng"}) {
		t.Errorf("Check: %v, %v", got, err)
	}
	for _, bad := range [][]string{{"spa"}, {"x y"}, {"eng", "deu", "fra", "eng", "de"}} {
		if _, err := ocr.Check(bad, installed); err == nil {
			t.Errorf("ocr.Check(%q) accepted", bad)
		}
	}
	for _, tc := range []struct {
		requested []string
		detected  string
		want      []string
	}{
		{[]string{"fra"}, "de", []string{"fra"}},
		{nil, "de", []string{"deu"}},
		{nil, "es", []string{ocr.DefaultLanguage}}, // not installed
		{nil, "", []string{ocr.DefaultLanguage}},
	} {
		if got := ocr.Choose(tc.requested, tc.detected, installed); !slices.Equal(got, tc.want) {
			t.Errorf("ocr.Choose(%v, %q) = %v, want %v", tc.requested, tc.detected, got, tc.want)
		}
	}
	if got := ocr.ParseLanguages([]byte("List of available languages in \"/usr/share\" (3):\neng\nosd\ndeu\n")); !slices.Equal(got, []string{"deu", "eng"}) {
		t.Errorf("parseLanguages: %v", got)
	}
}

// TestGreyMap: transparent pixels go over white, and every layout gives
// the same greys.
func TestGreyMap(t *testing.T) {
	n := image.NewNRGBA(image.Rect(0, 0, 2, 1))
	n.Set(0, 0, color.NRGBA{0, 0, 0, 255}) // black
	n.Set(1, 0, color.NRGBA{0, 0, 0, 0})   // transparent
	r := image.NewRGBA(image.Rect(0, 0, 2, 1))
	r.Set(0, 0, color.RGBA{0, 0, 0, 255})
	p := image.NewPaletted(image.Rect(0, 0, 2, 1), color.Palette{color.Black, color.Transparent})
	p.SetColorIndex(1, 0, 1)
	for name, img := range map[string]image.Image{"nrgba": n, "rgba": r, "paletted": p} {
		g := ocr.GreyMap(img)
		if want := "P5\n2 1\n255\n\x00\xff"; string(g) != want {
			t.Errorf("%s: %q, want %q", name, g, want)
		}
	}
}
