package doctext_test

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/format"
)

// FuzzExtract holds Extract to its contract on any bytes of every document
// kind but XLSX: no panic, an error that wraps one of the package's errors, or at
// least one page and no more text than the cap.
func FuzzExtract(f *testing.F) {
	for i, c := range devCases {
		raw, err := os.ReadFile(filepath.Join(devset, c.File))
		if err != nil {
			f.Fatal(err)
		}
		f.Add(uint8(i), raw)
	}
	f.Add(uint8(0), []byte("PK\x03\x04"))
	// Pictures, charts, comments, numbering and equations (objects_test.go,
	// worddetails_test.go); indexes into format.Documents.
	kindIndex := func(kind string) uint8 { return uint8(slices.Index(format.Documents, kind)) }
	f.Add(kindIndex(format.DOCX), objectsDOCX())
	f.Add(kindIndex(format.PPTX), objectsPPTX())
	f.Add(kindIndex(format.DOCX), wordDOCX(`<w:p><w:pPr><w:pStyle w:val="H"/></w:pPr><m:oMath><m:f><m:num><m:r><m:t>a</m:t></m:r></m:num><m:den><m:sSup><m:e><m:r><m:t>b</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:den></m:f></m:oMath></w:p>`,
		`<w:abstractNum w:abstractNumId="0">`+level("0", "1", "upperRoman", "%1.", "")+`</w:abstractNum><w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>`,
		`<w:style w:type="paragraph" w:styleId="H"><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>`))
	lim := doctext.Limits{MaxChars: 1 << 20, MaxUnpackedBytes: 8 << 20, Timeout: 2 * time.Second}
	f.Fuzz(func(t *testing.T, k uint8, raw []byte) {
		kind := format.Documents[int(k)%len(format.Documents)]
		if kind == format.XLSX {
			// excelize's own parser, fuzzed upstream, is slow under the
			// fuzzer's instrumentation; the container checks before it are
			// the docx ones.
			kind = format.DOCX
		}
		res, err := doctext.Extract(kind, raw, lim)
		if err != nil {
			for _, e := range []error{doctext.ErrUnsupported, doctext.ErrEncrypted, doctext.ErrUnreadable, doctext.ErrTooLarge, doctext.ErrTimeout} {
				if errors.Is(err, e) {
					return
				}
			}
			t.Fatalf("%s: untyped error %v", kind, err)
		}
		n := 0
		for _, p := range res.Pages {
			n += len(p)
		}
		if len(res.Pages) == 0 || n > 2*lim.MaxChars {
			t.Fatalf("%s: %d pages, %d bytes of text", kind, len(res.Pages), n)
		}
	})
}
