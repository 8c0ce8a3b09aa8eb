package digest

import "math"

// Calibration of relevance_score. A snippet's score is the chance, under
// a logistic model over a few features that mean the same in every
// document, that the snippet answers the query; the model's coefficients
// are fitted on the evidence dev data by TestFitCalibration and written to
// calibration_model.go (see docs/contract.md, "Evidence snippets and what
// relevance_score means").

// Features of a snippet's score, in the order of snippetModel's weights.
const (
	// featSaturated is the window's raw score relative to the query's
	// idf mass, saturated into [0,1): 1 − exp(−2·raw/mass).
	featSaturated = iota
	// featWindowCoverage is the share of the query's idf mass whose terms
	// (the query's own, not expansions) the window holds.
	featWindowCoverage
	// featDocCoverage is the share of the query's idf mass whose terms the
	// document holds anywhere.
	featDocCoverage
	// featRank is log(1 + rank), rank 0 for the first snippet.
	featRank
	// featRelative is the window's raw score over the best window's.
	featRelative
	// featShortQuery is 1/(1 + the query's content terms): a window that
	// holds the one term of a one-word query proves less than one that
	// holds five.
	featShortQuery
	// featFirst is 1 for the first snippet, the best match wherever it
	// stands, and 0 for the others.
	featFirst
	snippetFeatures
)

// featureRanges are the values each feature of a snippet's score can take
// (featRank up to the last of MaxEvidence snippets).
var featureRanges = [snippetFeatures][2]float64{
	featSaturated:      {0, 1},
	featWindowCoverage: {0, 1},
	featDocCoverage:    {0, 1},
	featRank:           {0, math.Log1p(MaxEvidence - 1)},
	featRelative:       {0, 1},
	featShortQuery:     {0, 0.5},
	featFirst:          {0, 1},
}

// matchFloor is the least the snippet model scores any snippet: the model
// at the low end of every feature's range. A snippet that holds a query
// term, however weak the match, scores its model score, never below it.
var matchFloor = snippetModel.least(featureRanges[:])

// fallbackScore is the most a snippet scores when it holds no query term,
// or when its digest falls back to describing the whole document: its
// model score times fallbackScore, below every match in any source (half
// of matchFloor, cut to the four decimals scores are given in).
var fallbackScore = math.Floor(matchFloor/2*1e4) / 1e4

// logit is a logistic model: p(x) = 1 / (1 + exp(−(bias + w·x))).
type logit struct {
	bias float64
	w    []float64
}

// least returns the model's lowest probability over features within
// ranges (each feature's [low, high]).
func (m logit) least(ranges [][2]float64) float64 {
	z := m.bias
	for i, r := range ranges {
		z += min(m.w[i]*r[0], m.w[i]*r[1])
	}
	return 1 / (1 + math.Exp(-z))
}

// p returns the model's probability for features x.
func (m logit) p(x []float64) float64 {
	z := m.bias
	for i, v := range x {
		z += m.w[i] * v
	}
	return 1 / (1 + math.Exp(-z))
}

// holdsTerm reports whether candidate c holds one of the query's own terms
// (not an expansion): a match, however weak.
func (q *queryModel) holdsTerm(c candidate) bool {
	for k := range q.asked {
		if q.weight[k] > 0 && c.tf[k] > 0 {
			return true
		}
	}
	return false
}

// features returns the calibration features of chosen candidate c at rank
// (0-based); best is the highest raw score of any candidate.
func (q *queryModel) features(c candidate, rank int, best float64) [snippetFeatures]float64 {
	var x [snippetFeatures]float64
	if q.mass > 0 && c.score > 0 {
		x[featSaturated] = 1 - math.Exp(-2*c.score/q.mass)
	}
	var doc, win float64
	for k := range q.asked {
		doc += q.weight[k]
		if c.tf[k] > 0 {
			win += q.weight[k]
		}
	}
	if q.mass > 0 {
		x[featWindowCoverage] = win / q.mass
		x[featDocCoverage] = doc / q.mass
	}
	x[featRank] = math.Log1p(float64(rank))
	if best > 0 {
		x[featRelative] = c.score / best
	}
	x[featShortQuery] = 1 / (1 + float64(len(q.terms[:q.asked])))
	if rank == 0 {
		x[featFirst] = 1
	}
	return x
}

// Match is how a whole document matches a query: the query's content terms
// (stemmed, as the digester indexes them), how often the document holds
// each, and the document's length in terms. It is what RankSources needs
// of a document besides its snippets, and small enough to keep beside a
// cached digest.
type Match struct {
	Terms  []string `json:"terms"`
	Counts []int    `json:"counts"`
	Length int      `json:"length"`
}

// matchOf returns d's match for query.
func matchOf(d *document, query string) *Match {
	m := &Match{Terms: []string{}, Counts: []int{}}
	var ids []int32
	tokenize(asked(query), nil, func(tok []byte, stop bool, _ int) {
		if stop {
			return
		}
		st := stem(string(tok))
		for _, t := range m.Terms {
			if t == st {
				return
			}
		}
		id, ok := d.vocab[st]
		if !ok {
			if id, ok = d.forms[string(tok)]; !ok {
				id = -1
			}
		}
		m.Terms = append(m.Terms, st)
		ids = append(ids, id)
	})
	m.Counts = make([]int, len(m.Terms))
	// slot[id] is the index in m.Terms of term id, or -1.
	slot := make([]int32, len(d.df))
	for i := range slot {
		slot[i] = -1
	}
	found := false
	for k, id := range ids {
		if id >= 0 {
			slot[id] = int32(k)
			found = true
		}
	}
	for i := range d.sents {
		m.Length += len(d.sents[i].terms)
		if !found {
			continue
		}
		for _, t := range d.sents[i].terms {
			if k := slot[t]; k >= 0 {
				m.Counts[k]++
			}
		}
	}
	return m
}

// Features of a source's rank score, in the order of sourceModel's weights.
const (
	// srcTop is the source's best snippet's relevance_score.
	srcTop = iota
	// srcBM25 is the source's BM25 score over whole documents, idf over
	// the sources ranked together, relative to the best source's.
	srcBM25
	// srcCoverage is the share of the query's idf (over the sources) whose
	// terms the source holds.
	srcCoverage
	// srcTopRelative is the source's best snippet's relevance_score over
	// the best of any source ranked with it: like srcBM25, a comparison
	// within the draw, so it means the same whatever scale a genre's or
	// a document length's snippet scores run on.
	srcTopRelative
	sourceFeatures
)

// Source ranking's document evidence: the power of a term's specificity
// (see specificity) its weight takes, and the least length, as a share of
// the sources' mean, a source counts as in BM25's length normalisation.
// Chosen on the three evidence dev sets pooled, with the rule that a
// source matching only common words never ranks above one that holds the
// question's rare terms (TestRareTermsRankSources); docs/evidence.md has
// the figures.
const (
	sourceSpecificityPower = 2
	sourceShortLength      = 0.5
)

// specificity returns how specific stem st is in general English, in
// (0, 1]: log(2+r)/log(2+N) for the frequency rank r of its most frequent
// word among the N stems of the word-vector table (ordered by frequency),
// and 1 for a stem the table lacks (a rare word, a name, an acronym, a
// number) or when the table cannot be read.
func specificity(st string) float64 {
	t, err := loadedWordVectors()
	if err != nil {
		return 1
	}
	r, ok := t.index[st]
	if !ok {
		return 1
	}
	return math.Log(2+float64(r)) / math.Log(2+float64(len(t.index)))
}

// RankSources scores documents ranked together for one query: the
// calibrated chance that each answers it, from its best snippet's
// relevance_score (tops[i]), that score relative to the best source's, and
// document-level evidence from its match (BM25 over the whole documents
// relative to the best source's, and query-term coverage, with idf taken
// over these documents and weighed by each term's specificity in general
// English). A nil match counts as a document without query
// terms. Scores are in [0,1]; a higher score ranks first.
func RankSources(matches []*Match, tops []float64) []float64 {
	out := make([]float64, len(matches))
	for i, x := range sourceFeaturesOf(matches, tops) {
		out[i] = math.Round(sourceModel.p(x[:])*1e4) / 1e4
	}
	return out
}

// sourceFeaturesOf returns the rank features of each source.
func sourceFeaturesOf(matches []*Match, tops []float64) [][sourceFeatures]float64 {
	n := len(matches)
	df := map[string]int{}
	var terms []string
	length := 0
	for _, m := range matches {
		if m == nil {
			continue
		}
		length += m.Length
		for k, t := range m.Terms {
			if _, ok := df[t]; !ok {
				df[t] = 0
				terms = append(terms, t)
			}
			if m.Counts[k] > 0 {
				df[t]++
			}
		}
	}
	avgdl := math.Max(float64(length)/math.Max(float64(n), 1), 1)
	// A term's weight is its idf over the sources times its specificity
	// in general English: over a handful of sources a common word that
	// one of them holds looks as rare as the question's subject.
	weight := make(map[string]float64, len(terms))
	var mass float64
	for _, t := range terms {
		weight[t] = idf(df[t], n) * math.Pow(specificity(t), sourceSpecificityPower)
		mass += weight[t]
	}
	xs := make([][sourceFeatures]float64, n)
	bm := make([]float64, n)
	best, bestTop := 0.0, 0.0
	for _, t := range tops {
		bestTop = math.Max(bestTop, t)
	}
	for i, m := range matches {
		xs[i][srcTop] = tops[i]
		if bestTop > 0 {
			xs[i][srcTopRelative] = tops[i] / bestTop
		}
		if m == nil {
			continue
		}
		// A source shorter than sourceShortLength of the mean counts as
		// that long: a line that holds one query word is not the most
		// focused source.
		norm := bm25K1 * (1 - bm25B + bm25B*math.Max(float64(m.Length), sourceShortLength*avgdl)/avgdl)
		var cov float64
		for k, t := range m.Terms {
			f := float64(m.Counts[k])
			if f == 0 {
				continue
			}
			w := weight[t]
			bm[i] += w * f * (bm25K1 + 1) / (f + norm)
			cov += w
		}
		if mass > 0 {
			xs[i][srcCoverage] = cov / mass
		}
		best = math.Max(best, bm[i])
	}
	if best > 0 {
		for i := range xs {
			xs[i][srcBM25] = bm[i] / best
		}
	}
	return xs
}
