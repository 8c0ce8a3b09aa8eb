// Package normalize turns extracted text into digestd's canonical text: the
// exact string that is archived, hashed and sliced by locators.
//
// Canonical text is UTF-8 in Unicode NFC. Inside a block, every run of
// Unicode white space is one U+0020 SPACE; blocks (paragraphs, headings, list
// items, table rows) are separated by exactly one "\n"; a PDF's pages are
// joined by exactly one U+000C FORM FEED, which appears nowhere else: only
// Pages makes pages, and a form feed in any other text is a block break. No other
// control characters survive, and no block is empty or has leading or
// trailing spaces. Offsets into canonical text are Unicode code points.
package normalize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Version names the canonicalization rules. Any change in the output of
// Canonical for some input is a new Version.
const Version = "canon/2"

// PageSeparator joins the pages of a paginated source (a PDF). It is the only
// place U+000C appears in canonical text.
const PageSeparator = '\f'

// Canonical returns the canonical form of an unpaginated text s, treating
// "\n", "\f" and every other line or paragraph separator as a block
// boundary: its result has no page separator, because only a paginated
// source has pages (see Pages). Canonical is idempotent:
// Canonical(Canonical(s)) == Canonical(s).
func Canonical(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	writeBlocks(&b, s)
	return b.String()
}

// Blocks returns the canonical text of a sequence of blocks from one page,
// each block canonicalized and empty ones dropped. A block may itself
// contain line breaks; they become block boundaries.
func Blocks(blocks []string) string {
	return Canonical(strings.Join(blocks, "\n"))
}

// Pages returns the canonical text of a paginated source whose pages are
// given in order, each as its own text. Empty pages are kept (so page N of
// the source is page N of the text); a page's own form feeds are treated as
// block boundaries. It is the only producer of PageSeparator.
func Pages(pages []string) string {
	var b strings.Builder
	for i, p := range pages {
		if i > 0 {
			b.WriteRune(PageSeparator)
		}
		writeBlocks(&b, p)
	}
	return b.String()
}

// writeBlocks writes the canonical blocks of one page: invisible characters
// dropped, NFC, white space collapsed, empty blocks dropped. Characters are
// dropped before composing, so that removing one can never leave a
// composable pair behind (which would break idempotence).
func writeBlocks(b *strings.Builder, page string) {
	page = nfc(dropInvisible(sanitizeUTF8(page)))
	first := true
	for len(page) > 0 {
		var line string
		line, page = nextLine(page)
		if writeBlock(b, line, !first) {
			first = false
		}
	}
}

// dropInvisible removes control characters other than line breaks and
// white space, zero-width format characters, noncharacters and U+FFFD.
func dropInvisible(s string) string {
	keep := func(r rune) bool {
		switch {
		case isLineBreak(r) || unicode.IsSpace(r):
			return true
		case r == '\u200b' || r == '\u2060' || r == '\ufeff' || r == '\u00ad':
			return false
		case unicode.IsControl(r) || r == utf8.RuneError || isNonCharacter(r):
			return false
		}
		return true
	}
	clean := true
	for i := 0; i < len(s); {
		// Printable ASCII is kept: most text is, and needs no decoding.
		if c := s[i]; c >= 0x20 && c < 0x7f {
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if !keep(r) {
			clean = false
			break
		}
		i += size
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if keep(r) {
			return r
		}
		return -1
	}, s)
}

func isLineBreak(r rune) bool {
	switch r {
	case '\n', '\r', '\v', '\f', '\u0085', '\u2028', '\u2029':
		return true
	}
	return false
}

// nextLine cuts s at the first block boundary.
func nextLine(s string) (line, rest string) {
	for i, r := range s {
		if isLineBreak(r) {
			return s[:i], s[i+utf8.RuneLen(r):]
		}
	}
	return s, ""
}

// writeBlock writes line with white space runs collapsed to one space and
// trimmed, preceded by "\n" when sep is set. It reports whether anything was
// written (a blank block writes nothing).
func writeBlock(b *strings.Builder, line string, sep bool) bool {
	wrote := false
	pendingSpace := false
	for i := 0; i < len(line); {
		// A run of printable ASCII other than the space is copied whole.
		j := i
		for j < len(line) && line[j] > ' ' && line[j] < 0x7f {
			j++
		}
		if j > i {
			if !wrote && sep {
				b.WriteByte('\n')
			}
			if pendingSpace {
				b.WriteByte(' ')
				pendingSpace = false
			}
			b.WriteString(line[i:j])
			wrote = true
			i = j
			continue
		}
		r, size := utf8.DecodeRuneInString(line[i:])
		i += size
		if unicode.IsSpace(r) {
			pendingSpace = wrote
			continue
		}
		if !wrote && sep {
			b.WriteByte('\n')
		}
		if pendingSpace {
			b.WriteByte(' ')
			pendingSpace = false
		}
		b.WriteRune(r)
		wrote = true
	}
	return wrote
}

func isNonCharacter(r rune) bool {
	return (r >= 0xFDD0 && r <= 0xFDEF) || r&0xFFFE == 0xFFFE || (r >= 0xD800 && r <= 0xDFFF)
}

// sanitizeUTF8 replaces invalid byte sequences with U+FFFD, which
// writeBlock then drops.
func sanitizeUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
