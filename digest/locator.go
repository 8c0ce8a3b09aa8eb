package digest

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/digestd/digestd/normalize"
)

// Locator addresses a span of a canonical text in Unicode code points:
// text[Start:End] as Python slices a str. Page is the 1-based page that holds
// the span for paginated (PDF) texts, and 0 for the plain "char:S-E" form;
// Start and End are offsets into the whole canonical text in both forms.
type Locator struct {
	Page       int
	Start, End int
}

// ErrLocator is wrapped by every locator parse and verification error.
var ErrLocator = errors.New("invalid locator")

// maxOffset bounds parsed offsets so arithmetic on them cannot overflow.
const maxOffset = 1 << 40

// ParseLocator parses "char:S-E" or "page:N:char:S-E" (S ≤ E, N ≥ 1). A
// locator travels as a Locator value from the digester to the edge; its text
// form is read only where one comes in: a request's JSON or query parameter
// (wire), a report's citations (locate), and an archived digest blob
// (UnmarshalText).
func ParseLocator(s string) (Locator, error) {
	var l Locator
	rest := s
	if p, ok := strings.CutPrefix(rest, "page:"); ok {
		i := strings.IndexByte(p, ':')
		if i < 0 {
			return Locator{}, fmt.Errorf("%w %q: want page:N:char:S-E", ErrLocator, s)
		}
		n, err := parseNumber(p[:i])
		if err != nil || n < 1 {
			return Locator{}, fmt.Errorf("%w %q: page must be an integer ≥ 1", ErrLocator, s)
		}
		l.Page = n
		rest = p[i+1:]
	}
	span, ok := strings.CutPrefix(rest, "char:")
	if !ok {
		return Locator{}, fmt.Errorf("%w %q: want char:S-E or page:N:char:S-E", ErrLocator, s)
	}
	a, b, ok := strings.Cut(span, "-")
	if !ok {
		return Locator{}, fmt.Errorf("%w %q: want S-E", ErrLocator, s)
	}
	var err1, err2 error
	l.Start, err1 = parseNumber(a)
	l.End, err2 = parseNumber(b)
	if err1 != nil || err2 != nil {
		return Locator{}, fmt.Errorf("%w %q: offsets must be non-negative integers", ErrLocator, s)
	}
	if l.Start > l.End {
		return Locator{}, fmt.Errorf("%w %q: start exceeds end", ErrLocator, s)
	}
	return l, nil
}

// parseNumber accepts only plain decimal digits (no sign, no spaces).
func parseNumber(s string) (int, error) {
	if s == "" || len(s) > 13 {
		return 0, strconv.ErrRange
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, strconv.ErrSyntax
		}
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > maxOffset {
		return 0, strconv.ErrRange
	}
	return n, nil
}

// String formats the locator in its canonical form.
func (l Locator) String() string {
	var buf [64]byte
	return string(l.appendTo(buf[:0]))
}

func (l Locator) appendTo(b []byte) []byte {
	if l.Page > 0 {
		b = append(b, "page:"...)
		b = strconv.AppendInt(b, int64(l.Page), 10)
		b = append(b, ':')
	}
	b = append(b, "char:"...)
	b = strconv.AppendInt(b, int64(l.Start), 10)
	b = append(b, '-')
	return strconv.AppendInt(b, int64(l.End), 10)
}

// MarshalText writes the canonical form, so a Locator is a JSON string.
func (l Locator) MarshalText() ([]byte, error) { return l.appendTo(make([]byte, 0, 32)), nil }

// UnmarshalText reads the text form (see ParseLocator).
func (l *Locator) UnmarshalText(b []byte) error {
	loc, err := ParseLocator(string(b))
	if err != nil {
		return err
	}
	*l = loc
	return nil
}

// Valid reports whether l is a span ParseLocator could return: 0 ≤ Start ≤
// End within the offset bound, and Page ≥ 0. The zero Locator is valid (the
// empty span at 0); a client's locator that does not parse is held as an
// invalid one (see Invalid) so that Validate names it with the payload's
// other problems.
func (l Locator) Valid() bool {
	return l.Page >= 0 && l.Start >= 0 && l.Start <= l.End && l.End <= maxOffset
}

// Invalid is the Locator that stands for a locator that did not parse.
var Invalid = Locator{Start: -1, End: -1}

// Len is the span's length in code points.
func (l Locator) Len() int { return l.End - l.Start }

// Slice returns text[l.Start:l.End] in code points. It fails when the span is
// out of range, and for a page locator when the span is not wholly on page
// l.Page (it may not contain a page separator).
func (l Locator) Slice(text string) (string, error) {
	if l.Start < 0 || l.Start > l.End {
		return "", fmt.Errorf("%w %s: bad span", ErrLocator, l)
	}
	i := 0 // code point index
	startByte, endByte := -1, -1
	for b := range text {
		if i == l.Start {
			startByte = b
		}
		if i == l.End {
			endByte = b
			break
		}
		i++
	}
	if startByte < 0 && i == l.Start {
		startByte = len(text)
	}
	if endByte < 0 && i == l.End {
		endByte = len(text)
	}
	var pages normalize.PageIndex
	if l.Page > 0 {
		pages = normalize.IndexPages(text)
		if startByte >= 0 && pages.HasBreak(l.Start, l.End) {
			return "", fmt.Errorf("%w %s: span crosses a page boundary", ErrLocator, l)
		}
	}
	if startByte < 0 || endByte < 0 {
		return "", fmt.Errorf("%w %s: out of range for a text of %d code points", ErrLocator, l, utf8.RuneCountInString(text))
	}
	if page := pages.PageOf(l.Start); l.Page > 0 && page != l.Page {
		return "", fmt.Errorf("%w %s: span is on page %d", ErrLocator, l, page)
	}
	return text[startByte:endByte], nil
}

// Verify reports whether snippet is exactly the text at l.
func (l Locator) Verify(text, snippet string) error {
	got, err := l.Slice(text)
	if err != nil {
		return err
	}
	if got != snippet {
		return fmt.Errorf("%w %s: text at locator differs from snippet", ErrLocator, l)
	}
	return nil
}

// PaginateLocators rewrites every "char:S-E" locator of p into the
// "page:N:char:S-E" form for text, the canonical text of a paginated source
// (a PDF, even one of a single page, whose text has no page separator). It
// fails if some snippet crosses a page boundary, which a digester must never
// produce.
func PaginateLocators(p *Payload, text string) error {
	if len(p.EvidenceSnippets) == 0 {
		return nil
	}
	pages := normalize.IndexPages(text)
	for k := range p.EvidenceSnippets {
		s := &p.EvidenceSnippets[k]
		loc := s.Locator
		page, onePage := pages.Span(loc.Start, loc.End)
		if !onePage {
			return fmt.Errorf("%w %s: span crosses a page boundary", ErrLocator, loc)
		}
		if loc.Page != 0 && loc.Page != page {
			return fmt.Errorf("%w %s: span is on page %d", ErrLocator, loc, page)
		}
		s.Locator.Page = page
	}
	return nil
}
