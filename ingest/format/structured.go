package format

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"io"
	"strings"

	"golang.org/x/text/encoding/unicode"
)

// rootScanBytes bounds the bytes read for an XML document's root element:
// a prolog of comments and a doctype comes before it.
const rootScanBytes = 64 << 10

// rootScanTokens bounds the tokens read before the root element.
const rootScanTokens = 256

// feedNamespaces are the namespaces that make a root element a feed: RSS
// 1.0's and 0.90's for <rdf:RDF>, Atom 1.0's and 0.3's for <feed>.
var feedNamespaces = map[string]string{
	"http://purl.org/rss/1.0/":               RSS,
	"http://my.netscape.com/rdf/simple/0.9/": RSS,
	"http://www.w3.org/2005/Atom":            Atom,
	"http://purl.org/atom/ns#":               Atom,
}

// refine returns the kind bytes labelled or named kind (one of
// TextDocuments) are: JSON holding a notebook is a notebook, XML is the
// feed or HTML its root element names, else kind.
func refine(kind string, body []byte) string {
	switch kind {
	case JSON, Notebook:
		if isNotebook(body) {
			return Notebook
		}
	case XML, RSS, Atom:
		if k := rootKind(body); k != "" {
			return k
		}
	}
	return kind
}

// sniffText returns the kind of text that no label or name types, when its
// bytes show one: RSS or Atom by their root element, JSON (or a notebook)
// when the whole text is valid JSON opening with { or [; "" otherwise.
func sniffText(body []byte) string {
	t := bytes.TrimLeft(bytes.TrimPrefix(body, []byte("\ufeff")), " \t\r\n")
	if len(t) == 0 {
		return ""
	}
	switch t[0] {
	case '{', '[':
		if json.Valid(t) {
			return refine(JSON, t)
		}
	case '<':
		if k := rootKind(body); k == RSS || k == Atom {
			return k
		}
	}
	return ""
}

// isNotebook reports whether JSON is a Jupyter notebook: an object with
// "cells" (or nbformat 3's "worksheets") and "nbformat" members.
func isNotebook(body []byte) bool {
	t := bytes.TrimLeft(bytes.TrimPrefix(body, []byte("\ufeff")), " \t\r\n")
	return len(t) > 0 && t[0] == '{' && bytes.Contains(body, []byte(`"nbformat"`)) &&
		(bytes.Contains(body, []byte(`"cells"`)) || bytes.Contains(body, []byte(`"worksheets"`)))
}

// rootKind names the kind an XML document's root element makes it: RSS
// for <rss> or a feed's <rdf:RDF>, Atom for Atom's <feed>, HTML for
// <html>, XML for any other; "" when no root element is found in its first
// rootScanBytes. UTF-16 with a byte order mark is read as such.
func rootKind(body []byte) string {
	head := body[:min(len(body), rootScanBytes)]
	var r io.Reader = bytes.NewReader(head)
	if bytes.HasPrefix(head, []byte{0xff, 0xfe}) || bytes.HasPrefix(head, []byte{0xfe, 0xff}) {
		r = unicode.UTF16(unicode.LittleEndian, unicode.UseBOM).NewDecoder().Reader(r)
	}
	d := xml.NewDecoder(r)
	d.Strict = false
	// Element names are ASCII in any charset a declaration may name (but
	// UTF-16, read above): the bytes are read as they are.
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	for range rootScanTokens {
		tok, err := d.RawToken()
		if err != nil {
			return ""
		}
		if t, ok := tok.(xml.StartElement); ok {
			local := strings.ToLower(t.Name.Local)
			switch local {
			case "rss":
				return RSS
			case "html":
				return HTML
			case "rdf", "feed":
				for _, a := range t.Attr {
					if k := feedNamespaces[strings.TrimSpace(a.Value)]; k != "" && (local == "feed") == (k == Atom) {
						return k
					}
				}
			}
			return XML
		}
	}
	return ""
}
