package pdfworker

import (
	"context"
	"os"
	"path/filepath"
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
		"many_entries.docx": "TOO_LARGE", "broken_workbook.xlsx": "DOCUMENT_UNREADABLE",
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
