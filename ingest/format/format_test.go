package format_test

import (
	"archive/zip"
	"bytes"
	"testing"

	"github.com/digestd/digestd/ingest/format"
)

// zipOf returns a zip archive holding the named entries.
func zipOf(t *testing.T, entries ...string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := zip.NewWriter(&b)
	for i := 0; i+1 < len(entries); i += 2 {
		method := zip.Deflate
		if entries[i] == "mimetype" {
			method = zip.Store
		}
		w, err := zw.CreateHeader(&zip.FileHeader{Name: entries[i], Method: method})
		if err != nil {
			t.Fatal(err)
		}
		w.Write([]byte(entries[i+1]))
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestDetect(t *testing.T) {
	docx := zipOf(t, "[Content_Types].xml", "<Types/>", "word/document.xml", "<w:document/>")
	pptx := zipOf(t, "[Content_Types].xml", "<Types/>", "ppt/presentation.xml", "<p/>")
	xlsx := zipOf(t, "[Content_Types].xml", "<Types/>", "xl/workbook.xml", "<w/>")
	odt := zipOf(t, "mimetype", "application/vnd.oasis.opendocument.text", "content.xml", "<c/>")
	odp := zipOf(t, "mimetype", "application/vnd.oasis.opendocument.presentation", "content.xml", "<c/>")
	ods := zipOf(t, "mimetype", "application/vnd.oasis.opendocument.spreadsheet", "content.xml", "<c/>")
	epub := zipOf(t, "mimetype", "application/epub+zip", "META-INF/container.xml", "<c/>")
	plainZip := zipOf(t, "a.txt", "hello")
	ole := append([]byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1}, make([]byte, 64)...)
	encrypted := append(append([]byte(nil), ole...), []byte("E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P\x00a\x00c\x00k\x00a\x00g\x00e\x00")...)
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	tests := []struct {
		name, contentType, file string
		body                    []byte
		want                    string
	}{
		{"docx by bytes", "", "", docx, format.DOCX},
		{"pptx by bytes", "application/octet-stream", "", pptx, format.PPTX},
		{"xlsx by bytes", "application/zip", "", xlsx, format.XLSX},
		{"odt by mimetype", "", "", odt, format.ODT},
		{"odp by mimetype", "", "", odp, format.ODP},
		{"ods by mimetype", "", "", ods, format.ODS},
		{"epub by mimetype", "", "", epub, format.EPUB},
		{"bytes beat a wrong name", "", "report.xlsx", docx, format.DOCX},
		{"docx declared", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "", docx, format.DOCX},
		{"a plain zip is unsupported", "", "a.zip", plainZip, ""},
		{"truncated docx keeps its named kind", "", "report.docx", docx[:len(docx)/2], format.DOCX},
		{"truncated zip without a name", "", "", docx[:len(docx)/2], ""},
		{"encrypted ooxml by name", "", "sheet.xlsx", encrypted, format.XLSX},
		{"encrypted ooxml by bytes", "", "", encrypted, format.DOCX},
		{"legacy ole file", "", "old.doc", ole, ""},
		{"markdown by name", "", "README.md", []byte("# Title\n\nText."), format.Markdown},
		{"markdown declared", "text/markdown; charset=utf-8", "", []byte("# Title"), format.Markdown},
		{"markdown name on text/plain", "text/plain", "notes.markdown", []byte("# Title"), format.Markdown},
		{"csv by name", "", "data.csv", []byte("a,b\n1,2\n"), format.CSV},
		{"csv declared", "text/csv", "", []byte("a,b\n1,2\n"), format.CSV},
		{"csv declared but binary", "text/csv", "", []byte{0x00, 0x01, 0x02, 0xff}, ""},
		{"csv named but binary", "", "data.csv", []byte{0x00, 0x01, 0x02, 0xff}, ""},
		{"csv in shift-jis by name", "", "data.csv", []byte("\x96\xbc\x91\x4f,\x93\x73\x8e\x73\n"), format.CSV},
		{"csv in utf-16 with a mark", "text/csv", "", []byte("\xff\xfea\x00,\x00b\x00"), format.CSV},
		{"csv in utf-16 declared", "text/csv; charset=utf-16be", "", []byte("\x00a\x00,\x00b"), format.CSV},
		{"markdown in latin-1 by name", "", "notes.md", []byte("# Caf\xe9\n"), format.Markdown},
		{"pdf", "", "", []byte("%PDF-1.7\n"), format.PDF},
		{"pdf under a docx label", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "", []byte("%PDF-1.7\n"), format.PDF},
		{"html under a pdf label", "application/pdf", "", []byte("<html><body>sign in</body></html>"), format.HTML},
		{"html under a docx label", "application/vnd.openxmlformats-officedocument.wordprocessingml.document", "", []byte("<!DOCTYPE html><html><body>x</body></html>"), format.HTML},
		{"html by name", "", "page.htm", []byte("just words"), format.HTML},
		{"text", "", "", []byte("just words"), format.Text},
		{"text label on html stays text", "text/plain", "", []byte("<html>x</html>"), format.Text},
		{"image label on a docx", "image/png", "x.docx", docx, format.DOCX},
		{"image label on text", "image/png", "", []byte("just words"), ""},
		{"png bytes", "", "", png, format.Image},
		{"png under a text label", "text/plain", "", png, format.Image},
		{"jpeg by name", "", "scan.JPG", []byte("\xff\xd8\xff\xe0"), format.Image},
		{"tiff", "image/tiff", "", []byte("II*\x00\x08\x00"), format.Image},
		{"webp", "", "", []byte("RIFF\x10\x00\x00\x00WEBPVP8 "), format.Image},
		{"json label", "application/json", "", []byte(`{"a":1}`), format.JSON},
		{"json by name", "", "data.json", []byte(`{"a":"b"}`), format.JSON},
		{"json lines by name", "", "log.jsonl", []byte("{\"a\":1}\n{\"a\":2}\n"), format.JSON},
		{"json by a suffix", "application/vnd.api+json; charset=utf-8", "", []byte(`[1]`), format.JSON},
		{"json by its bytes", "", "", []byte(" [\"a\", {\"b\": \"c\"}]"), format.JSON},
		{"json-looking text stays text", "", "", []byte("[1] Introduction\n"), format.Text},
		{"json name on text/plain", "text/plain", "data.json", []byte(`{"a":1}`), format.JSON},
		{"json label but binary", "application/json", "", []byte{0x00, 0x01, 0x02, 0xff}, ""},
		{"notebook by name", "", "analysis.ipynb", []byte(`{"cells": [], "nbformat": 4}`), format.Notebook},
		{"notebook by its bytes", "", "", []byte(`{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`), format.Notebook},
		{"notebook named json", "application/json", "nb.json", []byte(`{"cells": [], "nbformat": 4}`), format.Notebook},
		{"rss by its bytes", "", "", []byte(`<?xml version="1.0"?><!-- feed --><rss version="2.0"><channel/></rss>`), format.RSS},
		{"rss without a declaration", "", "", []byte(`<rss version="2.0"><channel/></rss>`), format.RSS},
		{"rss 1.0", "application/xml", "", []byte(`<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/"><channel/></rdf:RDF>`), format.RSS},
		{"atom by its bytes", "", "", []byte(`<?xml version="1.0" encoding="iso-8859-1"?><feed xmlns="http://www.w3.org/2005/Atom"/>`), format.Atom},
		{"atom labelled rss", "application/rss+xml", "", []byte(`<feed xmlns="http://www.w3.org/2005/Atom"/>`), format.Atom},
		{"atom in utf-16", "", "feed.xml", []byte("\xff\xfe<\x00f\x00e\x00e\x00d\x00 \x00x\x00m\x00l\x00n\x00s\x00=\x00'\x00h\x00t\x00t\x00p\x00:\x00/\x00/\x00w\x00w\x00w\x00.\x00w\x003\x00.\x00o\x00r\x00g\x00/\x002\x000\x000\x005\x00/\x00A\x00t\x00o\x00m\x00'\x00/\x00>\x00"), format.Atom},
		{"a feed element outside atom is xml", "", "", []byte(`<?xml version="1.0"?><feed><x/></feed>`), format.XML},
		{"xml by its bytes", "", "", []byte(`<?xml version="1.0"?><catalog><book/></catalog>`), format.XML},
		{"xml by name", "", "books.xml", []byte(`<catalog><book/></catalog>`), format.XML},
		{"xml by a suffix", "application/soap+xml", "", []byte(`<Envelope/>`), format.XML},
		{"xhtml labelled xml", "text/xml", "", []byte(`<?xml version="1.0"?><html xmlns="http://www.w3.org/1999/xhtml"><body>x</body></html>`), format.HTML},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := format.Detect(tt.contentType, tt.file, tt.body); got != tt.want {
				t.Errorf("Detect(%q, %q) = %q, want %q", tt.contentType, tt.file, got, tt.want)
			}
		})
	}
}

// Every document kind has a media type and an extension, and only the
// presentation and spreadsheet kinds (and PDF) are paginated.
func TestTables(t *testing.T) {
	types := map[string]bool{}
	for _, mt := range format.MediaTypes() {
		types[format.Detect(mt, "", nil)] = true
		if !format.Supported(mt) {
			t.Errorf("Supported(%q) = false", mt)
		}
	}
	exts := map[string]bool{}
	for _, e := range format.Extensions() {
		exts[format.KindOfName("x"+e)] = true
	}
	for _, k := range format.Kinds {
		if !exts[k] {
			t.Errorf("kind %s has no extension", k)
		}
		want := k == format.PDF || k == format.PPTX || k == format.ODP || k == format.XLSX || k == format.ODS || k == format.Image
		if format.Paginated(k) != want {
			t.Errorf("Paginated(%s) = %v", k, !want)
		}
	}
	for _, k := range []string{format.Markdown, format.CSV, format.HTML, format.JSON, format.Notebook, format.RSS, format.Atom, format.XML} {
		if !types[k] {
			t.Errorf("no media type detects %s on an empty body", k)
		}
	}
}
