package normalize

import (
	"slices"
	"strings"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// graphemeJoiner is U+034F COMBINING GRAPHEME JOINER, which x/text's
// normalizer inserts after every 30 non-starters (the Unicode Stream-Safe
// Text Format, UAX #15 §13).
const graphemeJoiner = '\u034f'

// nfc returns s in Unicode Normalization Form C exactly as UAX #15 defines it,
// so that any conforming implementation (Python's unicodedata, ICU, a browser)
// reproduces canonical text from the same input. x/text is exact except on
// runs of more than 30 combining marks, where it inserts U+034F; those rare
// texts are composed here by the standard algorithm instead.
func nfc(s string) string {
	out := norm.NFC.String(s)
	if strings.Count(out, string(graphemeJoiner)) == strings.Count(s, string(graphemeJoiner)) {
		return out
	}
	return composeCanonical(s)
}

// composeCanonical is UAX #15's NFC: full canonical decomposition, canonical
// ordering of combining marks, then canonical composition. It reads x/text's
// tables one character at a time, which never triggers stream-safe joining.
func composeCanonical(s string) string {
	type mark struct {
		r   rune
		ccc uint8
	}
	var d []mark
	for _, r := range s {
		for _, c := range norm.NFD.String(string(r)) {
			d = append(d, mark{c, norm.NFD.PropertiesString(string(c)).CCC()})
		}
	}
	// Canonical ordering: each run of non-starters sorted stably by class.
	for i := 0; i < len(d); {
		if d[i].ccc == 0 {
			i++
			continue
		}
		j := i
		for j < len(d) && d[j].ccc != 0 {
			j++
		}
		slices.SortStableFunc(d[i:j], func(a, b mark) int { return int(a.ccc) - int(b.ccc) })
		i = j
	}
	// Canonical composition: a character joins the last starter unless a
	// character between them is a starter or has a class at least its own.
	out := make([]mark, 0, len(d))
	starter := -1
	var last uint8
	for _, c := range d {
		if starter >= 0 {
			adjacent := starter == len(out)-1
			if adjacent || last < c.ccc {
				if p, ok := primaryComposite(out[starter].r, c.r); ok {
					out[starter].r = p
					continue
				}
			}
		}
		if c.ccc == 0 {
			starter = len(out)
		}
		last = c.ccc
		out = append(out, c)
	}
	var b strings.Builder
	b.Grow(len(s))
	for _, c := range out {
		b.WriteRune(c.r)
	}
	return b.String()
}

// primaryComposite returns the character that a and b compose to, if any.
func primaryComposite(a, b rune) (rune, bool) {
	var buf [2 * utf8.UTFMax]byte
	n := utf8.EncodeRune(buf[:], a)
	n += utf8.EncodeRune(buf[n:], b)
	c := norm.NFC.Bytes(buf[:n])
	if r, size := utf8.DecodeRune(c); size == len(c) && r != utf8.RuneError {
		return r, true
	}
	return 0, false
}
