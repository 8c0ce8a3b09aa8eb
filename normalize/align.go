package normalize

import (
	"errors"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// ErrMisaligned is wrapped by Align's error when canon is not the
// canonical form of raw.
var ErrMisaligned = errors.New("normalize: the text is not the canonical form of the raw text")

// Align maps byte offsets of raw, an extractor's text, to code point
// offsets of canon, its canonical form (Canonical(raw), or Pages of the
// pages raw joins with PageSeparator). offs must be ascending. For each
// offs[i], before[i] is the code point offset just past the last character
// of canon that raw[:offs[i]] produced, and after[i] that of the first
// character raw[offs[i]:] produced; a white space run counts as producing
// the space, line or page break it became. A span [s, e) of raw thus maps
// to [after(s), before(e)) of canon. It reads both texts once; a character
// cut by an offset (one of a composed pair) belongs to neither side.
func Align(raw, canon string, offs []int) (before, after []int, err error) {
	a := aligner{raw: raw, canon: canon, offs: offs, before: make([]int, len(offs)), after: make([]int, len(offs))}
	if err := a.run(); err != nil {
		return nil, nil, err
	}
	return a.before, a.after, nil
}

// aligner walks raw and canon side by side.
type aligner struct {
	raw, canon    string
	offs          []int
	before, after []int
	next          int // the first offset not yet mapped
	ri            int // byte offset in raw
	cb, cp        int // byte and code point offset in canon
}

func (a *aligner) run() error {
	for a.ri < len(a.raw) {
		c := a.raw[a.ri]
		// Printable ASCII other than the space, followed by ASCII (which
		// composes with nothing before it), is its own canonical byte.
		if c > ' ' && c < 0x7f && (a.ri+1 == len(a.raw) || plainASCII(a.raw[a.ri+1])) {
			if a.cb >= len(a.canon) || a.canon[a.cb] != c {
				return a.misaligned()
			}
			a.produced(a.ri, a.ri+1, a.cp, a.cp+1)
			a.ri++
			a.cb++
			a.cp++
			continue
		}
		r, size := utf8.DecodeRuneInString(a.raw[a.ri:])
		switch {
		case dropped(r):
			a.produced(a.ri, a.ri+size, a.cp, a.cp)
			a.ri += size
		case isBlank(r):
			a.blankRun()
		default:
			if err := a.segment(); err != nil {
				return err
			}
		}
	}
	if a.cb != len(a.canon) {
		return a.misaligned()
	}
	a.produced(len(a.raw), len(a.raw), a.cp, a.cp)
	return nil
}

// plainASCII reports whether c is printable ASCII, a space or a line
// break: a character canonicalization neither drops nor composes.
func plainASCII(c byte) bool { return (c >= ' ' && c < 0x7f) || c == '\n' || c == '\t' || c == '\r' }

// dropped reports whether canonicalization drops r (see dropInvisible).
func dropped(r rune) bool {
	switch {
	case isBlank(r):
		return false
	case r == '\u200b' || r == '\u2060' || r == '\ufeff' || r == '\u00ad':
		return true
	}
	return unicode.IsControl(r) || r == utf8.RuneError || isNonCharacter(r)
}

// isBlank reports whether r is white space or a line break.
func isBlank(r rune) bool { return isLineBreak(r) || unicode.IsSpace(r) }

// blankRun maps a run of white space, line breaks and dropped characters
// to the run of spaces and separators canon holds there (none at a block's
// edge).
func (a *aligner) blankRun() {
	start := a.ri
	for a.ri < len(a.raw) {
		r, size := utf8.DecodeRuneInString(a.raw[a.ri:])
		if !isBlank(r) && !dropped(r) {
			break
		}
		a.ri += size
	}
	cp := a.cp
	for a.cb < len(a.canon) {
		c := a.canon[a.cb]
		if c != ' ' && c != '\n' && c != PageSeparator {
			break
		}
		a.cb++
		a.cp++
	}
	a.produced(start, a.ri, cp, a.cp)
}

// segment maps a normalization segment of raw (a character and the ones
// that may compose with it, dropped characters between them left out) to
// its NFC form in canon.
func (a *aligner) segment() error {
	start := a.ri
	var seg strings.Builder
	for first := true; a.ri < len(a.raw); first = false {
		r, size := utf8.DecodeRuneInString(a.raw[a.ri:])
		if dropped(r) {
			a.ri += size
			continue
		}
		if isBlank(r) || (!first && (r < utf8.RuneSelf || norm.NFC.PropertiesString(a.raw[a.ri:a.ri+size]).BoundaryBefore())) {
			break
		}
		seg.WriteRune(r)
		a.ri += size
	}
	out := nfc(seg.String())
	if !strings.HasPrefix(a.canon[a.cb:], out) {
		a.ri = start
		return a.misaligned()
	}
	n := utf8.RuneCountInString(out)
	a.produced(start, a.ri, a.cp, a.cp+n)
	a.cb += len(out)
	a.cp += n
	return nil
}

// produced records that raw[from:to] produced canon's code points
// [lo, hi), mapping the offsets in [from, to]: one at from lies before
// them, one inside the run cuts it and takes neither side.
func (a *aligner) produced(from, to, lo, hi int) {
	for a.next < len(a.offs) && a.offs[a.next] <= to {
		o := a.offs[a.next]
		switch {
		case o < from:
			// An offset out of order, or inside a run already mapped.
			a.before[a.next], a.after[a.next] = lo, lo
		case o == from:
			a.before[a.next], a.after[a.next] = lo, lo
		case o == to && to < len(a.raw):
			// The next run maps it: from == to there.
			return
		case o == to:
			a.before[a.next], a.after[a.next] = hi, hi
		default:
			a.before[a.next], a.after[a.next] = lo, hi
		}
		a.next++
	}
}

func (a *aligner) misaligned() error {
	return fmt.Errorf("%w (at raw byte %d, canonical code point %d)", ErrMisaligned, a.ri, a.cp)
}
