// Package sentences splits text into sentences by rule: terminal
// punctuation followed by space and a plausible sentence start, with
// exceptions for abbreviations, initials, numbers, ellipses, URLs and e-mail
// addresses. Line breaks and page separators always end a sentence, so
// headings and list items without a stop are sentences of their own.
package sentences

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a sentence as byte offsets into the text given to Split:
// text[Start:End]. A span never starts or ends with white space and never
// contains "\n" or "\f".
type Span struct {
	Start, End int
}

// Split returns the sentences of text in order. Spans do not overlap; text
// outside every span is white space.
func Split(text string) []Span {
	spans := make([]Span, 0, len(text)/80+1)
	start := 0
	for i := 0; i <= len(text); i++ {
		if i == len(text) || text[i] == '\n' || text[i] == '\f' || text[i] == '\r' || text[i] == '\v' {
			spans = splitBlock(text, start, i, spans)
			start = i + 1
		}
	}
	return spans
}

// Strings returns the text of each sentence of text, as Split finds them.
func Strings(text string) []string {
	spans := Split(text)
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = text[s.Start:s.End]
	}
	return out
}

// splitBlock appends the sentences of text[lo:hi], a block without line
// breaks, to spans.
func splitBlock(text string, lo, hi int, spans []Span) []Span {
	block := text[lo:hi]
	start := 0
	for _, cut := range boundaries(block) {
		spans = appendTrimmed(spans, block, start, cut, lo)
		start = cut
	}
	return appendTrimmed(spans, block, start, len(block), lo)
}

// appendTrimmed appends block[a:b] without surrounding white space, shifted
// by base, unless it is empty.
func appendTrimmed(spans []Span, block string, a, b, base int) []Span {
	for a < b {
		r, n := utf8.DecodeRuneInString(block[a:])
		if !unicode.IsSpace(r) {
			break
		}
		a += n
	}
	for b > a {
		r, n := utf8.DecodeLastRuneInString(block[:b])
		if !unicode.IsSpace(r) {
			break
		}
		b -= n
	}
	if a < b {
		spans = append(spans, Span{Start: base + a, End: base + b})
	}
	return spans
}

// isTerminal reports sentence-final punctuation.
func isTerminal(r rune) bool {
	switch r {
	case '.', '!', '?', '…', '‼', '⁇', '⁈', '⁉', '。', '！', '？', '｡', '︒', '﹒', '．':
		return true
	}
	return false
}

// isCJKTerminal reports full stops that end a sentence without a following
// space.
func isCJKTerminal(r rune) bool {
	switch r {
	case '。', '！', '？', '｡':
		return true
	}
	return false
}

// isCloser reports closing quotes and brackets that stay with the sentence
// they follow.
func isCloser(r rune) bool {
	switch r {
	case '"', '\'', '”', '’', '»', '›', ')', ']', '}', '」', '』', '）', '】', '〉', '》', '`':
		return true
	}
	return false
}

// isOpener reports opening quotes and brackets that may start a sentence.
func isOpener(r rune) bool {
	switch r {
	case '"', '\'', '“', '‘', '«', '‹', '(', '[', '{', '「', '『', '（', '【', '〈', '《', '`', '¿', '¡':
		return true
	}
	return false
}

// boundaries returns the byte offsets in block where a new sentence starts.
func boundaries(block string) []int {
	var cuts []int
	i := 0
	for i < len(block) {
		r, n := utf8.DecodeRuneInString(block[i:])
		if !isTerminal(r) {
			i += n
			continue
		}
		termStart := i
		// Take the whole run of terminals, spaced ellipses (". . .") included.
		j := i + n
		for j < len(block) {
			r2, n2 := utf8.DecodeRuneInString(block[j:])
			if isTerminal(r2) {
				j += n2
				continue
			}
			if r2 == ' ' && j+1 < len(block) && block[j+1] == '.' {
				j++
				continue
			}
			break
		}
		if isCJKTerminal(r) {
			k := skipClosers(block, j)
			if k < len(block) {
				cuts = append(cuts, k)
			}
			i = k
			continue
		}
		end := skipClosers(block, j)
		if end >= len(block) {
			break
		}
		next, _ := utf8.DecodeRuneInString(block[end:])
		if !unicode.IsSpace(next) {
			i = end
			continue
		}
		if isBoundary(block, termStart, j, end) {
			cuts = append(cuts, end)
		}
		i = end
	}
	return cuts
}

// skipClosers returns the offset after any closing quotes and brackets at i.
func skipClosers(block string, i int) int {
	for i < len(block) {
		r, n := utf8.DecodeRuneInString(block[i:])
		if !isCloser(r) {
			break
		}
		i += n
	}
	return i
}

// isBoundary decides whether the terminal run block[ts:te], followed by
// closers up to end and then white space, ends a sentence.
func isBoundary(block string, ts, te, end int) bool {
	nextWord := firstWord(block[end:])
	nr, _ := utf8.DecodeRuneInString(nextWord)
	lowerNext := unicode.IsLower(nr)
	run := block[ts:te]
	if strings.Contains(run, "!") || strings.Contains(run, "?") {
		return !lowerNext
	}
	if lowerNext {
		return false
	}
	if te-ts > 1 || run == "…" {
		// An ellipsis ends a sentence only before a capitalised word.
		return unicode.IsUpper(nr) || isOpener(nr)
	}
	if end > te {
		// A stop inside quotes or brackets before a capital is a boundary.
		return true
	}
	word := lastWord(block[:ts])
	if word == "" {
		return true
	}
	if isAbbreviation(word) {
		return false
	}
	// Initials: "J. R. R. Tolkien", "George W. Bush" — a single capital
	// followed by a capitalised word. A lone "I" is a pronoun.
	if utf8.RuneCountInString(word) == 1 {
		wr, _ := utf8.DecodeRuneInString(word)
		if unicode.IsUpper(wr) && word != "I" {
			return false
		}
	}
	if unicode.IsDigit(nr) && isNumberAbbrev(word) {
		return false
	}
	return true
}

// firstWord returns the text after leading white space up to the next space.
func firstWord(s string) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i]
	}
	return s
}

// lastWord returns the word just before a stop: the run of non-space
// characters ending at the end of s, without leading openers.
func lastWord(s string) string {
	i := strings.LastIndexFunc(s, unicode.IsSpace)
	w := s[i+1:]
	return strings.TrimLeftFunc(w, isOpener)
}

// isNumberAbbrev reports abbreviations that usually precede a number.
func isNumberAbbrev(word string) bool {
	switch strings.ToLower(word) {
	case "no", "nos", "nr", "p", "pp", "vol", "fig", "figs", "eq", "eqs", "ch", "sec", "art", "ref", "refs", "tab", "n°":
		return true
	}
	return false
}

// isAbbreviation reports words that are followed by a period without ending
// a sentence.
func isAbbreviation(word string) bool {
	lw := strings.ToLower(word)
	if abbrevSet(lw) {
		return true
	}
	// Dotted acronyms and abbreviations: "U.S", "e.g", "a.m", "Ph.D".
	if strings.Contains(lw, ".") && !strings.Contains(lw, "..") {
		parts := strings.Split(lw, ".")
		short := true
		for _, p := range parts {
			if utf8.RuneCountInString(p) > 2 {
				short = false
				break
			}
		}
		if short {
			return true
		}
	}
	return false
}

// abbrevSet reports lower-cased abbreviations that take a period.
func abbrevSet(w string) bool {
	switch w {
	case "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "ft", "rev", "gen", "col", "lt", "sgt", "capt", "cpt", "gov", "sen", "rep", "hon", "pres",
		"inc", "ltd", "co", "corp", "bros", "dept", "univ", "assn", "est",
		"vs", "etc", "al", "approx", "ca", "cf", "esp", "viz", "resp", "incl", "avg", "min", "max", "misc",
		"fig", "figs", "eq", "eqs", "no", "nos", "vol", "vols", "pp", "ch", "sec", "ed", "eds", "ref", "refs", "tab", "suppl", "ser",
		"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
		"mon", "tue", "tues", "wed", "thu", "thurs", "fri", "sat", "sun",
		"ave", "blvd", "rd", "hwy", "apt", "dist", "mx", "messrs", "mme", "mlle", "phd", "md", "ph", "e.g", "i.e", "a.m", "p.m", "n°":
		return true
	}
	return false
}
