package htmltext

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"github.com/digestd/digestd/ingest/charset"
	htmlcharset "golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// decode returns raw as UTF-8 and the name of the encoding used. The
// order is: byte order mark, the Content-Type charset parameter, a <meta>
// declaration, valid UTF-8, and else windows-1252 (which the HTML standard
// uses for ISO-8859-1 labels too).
func decode(raw []byte, contentType string) ([]byte, string) {
	enc, name := chooseEncoding(raw, contentType)
	if name == "utf-8" {
		return bytes.TrimPrefix(raw, []byte("\xef\xbb\xbf")), name
	}
	out, err := enc.NewDecoder().Bytes(raw)
	if err != nil {
		// Decoders replace bad input rather than fail; keep the bytes if
		// one does fail, and let normalization drop what is invalid.
		return raw, "utf-8"
	}
	if name == "utf-16le" || name == "utf-16be" {
		out = bytes.TrimPrefix(out, []byte("\xef\xbb\xbf"))
	}
	return out, name
}

func chooseEncoding(raw []byte, contentType string) (encoding.Encoding, string) {
	switch {
	case bytes.HasPrefix(raw, []byte("\xef\xbb\xbf")):
		return encoding.Nop, "utf-8"
	case bytes.HasPrefix(raw, []byte("\xfe\xff")):
		return unicode.UTF16(unicode.BigEndian, unicode.ExpectBOM), "utf-16be"
	case bytes.HasPrefix(raw, []byte("\xff\xfe")):
		return unicode.UTF16(unicode.LittleEndian, unicode.ExpectBOM), "utf-16le"
	}
	if contentType != "" {
		if _, params, err := mime.ParseMediaType(contentType); err == nil {
			if e, name := lookup(params["charset"]); e != nil {
				return e, name
			}
		}
	}
	if e, name := lookup(charset.MetaCharset(raw)); e != nil {
		return e, name
	}
	if utf8.Valid(raw) {
		return encoding.Nop, "utf-8"
	}
	e, name := htmlcharset.Lookup("windows-1252")
	return e, name
}

// lookup resolves an encoding label; UTF-16 labels in a document that has
// no BOM are treated as UTF-8, as the HTML standard says.
func lookup(label string) (encoding.Encoding, string) {
	label = strings.TrimSpace(label)
	if label == "" {
		return nil, ""
	}
	e, name := htmlcharset.Lookup(label)
	if e == nil {
		return nil, ""
	}
	if strings.HasPrefix(name, "utf-16") || name == "utf-8" {
		return encoding.Nop, "utf-8"
	}
	return e, name
}
