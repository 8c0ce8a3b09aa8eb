package evaluate

import "strings"

// RougeTokens tokenizes text as the rouge_score package does with stemming
// on: lower-case, every run of characters other than [a-z0-9] is a
// separator (so non-ASCII letters separate tokens), and tokens longer than
// three characters are Porter-stemmed.
func RougeTokens(text string) []string {
	lower := strings.ToLower(text)
	fields := strings.FieldsFunc(lower, func(r rune) bool {
		return !('a' <= r && r <= 'z' || '0' <= r && r <= '9')
	})
	for i, f := range fields {
		if len(f) > 3 {
			fields[i] = PorterStem(f)
		}
	}
	return fields
}

// rougeFrom builds a score from an overlap count and the two lengths, as
// rouge_score does (a zero length counts as one).
func rougeFrom(overlap, predLen, refLen int) PRF {
	p := float64(overlap) / float64(max(predLen, 1))
	r := float64(overlap) / float64(max(refLen, 1))
	return PRF{Precision: p, Recall: r, F1: f1(p, r)}
}

// RougeN scores prediction against reference on n-gram overlap (clipped
// counts), from tokens made by RougeTokens.
func RougeN(pred, ref []string, n int) PRF {
	pg, rg := ngramCounts(pred, n), ngramCounts(ref, n)
	overlap, pn, rn := 0, 0, 0
	for g, c := range pg {
		pn += c
		overlap += min(c, rg[g])
	}
	for _, c := range rg {
		rn += c
	}
	return rougeFrom(overlap, pn, rn)
}

func ngramCounts(tokens []string, n int) map[string]int {
	m := map[string]int{}
	for i := 0; i+n <= len(tokens); i++ {
		m[strings.Join(tokens[i:i+n], " ")]++
	}
	return m
}

// RougeL scores prediction against reference on their longest common
// subsequence of tokens; it is zero when either is empty.
func RougeL(pred, ref []string) PRF {
	if len(pred) == 0 || len(ref) == 0 {
		return PRF{}
	}
	return rougeFrom(lcsLength(pred, ref), len(pred), len(ref))
}

// lcsLength is the length of the longest common subsequence of a and b, in
// O(len(a)·len(b)) time and O(len(b)) space.
func lcsLength(a, b []string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			switch {
			case a[i] == b[j]:
				cur[j+1] = prev[j] + 1
			case prev[j+1] >= cur[j]:
				cur[j+1] = prev[j+1]
			default:
				cur[j+1] = cur[j]
			}
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
