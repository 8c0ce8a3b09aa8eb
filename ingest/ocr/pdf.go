package ocr

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// PDFPage is one page of a PDF read by OCR.
type PDFPage struct {
	Page
	// Number is the 1-based page number.
	Number int `json:"number"`
	// DPI is the resolution the page was rendered at.
	DPI int `json:"dpi"`
}

// ReadPDF renders the given 1-based pages of a PDF (every page when pages
// is nil) and reads each by OCR in the given language packs. A PDF with
// more pages to read than maxPages, or a page too large to render at
// MinRenderDPI within MaxPixels, is ErrTooLarge before anything is
// rendered. It returns the document's page count and the pages read.
func (e *Engine) ReadPDF(ctx context.Context, pdf []byte, pages []int, maxPages int, langs []string, lim Limits) (int, []PDFPage, error) {
	if !e.ReadsPDF() {
		return 0, nil, fmt.Errorf("%w (poppler-utils' pdftoppm and pdfinfo)", ErrNotInstalled)
	}
	dir, done, err := tempDir()
	if err != nil {
		return 0, nil, err
	}
	defer done()
	if err := os.WriteFile(filepath.Join(dir, "in.pdf"), pdf, 0o600); err != nil {
		return 0, nil, err
	}
	out, err := e.run(ctx, lim, dir, e.PDFInfo, "in.pdf")
	if err != nil {
		return 0, nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	count, _ := parsePDFInfo(out)
	if pages == nil {
		for n := 1; n <= count; n++ {
			pages = append(pages, n)
		}
	}
	pages = slices.DeleteFunc(slices.Clone(pages), func(n int) bool { return n < 1 || n > count })
	if len(pages) > maxPages {
		return count, nil, fmt.Errorf("%w: %d pages to read by OCR (at most %d)", ErrTooLarge, len(pages), maxPages)
	}
	if len(pages) == 0 {
		return count, nil, nil
	}
	out, err = e.run(ctx, lim, dir, e.PDFInfo, "-f", strconv.Itoa(pages[0]), "-l", strconv.Itoa(pages[len(pages)-1]), "in.pdf")
	if err != nil {
		return count, nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	_, sizes := parsePDFInfo(out)
	dpis := make([]int, len(pages))
	for i, n := range pages {
		sz, ok := sizes[n]
		if !ok {
			return count, nil, fmt.Errorf("%w: page %d has no size", ErrUnreadable, n)
		}
		if dpis[i], err = renderDPI(sz[0], sz[1]); err != nil {
			return count, nil, fmt.Errorf("page %d: %w", n, err)
		}
	}
	read := make([]PDFPage, 0, len(pages))
	for i, n := range pages {
		num := strconv.Itoa(n)
		if _, err := e.run(ctx, lim, dir, e.PDFToPPM, "-f", num, "-l", num, "-r", strconv.Itoa(dpis[i]), "-gray", "-singlefile", "in.pdf", "page"); err != nil {
			return count, nil, fmt.Errorf("%w: render page %d: %v", ErrUnreadable, n, err)
		}
		p, err := e.recognize(ctx, dir, "page.pgm", dpis[i], langs, lim)
		if err != nil {
			return count, nil, fmt.Errorf("page %d: %w", n, err)
		}
		os.Remove(filepath.Join(dir, "page.pgm"))
		read = append(read, PDFPage{Page: *p, Number: n, DPI: dpis[i]})
	}
	return count, read, nil
}

// renderDPI returns the resolution a page of w×h points is rendered at:
// RenderDPI, or the highest that keeps it within MaxPixels and MaxSide,
// not under MinRenderDPI (ErrTooLarge).
func renderDPI(w, h float64) (int, error) {
	if w <= 0 || h <= 0 || math.IsInf(w, 0) || math.IsInf(h, 0) {
		return 0, fmt.Errorf("%w: a page of %g × %g points", ErrUnreadable, w, h)
	}
	dpi := float64(RenderDPI)
	dpi = min(dpi, math.Sqrt(MaxPixels/(w*h))*72, MaxSide*72/max(w, h))
	if dpi < MinRenderDPI {
		return 0, fmt.Errorf("%w: a page of %.0f × %.0f points is over %d pixels at %d dpi", ErrTooLarge, w, h, MaxPixels, MinRenderDPI)
	}
	return int(dpi), nil
}

// parsePDFInfo reads pdfinfo's page count and the sizes, in points, of the
// pages it lists ("Page    2 size: 612 x 792 pts (letter)").
func parsePDFInfo(out []byte) (int, map[int][2]float64) {
	count := 0
	sizes := map[int][2]float64{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		l := sc.Text()
		if rest, ok := strings.CutPrefix(l, "Pages:"); ok {
			count, _ = strconv.Atoi(strings.TrimSpace(rest))
			continue
		}
		f := strings.Fields(l)
		// Page N size: W x H pts ...
		if len(f) >= 7 && f[0] == "Page" && f[2] == "size:" && f[4] == "x" {
			n, err1 := strconv.Atoi(f[1])
			w, err2 := strconv.ParseFloat(f[3], 64)
			h, err3 := strconv.ParseFloat(f[5], 64)
			if err1 == nil && err2 == nil && err3 == nil {
				sizes[n] = [2]float64{w, h}
			}
		}
	}
	return count, sizes
}
