package digest

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/normalize"
)

// Allocation-free forms of the string functions the summary and
// boilerplate rules apply to every sentence. Each returns what the
// strings function it names would; they exist because those rules run on
// every sentence of long texts, where allocations drive latency.

// lowerInto appends strings.ToLower(s) to buf[:0] and returns it. ASCII text
// is lower-cased in place of a new string; other text goes through
// strings.ToLower, so the result is always the same.
func lowerInto(buf []byte, s string) []byte {
	buf = buf[:0]
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return append(buf, strings.ToLower(s)...)
		}
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		buf = append(buf, c)
	}
	return buf
}

// nextField returns the first field of s as strings.Fields splits it (runs
// of characters that are not unicode.IsSpace) and what follows that field;
// field is "" when s holds none.
func nextField(s string) (field, rest string) {
	start := -1
	for i := 0; i < len(s); {
		c := s[i]
		space, size := false, 1
		if c < utf8.RuneSelf {
			space = asciiSpace[c]
		} else {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
		}
		switch {
		case space && start >= 0:
			return s[start:i], s[i:]
		case !space && start < 0:
			start = i
		}
		i += size
	}
	if start < 0 {
		return "", ""
	}
	return s[start:], ""
}

// asciiSpace marks the ASCII bytes unicode.IsSpace reports.
var asciiSpace = [utf8.RuneSelf]bool{'\t': true, '\n': true, '\v': true, normalize.PageSeparator: true, '\r': true, ' ': true}

// wordSep reports the bytes firstWords splits words at.
func wordSep(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == normalize.PageSeparator
}
