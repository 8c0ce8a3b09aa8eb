package evaluate

import (
	"math"
	"slices"
	"unicode/utf8"

	"github.com/digestd/digestd/digest"
)

// BM25 parameters of the baselines printed beside the service's figures.
const (
	baselineK1 = 1.2
	baselineB  = 0.75
	// baselineWindow is the number of consecutive sentences in a window
	// of the sentence-window baseline.
	baselineWindow = 3
)

// bm25Tokens are the baselines' terms: the words of text as the digester
// reads them (digest.Words: every script, ideographs a character at a
// time, Thai by overlapping pairs of clusters), ASCII words of more than three letters Porter-stemmed as
// RougeTokens does, without English function words.
func bm25Tokens(text string) []string {
	toks := digest.Words(text)
	out := toks[:0]
	for _, t := range toks {
		if len(t) > 3 && isASCII(t) {
			t = PorterStem(t)
		}
		if !baselineStop[t] {
			out = append(out, t)
		}
	}
	return out
}

// isASCII reports whether s is ASCII only.
func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

var baselineStop = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"a", "about", "after", "all", "also", "an", "and", "ani", "are", "as", "at", "be", "been", "but", "by",
		"can", "could", "did", "do", "doe", "does", "for", "from", "had", "ha", "has", "have", "how", "i", "if", "in", "into", "is", "it", "it",
		"its", "may", "more", "most", "no", "not", "of", "on", "or", "other", "our", "such", "than", "that", "the", "their", "them",
		"these", "thei", "they", "thi", "this", "those", "to", "wa", "was", "we", "were", "what", "when", "where", "which", "while",
		"who", "why", "will", "with", "would", "you"} {
		m[w] = true
	}
	return m
}()

// bm25Index scores a query against a small collection of token lists, with
// idf taken over the collection itself.
type bm25Index struct {
	tf    []map[string]int
	lens  []int
	df    map[string]int
	avgdl float64
}

func newBM25(docs [][]string) *bm25Index {
	ix := &bm25Index{df: map[string]int{}}
	total := 0
	for _, d := range docs {
		m := map[string]int{}
		for _, t := range d {
			m[t]++
		}
		for t := range m {
			ix.df[t]++
		}
		ix.tf = append(ix.tf, m)
		ix.lens = append(ix.lens, len(d))
		total += len(d)
	}
	if len(docs) > 0 {
		ix.avgdl = math.Max(float64(total)/float64(len(docs)), 1)
	}
	return ix
}

// score is the BM25 score of document i for the distinct query terms q.
func (ix *bm25Index) score(i int, q []string) float64 {
	n := float64(len(ix.tf))
	norm := baselineK1 * (1 - baselineB + baselineB*float64(ix.lens[i])/ix.avgdl)
	var s float64
	for _, t := range q {
		f := float64(ix.tf[i][t])
		if f == 0 {
			continue
		}
		df := float64(ix.df[t])
		s += math.Log(1+(n-df+0.5)/(df+0.5)) * f * (baselineK1 + 1) / (f + norm)
	}
	return s
}

// queryTerms returns the distinct baseline terms of a question.
func queryTerms(question string) []string {
	var q []string
	for _, t := range bm25Tokens(question) {
		if !slices.Contains(q, t) {
			q = append(q, t)
		}
	}
	return q
}

// bm25Order returns the indices of docs by descending BM25 score for
// question, idf over docs; ties keep the given order.
func bm25Order(docs []string, question string) []int {
	toks := make([][]string, len(docs))
	for i, d := range docs {
		toks[i] = bm25Tokens(d)
	}
	ix := newBM25(toks)
	q := queryTerms(question)
	scores := make([]float64, len(docs))
	order := make([]int, len(docs))
	for i := range docs {
		scores[i] = ix.score(i, q)
		order[i] = i
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	return order
}

// BM25Windows is the sentence-window baseline: every run of baselineWindow
// consecutive sentences of canonical text (as the digester segments it)
// is scored by BM25 for question, idf over the windows, and the best
// non-overlapping windows with a query term are returned, at most
// EvidenceK. With limit > 0 no window is longer than limit code points: a
// window leaves out its last sentences to fit, and a first sentence longer
// than limit is cut there.
func BM25Windows(text, question string, limit int) []string {
	sents := digest.Sentences(text)
	if len(sents) == 0 {
		return nil
	}
	runes := []rune(text)
	type win struct{ start, end int }
	var wins []win
	var toks [][]string
	for i := range sents {
		j := min(i+baselineWindow, len(sents)) - 1
		w := win{sents[i].Start, sents[j].End}
		if limit > 0 {
			for j > i && sents[j].End-w.start > limit {
				j--
			}
			w.end = min(sents[j].End, w.start+limit)
		}
		wins = append(wins, w)
		toks = append(toks, bm25Tokens(string(runes[w.start:w.end])))
		if j == len(sents)-1 {
			break
		}
	}
	ix := newBM25(toks)
	q := queryTerms(question)
	scores := make([]float64, len(wins))
	order := make([]int, 0, len(wins))
	for i := range wins {
		if scores[i] = ix.score(i, q); scores[i] > 0 {
			order = append(order, i)
		}
	}
	slices.SortStableFunc(order, func(a, b int) int {
		switch {
		case scores[a] > scores[b]:
			return -1
		case scores[a] < scores[b]:
			return 1
		}
		return 0
	})
	var chosen []win
	var out []string
	for _, i := range order {
		if len(out) == EvidenceK {
			break
		}
		w := wins[i]
		if slices.ContainsFunc(chosen, func(c win) bool { return w.start < c.end && c.start < w.end }) {
			continue
		}
		chosen = append(chosen, w)
		out = append(out, string(runes[w.start:w.end]))
	}
	return out
}
