package htmltext

import (
	"bytes"
	"mime"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html/charset"
	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/unicode"
)

// metaScanBytes is how far into the page a <meta> charset declaration is
// looked for (pages often put long scripts before it, beyond the 1024
// bytes of the HTML prescan).
const metaScanBytes = 64 << 10

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
	if e, name := lookup(metaCharset(raw)); e != nil {
		return e, name
	}
	if utf8.Valid(raw) {
		return encoding.Nop, "utf-8"
	}
	e, name := charset.Lookup("windows-1252")
	return e, name
}

// lookup resolves an encoding label; UTF-16 labels in a document that has
// no BOM are treated as UTF-8, as the HTML standard says.
func lookup(label string) (encoding.Encoding, string) {
	label = strings.TrimSpace(label)
	if label == "" {
		return nil, ""
	}
	e, name := charset.Lookup(label)
	if e == nil {
		return nil, ""
	}
	if strings.HasPrefix(name, "utf-16") || name == "utf-8" {
		return encoding.Nop, "utf-8"
	}
	return e, name
}

// metaCharset finds the charset declared by a <meta charset> or
// <meta http-equiv content="...; charset=..."> element near the top of raw.
func metaCharset(raw []byte) string {
	head := raw
	if len(head) > metaScanBytes {
		head = head[:metaScanBytes]
	}
	// Only ASCII is lowered: the names looked for are ASCII, and the
	// Unicode case mapping is many times slower on non-ASCII text. Only
	// the <meta> tags are lowered, into one buffer: the rest of the head
	// is looked at for their start alone.
	var lower []byte
	for off := 0; ; {
		start := indexMetaTag(head, off)
		if start < 0 {
			return ""
		}
		end := bytes.IndexByte(head[start:], '>')
		if end < 0 {
			return ""
		}
		lower = appendLowerASCII(lower[:0], head[start:start+end])
		tag := lower
		off = start + end
		j := bytes.Index(tag, []byte("charset"))
		if j < 0 {
			continue
		}
		rest := bytes.TrimLeft(tag[j+len("charset"):], " \t\r\n")
		if len(rest) == 0 || rest[0] != '=' {
			continue
		}
		rest = bytes.TrimLeft(rest[1:], " \t\r\n\"'")
		k := 0
		for k < len(rest) && isLabelByte(rest[k]) {
			k++
		}
		if k > 0 {
			return string(rest[:k])
		}
	}
}

// indexMetaTag returns the index of the first "<meta", in any ASCII case,
// in head at or after off, or -1.
func indexMetaTag(head []byte, off int) int {
	for {
		i := bytes.IndexByte(head[off:], '<')
		if i < 0 {
			return -1
		}
		p := off + i
		if p+len("<meta") > len(head) {
			return -1
		}
		if isLowerASCII(head[p+1:p+len("<meta")], "meta") {
			return p
		}
		off = p + 1
	}
}

// isLowerASCII reports whether b with its ASCII letters lowercased is
// lower.
func isLowerASCII(b []byte, lower string) bool {
	if len(b) != len(lower) {
		return false
	}
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// appendLowerASCII appends b to dst with ASCII letters lowercased.
func appendLowerASCII(dst, b []byte) []byte {
	for _, c := range b {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		dst = append(dst, c)
	}
	return dst
}

func isLabelByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == ':'
}
