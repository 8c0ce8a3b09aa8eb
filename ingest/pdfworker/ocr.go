package pdfworker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/pdftext"
	"github.com/digestd/digestd/lang"
)

// DefaultOCRDeadline is the wall-clock limit of one OCR reading (an image,
// or every page of a PDF it reads), when PoolConfig.OCRDeadline is zero:
// about ocr.DefaultMaxPages pages at 300 dpi, within the server's default
// write timeout.
const DefaultOCRDeadline = 90 * time.Second

// readOCR reads an image, or the pages of a PDF that need it, by OCR (in
// the worker). Every program it runs is limited as the worker is.
func readOCR(job ocrJob, raw []byte, readErr error, lim workerLimits) (ans answer) {
	what := "PDF"
	unreadable := CodeUnreadable
	if job.Image {
		what, unreadable = "image", CodeDocumentUnreadable
	}
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "ocr worker: panic: %v\n", r)
			ans = answer{Error: &Error{Code: unreadable, Msg: "the " + what + " could not be read"}}
		}
	}()
	switch {
	case readErr != nil:
		return answer{Error: &Error{Code: unreadable, Msg: "the " + what + " could not be read"}}
	case int64(len(raw)) > lim.MaxInputBytes:
		return answer{Error: &Error{Code: CodeTooLarge, Msg: fmt.Sprintf("the %s is larger than %d bytes", what, lim.MaxInputBytes)}}
	}
	eng := lim.OCR
	limits := ocr.Limits{MemoryBytes: lim.MemoryLimitBytes, CPUSeconds: lim.OCRSeconds}
	ctx := context.Background()
	if job.Image {
		langs := ocr.Choose(job.Languages, "", eng.Languages)
		pages, err := eng.ReadImage(ctx, raw, langs, limits, cmpOr(lim.MaxOCRPages, ocr.DefaultMaxPages))
		if err != nil {
			fmt.Fprintf(os.Stderr, "ocr worker: %v\n", err)
			return answer{Error: ocrError(err, what, unreadable)}
		}
		res := &pdftext.Result{}
		rep := &ocr.Report{Engine: eng.Name(), Languages: langs}
		for i, p := range pages {
			res.Pages = append(res.Pages, p.Text)
			if p.Text == "" {
				res.EmptyPages = append(res.EmptyPages, i+1)
			}
			rep.Pages = append(rep.Pages, i+1)
			rep.Confidence = append(rep.Confidence, p.Confidence)
		}
		return answer{Result: res, OCR: rep}
	}
	langs := ocr.Choose(job.Languages, job.Detected, eng.Languages)
	count, read, err := eng.ReadPDF(ctx, raw, job.Pages, cmpOr(lim.MaxOCRPages, ocr.DefaultMaxPages), langs, limits)
	if err != nil {
		fmt.Fprintf(os.Stderr, "ocr worker: %v\n", err)
		return answer{Error: ocrError(err, what, unreadable)}
	}
	if lim.MaxPages > 0 && count > lim.MaxPages {
		count = lim.MaxPages
	}
	res := &pdftext.Result{Pages: make([]string, count)}
	rep := &ocr.Report{Engine: eng.Name(), Languages: langs}
	for _, p := range read {
		if p.Number <= len(res.Pages) {
			res.Pages[p.Number-1] = p.Text
			rep.Pages = append(rep.Pages, p.Number)
			rep.Confidence = append(rep.Confidence, p.Confidence)
		}
	}
	return answer{Result: res, OCR: rep}
}

// cmpOr returns a when it is positive, else b.
func cmpOr(a, b int) int {
	if a > 0 {
		return a
	}
	return b
}

// ocrError maps an OCR error to the error clients see.
func ocrError(err error, what string, unreadable fault.Code) *Error {
	switch {
	case errors.Is(err, ocr.ErrTooLarge):
		msg := strings.Replace(err.Error(), ocr.ErrTooLarge.Error()+": ", "", 1)
		return &Error{Code: CodeTooLarge, Msg: "the " + what + " is over the OCR limits: " + msg}
	case errors.Is(err, ocr.ErrNotInstalled):
		return &Error{Code: CodeFeatureDisabled, Msg: "OCR is not installed on this server (" + ocr.Install + ")"}
	}
	return &Error{Code: unreadable, Msg: "the " + what + " could not be read by OCR; check that the file is complete and valid"}
}

// OCR reads an image (image set) or a PDF by OCR in a fresh worker
// process, under the pool's memory limit and OCRDeadline. A PDF's pages
// with text keep it unless req.Always; the Report is nil when no page
// needed OCR. An image over the pixel caps is TOO_LARGE from its header
// alone, before a worker starts. Failures are *Error values: CodeTooLarge,
// CodeFeatureDisabled (no engine), the codes of Extract for a PDF, and
// CodeDocumentUnreadable for an image.
func (p *Pool) OCR(ctx context.Context, image bool, raw []byte, req ocr.Request) (*pdftext.Result, *ocr.Report, error) {
	res, rep, err := p.readOCR(ctx, image, raw, req)
	var e *Error
	switch {
	case err == nil:
		p.count(OutcomeOK)
	case errors.As(err, &e):
		p.count(e.Code)
	}
	return res, rep, err
}

func (p *Pool) readOCR(ctx context.Context, image bool, raw []byte, req ocr.Request) (*pdftext.Result, *ocr.Report, error) {
	j := pdfJob
	if image {
		j = imageJob
	}
	switch {
	case p.cfg.OCR == nil || !image && !p.cfg.OCR.ReadsPDF():
		return nil, nil, &Error{Code: CodeFeatureDisabled, Msg: "OCR is not installed on this server (" + ocr.Install + ")"}
	case int64(len(raw)) > p.cfg.MaxInputBytes:
		return nil, nil, &Error{Code: CodeTooLarge, Msg: fmt.Sprintf("the %s is larger than %d bytes", j.what, p.cfg.MaxInputBytes)}
	}
	var text *pdftext.Result
	if image {
		if _, _, _, err := ocr.Config(raw); err != nil {
			return nil, nil, ocrError(err, j.what, j.unreadable)
		}
	} else if !req.Always {
		// The text layer first, under the PDF deadline; OCR then reads the
		// pages it left empty.
		var err error
		text, err = p.extract(ctx, raw)
		switch {
		case errors.Is(err, &Error{Code: CodeNoText}):
			text = nil
		case err != nil:
			return nil, nil, err
		default:
			req.Pages = unusablePages(text)
			if len(req.Pages) == 0 {
				return text, nil, nil
			}
			if d := lang.Detect(strings.Join(text.Pages, "\n")); d.Confidence >= lang.MinConfidence {
				req.Detected = d.Language
			}
		}
	} else if !bytes.Contains(raw[:min(len(raw), 1024)], []byte("%PDF-")) {
		return nil, nil, &Error{Code: CodeInvalidFormat, Msg: "the input is not a PDF"}
	}
	release, err := p.acquire(ctx)
	if err != nil {
		return nil, nil, err
	}
	defer release()
	b, err := json.Marshal(ocrJob{Image: image, Request: req})
	if err != nil {
		return nil, nil, err
	}
	j.env = OCREnv + "=" + string(b)
	j.deadline = p.cfg.OCRDeadline
	j.known = append(slices.Clone(j.known), CodeFeatureDisabled)
	ans, err := p.run(ctx, raw, j)
	if err != nil {
		return nil, nil, err
	}
	if ans.Result == nil || ans.OCR == nil {
		return nil, nil, &Error{Code: j.unreadable, Msg: "the " + j.what + " could not be read"}
	}
	res, rep := merge(text, ans.Result, ans.OCR)
	if !image && len(res.EmptyPages) == len(res.Pages) {
		return nil, nil, &Error{Code: CodeNoText, Msg: "the PDF has no text, and OCR read none on its pages"}
	}
	return res, rep, nil
}

// unusablePages lists the 1-based pages whose text layer OCR should
// replace: those without one, those whose fonts map to nothing, and those
// whose layer is not text (ocr.UnusableLayer).
func unusablePages(text *pdftext.Result) []int {
	pages := append(slices.Clone(text.EmptyPages), text.UnmappedPages...)
	for i, p := range text.Pages {
		if ocr.UnusableLayer(p) {
			pages = append(pages, i+1)
		}
	}
	return slices.Compact(slices.Sorted(slices.Values(pages)))
}

// merge puts the pages OCR read into the text layer's result (nil when the
// PDF had none), and lists the pages left empty.
func merge(text, read *pdftext.Result, rep *ocr.Report) (*pdftext.Result, *ocr.Report) {
	res := read
	if text != nil {
		res = text
		if len(rep.Pages) > 0 {
			// The text layer's spans lie over pages OCR now replaces.
			res.Spans = nil
		}
		for _, n := range rep.Pages {
			if n <= len(res.Pages) {
				res.Pages[n-1] = read.Pages[n-1]
			}
			res.UnmappedPages = slices.DeleteFunc(res.UnmappedPages, func(u int) bool { return u == n })
		}
	}
	res.EmptyPages = nil
	for i, t := range res.Pages {
		if strings.TrimSpace(t) == "" {
			res.EmptyPages = append(res.EmptyPages, i+1)
		}
	}
	return res, rep
}
