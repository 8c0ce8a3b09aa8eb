package locate

import (
	"math"
	"sort"
	"strings"
	"unicode/utf8"
)

// Similarity of a quote and a span, as fuzzy matches report it: both are
// folded and split into words (white-space separated, each keyed by its
// letters and digits, so punctuation does not count), and
//
//	similarity = 1 − d / max(q, s)
//
// where d is the word-level edit distance (words inserted, deleted or
// replaced) between the quote's q words and the span's s words. A quote
// may start or end inside a word: its first word matches a span word that
// ends with it, its last word one that starts with it. One word in ten
// changed, added or dropped gives 0.9. Locate chooses, among all the
// text's spans, the one with the highest similarity (the fewest words on a
// tie, then the earliest).
func Similarity(quote, span string) float64 {
	ix := NewIndex(span)
	q := ix.quoteWords(fold(quote))
	if len(q.ids) == 0 || len(ix.tokens) == 0 {
		return 0
	}
	d := ix.distance(q, 0, int32(len(ix.tokens)), true)
	return 1 - float64(d)/float64(max(len(q.ids), len(ix.tokens)))
}

// quoteWords are a quote's words as ids of the index's vocabulary (0: a
// word the text lacks), with the first and last words' keys for the
// partial-word rule.
type quoteWords struct {
	ids         []int32
	first, last string
}

func (ix *Index) quoteWords(fq folded) quoteWords {
	var keys []string
	toks := tokenize(fq, func(w []byte) int32 { keys = append(keys, string(w)); return ix.vocab[string(w)] })
	q := quoteWords{ids: make([]int32, len(toks))}
	for i, t := range toks {
		q.ids[i] = t.id
	}
	if len(keys) > 0 {
		q.first, q.last = keys[0], keys[len(keys)-1]
	}
	return q
}

// same reports whether quote word i matches text token p.
func (ix *Index) same(q quoteWords, i int, p int32) bool {
	id := ix.tokens[p].id
	if q.ids[i] != 0 && q.ids[i] == id {
		return true
	}
	if i == 0 && strings.HasSuffix(ix.words[id], q.first) {
		return true
	}
	return i == len(q.ids)-1 && strings.HasPrefix(ix.words[id], q.last)
}

// distance is the word edit distance between the quote and the tokens
// [lo, hi) (whole: both ends fixed).
func (ix *Index) distance(q quoteWords, lo, hi int32, whole bool) int {
	m, w := len(q.ids), int(hi-lo)
	prev := make([]int, w+1)
	cur := make([]int, w+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= m; i++ {
		cur[0] = i
		for j := 1; j <= w; j++ {
			c := prev[j-1]
			if !ix.same(q, i-1, lo+int32(j-1)) {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[w]
}

// maxPostings skips a word pair whose rarer word occurs more often than this
// when collecting candidates: such pairs ("of the") place a quote nowhere.
const maxPostings = 4096

// maxCandidates is how many alignments of a quote are scored in full.
const maxCandidates = 8

// fuzzy finds the span of the text whose words are most similar to the
// folded quote's.
func (ix *Index) fuzzy(fq folded, minSim float64) Match {
	q := ix.quoteWords(fq)
	m := len(q.ids)
	if m == 0 {
		return Match{Kind: NotFound}
	}
	// Each pair of neighbouring quote words found in the text votes for
	// the alignment (text position − quote position) it implies; single
	// words vote when the quote has one word.
	votes := map[int32]int{}
	vote := func(qi int, rare int32, check func(p int32) bool) {
		ps := ix.postings[rare]
		if len(ps) > maxPostings {
			return
		}
		for _, p := range ps {
			if check(p) {
				votes[p-int32(qi)]++
			}
		}
	}
	n := int32(len(ix.tokens))
	if m == 1 && q.ids[0] != 0 {
		vote(0, q.ids[0], func(int32) bool { return true })
	}
	for j := 0; j+1 < m; j++ {
		a, b := q.ids[j], q.ids[j+1]
		if a == 0 || b == 0 {
			continue
		}
		if len(ix.postings[a]) <= len(ix.postings[b]) {
			vote(j, a, func(p int32) bool { return p+1 < n && ix.tokens[p+1].id == b })
		} else {
			vote(j+1, b, func(p int32) bool { return p >= 1 && ix.tokens[p-1].id == a })
		}
	}
	if len(votes) == 0 {
		return Match{Kind: NotFound}
	}
	type cand struct {
		diag  int32
		votes int
	}
	cands := make([]cand, 0, len(votes))
	for d, v := range votes {
		cands = append(cands, cand{d, v})
	}
	sort.Slice(cands, func(i, j int) bool {
		if cands[i].votes != cands[j].votes {
			return cands[i].votes > cands[j].votes
		}
		return cands[i].diag < cands[j].diag
	})
	slack := int32(math.Ceil(float64(m)*(1-minSim))) + 2
	best := Match{Kind: NotFound}
	bestLen := 0
	for k := 0; k < len(cands) && k < maxCandidates; k++ {
		d := cands[k].diag
		lo := max(0, d-slack)
		hi := min(n, d+int32(m)+slack)
		if lo >= hi {
			continue
		}
		sim, a, b := ix.align(q, lo, hi)
		if b <= a {
			continue
		}
		if sim > best.Similarity || sim == best.Similarity && (b-a < bestLen || b-a == bestLen && int(ix.tokens[a].start) < best.Start) {
			start, end := ix.partialStart(q, int32(a)), ix.partialEnd(q, int32(b-1))
			if start >= end {
				// One word of the text read both as the quote's word end
				// and as its word start (quote "y" in "y0y"): the
				// partial bounds cross, so the whole word is the span.
				start, end = int(ix.tokens[a].start), int(ix.tokens[b-1].end)
			}
			best = Match{Kind: Fuzzy, Start: start, End: end, Similarity: sim}
			bestLen = b - a
		}
	}
	best.Similarity = math.Round(best.Similarity*10000) / 10000
	if best.Kind == Fuzzy && best.Similarity < minSim {
		return Match{Kind: NotFound, Similarity: best.Similarity}
	}
	return best
}

// align finds the tokens [a, b) of the window [lo, hi) most similar to q,
// by semi-global word edit distance (the span may start and end anywhere in
// the window).
func (ix *Index) align(q quoteWords, lo, hi int32) (sim float64, a, b int) {
	w := int(hi - lo)
	m := len(q.ids)
	// prev[j], prevFrom[j]: best distance of q[:i] against a span ending
	// at window position j, and where that span starts.
	prev := make([]int, w+1)
	cur := make([]int, w+1)
	prevFrom := make([]int, w+1)
	curFrom := make([]int, w+1)
	for j := 0; j <= w; j++ {
		prev[j], prevFrom[j] = 0, j
	}
	for i := 1; i <= m; i++ {
		cur[0], curFrom[0] = i, 0
		qi, edge := q.ids[i-1], i == 1 || i == m
		for j := 1; j <= w; j++ {
			cost := 1
			if qi != 0 && qi == ix.tokens[int(lo)+j-1].id || edge && ix.same(q, i-1, lo+int32(j-1)) {
				cost = 0
			}
			c, f := prev[j-1]+cost, prevFrom[j-1]
			if v := prev[j] + 1; v < c {
				c, f = v, prevFrom[j]
			}
			if v := cur[j-1] + 1; v < c {
				c, f = v, curFrom[j-1]
			}
			cur[j], curFrom[j] = c, f
		}
		prev, cur = cur, prev
		prevFrom, curFrom = curFrom, prevFrom
	}
	sim = -1
	for j := 1; j <= w; j++ {
		s := prevFrom[j]
		if j <= s {
			continue
		}
		v := 1 - float64(prev[j])/float64(max(m, j-s))
		if v > sim || v == sim && j-s < b-a {
			sim, a, b = v, int(lo)+s, int(lo)+j
		}
	}
	return max(sim, 0), a, b
}

// partialStart is where the span starting at token p begins: inside the
// word when the quote's first word is only the word's end.
func (ix *Index) partialStart(q quoteWords, p int32) int {
	t := ix.tokens[p]
	if q.first == "" || q.ids[0] == t.id || !strings.HasSuffix(ix.words[t.id], q.first) {
		return int(t.start)
	}
	end := int(t.frune)
	for end < len(ix.folded) && ix.folded[end] != ' ' {
		end++
	}
	need := utf8.RuneCountInString(q.first)
	for b := end; b > int(t.frune); {
		r, size := utf8.DecodeLastRuneInString(ix.folded[int(t.frune):b])
		b -= size
		if isWordRune(r) {
			if need--; need == 0 {
				return int(ix.fStart[b])
			}
		}
	}
	return int(t.start)
}

// partialEnd is where the span ending with token p ends: inside the word
// when the quote's last word is only the word's start.
func (ix *Index) partialEnd(q quoteWords, p int32) int {
	t := ix.tokens[p]
	if q.last == "" || q.ids[len(q.ids)-1] == t.id || !strings.HasPrefix(ix.words[t.id], q.last) {
		return int(t.end)
	}
	need := utf8.RuneCountInString(q.last)
	for b := int(t.frune); b < len(ix.folded) && ix.folded[b] != ' '; {
		r, size := utf8.DecodeRuneInString(ix.folded[b:])
		if isWordRune(r) {
			if need--; need == 0 {
				return int(ix.fEnd[b])
			}
		}
		b += size
	}
	return int(t.end)
}
