package pdfworker

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/doctext/doctexttest"
	"github.com/digestd/digestd/ingest/format"
)

// A worker converts a document of each kind, and answers every hostile
// container with a typed error of the document codes.
func TestPoolConvertsDocuments(t *testing.T) {
	p := testPool(t, PoolConfig{Workers: 2, Deadline: 10 * time.Second})
	raw, err := os.ReadFile(filepath.Join("..", "doctext", "testdata", "devset", "slides.pptx"))
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.ExtractDocument(context.Background(), format.PPTX, raw, false)
	if err != nil {
		t.Fatalf("ExtractDocument: %v", err)
	}
	if len(res.Pages) != 4 || !res.Paginated || res.PageNames[2] != "Margins by product line" {
		t.Errorf("result = %+v", res)
	}
	want := map[string]string{
		"zip_bomb.docx": "TOO_LARGE", "deep_xml.docx": "TOO_LARGE", "billion_laughs.docx": "DOCUMENT_UNREADABLE",
		"external_entity.docx": "DOCUMENT_UNREADABLE", "truncated.docx": "DOCUMENT_UNREADABLE", "encrypted.docx": "DOCUMENT_ENCRYPTED",
		"encrypted.odt": "DOCUMENT_ENCRYPTED", "encrypted.epub": "DOCUMENT_ENCRYPTED", "repeated_rows.ods": "OK",
		"many_entries.docx": "TOO_LARGE", "bare_markup.docx": "TOO_LARGE", "broken_workbook.xlsx": "DOCUMENT_UNREADABLE",
	}
	for name, raw := range doctexttest.Hostile() {
		_, err := p.ExtractDocument(context.Background(), format.KindOfName(name), raw, false)
		got := "OK"
		if err != nil {
			got = string(codeOf(err))
		}
		if got != want[name] {
			t.Errorf("%s: %s (%v), want %s", name, got, err, want[name])
		}
	}
	// A worker that dies answers DOCUMENT_UNREADABLE, not a PDF code.
	dead := shellPool(t, "exit 3", PoolConfig{})
	if _, err := dead.ExtractDocument(context.Background(), format.DOCX, raw, false); codeOf(err) != CodeDocumentUnreadable {
		t.Errorf("dead worker: %v", err)
	}
	slow := shellPool(t, "sleep 5", PoolConfig{Deadline: 200 * time.Millisecond})
	if _, err := slow.ExtractDocument(context.Background(), format.DOCX, raw, false); codeOf(err) != CodeDocumentUnreadable {
		t.Errorf("slow worker: %v", err)
	}
}

// A document over a cap answers TOO_LARGE once, naming the cap and its
// value (the text's with its flag, --max-text-chars), and the failure is
// logged as a document worker's, with the document's kind.
func TestDocumentCapNamed(t *testing.T) {
	var logs bytes.Buffer
	p := testPool(t, PoolConfig{Workers: 1, Deadline: 20 * time.Second, MaxChars: 100,
		Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	long := doctexttest.DOCX(doctexttest.S(doctexttest.DocumentXML(strings.Repeat(doctexttest.Paragraph("a sentence of words"), 50))))
	tests := []struct {
		name, kind string
		raw        []byte
		msg        string
	}{
		{"bare markup", format.DOCX, doctexttest.BareMarkup(), "more than 1048576 XML tokens of markup beyond its text's allowance, a fixed limit"},
		{"text", format.DOCX, long, "longer than --max-text-chars allows (100 code points)"},
		{"text of a book", format.EPUB, doctexttest.EPUB(doctexttest.Book{Chapters: []string{strings.Repeat("<p>a sentence of words</p>", 50)}}), "--max-text-chars"},
	}
	for _, tt := range tests {
		logs.Reset()
		_, err := p.ExtractDocument(context.Background(), tt.kind, tt.raw, false)
		var e *Error
		if !errors.As(err, &e) || e.Code != CodeTooLarge {
			t.Fatalf("%s: %v, want TOO_LARGE", tt.name, err)
		}
		if s := err.Error(); strings.Count(s, "TOO_LARGE") != 1 || !strings.Contains(s, tt.msg) {
			t.Errorf("%s: error %q, want TOO_LARGE once and %q", tt.name, s, tt.msg)
		}
		if l := logs.String(); !strings.Contains(l, `msg="document worker failed" kind=`+tt.kind+" code=TOO_LARGE") {
			t.Errorf("%s: log %q", tt.name, l)
		}
	}
}
