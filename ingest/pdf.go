package ingest

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/pdftext"
	"github.com/digestd/digestd/ingest/pdfworker"
	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/structure"
)

// PDFExtractor extracts a PDF's text where hostile files cannot hurt the
// caller (ingest/pdfworker's Pool).
type PDFExtractor interface {
	Extract(ctx context.Context, pdf []byte) (*PDFText, error)
}

// PDFText is what a PDF extractor returns.
type PDFText struct {
	// Pages holds each page's text, blocks separated by "\n".
	Pages                     []string
	Title, Author             string
	EmptyPages, UnmappedPages []int
	Extractor, Version        string
	// Spans is the structure of the pages' text, in byte offsets of Pages
	// joined by normalize.PageSeparator.
	Spans []structure.Span
}

// pdf extracts a PDF's pages and joins them with the page separator; the
// pages without a usable text layer are read by OCR when o asks for it
// and the server has an engine.
func (in *Ingester) pdf(ctx context.Context, raw []byte, rec Record, o ocrOptions) (*Document, error) {
	switch {
	case in.PDF == nil:
		return nil, fault.E(fault.FeatureDisabled, "PDF sources are not enabled on this server")
	case o.mode == OCRAlways && in.OCR == nil:
		return nil, ocrDisabled()
	case o.mode != OCRNever && in.OCR != nil:
		res, rep, err := in.OCR.ReadOCR(ctx, false, raw, ocr.Request{Always: o.mode == OCRAlways, Languages: o.langs})
		if err != nil {
			return nil, err
		}
		return in.finishPDF(raw, rec, res, rep)
	}
	res, err := in.PDF.Extract(ctx, raw)
	if err != nil {
		return nil, err
	}
	return in.finishPDF(raw, rec, res, nil)
}

// finishPDF builds the canonical text of a PDF's pages and its record,
// with what OCR read (rep, nil when it read nothing).
func (in *Ingester) finishPDF(raw []byte, rec Record, res *PDFText, rep *ocr.Report) (*Document, error) {
	text := normalize.Pages(res.Pages)
	rec.Kind = KindPDF
	rec.Extractor = res.Extractor
	rec.ExtractorVersion = res.Version
	rec.Title = res.Title
	rec.Author = res.Author
	rec.PageCount = len(res.Pages)
	rec.EmptyPages = res.EmptyPages
	rec.UnmappedPages = res.UnmappedPages
	rec.PageOffsets = normalize.IndexPages(text).Starts()
	warns := ocrRecord(&rec, rep)
	if len(res.UnmappedPages) > 0 {
		warns = append(warns, Warning{
			Code:    fault.UnmappedGlyphs,
			Message: fmt.Sprintf("%d page(s) use fonts whose glyphs cannot be mapped to Unicode; their text was left out (see record.unmapped_pages)", len(res.UnmappedPages)),
		})
	}
	d, err := in.finish(text, raw, rec, warns)
	if err != nil {
		return nil, err
	}
	d.structured(strings.Join(res.Pages, string(normalize.PageSeparator)), res.Spans, "")
	return d, nil
}

// PoolExtractor extracts PDFs in the isolated worker processes of a
// pdfworker.Pool. Its failures are fault errors with the pool's codes, and a
// busy pool's error carries retry_after.
type PoolExtractor struct{ Pool *pdfworker.Pool }

// Extract implements PDFExtractor.
func (p PoolExtractor) Extract(ctx context.Context, pdf []byte) (*PDFText, error) {
	res, err := p.Pool.Extract(ctx, pdf)
	if err != nil {
		var we *pdfworker.Error
		if !errors.As(err, &we) {
			return nil, fault.Wrap(fault.PDFUnreadable, "the PDF could not be parsed", err)
		}
		f := fault.Wrap(we.Code, we.Msg, err)
		if we.RetryAfter > 0 {
			f.With("retry_after", int((we.RetryAfter+time.Second-1)/time.Second))
		}
		return nil, f
	}
	return pdfText(res), nil
}

// pdfText is what a worker extracted, as an extractor returns it.
func pdfText(res *pdftext.Result) *PDFText {
	return &PDFText{
		Pages:         res.Pages,
		Title:         res.Title,
		Author:        res.Author,
		EmptyPages:    res.EmptyPages,
		UnmappedPages: res.UnmappedPages,
		Spans:         res.Spans,
		Extractor:     pdftext.ExtractorName,
		Version:       pdftext.ExtractorVersion,
	}
}
