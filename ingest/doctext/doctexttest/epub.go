package doctexttest

import (
	"fmt"
	"html"
	"strings"
)

// Book describes an EPUB 3 book for EPUB: its metadata and its chapters'
// body markup, in spine order. A navigation document listing the chapters
// (epub:type="toc" and landmarks) comes first in the spine, as publishers
// put it.
type Book struct {
	Title, Description string
	Creators           []string
	Chapters           []string
}

// EPUB returns book as an EPUB 3 container.
func EPUB(book Book) []byte {
	var meta strings.Builder
	if book.Title != "" {
		fmt.Fprintf(&meta, `<dc:title>%s</dc:title>`, html.EscapeString(book.Title))
	}
	for _, c := range book.Creators {
		fmt.Fprintf(&meta, `<dc:creator>%s</dc:creator>`, html.EscapeString(c))
	}
	if book.Description != "" {
		fmt.Fprintf(&meta, `<dc:description>%s</dc:description>`, html.EscapeString(book.Description))
	}
	manifest := `<item id="nav" href="nav.xhtml" media-type="application/xhtml+xml" properties="nav"/>`
	spine := `<itemref idref="nav"/>`
	var toc strings.Builder
	entries := []Entry{
		{"mimetype", S("application/epub+zip")},
		{"META-INF/container.xml", S(`<?xml version="1.0"?><container version="1.0" xmlns="urn:oasis:names:tc:opendocument:xmlns:container"><rootfiles><rootfile full-path="OEBPS/content.opf" media-type="application/oebps-package+xml"/></rootfiles></container>`)},
	}
	for i, body := range book.Chapters {
		name := fmt.Sprintf("ch%d.xhtml", i+1)
		manifest += fmt.Sprintf(`<item id="ch%d" href="%s" media-type="application/xhtml+xml"/>`, i+1, name)
		spine += fmt.Sprintf(`<itemref idref="ch%d"/>`, i+1)
		fmt.Fprintf(&toc, `<li><a href="%s">Chapter %d</a></li>`, name, i+1)
		entries = append(entries, Entry{"OEBPS/" + name, S(XHTML(body))})
	}
	nav := XHTML(`<nav epub:type="toc" id="toc"><h1>Contents</h1><ol>` + toc.String() + `</ol></nav>` +
		`<nav epub:type="landmarks" hidden=""><ol><li><a epub:type="bodymatter" href="ch1.xhtml">Start</a></li></ol></nav>`)
	opf := `<?xml version="1.0" encoding="UTF-8"?><package xmlns="http://www.idpf.org/2007/opf" version="3.0" unique-identifier="id">` +
		`<metadata xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:identifier id="id">urn:uuid:0</dc:identifier><dc:language>en</dc:language>` + meta.String() + `</metadata>` +
		`<manifest>` + manifest + `</manifest><spine>` + spine + `</spine></package>`
	entries = append(entries, Entry{"OEBPS/content.opf", S(opf)}, Entry{"OEBPS/nav.xhtml", S(nav)})
	return Zip(entries...)
}

// XHTML wraps body markup in an EPUB content document.
func XHTML(body string) string {
	return `<?xml version="1.0" encoding="UTF-8"?><!DOCTYPE html><html xmlns="http://www.w3.org/1999/xhtml" xmlns:epub="http://www.idpf.org/2007/ops"><head><title>t</title></head><body>` +
		body + `</body></html>`
}
