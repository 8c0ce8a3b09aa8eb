package charset

import "bytes"

// MetaScanBytes is how far into a page a <meta> charset declaration is
// looked for (pages often put long scripts before it, beyond the 1024
// bytes of the HTML prescan).
const MetaScanBytes = 64 << 10

// frontMatterBytes bounds the search for a Markdown front matter's charset.
const frontMatterBytes = 4 << 10

// frontMatterCharset returns the value of a "charset:" or "encoding:"
// field in a YAML front matter (between "---" lines) that opens raw, or "".
func frontMatterCharset(raw []byte) string {
	head := raw[:min(len(raw), frontMatterBytes)]
	head = bytes.ReplaceAll(head, []byte("\r\n"), []byte("\n"))
	rest, ok := bytes.CutPrefix(head, []byte("---\n"))
	if !ok {
		return ""
	}
	for line := range bytes.Lines(rest) {
		line = bytes.TrimSpace(line)
		if string(line) == "---" || string(line) == "..." {
			return ""
		}
		key, value, ok := bytes.Cut(line, []byte(":"))
		if !ok {
			continue
		}
		switch string(bytes.ToLower(bytes.TrimSpace(key))) {
		case "charset", "encoding":
			return string(bytes.Trim(bytes.TrimSpace(value), `"'`))
		}
	}
	return ""
}

// MetaCharset returns the charset label declared by a <meta charset> or
// <meta http-equiv content="...; charset=..."> element near the top of raw
// (its first MetaScanBytes), lowercased, or "".
func MetaCharset(raw []byte) string {
	head := raw
	if len(head) > MetaScanBytes {
		head = head[:MetaScanBytes]
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

// xmlDeclBytes bounds the search for an XML declaration's end.
const xmlDeclBytes = 1 << 10

// xmlDeclCharset returns the encoding an XML declaration opening raw
// names (<?xml version="1.0" encoding="ISO-8859-1"?>), or "".
func xmlDeclCharset(raw []byte) string {
	head := raw[:min(len(raw), xmlDeclBytes)]
	decl, ok := bytes.CutPrefix(head, []byte("<?xml"))
	if !ok {
		return ""
	}
	decl, _, ok = bytes.Cut(decl, []byte("?>"))
	if !ok {
		return ""
	}
	_, rest, ok := bytes.Cut(decl, []byte("encoding"))
	if !ok {
		return ""
	}
	rest = bytes.TrimLeft(rest, " \t\r\n")
	if len(rest) == 0 || rest[0] != '=' {
		return ""
	}
	rest = bytes.TrimLeft(rest[1:], " \t\r\n")
	if len(rest) == 0 || rest[0] != '"' && rest[0] != '\'' {
		return ""
	}
	value, _, ok := bytes.Cut(rest[1:], rest[:1])
	if !ok {
		return ""
	}
	return string(value)
}
