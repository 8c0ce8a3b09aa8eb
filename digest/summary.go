package digest

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Weights of summary sentence selection: a lead prior exp(-k/decay) over
// the k-th summary-worthy sentence, plus centrality and query score, each
// normalised to [0,1] within the document.
const (
	summaryLeadDecay  = 20
	summaryCentrality = 0.3
	summaryQuery      = 0.5
)

// minSummaryWords is the fewest words a sentence needs to enter a summary or
// key points; shorter ones are headings, captions and labels.
const minSummaryWords = 3

// summarize returns an extractive summary of at most SummaryMaxChars code
// points (see pickSummary) and up to MaxKeyPoints key points: the
// highest-scoring remaining sentences, at most one per block, in document
// order. No sentence appears twice; every one is a complete sentence.
func summarize(d *document, scores []float64, opts Options) (string, []string) {
	used := make([]bool, len(d.sents))
	chosen := pickSummary(d, scores, opts.SummaryMaxChars)
	var b strings.Builder
	for k, i := range chosen {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(d.text[d.sents[i].start:d.sents[i].end])
		used[i] = true
	}

	var cands []int
	for i := range d.sents {
		if !used[i] && summaryWorthy(d, &d.sents[i]) && d.sents[i].chars() <= MaxKeyPointChars {
			cands = append(cands, i)
		}
	}
	// Best score first, ties in document order.
	slices.SortFunc(cands, func(a, b int) int {
		if c := cmp.Compare(scores[b], scores[a]); c != 0 {
			return c
		}
		return a - b
	})
	// One key point per block spreads them over the document's sections.
	blocks := map[int]bool{}
	picked := cands[:0:0]
	for _, i := range cands {
		if len(picked) == opts.MaxKeyPoints {
			break
		}
		if blocks[d.sents[i].block] {
			continue
		}
		blocks[d.sents[i].block] = true
		picked = append(picked, i)
	}
	cands = picked
	sort.Ints(cands)
	kps := make([]string, 0, len(cands))
	for _, i := range cands {
		kps = append(kps, d.text[d.sents[i].start:d.sents[i].end])
	}
	return b.String(), kps
}

// pickSummary chooses the summary's sentences, returned in document order:
// the best by a lead-position prior plus centrality (how much of the
// document's salient vocabulary a sentence holds) plus the query score, that
// fit together in max code points.
func pickSummary(d *document, scores []float64, max int) []int {
	var worthy []int
	for i := range d.sents {
		if summaryWorthy(d, &d.sents[i]) {
			worthy = append(worthy, i)
		}
	}
	if len(worthy) == 0 {
		return nil
	}
	n := len(d.sents)
	tf := make([]float64, len(d.df))
	for i := range d.sents {
		for _, t := range d.sents[i].terms {
			tf[t]++
		}
	}
	for t := range tf {
		tf[t] *= idf(int(d.df[t]), n)
	}
	cent := make([]float64, len(worthy))
	maxCent, maxQ := 0.0, 0.0
	// seen[t] is 1 + the last worthy sentence counted for term t.
	seen := make([]int32, len(d.df))
	for k, i := range worthy {
		var c float64
		for _, t := range d.sents[i].terms {
			if seen[t] != int32(k)+1 {
				seen[t] = int32(k) + 1
				c += tf[t]
			}
		}
		cent[k] = c / math.Sqrt(float64(len(d.sents[i].terms))+1)
		maxCent = math.Max(maxCent, cent[k])
		maxQ = math.Max(maxQ, scores[i])
	}
	type scored struct {
		i int
		v float64
	}
	all := make([]scored, len(worthy))
	for k, i := range worthy {
		v := math.Exp(-float64(k) / summaryLeadDecay)
		if maxCent > 0 {
			v += summaryCentrality * cent[k] / maxCent
		}
		if maxQ > 0 {
			v += summaryQuery * scores[i] / maxQ
		}
		all[k] = scored{i, v}
	}
	// Best value first, ties in document order.
	slices.SortFunc(all, func(a, b scored) int {
		if c := cmp.Compare(b.v, a.v); c != 0 {
			return c
		}
		return a.i - b.i
	})
	var picked []int
	total := 0
	for _, c := range all {
		l := d.sents[c.i].chars()
		sep := 0
		if total > 0 {
			sep = 1
		}
		if total+sep+l > max {
			continue
		}
		total += sep + l
		picked = append(picked, c.i)
	}
	sort.Ints(picked)
	return picked
}

// summaryWorthy reports whether s reads as a sentence: enough words, a
// letter to start and a stop to end.
func summaryWorthy(d *document, s *sentence) bool {
	if s.words < minSummaryWords {
		return false
	}
	str := d.text[s.start:s.end]
	r, _ := utf8.DecodeRuneInString(str)
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '"' && r != '“' && r != '(' {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(strings.TrimRight(str, "\"'”’)]"))
	return last == '.' || last == '!' || last == '?' || last == '。' || last == '！' || last == '？'
}
