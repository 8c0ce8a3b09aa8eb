package pdftext

import (
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// isRTL reports whether r is a strong right-to-left letter.
func isRTL(r rune) bool {
	return unicode.In(r, unicode.Hebrew, unicode.Arabic, unicode.Syriac, unicode.Thaana, unicode.Nko) &&
		(unicode.IsLetter(r) || unicode.Is(unicode.Mn, r))
}

// visualToLogical turns a line read left to right on the page (visual
// order) into logical order: each run of right-to-left text is reversed,
// keeping combining marks after their base, and Arabic and Hebrew
// presentation forms are replaced by their plain letters. Digits keep their
// order.
func visualToLogical(s string) string {
	hasRTL, hasForms := false, false
	for _, r := range s {
		if isRTL(r) {
			hasRTL = true
		}
		if isPresentationForm(r) {
			hasForms = true
		}
	}
	if !hasRTL {
		return s
	}
	rs := []rune(s)
	// Clusters: a base rune with the combining marks that follow it.
	type cluster struct{ start, end int }
	var cl []cluster
	for i := 0; i < len(rs); {
		j := i + 1
		for j < len(rs) && unicode.Is(unicode.Mn, rs[j]) {
			j++
		}
		cl = append(cl, cluster{i, j})
		i = j
	}
	rtl := func(c cluster) bool { return isRTL(rs[c.start]) }
	neutral := func(c cluster) bool {
		r := rs[c.start]
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}
	var out []rune
	for i := 0; i < len(cl); {
		if !rtl(cl[i]) {
			out = append(out, rs[cl[i].start:cl[i].end]...)
			i++
			continue
		}
		// Extend the run over neutrals that are followed by more RTL text.
		j, end := i, i
		for j < len(cl) && (rtl(cl[j]) || neutral(cl[j])) {
			if rtl(cl[j]) {
				end = j
			}
			j++
		}
		for k := end; k >= i; k-- {
			c := cl[k]
			out = append(out, rs[c.start:c.end]...)
		}
		i = end + 1
	}
	res := string(out)
	if hasForms {
		var b strings.Builder
		for _, r := range res {
			if isPresentationForm(r) {
				b.WriteString(norm.NFKC.String(string(r)))
			} else {
				b.WriteRune(r)
			}
		}
		res = b.String()
	}
	return res
}

func isPresentationForm(r rune) bool {
	return r >= 0xFB1D && r <= 0xFDFF || r >= 0xFE70 && r <= 0xFEFF
}

func hasRTL(s string) bool {
	for _, r := range s {
		if isRTL(r) {
			return true
		}
	}
	return false
}

func reverseRunes(s string) string {
	rs := []rune(s)
	for i, j := 0, len(rs)-1; i < j; i, j = i+1, j-1 {
		rs[i], rs[j] = rs[j], rs[i]
	}
	return string(rs)
}
