package evaluate

import (
	"strings"
	"unicode"
)

// ShingleSize is the number of tokens in one shingle of the shingle metric.
const ShingleSize = 4

// Tokens splits text into word tokens: maximal runs of Unicode letters,
// numbers and '_' (the pattern [\p{L}\p{N}_]+), case preserved.
func Tokens(text string) []string {
	var out []string
	start := -1
	for i, r := range text {
		if isWordRune(r) {
			if start < 0 {
				start = i
			}
			continue
		}
		if start >= 0 {
			out = append(out, text[start:i])
			start = -1
		}
	}
	if start >= 0 {
		out = append(out, text[start:])
	}
	return out
}

func isWordRune(r rune) bool {
	return r == '_' || unicode.IsLetter(r) || unicode.IsNumber(r)
}

// shingles returns the multiset of n-token shingles of tokens. A text with
// fewer than n tokens (including none) is one shorter shingle, as in the
// article-extraction-benchmark.
func shingles(tokens []string, n int) map[string]int {
	count := len(tokens) - n + 1
	if count < 1 {
		count = 1
	}
	m := make(map[string]int, count)
	for i := 0; i < count; i++ {
		end := i + n
		if end > len(tokens) {
			end = len(tokens)
		}
		// U+0001 cannot occur inside a token, so the join is unambiguous.
		m[strings.Join(tokens[i:end], "\x01")]++
	}
	return m
}

// Match is the overlap of a predicted and a reference multiset: tp items
// in both, fp only predicted, fn only in the reference.
type Match struct {
	TP, FP, FN float64
}

// matchCounts compares two multisets.
func matchCounts(pred, ref map[string]int) Match {
	var m Match
	for k, p := range pred {
		r := ref[k]
		m.TP += float64(min(p, r))
		if p > r {
			m.FP += float64(p - r)
		}
	}
	for k, r := range ref {
		if p := pred[k]; r > p {
			m.FN += float64(r - p)
		}
	}
	return m
}

// ShingleMatch returns the per-document shingle overlap of predicted text
// against reference text, with tp, fp and fn divided by tp+fp+fn (the
// article-extraction-benchmark normalisation; an all-zero match stays zero).
func ShingleMatch(pred, ref string) Match {
	m := matchCounts(shingles(Tokens(pred), ShingleSize), shingles(Tokens(ref), ShingleSize))
	if total := m.TP + m.FP + m.FN; total > 0 {
		m.TP, m.FP, m.FN = m.TP/total, m.FP/total, m.FN/total
	}
	return m
}

// PRF holds a precision, a recall and the F1 computed from them.
type PRF struct {
	Precision, Recall, F1 float64
}

// f1 is the harmonic mean of p and r, 0 when both are 0.
func f1(p, r float64) float64 {
	if p+r == 0 {
		return 0
	}
	return 2 * p * r / (p + r)
}

// matchPrecision is tp/(tp+fp), 1 when fp=fn=0; ok is false when the
// document does not count toward mean precision (tp+fp=0 and not exact).
func matchPrecision(m Match) (p float64, ok bool) {
	if m.FP == 0 && m.FN == 0 {
		return 1, true
	}
	if m.TP+m.FP == 0 {
		return 0, false
	}
	return m.TP / (m.TP + m.FP), true
}

// matchRecall is tp/(tp+fn), 1 when fp=fn=0; ok is false when the document
// does not count toward mean recall.
func matchRecall(m Match) (r float64, ok bool) {
	if m.FP == 0 && m.FN == 0 {
		return 1, true
	}
	if m.TP+m.FN == 0 {
		return 0, false
	}
	return m.TP / (m.TP + m.FN), true
}

// ShingleScore is the set-level shingle metric: mean per-document precision
// and mean per-document recall, and F1 computed from those two means.
func ShingleScore(matches []Match) PRF {
	var ps, rs float64
	var np, nr int
	for _, m := range matches {
		if p, ok := matchPrecision(m); ok {
			ps += p
			np++
		}
		if r, ok := matchRecall(m); ok {
			rs += r
			nr++
		}
	}
	var s PRF
	if np > 0 {
		s.Precision = ps / float64(np)
	}
	if nr > 0 {
		s.Recall = rs / float64(nr)
	}
	s.F1 = f1(s.Precision, s.Recall)
	return s
}

// DocShingleF1 is the F1 of one document's shingle match (for the mean
// per-document shingle F1 that measures reading order).
func DocShingleF1(m Match) float64 {
	p, _ := matchPrecision(m)
	r, _ := matchRecall(m)
	return f1(p, r)
}

// CollapseSpace replaces every run of Unicode white space with one space
// and trims the ends.
func CollapseSpace(s string) string {
	return strings.Join(strings.Fields(s), " ")
}

// SnippetCounts are the set-level counts of the snippet metric: tp
// must-contain segments found, fp must-not-contain segments found, fn
// must-contain segments missed.
type SnippetCounts struct {
	TP, FP, FN int
}

// Add counts one document: text is the extracted text, mustContain and
// mustNotContain the segments. Whitespace is collapsed in all of them
// before the substring test.
func (c *SnippetCounts) Add(text string, mustContain, mustNotContain []string) {
	t := CollapseSpace(text)
	for _, s := range mustContain {
		if strings.Contains(t, CollapseSpace(s)) {
			c.TP++
		} else {
			c.FN++
		}
	}
	for _, s := range mustNotContain {
		if strings.Contains(t, CollapseSpace(s)) {
			c.FP++
		}
	}
}

// Score returns snippet precision tp/(tp+fp), recall tp/(tp+fn) and
// F1 = 2tp/(2tp+fp+fn), each 0 when its denominator is 0.
func (c SnippetCounts) Score() PRF {
	var s PRF
	tp, fp, fn := float64(c.TP), float64(c.FP), float64(c.FN)
	if tp+fp > 0 {
		s.Precision = tp / (tp + fp)
	}
	if tp+fn > 0 {
		s.Recall = tp / (tp + fn)
	}
	if 2*tp+fp+fn > 0 {
		s.F1 = 2 * tp / (2*tp + fp + fn)
	}
	return s
}

// WordF1 is the per-document word F1 of the PDF metric: token multisets,
// P = Σmin/|extracted|, R = Σmin/|reference|. Two texts without tokens
// score 1; one empty side scores 0.
func WordF1(pred, ref string) float64 {
	pt, rt := Tokens(pred), Tokens(ref)
	if len(pt) == 0 && len(rt) == 0 {
		return 1
	}
	if len(pt) == 0 || len(rt) == 0 {
		return 0
	}
	pc := make(map[string]int, len(pt))
	for _, t := range pt {
		pc[t]++
	}
	rc := make(map[string]int, len(rt))
	for _, t := range rt {
		rc[t]++
	}
	m := matchCounts(pc, rc)
	return f1(m.TP/float64(len(pt)), m.TP/float64(len(rt)))
}

// LowerTokens splits text into the tokens of WCXB's word metric: Python's
// str.lower() of the text, then maximal runs of Python re's Unicode \w
// (characters that are str.isalnum() or '_': letters and numbers of every
// kind, not combining marks, the same set as Tokens).
func LowerTokens(text string) []string {
	return Tokens(pythonLower(text))
}

// pythonLower lower-cases s as Python's str.lower() does: the simple
// mappings Go knows, plus the full mapping of U+0130 (to "i" and a
// combining dot above, which then splits a token) and a capital sigma at
// the end of a word, which becomes the final form ς.
func pythonLower(s string) string {
	if !strings.ContainsAny(s, "\u0130\u03a3") {
		return strings.ToLower(s)
	}
	rs := []rune(s)
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i, r := range rs {
		switch r {
		case '\u0130':
			b.WriteString("i\u0307")
		case '\u03a3':
			if finalSigma(rs, i) {
				b.WriteRune('ς')
			} else {
				b.WriteRune('σ')
			}
		default:
			b.WriteRune(unicode.ToLower(r))
		}
	}
	return b.String()
}

// finalSigma is Unicode's Final_Sigma condition as Python applies it: a
// cased letter before (skipping case-ignorable characters) and none after.
func finalSigma(rs []rune, i int) bool {
	cased := func(r rune) bool { return unicode.IsUpper(r) || unicode.IsLower(r) || unicode.IsTitle(r) }
	ignorable := func(r rune) bool {
		return unicode.In(r, unicode.Mn, unicode.Me, unicode.Cf, unicode.Lm, unicode.Sk) || r == '\'' || r == '.' || r == ':' || r == '\u00b7' || r == '\u2019'
	}
	j := i - 1
	for j >= 0 && ignorable(rs[j]) {
		j--
	}
	if j < 0 || !cased(rs[j]) {
		return false
	}
	k := i + 1
	for k < len(rs) && ignorable(rs[k]) {
		k++
	}
	return k >= len(rs) || !cased(rs[k])
}

// LowerWordPRF is one page's WCXB word metric: multisets of LowerTokens,
// P = Σmin/|extracted|, R = Σmin/|reference| and their F1. A page whose
// reference has no tokens scores 1 on all three when the output has none
// either, else 0; an output without tokens scores 0.
func LowerWordPRF(pred, ref string) PRF {
	pt, rt := LowerTokens(pred), LowerTokens(ref)
	if len(rt) == 0 {
		if len(pt) == 0 {
			return PRF{1, 1, 1}
		}
		return PRF{}
	}
	if len(pt) == 0 {
		return PRF{}
	}
	pc := make(map[string]int, len(pt))
	for _, t := range pt {
		pc[t]++
	}
	rc := make(map[string]int, len(rt))
	for _, t := range rt {
		rc[t]++
	}
	m := matchCounts(pc, rc)
	p, r := m.TP/float64(len(pt)), m.TP/float64(len(rt))
	return PRF{Precision: p, Recall: r, F1: f1(p, r)}
}
