// Package textmetric scores extracted PDF text against a reference with the
// project's PDF metrics (word F1 and per-document shingle F1), for the
// extraction tests of the PDF packages.
package textmetric

import (
	"strings"
	"unicode"
)

// Tokens splits text into maximal runs of letters, numbers and '_'
// (the pattern [\p{L}\p{N}_]+), case preserved.
func Tokens(text string) []string {
	return strings.FieldsFunc(text, func(r rune) bool {
		return !(r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r))
	})
}

// WordF1 is the F1 of the token multisets: P = Σmin/|extracted|,
// R = Σmin/|reference|. Two empty texts score 1, one empty side 0.
func WordF1(got, ref string) float64 {
	return multisetF1(count(Tokens(got)), count(Tokens(ref)))
}

// ShingleF1 is the F1 of the multisets of 4-token shingles (a text of fewer
// than 4 tokens is one shorter shingle): it rewards reading order.
func ShingleF1(got, ref string) float64 {
	return multisetF1(count(shingles(Tokens(got))), count(shingles(Tokens(ref))))
}

func shingles(toks []string) []string {
	const n = 4
	if len(toks) < n {
		return []string{strings.Join(toks, " ")}
	}
	out := make([]string, 0, len(toks)-n+1)
	for i := 0; i+n <= len(toks); i++ {
		out = append(out, strings.Join(toks[i:i+n], " "))
	}
	return out
}

func count(items []string) map[string]int {
	m := make(map[string]int, len(items))
	for _, s := range items {
		m[s]++
	}
	return m
}

func multisetF1(got, ref map[string]int) float64 {
	ng, nr := total(got), total(ref)
	if ng == 0 && nr == 0 {
		return 1
	}
	if ng == 0 || nr == 0 {
		return 0
	}
	tp := 0
	for k, c := range got {
		tp += min(c, ref[k])
	}
	if tp == 0 {
		return 0
	}
	p, r := float64(tp)/float64(ng), float64(tp)/float64(nr)
	return 2 * p * r / (p + r)
}

func total(m map[string]int) int {
	n := 0
	for _, c := range m {
		n += c
	}
	return n
}
