// Package charset reads the bytes of a plain text, Markdown, CSV, JSON,
// notebook, feed or XML source as
// UTF-8 text, whatever encoding they are in, or says that the encoding cannot
// be decided. It is the one charset decision of those kinds, on every entry
// point (a file, a raw body, a URL's body). HTML pages follow the HTML
// standard's own rules (ingest/htmltext), which share the <meta> scanner
// here.
//
// The order, first that decides:
//  1. a byte order mark (UTF-8, UTF-16LE/BE, UTF-32LE/BE);
//  2. a declared UTF-16 or UTF-32 (a Content-Type charset parameter, in
//     Markdown a front matter charset or encoding field or a <meta> tag,
//     in XML its declaration's encoding),
//     since ASCII text in UTF-16 is also valid UTF-8;
//  3. valid UTF-8: it stays the first choice, whatever a declaration says
//     (servers often label UTF-8 text ISO-8859-1 by default);
//  4. any other declared charset, when the bytes read as text in it;
//  5. detection (ICU's detector, github.com/saintfish/chardet) on the first
//     DetectBytes, when its best guess has at least MinConfidence and the
//     bytes read as text in it.
//
// "Read as text" means the decoder met no invalid sequence and the text has
// no control character but tab, line feed, form feed and carriage return:
// a legacy encoding reads almost any bytes, so this is what tells a wrong
// guess. When nothing decides, the error is an *UndecidableError naming the
// first byte that is not UTF-8.
package charset

import (
	"bytes"
	"errors"
	"fmt"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/digestd/digestd/normalize"
	"github.com/saintfish/chardet"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
	"golang.org/x/text/encoding/ianaindex"
	"golang.org/x/text/encoding/unicode"
	"golang.org/x/text/encoding/unicode/utf32"
)

// UTF8 is the name of UTF-8, the charset of text that needed no decoding.
const UTF8 = "utf-8"

// DetectBytes bounds the detector's work: it reads at most this many
// leading bytes of a text (the ICU recognizers themselves look at 8 KiB).
const DetectBytes = 16 << 10

// MinConfidence is the least confidence (ICU's scale, 1 to 100) at which a
// detected charset is used. On short samples measured when it was set,
// right guesses scored 42 (Russian in windows-1251) to 100 (GB18030, Big5,
// EUC-KR), a 14-byte Shift-JIS CSV 10, and binary or mixed-up bytes 18 to 33.
const MinConfidence = 40

// Hints are what a caller knows about the bytes besides the bytes.
type Hints struct {
	// ContentType is the declared media type; its charset parameter, if
	// any, is a declaration.
	ContentType string
	// Markdown says the bytes are Markdown, which may declare its charset
	// in a front matter field (charset: or encoding:) or a <meta> tag.
	Markdown bool
	// XML says the bytes are XML, which may declare its charset in its
	// XML declaration (<?xml version="1.0" encoding="..."?>).
	XML bool
}

// Text is bytes read as text.
type Text struct {
	// UTF8 is the text in UTF-8, without a byte order mark.
	UTF8 []byte
	// Charset is the name of the encoding it was read in, as the WHATWG
	// encoding standard names it (utf-8, utf-16le, shift_jis, gb18030,
	// big5, euc-kr, windows-1252, iso-8859-2, …), or IANA's for the few it
	// lacks. ISO-8859-1 and US-ASCII read as windows-1252, as in HTML.
	Charset string
	// By says what decided: "bom", "declared", "utf-8" or "detected".
	By string
}

// UndecidableError is the answer for bytes whose encoding nothing decides.
type UndecidableError struct {
	// Offset is the first byte that is not UTF-8.
	Offset int
}

func (e *UndecidableError) Error() string {
	return fmt.Sprintf("charset: the encoding cannot be decided (byte %d is not UTF-8, and no byte order mark, declaration or confident detection names another)", e.Offset)
}

// boms are the byte order marks, longest first (UTF-32LE's starts with
// UTF-16LE's).
var boms = []struct {
	mark []byte
	enc  encoding.Encoding
	name string
}{
	{[]byte{0xff, 0xfe, 0, 0}, utf32.UTF32(utf32.LittleEndian, utf32.ExpectBOM), "utf-32le"},
	{[]byte{0, 0, 0xfe, 0xff}, utf32.UTF32(utf32.BigEndian, utf32.ExpectBOM), "utf-32be"},
	{[]byte{0xef, 0xbb, 0xbf}, unicode.UTF8BOM, UTF8},
	{[]byte{0xff, 0xfe}, unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM), "utf-16le"},
	{[]byte{0xfe, 0xff}, unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), "utf-16be"},
}

// withoutMarks returns text without the byte order marks that begin it: a
// decoder takes the mark off, and a mark after it (text saved with its mark
// twice) is a mark too, not text.
func withoutMarks(text []byte) []byte {
	for bytes.HasPrefix(text, []byte("\ufeff")) {
		text = text[len("\ufeff"):]
	}
	return text
}

// Decode reads raw as text (see the package comment for the order).
func Decode(raw []byte, h Hints) (Text, error) {
	for _, b := range boms {
		if bytes.HasPrefix(raw, b.mark) {
			if b.name == UTF8 && !utf8.Valid(raw[len(b.mark):]) {
				break // a UTF-8 mark on bytes that are not: decide otherwise
			}
			out, err := b.enc.NewDecoder().Bytes(raw)
			if err != nil {
				return Text{}, &UndecidableError{Offset: invalidOffset(raw)}
			}
			return Text{UTF8: withoutMarks(out), Charset: b.name, By: "bom"}, nil
		}
	}
	declared, name := declaredEncoding(raw, h)
	wide := strings.HasPrefix(name, "utf-16") || strings.HasPrefix(name, "utf-32")
	if declared != nil && wide {
		if out, ok := readAs(raw, declared); ok {
			return Text{UTF8: withoutMarks(out), Charset: name, By: "declared"}, nil
		}
	}
	if utf8.Valid(raw) {
		return Text{UTF8: raw, Charset: UTF8, By: "utf-8"}, nil
	}
	if declared != nil && !wide && name != UTF8 {
		if out, ok := readAs(raw, declared); ok {
			return Text{UTF8: out, Charset: name, By: "declared"}, nil
		}
	}
	if enc, name := detect(raw); enc != nil {
		if out, ok := readAs(raw, enc); ok {
			return Text{UTF8: out, Charset: name, By: "detected"}, nil
		}
	}
	return Text{}, &UndecidableError{Offset: invalidOffset(raw)}
}

// declaredEncoding returns the encoding the Content-Type, for Markdown its
// front matter or a <meta> tag, for XML its declaration, declares, or nil.
func declaredEncoding(raw []byte, h Hints) (encoding.Encoding, string) {
	if h.ContentType != "" {
		if _, params, err := mime.ParseMediaType(h.ContentType); err == nil {
			if e, name := Lookup(params["charset"]); e != nil {
				return e, name
			}
		}
	}
	if h.XML {
		return Lookup(xmlDeclCharset(raw))
	}
	if !h.Markdown {
		return nil, ""
	}
	if e, name := Lookup(frontMatterCharset(raw)); e != nil {
		return e, name
	}
	return Lookup(MetaCharset(raw))
}

// Lookup resolves a charset label by the WHATWG encoding standard's labels,
// then IANA's, and returns the encoding and its name; nil when neither
// knows the label or x/text has no decoder for it.
func Lookup(label string) (encoding.Encoding, string) {
	label = strings.ToLower(strings.Trim(strings.TrimSpace(label), `"'`))
	if label == "" {
		return nil, ""
	}
	if e, err := htmlindex.Get(label); err == nil {
		if name, err := htmlindex.Name(e); err == nil && name != "replacement" {
			return e, name
		}
	}
	e, err := ianaindex.IANA.Encoding(label)
	if err != nil || e == nil {
		return nil, ""
	}
	if name, err := htmlindex.Name(e); err == nil {
		return e, name
	}
	name, err := ianaindex.IANA.Name(e)
	if err != nil {
		return nil, ""
	}
	return e, strings.ToLower(name)
}

// detectorNames maps the detector's names that neither index knows.
var detectorNames = map[string]string{"GB-18030": "gb18030"}

// detect returns the encoding the detector names for raw's first
// DetectBytes with at least MinConfidence, or nil.
func detect(raw []byte) (encoding.Encoding, string) {
	head := raw[:min(len(raw), DetectBytes)]
	r, err := chardet.NewTextDetector().DetectBest(head)
	if err != nil || r.Confidence < MinConfidence {
		return nil, ""
	}
	label := r.Charset
	if l, ok := detectorNames[label]; ok {
		label = l
	}
	return Lookup(label)
}

// readAs decodes raw in e and reports whether it reads as text: no
// invalid sequence and no control character but \t, \n, \f and \r.
func readAs(raw []byte, e encoding.Encoding) ([]byte, bool) {
	out, err := e.NewDecoder().Bytes(raw)
	if err != nil {
		return nil, false
	}
	out = bytes.TrimPrefix(out, []byte("\ufeff"))
	for _, r := range string(out) {
		switch {
		case r == utf8.RuneError, r < 0x20 && r != '\t' && r != '\n' && r != normalize.PageSeparator && r != '\r', r >= 0x7f && r <= 0x9f:
			return nil, false
		}
	}
	return out, true
}

// invalidOffset returns the offset of raw's first byte that is not UTF-8.
func invalidOffset(raw []byte) int {
	off := 0
	for off < len(raw) {
		r, n := utf8.DecodeRune(raw[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	return off
}

// IsUndecidable reports whether err is an *UndecidableError, and its
// offset.
func IsUndecidable(err error) (int, bool) {
	var u *UndecidableError
	if errors.As(err, &u) {
		return u.Offset, true
	}
	return 0, false
}
