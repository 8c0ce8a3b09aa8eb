package locate

import (
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"

	"github.com/digestd/digestd/normalize"
)

// folded is a text after the normalized folding, with a map from each
// folded rune back to the code point of the text that produced it.
type folded struct {
	runes []rune
	src   []int32 // src[k]: code point offset in the original of runes[k]
}

// fold applies the normalized folding to s: Unicode compatibility
// decomposition and composition (NFKC: ligatures, full-width forms,
// superscripts), lower case, every quote mark to ' or ", every dash and
// minus to -, soft hyphens and zero-width characters dropped, white-space
// runs (including line and page breaks) to one space, a hyphen that ends a
// line or is followed by white space between two letters dropped with that
// space ("transmis- sion" → "transmission"), and leading and trailing
// space trimmed. Two strings are equal after folding when they differ only
// in those respects.
func fold(s string) folded {
	mid := make([]rune, 0, len(s))
	midSrc := make([]int32, 0, len(s))
	var buf [16]rune
	i := int32(0)
	for _, r := range s {
		for _, f := range foldRune(r, buf[:0]) {
			mid = append(mid, f)
			midSrc = append(midSrc, i)
		}
		i++
	}
	out := folded{runes: make([]rune, 0, len(mid)), src: make([]int32, 0, len(mid))}
	for k := 0; k < len(mid); k++ {
		r := mid[k]
		if r == ' ' {
			if len(out.runes) == 0 || out.runes[len(out.runes)-1] == ' ' {
				continue
			}
		}
		if r == '-' && len(out.runes) > 0 && unicode.IsLetter(out.runes[len(out.runes)-1]) {
			j := k + 1
			for j < len(mid) && mid[j] == ' ' {
				j++
			}
			if j > k+1 && j < len(mid) && unicode.IsLower(mid[j]) {
				k = j - 1 // a hyphenation: drop the hyphen and the break
				continue
			}
		}
		out.runes = append(out.runes, r)
		out.src = append(out.src, midSrc[k])
	}
	for len(out.runes) > 0 && out.runes[len(out.runes)-1] == ' ' {
		out.runes = out.runes[:len(out.runes)-1]
		out.src = out.src[:len(out.src)-1]
	}
	return out
}

// foldRune appends the folding of one rune to dst (white space becomes one
// space; the run collapsing is fold's).
func foldRune(r rune, dst []rune) []rune {
	if r < utf8.RuneSelf {
		switch {
		case r >= 'A' && r <= 'Z':
			return append(dst, r+'a'-'A')
		case r == ' ' || r == '\n' || r == '\t' || r == '\r' || r == normalize.PageSeparator || r == '\v':
			return append(dst, ' ')
		case r == '`':
			return append(dst, '\'')
		}
		return append(dst, r)
	}
	switch r {
	case 0xAD, 0x200B, 0x200C, 0x200D, 0x2060, 0xFEFF:
		return dst
	case 0x2018, 0x2019, 0x201A, 0x201B, 0x2032, 0x00B4, 0x2035, 0x02BC, 0xFF07:
		return append(dst, '\'')
	case 0x201C, 0x201D, 0x201E, 0x201F, 0x2033, 0x00AB, 0x00BB, 0x2036, 0xFF02, 0x301D, 0x301E:
		return append(dst, '"')
	case 0x2010, 0x2011, 0x2012, 0x2013, 0x2014, 0x2015, 0x2212, 0xFE58, 0xFE63, 0xFF0D, 0x2043:
		return append(dst, '-')
	}
	if unicode.IsSpace(r) {
		return append(dst, ' ')
	}
	var b [utf8.UTFMax]byte
	n := utf8.EncodeRune(b[:], r)
	k := norm.NFKC.Bytes(b[:n])
	for len(k) > 0 {
		c, size := utf8.DecodeRune(k)
		k = k[size:]
		if c == r {
			dst = append(dst, unicode.ToLower(c))
			continue
		}
		dst = foldRune(c, dst) // a decomposition may yield quotes, dashes or spaces
	}
	return dst
}

// isWordRune reports whether r belongs to a word: letters and digits.
func isWordRune(r rune) bool {
	if r < utf8.RuneSelf {
		return r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r >= 'A' && r <= 'Z'
	}
	return unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
}
