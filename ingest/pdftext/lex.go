package pdftext

import (
	"bytes"
	"strconv"
)

// Operands of content-stream and CMap operators. A name is a pdfName so it can
// be told apart from a string; arrays are []any; dictionaries are
// map[string]any. Numbers are float64.
type pdfName string

// Bounds on what one stream may build, so a hostile stream costs at most
// linear time in its length.
const (
	maxOperands   = 4096 // operands kept before an operator; extra ones are dropped
	maxArrayDepth = 16
	maxArrayLen   = 1 << 16
)

// contentLexer reads the token syntax shared by content streams and CMaps.
// It never panics and always makes progress.
type contentLexer struct {
	buf []byte
	pos int
}

// op is one operator with its operands, bottom of the stack first.
type op struct {
	name string
	args []any
}

// next returns the next operator and its operands, or ok=false at the end.
func (l *contentLexer) next() (o op, ok bool) {
	var args []any
	for {
		v, isOp, more := l.object(0)
		if !more {
			return op{}, false
		}
		if isOp {
			name := v.(string)
			if name == "BI" {
				l.skipInlineImage()
				return op{name: "BI"}, true
			}
			return op{name: name, args: args}, true
		}
		if v == nil {
			continue
		}
		if len(args) < maxOperands {
			args = append(args, v)
		}
	}
}

func isWhite(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f' || c == 0
}

func isDelim(c byte) bool {
	switch c {
	case '(', ')', '<', '>', '[', ']', '{', '}', '/', '%':
		return true
	}
	return false
}

func (l *contentLexer) skipSpace() {
	for l.pos < len(l.buf) {
		c := l.buf[l.pos]
		if isWhite(c) {
			l.pos++
			continue
		}
		if c == '%' {
			for l.pos < len(l.buf) && l.buf[l.pos] != '\n' && l.buf[l.pos] != '\r' {
				l.pos++
			}
			continue
		}
		return
	}
}

// object reads one object. isOp reports a bare keyword (returned as string);
// more is false at the end of input. A nil value with more=true is a token
// that carries nothing (a stray delimiter).
func (l *contentLexer) object(depth int) (v any, isOp bool, more bool) {
	l.skipSpace()
	if l.pos >= len(l.buf) {
		return nil, false, false
	}
	c := l.buf[l.pos]
	switch {
	case c == '(':
		l.pos++
		return l.literalString(), false, true
	case c == '<' && l.pos+1 < len(l.buf) && l.buf[l.pos+1] == '<':
		l.pos += 2
		return l.dict(depth), false, true
	case c == '<':
		l.pos++
		return l.hexString(), false, true
	case c == '/':
		l.pos++
		start := l.pos
		for l.pos < len(l.buf) && !isWhite(l.buf[l.pos]) && !isDelim(l.buf[l.pos]) {
			l.pos++
		}
		return pdfName(unescapeName(l.buf[start:l.pos])), false, true
	case c == '[':
		l.pos++
		return l.array(depth), false, true
	case c == ']' || c == '>' || c == ')' || c == '{' || c == '}':
		l.pos++
		return nil, false, true
	}
	start := l.pos
	for l.pos < len(l.buf) && !isWhite(l.buf[l.pos]) && !isDelim(l.buf[l.pos]) {
		l.pos++
	}
	tok := l.buf[start:l.pos]
	if n, ok := parseNumber(tok); ok {
		return n, false, true
	}
	switch string(tok) {
	case "true":
		return true, false, true
	case "false":
		return false, false, true
	case "null":
		return nil, false, true
	}
	return string(tok), true, true
}

func parseNumber(tok []byte) (float64, bool) {
	if len(tok) == 0 || len(tok) > 32 {
		return 0, false
	}
	c := tok[0]
	if !(c >= '0' && c <= '9' || c == '-' || c == '+' || c == '.') {
		return 0, false
	}
	n, err := strconv.ParseFloat(string(tok), 64)
	if err != nil {
		// Producers write things like "--5" or "1.2.3"; read the leading number.
		end := 1
		for end < len(tok) && (tok[end] >= '0' && tok[end] <= '9' || tok[end] == '.') {
			end++
		}
		n, err = strconv.ParseFloat(string(bytes.TrimLeft(tok[:end], "+-")), 64)
		if err != nil {
			return 0, true
		}
		if tok[0] == '-' {
			n = -n
		}
	}
	return n, true
}

func unescapeName(b []byte) string {
	if bytes.IndexByte(b, '#') < 0 {
		return string(b)
	}
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		if b[i] == '#' && i+2 < len(b) {
			if v, err := strconv.ParseUint(string(b[i+1:i+3]), 16, 8); err == nil {
				out = append(out, byte(v))
				i += 2
				continue
			}
		}
		out = append(out, b[i])
	}
	return string(out)
}

func (l *contentLexer) literalString() string {
	var out []byte
	depth := 1
	for l.pos < len(l.buf) {
		c := l.buf[l.pos]
		l.pos++
		switch c {
		case '(':
			depth++
		case ')':
			depth--
			if depth == 0 {
				return string(out)
			}
		case '\\':
			if l.pos >= len(l.buf) {
				return string(out)
			}
			e := l.buf[l.pos]
			l.pos++
			switch e {
			case 'n':
				c = '\n'
			case 'r':
				c = '\r'
			case 't':
				c = '\t'
			case 'b':
				c = '\b'
			case 'f':
				c = '\f'
			case '\r':
				if l.pos < len(l.buf) && l.buf[l.pos] == '\n' {
					l.pos++
				}
				continue
			case '\n':
				continue
			default:
				if e >= '0' && e <= '7' {
					v := int(e - '0')
					for k := 0; k < 2 && l.pos < len(l.buf) && l.buf[l.pos] >= '0' && l.buf[l.pos] <= '7'; k++ {
						v = v*8 + int(l.buf[l.pos]-'0')
						l.pos++
					}
					c = byte(v)
				} else {
					c = e
				}
			}
		}
		out = append(out, c)
	}
	return string(out)
}

func (l *contentLexer) hexString() string {
	var out []byte
	var hi byte
	half := false
	for l.pos < len(l.buf) {
		c := l.buf[l.pos]
		l.pos++
		if c == '>' {
			break
		}
		var v byte
		switch {
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			continue
		}
		if half {
			out = append(out, hi<<4|v)
		} else {
			hi = v
		}
		half = !half
	}
	if half {
		out = append(out, hi<<4)
	}
	return string(out)
}

func (l *contentLexer) array(depth int) []any {
	var out []any
	for {
		l.skipSpace()
		if l.pos >= len(l.buf) {
			return out
		}
		if l.buf[l.pos] == ']' {
			l.pos++
			return out
		}
		if depth >= maxArrayDepth {
			l.pos++
			continue
		}
		v, isOp, more := l.object(depth + 1)
		if !more {
			return out
		}
		if isOp || v == nil {
			continue
		}
		if len(out) < maxArrayLen {
			out = append(out, v)
		}
	}
}

func (l *contentLexer) dict(depth int) map[string]any {
	out := map[string]any{}
	var key pdfName
	haveKey := false
	for {
		l.skipSpace()
		if l.pos >= len(l.buf) {
			return out
		}
		if l.buf[l.pos] == '>' {
			l.pos++
			if l.pos < len(l.buf) && l.buf[l.pos] == '>' {
				l.pos++
			}
			return out
		}
		if depth >= maxArrayDepth {
			l.pos++
			continue
		}
		v, isOp, more := l.object(depth + 1)
		if !more {
			return out
		}
		if isOp {
			continue
		}
		if !haveKey {
			if n, ok := v.(pdfName); ok {
				key, haveKey = n, true
			}
			continue
		}
		if len(out) < maxArrayLen {
			out[string(key)] = v
		}
		haveKey = false
	}
}

// skipInlineImage moves past an inline image (BI dict ID data EI): the
// binary data is skipped up to an "EI" that stands alone.
func (l *contentLexer) skipInlineImage() {
	idx := bytes.Index(l.buf[l.pos:], []byte("ID"))
	if idx < 0 {
		l.pos = len(l.buf)
		return
	}
	l.pos += idx + 2
	for {
		idx := bytes.Index(l.buf[l.pos:], []byte("EI"))
		if idx < 0 {
			l.pos = len(l.buf)
			return
		}
		at := l.pos + idx
		l.pos = at + 2
		before := at == 0 || isWhite(l.buf[at-1])
		after := l.pos >= len(l.buf) || isWhite(l.buf[l.pos]) || isDelim(l.buf[l.pos])
		if before && after {
			return
		}
	}
}
