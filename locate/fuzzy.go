package locate

import (
	"math"
	"sort"
)

// Similarity of a quote and a span, as fuzzy matches report it: both are
// folded and split into words (runs of letters and digits), and
//
//	similarity = 1 − d / max(q, s)
//
// where d is the word-level edit distance (words inserted, deleted or
// replaced) between the quote's q words and the span's s words. One word in
// ten changed, added or dropped gives 0.9; the span is chosen among all the
// text's spans to maximise it (the fewest words on a tie, then the
// earliest).
func Similarity(quote, span string) float64 {
	vocab := map[string]int32{}
	id := func(w string) int32 {
		v, ok := vocab[w]
		if !ok {
			v = int32(len(vocab) + 1)
			vocab[w] = v
		}
		return v
	}
	q := ids(tokenize(fold(quote), id))
	s := ids(tokenize(fold(span), id))
	if len(q) == 0 || len(s) == 0 {
		return 0
	}
	d := editDistance(q, s)
	return 1 - float64(d)/float64(max(len(q), len(s)))
}

func ids(toks []token) []int32 {
	out := make([]int32, len(toks))
	for i, t := range toks {
		out[i] = t.id
	}
	return out
}

func editDistance(a, b []int32) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			c := prev[j-1]
			if a[i-1] != b[j-1] {
				c++
			}
			cur[j] = min(c, prev[j]+1, cur[j-1]+1)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}

// maxPostings skips a word pair whose rarer word occurs more often than this
// when collecting candidates: such pairs ("of the") place a quote nowhere.
const maxPostings = 4096

// maxCandidates is how many alignments of a quote are scored in full.
const maxCandidates = 8

// fuzzy finds the span of the text whose words are most similar to the
// folded quote's.
func (ix *Index) fuzzy(fq folded, minSim float64) Match {
	q := ids(tokenize(fq, func(w string) int32 { return ix.vocab[w] })) // 0: a word the text lacks
	m := len(q)
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
	if m == 1 {
		if q[0] != 0 {
			vote(0, q[0], func(int32) bool { return true })
		}
	}
	for j := 0; j+1 < m; j++ {
		a, b := q[j], q[j+1]
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
			best = Match{Kind: Fuzzy, Start: int(ix.tokens[a].start), End: int(ix.tokens[b-1].end), Similarity: sim}
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
func (ix *Index) align(q []int32, lo, hi int32) (sim float64, a, b int) {
	w := int(hi - lo)
	m := len(q)
	// dist[j], from[j]: best distance of q[:i] against a span ending at
	// window position j, and where that span starts.
	prev := make([]int, w+1)
	cur := make([]int, w+1)
	prevFrom := make([]int, w+1)
	curFrom := make([]int, w+1)
	for j := 0; j <= w; j++ {
		prev[j], prevFrom[j] = 0, j
	}
	for i := 1; i <= m; i++ {
		cur[0], curFrom[0] = i, 0
		for j := 1; j <= w; j++ {
			cost := 1
			if q[i-1] != 0 && q[i-1] == ix.tokens[int(lo)+j-1].id {
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
