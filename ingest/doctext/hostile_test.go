package doctext_test

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/doctext/doctexttest"
	"github.com/digestd/digestd/ingest/format"
)

// Every hostile container is refused with its typed error, quickly, under
// the default limits.
func TestHostileContainers(t *testing.T) {
	want := map[string]error{
		"zip_bomb.docx":        doctext.ErrTooLarge,
		"deep_xml.docx":        doctext.ErrTooLarge,
		"billion_laughs.docx":  doctext.ErrUnreadable,
		"external_entity.docx": doctext.ErrUnreadable,
		"truncated.docx":       doctext.ErrUnreadable,
		"encrypted.docx":       doctext.ErrEncrypted,
		"encrypted.odt":        doctext.ErrEncrypted,
		"encrypted.epub":       doctext.ErrEncrypted,
		"repeated_rows.ods":    nil, // read, with repeats bounded
		"many_entries.docx":    doctext.ErrTooLarge,
		"broken_workbook.xlsx": doctext.ErrUnreadable,
	}
	hostile := doctexttest.Hostile()
	if len(hostile) != len(want) {
		t.Fatalf("%d hostile files, %d expectations", len(hostile), len(want))
	}
	for name, raw := range hostile {
		t.Run(name, func(t *testing.T) {
			kind := format.Detect("", name, raw)
			if kind == "" {
				t.Fatalf("Detect found no kind")
			}
			start := time.Now()
			res, err := doctext.Extract(kind, raw, doctext.Limits{})
			if el := time.Since(start); el > 10*time.Second {
				t.Errorf("took %s", el)
			}
			switch w := want[name]; {
			case w == nil && err != nil:
				t.Fatalf("Extract: %v", err)
			case w == nil:
				n := 0
				for _, p := range res.Pages {
					n += len(p)
				}
				if n > 16<<20 {
					t.Errorf("%d bytes of text from a tiny file", n)
				}
			case !errors.Is(err, w):
				t.Errorf("Extract error %v, want %v", err, w)
			}
		})
	}
}

// A conversion past its deadline stops with ErrTimeout; one past the
// token cap with ErrTooLarge.
func TestLimits(t *testing.T) {
	paras := strings.Repeat(doctexttest.Paragraph("word"), 20000)
	raw := doctexttest.DOCX(doctexttest.S(doctexttest.DocumentXML(paras)))
	if _, err := doctext.Extract(format.DOCX, raw, doctext.Limits{Timeout: time.Nanosecond}); !errors.Is(err, doctext.ErrTimeout) {
		t.Errorf("tiny timeout: %v, want ErrTimeout", err)
	}
	if _, err := doctext.Extract(format.DOCX, raw, doctext.Limits{MaxXMLTokens: 1000}); !errors.Is(err, doctext.ErrTooLarge) {
		t.Errorf("token cap: %v, want ErrTooLarge", err)
	}
	if _, err := doctext.Extract(format.DOCX, raw, doctext.Limits{MaxChars: 1000}); !errors.Is(err, doctext.ErrTooLarge) {
		t.Errorf("char cap: %v, want ErrTooLarge", err)
	}
	if _, err := doctext.Extract(format.DOCX, raw, doctext.Limits{}); err != nil {
		t.Errorf("default limits: %v", err)
	}
	if _, err := doctext.Extract(format.PDF, raw, doctext.Limits{}); !errors.Is(err, doctext.ErrUnsupported) {
		t.Errorf("kind pdf: %v, want ErrUnsupported", err)
	}
}
