package digest

import (
	"math"
	"slices"
)

// Passage scoring and selection constants.
const (
	// anchorWeight and anchorWeight2 add the BM25 scores of a window's
	// first and second sentences to the window's own: answers tend to sit
	// at or right after the sentence that matches the question.
	anchorWeight  = 1.0
	anchorWeight2 = 0.5
	// maxOverlap is the largest share of the shorter of two snippets that
	// they may have in common; more is a near duplicate.
	maxOverlap = 0.5
)

// candidate is a scored window of consecutive sentences [first, last] of one
// block and page.
type candidate struct {
	w           window
	first, last int
	length      int     // terms in the window
	tf          []int32 // frequency of each query term in the window
	score       float64
}

// windowCandidates returns, for every sentence that starts a window, the
// longest run of following sentences of the same block that fits in max
// code points, scored by BM25 over the window's terms. Sentences longer
// than max become one clipped window. Windows without a query term are
// left out.
func windowCandidates(d *document, q queryModel, max int) []candidate {
	if len(q.terms) == 0 || len(d.sents) == 0 {
		return nil
	}
	sentScore := scoreSentences(d, q)
	pos := make(map[int32]int, len(q.terms))
	for k, id := range q.terms {
		pos[id] = k
	}
	nq := len(q.terms)
	// Per-sentence query term frequencies, flattened.
	tf := make([]int32, len(d.sents)*nq)
	hits := make([]bool, len(d.sents))
	for i := range d.sents {
		for _, t := range d.sents[i].terms {
			if k, ok := pos[t]; ok {
				tf[i*nq+k]++
				hits[i] = true
			}
		}
	}
	// pageLast[i] is the last sentence of sentence i's page. Windows may
	// run across blocks of a page: answers in papers often span a
	// paragraph break, and a window that stops at the block end would cut
	// them.
	pageLast := make([]int, len(d.sents))
	for i := len(d.sents) - 1; i >= 0; i-- {
		pageLast[i] = i
		if i+1 < len(d.sents) && d.sents[i+1].page == d.sents[i].page {
			pageLast[i] = pageLast[i+1]
		}
	}
	var cands []candidate
	wtf := make([]int32, nq)
	for i := range d.sents {
		s := &d.sents[i]
		// Skip windows that cannot reach a query term.
		reach := false
		for k := i; k <= pageLast[i] && d.sents[k].cstart < s.cstart+max; k++ {
			if hits[k] {
				reach = true
				break
			}
		}
		if !reach {
			continue
		}
		// The window runs from sentence i to max code points within the
		// block, cut at a word boundary: an answer that runs past a
		// sentence boundary stays whole.
		w, ok := prefix(d, s, d.sents[pageLast[i]].end, max)
		if !ok {
			continue
		}
		clear(wtf)
		length := 0
		last := i
		for k := i; k <= pageLast[i] && d.sents[k].start < w.bend; k++ {
			last = k
			sk := &d.sents[k]
			if sk.end <= w.bend {
				row := tf[k*nq : (k+1)*nq]
				for x, v := range row {
					wtf[x] += v
				}
				length += len(sk.terms)
				continue
			}
			for t, id := range sk.terms {
				if sk.start+int(sk.ends[t]) > w.bend {
					break
				}
				length++
				if x, ok := pos[id]; ok {
					wtf[x]++
				}
			}
		}
		if length == 0 {
			continue
		}
		c := candidate{w: w, first: i, last: last, length: length, tf: make([]int32, nq)}
		copy(c.tf, wtf)
		cands = append(cands, c)
	}
	// Length normalisation is relative to the mean candidate window.
	var sum float64
	for _, c := range cands {
		sum += float64(c.length)
	}
	avgw := math.Max(sum/math.Max(float64(len(cands)), 1), 1)
	kept := cands[:0]
	for _, c := range cands {
		norm := bm25K1 * (1 - bm25B + bm25B*float64(c.length)/avgw)
		for x, v := range c.tf {
			if v == 0 {
				continue
			}
			f := float64(v)
			c.score += q.weight[x] * f * (bm25K1 + 1) / (f + norm)
		}
		c.score += anchorWeight * sentScore[c.first]
		if c.first+1 <= c.last {
			c.score += anchorWeight2 * sentScore[c.first+1]
		}
		if c.score > 0 {
			kept = append(kept, c)
		}
	}
	cands = kept
	// A total order (score, then position) keeps the result deterministic.
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.score != b.score {
			if a.score > b.score {
				return -1
			}
			return 1
		}
		return a.first - b.first
	})
	return cands
}

// pickWindows chooses up to n candidates in score order, skipping any that
// overlaps one already chosen.
func pickWindows(cands []candidate, n int) []candidate {
	var out []candidate
	for _, c := range cands {
		if len(out) == n {
			break
		}
		clash := false
		for _, o := range out {
			ov := min(c.w.cend, o.w.cend) - max(c.w.cstart, o.w.cstart)
			if ov > 0 && float64(ov) > maxOverlap*float64(min(c.w.cend-c.w.cstart, o.w.cend-o.w.cstart)) {
				clash = true
				break
			}
		}
		if !clash {
			out = append(out, c)
		}
	}
	return out
}
