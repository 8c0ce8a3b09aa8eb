// Package format decides what kind of source a body is — HTML, PDF, plain
// text, an office document, an EPUB book, Markdown, CSV, JSON, a Jupyter
// notebook, an RSS or Atom feed, other XML or an image — from its
// declared media type, its file name and its first bytes. It is the one
// detection function of every entry point: uploads, raw bodies, URL
// fetches, batch files and the command line.
package format

import (
	"archive/zip"
	"bytes"
	"io"
	"mime"
	"net/http"
	"path"
	"slices"
	"strings"

	"github.com/digestd/digestd/ingest/ocr"
)

// The kinds of source, the values of a source record's kind.
const (
	Text     = "text"
	HTML     = "html"
	PDF      = "pdf"
	DOCX     = "docx"
	PPTX     = "pptx"
	XLSX     = "xlsx"
	ODT      = "odt"
	ODP      = "odp"
	ODS      = "ods"
	EPUB     = "epub"
	Markdown = "markdown"
	CSV      = "csv"
	JSON     = "json"
	Notebook = "ipynb"
	RSS      = "rss"
	Atom     = "atom"
	XML      = "xml"
	// Image is a PNG, JPEG, TIFF or WebP image, read by OCR.
	Image = "image"
)

// Kinds lists every kind, in the order the documentation gives them.
var Kinds = []string{Text, HTML, PDF, DOCX, PPTX, XLSX, ODT, ODP, ODS, EPUB, Markdown, CSV, JSON, Notebook, RSS, Atom, XML, Image}

// Documents lists the kinds converted by ingest/doctext: the office
// documents, EPUB, and the kinds of TextDocuments.
var Documents = []string{DOCX, PPTX, XLSX, ODT, ODP, ODS, EPUB, Markdown, CSV, JSON, Notebook, RSS, Atom, XML}

// TextDocuments lists the documents that are text with markup: their
// bytes are read in a charset (ingest/charset) before they are converted,
// and a label or name of one of them holds for bytes that are text.
var TextDocuments = []string{Markdown, CSV, JSON, Notebook, RSS, Atom, XML}

// Paginated reports whether a kind has pages in its canonical text: a
// PDF's pages, a presentation's slides, a spreadsheet's sheets and an
// image's page (a TIFF's pages).
func Paginated(kind string) bool {
	switch kind {
	case PDF, PPTX, ODP, XLSX, ODS, Image:
		return true
	}
	return false
}

// containers are the kinds held in a zip archive.
var containers = []string{DOCX, PPTX, XLSX, ODT, ODP, ODS, EPUB}

// ooxml are the kinds an encrypted Office file (an OLE compound file
// holding an EncryptedPackage) may be.
var ooxml = []string{DOCX, PPTX, XLSX}

// mediaTypes maps each media type a kind is declared with to the kind.
var mediaTypes = map[string]string{
	"text/html":             HTML,
	"application/xhtml+xml": HTML,
	"application/pdf":       PDF,
	"application/x-pdf":     PDF,
	"text/plain":            Text,
	"application/vnd.openxmlformats-officedocument.wordprocessingml.document":   DOCX,
	"application/vnd.openxmlformats-officedocument.presentationml.presentation": PPTX,
	"application/vnd.openxmlformats-officedocument.spreadsheetml.sheet":         XLSX,
	"application/vnd.oasis.opendocument.text":                                   ODT,
	"application/vnd.oasis.opendocument.presentation":                           ODP,
	"application/vnd.oasis.opendocument.spreadsheet":                            ODS,
	"application/epub+zip":     EPUB,
	"text/markdown":            Markdown,
	"text/x-markdown":          Markdown,
	"text/csv":                 CSV,
	"application/json":         JSON,
	"text/json":                JSON,
	"application/x-ndjson":     JSON,
	"application/x-ipynb+json": Notebook,
	"application/rss+xml":      RSS,
	"application/atom+xml":     Atom,
	"application/xml":          XML,
	"text/xml":                 XML,
	"application/rdf+xml":      XML,
	"image/png":                Image,
	"image/jpeg":               Image,
	"image/tiff":               Image,
	"image/webp":               Image,
}

// suffixKinds maps the structured syntax suffix of an application/*
// media type (RFC 6839: application/ld+json, application/vnd.api+json,
// application/soap+xml) to the kind of its syntax.
var suffixKinds = map[string]string{"+json": JSON, "+xml": XML}

// requestType is the one media type of a kind that no raw request body
// declares: a body declared application/json is a request of the API
// itself, and a JSON document is sent as a file or fetched from a URL.
const requestType = "application/json"

// genericTypes say nothing about the content: the body is sniffed.
var genericTypes = map[string]bool{
	"": true, "application/octet-stream": true, "binary/octet-stream": true, "application/unknown": true,
	"unknown/unknown": true, "application/x-download": true, "application/force-download": true,
	"application/zip": true, "application/x-zip-compressed": true,
}

// extensions maps a file name's extension (lower case) to a kind.
var extensions = map[string]string{
	".html": HTML, ".htm": HTML, ".xhtml": HTML,
	".pdf": PDF,
	".txt": Text, ".text": Text,
	".docx": DOCX, ".pptx": PPTX, ".xlsx": XLSX,
	".odt": ODT, ".odp": ODP, ".ods": ODS,
	".epub": EPUB,
	".md":   Markdown, ".markdown": Markdown,
	".csv":  CSV,
	".json": JSON, ".jsonl": JSON, ".ndjson": JSON,
	".ipynb": Notebook,
	".rss":   RSS, ".atom": Atom,
	".xml": XML,
	".png": Image, ".jpg": Image, ".jpeg": Image, ".tif": Image, ".tiff": Image, ".webp": Image,
}

// MediaTypes returns every media type that declares a kind, sorted: the
// raw request bodies the service takes (but application/json, a request
// itself).
func MediaTypes() []string {
	out := make([]string, 0, len(mediaTypes))
	for mt := range mediaTypes {
		if mt != requestType {
			out = append(out, mt)
		}
	}
	slices.Sort(out)
	return out
}

// GenericMediaTypes returns the declared media types that say nothing of
// a body's kind (a catch-all binary type, a bare zip), sorted: a body so
// declared is told by its file name and its first bytes.
func GenericMediaTypes() []string {
	out := make([]string, 0, len(genericTypes))
	for mt := range genericTypes {
		if mt != "" {
			out = append(out, mt)
		}
	}
	slices.Sort(out)
	return out
}

// Extensions returns every file name extension that names a kind, sorted
// (with the dot): the files batch --dir picks up.
func Extensions() []string {
	out := make([]string, 0, len(extensions))
	for e := range extensions {
		out = append(out, e)
	}
	slices.Sort(out)
	return out
}

// KindOfMediaType returns the kind a media type declares, or "".
func KindOfMediaType(mediaType string) string { return kindOf(MediaType(mediaType)) }

// kindOf returns the kind a lowercased media type declares, by the type or
// by its structured syntax suffix, or "".
func kindOf(mt string) string {
	if k, ok := mediaTypes[mt]; ok {
		return k
	}
	if rest, ok := strings.CutPrefix(mt, "application/"); ok {
		for suffix, k := range suffixKinds {
			if strings.HasSuffix(rest, suffix) {
				return k
			}
		}
	}
	return ""
}

// KindOfName returns the kind a file name's extension names, or "".
func KindOfName(name string) string {
	return extensions[strings.ToLower(path.Ext(name))]
}

// MediaType returns the lowercased media type of a Content-Type value,
// tolerating malformed parameters.
func MediaType(contentType string) string {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// Supported reports whether a declared Content-Type may label a source
// digestd reads: a type of some kind, or one that says nothing (absent or
// a catch-all binary type, resolved by sniffing). Audio or video labels
// are not.
func Supported(contentType string) bool {
	mt := MediaType(contentType)
	return kindOf(mt) != "" || genericTypes[mt]
}

// sniffLen is how many leading bytes decide a sniffed type; PDF readers
// likewise look for the %PDF- header within the first 1024 bytes.
const sniffLen = 1024

// Detect returns the kind of a body from its declared Content-Type, its
// file name (either may be empty) and its bytes, or "" when digestd does
// not read it (UNSUPPORTED_CONTENT_TYPE). The rules, in order:
//   - a label no kind has (an image, JSON) is unsupported;
//   - a %PDF- header within the first 1024 bytes makes a PDF, and a PNG,
//     JPEG, TIFF or WebP signature at the start an image;
//   - a zip archive is the document its entries show (an ODF or EPUB
//     mimetype entry, OOXML's word/, ppt/ or xl/ parts); a zip that
//     cannot be read takes the container kind its label or name gives,
//     so that its converter says why it is unreadable;
//   - an OLE compound file holding an EncryptedPackage is an encrypted
//     OOXML document (of the kind its label or name gives, else docx);
//   - a label or name of one of TextDocuments holds for text: bytes that
//     sniff as text (in any ASCII-compatible charset, or UTF-16 with a
//     byte order mark), or any bytes under a declared charset;
//     ingest/charset then decides how to read them. The bytes refine it:
//     JSON holding a notebook's "cells" and "nbformat" is a notebook, and
//     XML is RSS when its root element is <rss> (or RSS 1.0's <rdf:RDF>),
//     Atom when it is Atom's <feed>, HTML when it is <html>, else XML;
//   - an HTML label holds unless the bytes sniff as a specific non-text
//     format, a text label for text; a PDF label, a container label
//     without a container, or a generic label is resolved by sniffing
//     (a login page served as PDF is HTML);
//   - bytes that no label or name types are XML by an XML declaration,
//     RSS or Atom by their root element, JSON when they are one valid
//     JSON object or array.
func Detect(contentType, name string, body []byte) string {
	mt := MediaType(contentType)
	declared := kindOf(mt)
	if declared == "" && !genericTypes[mt] {
		return ""
	}
	named := KindOfName(name)
	head := body[:min(len(body), sniffLen)]
	if bytes.Contains(head, []byte("%PDF-")) {
		return PDF
	}
	if ocr.Format(head) != "" {
		return Image
	}
	if bytes.HasPrefix(body, []byte("PK\x03\x04")) {
		if k := zipKind(body); k != "" {
			return k
		}
		for _, k := range []string{declared, named} {
			if slices.Contains(containers, k) {
				return k
			}
		}
		return ""
	}
	if bytes.HasPrefix(body, oleMagic) {
		for _, k := range []string{declared, named} {
			if slices.Contains(ooxml, k) {
				return k
			}
		}
		if bytes.Contains(body, encryptedPackage) {
			return DOCX
		}
		return ""
	}
	sniffed := MediaType(http.DetectContentType(head))
	textual := strings.HasPrefix(sniffed, "text/") || declaresCharset(contentType)
	if declared == Image {
		return ""
	}
	if slices.Contains(TextDocuments, declared) {
		if textual {
			return refine(declared, body)
		}
		return ""
	}
	switch declared {
	case HTML:
		if textual || sniffed == "application/octet-stream" {
			// Unlabelled UTF-16 without a BOM sniffs as binary; trust the label.
			return HTML
		}
		return ""
	case Text:
		if !textual {
			return ""
		}
		if slices.Contains(TextDocuments, named) {
			return refine(named, body)
		}
		return Text
	}
	if slices.Contains(TextDocuments, named) && textual {
		return refine(named, body)
	}
	switch sniffed {
	case "text/html":
		return HTML
	case "text/plain":
		if named == HTML {
			return HTML
		}
		if named == "" {
			if k := sniffText(body); k != "" {
				return k
			}
		}
		return Text
	case "text/xml":
		if bytes.Contains(bytes.ToLower(head), []byte("<html")) {
			return HTML
		}
		return refine(XML, body)
	}
	return ""
}

// declaresCharset reports whether a Content-Type carries a charset
// parameter: the body is text in that charset, even one (UTF-16 without a
// byte order mark) whose bytes sniff as binary.
func declaresCharset(contentType string) bool {
	_, params, err := mime.ParseMediaType(contentType)
	return err == nil && params["charset"] != ""
}

// oleMagic starts an OLE compound file: legacy Office formats, and the
// wrapper of an encrypted OOXML document.
var oleMagic = []byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1}

// encryptedPackage is the UTF-16LE name of an encrypted OOXML document's
// stream in its OLE wrapper.
var encryptedPackage = []byte("E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P\x00a\x00c\x00k\x00a\x00g\x00e\x00")

// odfTypes maps an ODF or EPUB mimetype entry to its kind.
var odfTypes = map[string]string{
	"application/vnd.oasis.opendocument.text":         ODT,
	"application/vnd.oasis.opendocument.presentation": ODP,
	"application/vnd.oasis.opendocument.spreadsheet":  ODS,
	"application/epub+zip":                            EPUB,
}

// zipKind reads a zip archive's directory (never its entries' data, except
// a small mimetype entry) and names the document it holds, or "".
func zipKind(body []byte) string {
	zr, err := zip.NewReader(bytes.NewReader(body), int64(len(body)))
	if err != nil {
		return ""
	}
	var word, ppt, xl, types bool
	for _, f := range zr.File {
		switch {
		case f.Name == "mimetype" && f.UncompressedSize64 < 256:
			if k := odfTypes[readSmall(f)]; k != "" {
				return k
			}
		case f.Name == "[Content_Types].xml":
			types = true
		case strings.HasPrefix(f.Name, "word/"):
			word = true
		case strings.HasPrefix(f.Name, "ppt/"):
			ppt = true
		case strings.HasPrefix(f.Name, "xl/"):
			xl = true
		}
	}
	switch {
	case !types:
		return ""
	case word:
		return DOCX
	case ppt:
		return PPTX
	case xl:
		return XLSX
	}
	return ""
}

// readSmall returns a small entry's trimmed contents, or "".
func readSmall(f *zip.File) string {
	rc, err := f.Open()
	if err != nil {
		return ""
	}
	defer rc.Close()
	b, _ := io.ReadAll(io.LimitReader(rc, 256))
	return strings.TrimSpace(string(b))
}
