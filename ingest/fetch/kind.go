package fetch

import (
	"bytes"
	"mime"
	"net/http"
	"strings"
)

// Kinds of fetched content, the values of Response.Kind.
const (
	KindHTML = "html"
	KindPDF  = "pdf"
	KindText = "text"
)

// sniffLen is how many leading bytes decide a sniffed type; PDF readers
// likewise look for the %PDF- header within the first 1024 bytes.
const sniffLen = 1024

// headerClass is what a Content-Type header alone says about a response.
type headerClass int

const (
	classUnsupported headerClass = iota
	classGeneric                 // absent or a catch-all binary type: sniff
	classHTML
	classPDF
	classText
)

// classifyHeader maps a Content-Type header value to a headerClass.
func classifyHeader(contentType string) headerClass {
	mt := mediaType(contentType)
	switch mt {
	case "text/html", "application/xhtml+xml":
		return classHTML
	case "application/pdf", "application/x-pdf":
		return classPDF
	case "text/plain":
		return classText
	case "", "application/octet-stream", "binary/octet-stream", "application/unknown",
		"unknown/unknown", "application/x-download", "application/force-download":
		return classGeneric
	}
	return classUnsupported
}

// mediaType returns the lowercased media type of a Content-Type value,
// tolerating malformed parameters.
func mediaType(contentType string) string {
	if mt, _, err := mime.ParseMediaType(contentType); err == nil {
		return mt
	}
	mt, _, _ := strings.Cut(contentType, ";")
	return strings.ToLower(strings.TrimSpace(mt))
}

// detectKind decides a response's Kind from its header class and its
// leading bytes, or returns "" when the content is not HTML, PDF or text.
// The rules, in order: a %PDF- header within the first 1024 bytes makes a
// PDF whatever the header said; a PDF label without that header is taken
// for what sniffing shows (a login page served as PDF is HTML); an HTML or
// text label holds unless the bytes sniff as a specific non-text format
// (an image, an archive); an absent or generic label is resolved by
// sniffing alone.
func detectKind(class headerClass, body []byte) string {
	head := body[:min(len(body), sniffLen)]
	if bytes.Contains(head, []byte("%PDF-")) {
		return KindPDF
	}
	sniffed := mediaType(http.DetectContentType(head))
	textual := strings.HasPrefix(sniffed, "text/")
	binaryUnknown := sniffed == "application/octet-stream"
	switch class {
	case classHTML:
		if textual || binaryUnknown {
			// Unlabelled UTF-16 without a BOM sniffs as binary; trust the label.
			return KindHTML
		}
	case classText:
		if textual {
			return KindText
		}
	case classPDF, classGeneric:
		switch sniffed {
		case "text/html":
			return KindHTML
		case "text/plain":
			return KindText
		case "text/xml":
			if bytes.Contains(bytes.ToLower(head), []byte("<html")) {
				return KindHTML
			}
		}
	}
	return ""
}
