package ingest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/pdfworker"
	"github.com/digestd/digestd/normalize"
)

// The values of Source.OCR.
const (
	// OCRNever reads PDFs by their text layer alone; an image is then
	// NO_EXTRACTABLE_TEXT.
	OCRNever = "never"
	// OCRAuto (the default) reads by OCR the PDF pages without a usable
	// text layer (no text, or glyphs that map to nothing), and images.
	OCRAuto = "auto"
	// OCRAlways reads every page of a PDF by OCR.
	OCRAlways = "always"
)

// OCRModes are the values Source.OCR takes, the default first.
var OCRModes = []string{OCRAuto, OCRNever, OCRAlways}

// OCRReader reads images and PDF pages by OCR where hostile files cannot
// hurt the caller (a pdfworker.Pool with an engine). Its errors are fault
// errors.
type OCRReader interface {
	// ReadOCR reads an image (image set) or a PDF; the report is nil when
	// no page of a PDF needed OCR.
	ReadOCR(ctx context.Context, image bool, raw []byte, req ocr.Request) (*PDFText, *ocr.Report, error)
	// Languages lists the installed language packs.
	Languages() []string
}

// ocrOptions are a source's OCR mode and checked language packs.
type ocrOptions struct {
	mode  string
	langs []string
}

// ocrOptionsOf checks a source's OCR mode and languages; the languages
// are checked against the installed packs when the server reads by OCR.
func (in *Ingester) ocrOptionsOf(src Source) (ocrOptions, error) {
	o := ocrOptions{mode: src.OCR}
	if o.mode == "" {
		o.mode = OCRAuto
	}
	if !slices.Contains(OCRModes, o.mode) {
		return o, fault.E(fault.ValidationError, "source.ocr: must be one of "+strings.Join(OCRModes, ", ")).With("field", "source.ocr")
	}
	if len(src.OCRLanguages) > 0 && in.OCR != nil {
		langs, err := ocr.Check(src.OCRLanguages, in.OCR.Languages())
		if err != nil {
			return o, fault.Wrap(fault.ValidationError, "source.ocr_languages: "+err.Error(), err).
				With("field", "source.ocr_languages").With("installed", in.OCR.Languages())
		}
		o.langs = langs
	}
	return o, nil
}

// ocrDisabled is the error of a source that needs OCR on a server without
// an engine.
func ocrDisabled() error {
	return fault.E(fault.FeatureDisabled, "OCR (images, and scanned PDF pages with ocr: always) is not enabled on this server: install Tesseract ("+ocr.Install+") and restart digestd")
}

// image reads an image by OCR: one page, or a TIFF's pages.
func (in *Ingester) image(ctx context.Context, raw []byte, rec Record, o ocrOptions) (*Document, error) {
	switch {
	case o.mode == OCRNever:
		return nil, fault.E(fault.NoExtractableText, "an image's text is read only by OCR, which the source's ocr: never refuses")
	case in.OCR == nil:
		return nil, ocrDisabled()
	}
	res, rep, err := in.OCR.ReadOCR(ctx, true, raw, ocr.Request{Languages: o.langs})
	if err != nil {
		return nil, err
	}
	text := normalize.Pages(res.Pages)
	rec.Kind = KindImage
	rec.Extractor, rec.ExtractorVersion = ocr.EngineName, strings.TrimPrefix(rep.Engine, ocr.EngineName+" ")
	rec.PageCount = len(res.Pages)
	rec.EmptyPages = res.EmptyPages
	rec.PageOffsets = normalize.IndexPages(text).Starts()
	warns := ocrRecord(&rec, rep)
	return in.finish(text, raw, rec, warns)
}

// ocrRecord writes what OCR read into a record and returns the warning
// of pages read under the confidence floor, if any.
func ocrRecord(rec *Record, rep *ocr.Report) []Warning {
	if rep == nil || len(rep.Pages) == 0 {
		return nil
	}
	rec.OCRPages = rep.Pages
	rec.OCREngine = rep.Engine
	rec.OCRLanguages = rep.Languages
	rec.OCRConfidence = rep.Mean()
	low := rep.LowConfidence()
	if len(low) == 0 {
		return nil
	}
	names := make([]string, len(low))
	for i, p := range low {
		names[i] = fmt.Sprint(p)
	}
	return []Warning{{
		Code: fault.OCRLowConfidence,
		Message: fmt.Sprintf("OCR read page(s) %s with a mean word confidence under %.2f; their text may hold misread words (record.ocr_pages)",
			strings.Join(names, ", "), ocr.ConfidenceFloor),
	}}
}

// PoolOCR reads by OCR in the isolated worker processes of a
// pdfworker.Pool started with an engine.
type PoolOCR struct {
	Pool   *pdfworker.Pool
	Engine *ocr.Engine
}

// ReadOCR implements OCRReader.
func (p PoolOCR) ReadOCR(ctx context.Context, image bool, raw []byte, req ocr.Request) (*PDFText, *ocr.Report, error) {
	res, rep, err := p.Pool.OCR(ctx, image, raw, req)
	if err != nil {
		var we *pdfworker.Error
		if !errors.As(err, &we) {
			return nil, nil, fault.Wrap(fault.DocumentUnreadable, "the source could not be read by OCR", err)
		}
		f := fault.Wrap(we.Code, we.Msg, err)
		if we.RetryAfter > 0 {
			f.With("retry_after", int((we.RetryAfter+time.Second-1)/time.Second))
		}
		return nil, nil, f
	}
	return pdfText(res), rep, nil
}

// Languages implements OCRReader.
func (p PoolOCR) Languages() []string { return p.Engine.Languages }
