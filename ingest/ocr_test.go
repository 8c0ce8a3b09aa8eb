package ingest

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/ocr"
)

// fakeOCR reads every source as the pages it holds, and records what it
// was asked.
type fakeOCR struct {
	pages []string
	conf  []float64
	asked *ocr.Request
}

func (f fakeOCR) ReadOCR(_ context.Context, image bool, _ []byte, req ocr.Request) (*PDFText, *ocr.Report, error) {
	*f.asked = req
	rep := &ocr.Report{Engine: "tesseract 5.3.0", Languages: []string{"eng"}, Confidence: f.conf}
	for i := range f.pages {
		rep.Pages = append(rep.Pages, i+1)
	}
	return &PDFText{Pages: f.pages}, rep, nil
}

func (fakeOCR) Languages() []string { return []string{"deu", "eng"} }

// textPDF is a PDF extractor that must not be called.
type textPDF struct{ t *testing.T }

func (p textPDF) Extract(context.Context, []byte) (*PDFText, error) {
	p.t.Error("the text layer was read where OCR should have been")
	return nil, fault.E(fault.NoExtractableText, "none")
}

// TestOCRSources: an image and a scanned PDF become pages whose record says
// what OCR read, a page under the confidence floor is named in a warning,
// the languages are checked against the installed packs, and the modes
// refuse what they must.
func TestOCRSources(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	var asked ocr.Request
	in := &Ingester{PDF: textPDF{t}, OCR: fakeOCR{pages: []string{"A page read by OCR."}, conf: []float64{0.91}, asked: &asked}}
	doc, err := in.Ingest(context.Background(), Source{File: png, OCRLanguages: []string{"de"}})
	if err != nil {
		t.Fatal(err)
	}
	r := doc.Record
	if r.Kind != KindImage || r.PageCount != 1 || !slices.Equal(r.OCRPages, []int{1}) || r.OCREngine != "tesseract 5.3.0" || r.OCRConfidence != 0.91 || len(doc.Warnings) != 0 {
		t.Errorf("image record %+v, warnings %v", r, doc.Warnings)
	}
	if !slices.Equal(asked.Languages, []string{"deu"}) {
		t.Errorf("asked for %v, want deu (de's pack)", asked.Languages)
	}

	in.OCR = fakeOCR{pages: []string{"First page.", "Second, misread page."}, conf: []float64{0.9, 0.41}, asked: &asked}
	doc, err = in.Ingest(context.Background(), Source{PDF: []byte("%PDF-1.4"), OCR: OCRAlways})
	if err != nil {
		t.Fatal(err)
	}
	if !asked.Always || doc.Record.Kind != KindPDF || doc.Record.PageCount != 2 || doc.Text.String() != "First page.\fSecond, misread page." {
		t.Errorf("scanned PDF: asked %+v, record %+v, text %q", asked, doc.Record, doc.Text.String())
	}
	if len(doc.Warnings) != 1 || doc.Warnings[0].Code != fault.OCRLowConfidence || !strings.Contains(doc.Warnings[0].Message, "page(s) 2 ") {
		t.Errorf("warnings %+v, want OCR_LOW_CONFIDENCE naming page 2", doc.Warnings)
	}

	for _, tc := range []struct {
		name string
		in   *Ingester
		src  Source
		want fault.Code
	}{
		{"a language not installed", in, Source{File: png, OCRLanguages: []string{"fra"}}, fault.ValidationError},
		{"too many languages", in, Source{File: png, OCRLanguages: []string{"eng", "deu", "en", "de", "eng"}}, fault.ValidationError},
		{"an unknown mode", in, Source{File: png, OCR: "sometimes"}, fault.ValidationError},
		{"an image with ocr never", in, Source{File: png, OCR: OCRNever}, fault.NoExtractableText},
		{"an image without an engine", &Ingester{}, Source{File: png}, fault.FeatureDisabled},
		{"always without an engine", &Ingester{PDF: textPDF{t}}, Source{PDF: []byte("%PDF-1.4"), OCR: OCRAlways}, fault.FeatureDisabled},
	} {
		if _, err := tc.in.Ingest(context.Background(), tc.src); fault.CodeOf(err) != tc.want {
			t.Errorf("%s: %v, want %s", tc.name, err, tc.want)
		}
	}
}
