package pdftext

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// hyphenMark follows a hyphen that ended a line before a lowercase letter:
// the hyphen either divided a word or belongs to a compound, which only the
// rest of the document can tell. resolveHyphens removes every mark. NUL
// never occurs in decoded text (see usable).
const hyphenMark = "\x00"

// resolveHyphens decides each line-end hyphen in the pages' paragraphs: the
// parts are joined when the joined word occurs elsewhere in the document,
// or when they are not both words of it; the hyphen stays when the
// document writes the pair hyphenated elsewhere or both parts are its words
// ("state-of-" / "the-art").
func resolveHyphens(pages [][]string) {
	marked := false
	for _, paras := range pages {
		for _, p := range paras {
			if strings.Contains(p, hyphenMark) {
				marked = true
			}
		}
	}
	if !marked {
		return
	}
	words := map[string]int{}
	pairs := map[string]int{}
	for _, paras := range pages {
		for _, p := range paras {
			countWords(strings.ReplaceAll(p, "-"+hyphenMark, " "), words, pairs)
		}
	}
	// The parts of marked words were counted as words; take them back.
	for _, paras := range pages {
		for _, p := range paras {
			forMarks(p, func(l, r string) {
				words[l]--
				words[r]--
			})
		}
	}
	for _, paras := range pages {
		for i, p := range paras {
			if !strings.Contains(p, hyphenMark) {
				continue
			}
			var b strings.Builder
			for {
				at := strings.Index(p, "-"+hyphenMark)
				if at < 0 {
					b.WriteString(strings.ReplaceAll(p, hyphenMark, ""))
					break
				}
				l, r := lastLetters(p[:at]), firstLetters(p[at+1+len(hyphenMark):])
				// Inside a chain of hyphenated parts the hyphen is the
				// compound's own.
				chain := strings.HasSuffix(p[:at-len(l)], "-") || strings.HasPrefix(p[at+1+len(hyphenMark)+len(r):], "-")
				b.WriteString(p[:at])
				if chain || keepHyphen(l, r, words, pairs) {
					b.WriteByte('-')
				}
				p = p[at+1+len(hyphenMark):]
			}
			paras[i] = b.String()
		}
	}
}

func keepHyphen(l, r string, words, pairs map[string]int) bool {
	l, r = strings.ToLower(l), strings.ToLower(r)
	switch {
	case l == "" || r == "":
		return true
	case words[l+r] > 0:
		return false
	case pairs[l+"-"+r] > 0:
		return true
	}
	return words[l] > 0 && words[r] > 0
}

// countWords counts the lowercased letter runs of s and, inside hyphenated
// compounds, each pair of neighbouring parts.
func countWords(s string, words, pairs map[string]int) {
	prev := ""
	start := -1
	for i, r := range s + " " {
		if unicode.IsLetter(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			w := strings.ToLower(s[start:i])
			words[w]++
			if prev != "" {
				pairs[prev+"-"+w]++
			}
			prev = ""
			if r == '-' || r == '\u2010' {
				prev = w
			}
			start = -1
			continue
		}
		prev = ""
	}
}

// forMarks calls fn with the letters on each side of every marked hyphen.
func forMarks(p string, fn func(l, r string)) {
	for {
		at := strings.Index(p, "-"+hyphenMark)
		if at < 0 {
			return
		}
		fn(strings.ToLower(lastLetters(p[:at])), strings.ToLower(firstLetters(p[at+1+len(hyphenMark):])))
		p = p[at+1+len(hyphenMark):]
	}
}

func lastLetters(s string) string {
	i := len(s)
	for i > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:i])
		if !unicode.IsLetter(r) {
			break
		}
		i -= n
	}
	return s[i:]
}

func firstLetters(s string) string {
	for i, r := range s {
		if !unicode.IsLetter(r) {
			return s[:i]
		}
	}
	return s
}
