package ingest

import (
	"context"
	"strings"
	"testing"

	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/structure"
)

// spannedPDF is a PDF extractor that returns its pages and spans.
type spannedPDF struct {
	pages []string
	spans []structure.Span
}

func (p spannedPDF) Extract(context.Context, []byte) (*PDFText, error) {
	return &PDFText{Pages: p.pages, Spans: p.spans}, nil
}

// TestPDFStructure: a PDF's heading spans, over its pages as extracted,
// are archived beside its canonical text at their canonical places, on
// whichever page they lie.
func TestPDFStructure(t *testing.T) {
	pages := []string{"Title\n  body   text here", "2  Results\nmore body"}
	raw := strings.Join(pages, string(normalize.PageSeparator))
	at := func(s string, from int) structure.Span {
		i := from + strings.Index(raw[from:], s)
		return structure.Span{Kind: structure.Heading, Start: i, End: i + len(s), Level: 1}
	}
	spans := []structure.Span{at("Title", 0), at("2  Results", len(pages[0]))}
	spans[1].Level = 2
	in := &Ingester{PDF: spannedPDF{pages, spans}}
	doc, err := in.Ingest(context.Background(), Source{PDF: []byte("%PDF-1.4")})
	if err != nil {
		t.Fatal(err)
	}
	text := doc.Text.String()
	s, err := structure.Read([]byte(doc.Sidecar.String()), text, doc.Text.Hash())
	if err != nil {
		t.Fatalf("sidecar: %v (record %+v)", err, doc.Record)
	}
	runes := []rune(text)
	var got []string
	for _, sp := range s.Spans {
		got = append(got, string(sp.Kind)+":"+string(runes[sp.Start:sp.End])+":"+string(rune('0'+sp.Level)))
	}
	if want := "h:Title:1 h:2 Results:2"; strings.Join(got, " ") != want {
		t.Errorf("spans = %q, want %q (text %q)", got, want, text)
	}
	if doc.Record.StructureHash != doc.Sidecar.Hash() {
		t.Errorf("record's structure hash %v, sidecar's %v", doc.Record.StructureHash, doc.Sidecar.Hash())
	}
}
