package digest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/normalize"
)

// SectionHeading fits a heading's text, one block of the canonical text,
// to MaxSectionHeadingChars code points: a longer one is cut after its
// last whole word that fits (at the bound itself when no word ends in its
// second half). The result is a prefix of h, and so still a slice of the
// text at the heading's start.
func SectionHeading(h string) string {
	if utf8.RuneCountInString(h) <= MaxSectionHeadingChars {
		return h
	}
	runes := []rune(h)
	cut := MaxSectionHeadingChars
	if !unicode.IsSpace(runes[cut]) {
		for i := cut - 1; i > MaxSectionHeadingChars/2; i-- {
			if unicode.IsSpace(runes[i]) {
				cut = i
				break
			}
		}
	}
	return strings.TrimRightFunc(string(runes[:cut]), unicode.IsSpace)
}

// VerifySections checks the section of every snippet against text, the
// canonical text the snippets were verified against: errs[i] is nil when
// snippet i has no section, or when each heading of its section begins a
// block of the text, each after the one before it, the last at or before
// the snippet's start (a heading's own text lies in its section). It
// cannot tell a heading from another block, which only the source's
// structure knows, but a heading that is not the text's, or that comes
// after its snippet, fails. Snippets must have valid locators (Validate).
// It stops early, returning ctx's error, when ctx is done.
func VerifySections(ctx context.Context, text string, snippets []EvidenceSnippet) ([]error, error) {
	var starts []int
	for _, s := range snippets {
		if len(s.Section) > 0 {
			starts = append(starts, s.Locator.Start)
		}
	}
	errs := make([]error, len(snippets))
	if len(starts) == 0 {
		return errs, nil
	}
	slices.Sort(starts)
	starts = slices.Compact(starts)
	byteAt := normalize.ByteOffsets(text, starts)
	for n, s := range snippets {
		if len(s.Section) == 0 {
			continue
		}
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		k, _ := slices.BinarySearch(starts, s.Locator.Start)
		limit, from := byteAt[k], 0
		for j, h := range s.Section {
			at := blockStart(text, h, from, limit)
			if at < 0 {
				errs[n] = fmt.Errorf("section[%d]: %q does not begin a block of the text after the heading before it and at or before the snippet", j, h)
				break
			}
			from = at + len(h)
		}
	}
	return errs, nil
}

// blockStart returns the byte offset of the first place at or after from
// where h begins a block of text (at its start, or after a line break or
// the page separator) and that is at or before limit; -1 when there is
// none.
func blockStart(text, h string, from, limit int) int {
	if h == "" {
		return -1
	}
	end := min(len(text), limit+len(h))
	for from <= limit {
		i := strings.Index(text[from:end], h)
		if i < 0 || from+i > limit {
			return -1
		}
		at := from + i
		if at == 0 || text[at-1] == '\n' || text[at-1] == byte(normalize.PageSeparator) {
			return at
		}
		from = at + 1
	}
	return -1
}
