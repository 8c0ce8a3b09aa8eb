package digest

import (
	"math"
	"slices"
)

// BM25 parameters over sentences.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// idf is the BM25 inverse document frequency of a term held by df of n
// sentences; it is positive even for a term in every sentence.
func idf(df, n int) float64 {
	return math.Log(1 + (float64(n)-float64(df)+0.5)/(float64(df)+0.5))
}

// Query term weights for evidence. A term weighs its idf over the
// document's sentences to the power termIDFPower, which lets the rare terms of a question (names,
// acronyms, numbers, technical words) outweigh its common ones more than
// BM25's idf alone does, and a word that frames a question rather than
// naming its subject (see framingWords) weighs framingWeight of that: it
// still breaks ties between windows that hold the subject, but never
// outweighs the subject. Chosen with the passage weights (see
// rank_passages.go and docs/evidence.md). They are variables only so that
// the fit (TestFitWindowWeights) can measure each alone; nothing sets them.
var (
	termIDFPower  = 1.25
	framingWeight = 0.3
)

// framingWords are the stems of English words with which questions refer
// to the text they are asked of or frame what they ask ("according to the
// paper", "what is described", "which method is used"), rather than
// naming what they are about.
var framingWords = func() map[string]bool {
	m := map[string]bool{}
	for _, w := range []string{"according", "following", "mention", "mentioned", "describe", "described", "discuss",
		"discussed", "paper", "article", "text", "passage", "author", "authors", "study", "work", "use", "used", "using",
		"propose", "proposed", "present", "presented", "show", "shown", "report", "reported", "find", "found",
		"example", "name", "named", "called", "known", "refer", "main", "different", "exist", "existing", "give",
		"given", "consider", "considered"} {
		m[stem(w)] = true
	}
	return m
}()

// queryModel is a query analysed against one document.
type queryModel struct {
	terms   []int32   // ids in the document vocabulary (≥ 0)
	weight  []float64 // weight of each term (see termIDFPower)
	mass    float64   // summed weight of every query term, absent ones included
	asked   int       // terms[:asked] are the query's own; the rest expand it
	missing int       // the query's terms the text lacks
}

// newQueryModel weighs the query's terms by idf over d's sentences. Terms the
// text lacks count in mass at the idf of an unseen term, so a document that
// misses half the query scores lower than one that holds all of it.
func newQueryModel(d *document, ids []int32) queryModel {
	n := len(d.sents)
	var q queryModel
	for _, id := range ids {
		if id < 0 {
			q.mass += idf(0, n)
			q.missing++
			continue
		}
		w := idf(int(d.df[id]), n)
		q.terms = append(q.terms, id)
		q.weight = append(q.weight, w)
		q.mass += w
	}
	q.asked = len(q.terms)
	return q
}

// forEvidence returns q with the query's own terms weighed for evidence
// selection (see termIDFPower and framingWords); expansions keep their
// weights. q is unchanged.
func (q queryModel) forEvidence(d *document) queryModel {
	n := len(d.sents)
	q.weight = slices.Clone(q.weight)
	q.mass = float64(q.missing) * math.Pow(idf(0, n), termIDFPower)
	for k, id := range q.terms[:q.asked] {
		w := math.Pow(idf(int(d.df[id]), n), termIDFPower)
		if framingWords[d.stems[id]] {
			w *= framingWeight
		}
		q.weight[k] = w
		q.mass += w
	}
	return q
}

// scoreSentences returns the BM25 score of every sentence of d for q.
func scoreSentences(d *document, q queryModel) []float64 {
	return bm25Sentences(d, q, bm25B)
}

// bm25Sentences returns the BM25 score, with length normalisation b, of
// every sentence of d for q.
func bm25Sentences(d *document, q queryModel, b float64) []float64 {
	scores := make([]float64, len(d.sents))
	if len(q.terms) == 0 {
		return scores
	}
	slot := q.slots(len(d.df))
	tf := make([]int, len(q.terms))
	for i := range d.sents {
		s := &d.sents[i]
		hit := false
		for _, t := range s.terms {
			if k := slot[t]; k >= 0 {
				tf[k]++
				hit = true
			}
		}
		if !hit {
			continue
		}
		norm := bm25K1 * (1 - b + b*float64(len(s.terms))/math.Max(d.avgdl, 1))
		var sc float64
		for k := range tf {
			if tf[k] == 0 {
				continue
			}
			f := float64(tf[k])
			sc += q.weight[k] * f * (bm25K1 + 1) / (f + norm)
			tf[k] = 0
		}
		scores[i] = sc
	}
	return scores
}

// expandAbbreviations adds to q, for each abbreviation the text defines,
// the short form when the query spells out every content word of the long
// form, and the long form's words when the query uses the short form. An
// added short form weighs its idf; added long-form words share the idf of
// one term. mass is unchanged: it measures the query as asked.
func (q *queryModel) expandAbbreviations(d *document) {
	if len(q.terms) == 0 {
		return
	}
	n := len(d.sents)
	for _, a := range abbreviations(d) {
		if !slices.Contains(q.terms, a.short) {
			all := true
			for _, t := range a.long {
				if !slices.Contains(q.terms, t) {
					all = false
					break
				}
			}
			if all {
				q.terms = append(q.terms, a.short)
				q.weight = append(q.weight, idf(int(d.df[a.short]), n))
			}
			continue
		}
		for _, t := range a.long {
			if !slices.Contains(q.terms, t) {
				q.terms = append(q.terms, t)
				q.weight = append(q.weight, idf(int(d.df[t]), n)/float64(len(a.long)))
			}
		}
	}
}

// slots returns, for each of n term ids, its index in q.terms or -1.
func (q *queryModel) slots(n int) []int32 {
	slot := make([]int32, n)
	for i := range slot {
		slot[i] = -1
	}
	for k, t := range q.terms {
		slot[t] = int32(k)
	}
	return slot
}

// prefixWeight is the share of its idf that a vocabulary stem sharing a
// long prefix with a query stem ("transmiss" and "transmit", "diagnosi"
// and "diagnos") adds to the query; Porter stems leave such pairs apart.
// The shared prefix is at least prefixMin bytes and all but the last two
// of the query stem, and the other stem at most prefixLonger bytes longer.
const (
	prefixWeight = 0.5
	prefixMin    = 6
	prefixLonger = 3
)

// expandPrefixes adds to q the stems of the text that share a long prefix
// with a query stem (see prefixWeight), each once.
func (q *queryModel) expandPrefixes(d *document) {
	n := len(d.sents)
	asked := len(q.terms)
	for j := 0; j < asked; j++ {
		st := d.stems[q.terms[j]]
		if len(st) < prefixMin {
			continue
		}
		need := max(prefixMin, len(st)-2)
		for id, v := range d.stems {
			if len(v) < need || len(v) > len(st)+prefixLonger || v[:need] != st[:need] || slices.Contains(q.terms, int32(id)) {
				continue
			}
			q.terms = append(q.terms, int32(id))
			q.weight = append(q.weight, prefixWeight*idf(int(d.df[id]), n))
		}
	}
}

// closeWeight is the share of its idf that a form of the text spelled
// close to an absent query word (see closeForm) adds to the query.
const closeWeight = 0.75

// expandSpelling adds to q, for each content word of query that the text
// lacks, the form of the text spelled closest to it, at closeWeight of its
// idf. mass is unchanged.
func (q *queryModel) expandSpelling(d *document, query string) {
	n := len(d.sents)
	d.eachAbsentWord(query, func(word, _ string) {
		id := d.closeForm(word)
		if id < 0 || slices.Contains(q.terms, id) {
			return
		}
		q.terms = append(q.terms, id)
		q.weight = append(q.weight, closeWeight*idf(int(d.df[id]), n))
	})
}

// eachAbsentWord calls f with each content word of query that the text
// holds in no form (neither the word nor its stem), and its stem.
func (d *document) eachAbsentWord(query string, f func(word, st string)) {
	tokenize(asked(query), nil, func(tok []byte, stop bool, _ int) {
		if stop {
			return
		}
		if _, ok := d.forms[string(tok)]; ok {
			return
		}
		st := stem(string(tok))
		if _, ok := d.vocab[st]; ok {
			return
		}
		f(string(tok), st)
	})
}

// Soft matches of query words the text lacks (see expandSemantic): a term
// of the text whose word vector has cosine at least semTau with such a
// word's adds semWeight·cosine of its own idf to the query, less than a
// literal match would; each word brings at most semPerTerm terms, the
// closest first. Chosen on both halves of the evidence dev set (DocHalf):
// each of the ten settings tried with semTau from 0.65 to 0.75,
// semWeight from 0.5 to 0.75 and semPerTerm from 1 to 5 holds or raises
// recall@10 and hit@1 on both, while soft matches for words the text
// holds, semTau 0.6, semWeight 1 or a table of 20,000 words lower hit@1
// on one; a sentence's mean word-vector similarity to the question, added
// to its evidence score, lowered hit@1 or recall@10 on one half at every
// weight tried.
var (
	semTau     = 0.7
	semWeight  = 0.5
	semPerTerm = 5
)

// expandSemantic adds to q, for each content word of query that the text
// holds in no form, the terms of the text whose word vectors are close to
// it (see semTau). Only terms the text holds are added, each once, and
// none already in q. mass and asked are unchanged: a soft match is not a
// query term. Words the text holds get no soft matches: their literal
// matches already rank the windows, and soft ones only add noise.
func (q *queryModel) expandSemantic(d *document, query string) {
	if len(q.terms) == 0 || semWeight <= 0 {
		return
	}
	var absent []string
	d.eachAbsentWord(query, func(_, st string) {
		if !slices.Contains(absent, st) {
			absent = append(absent, st)
		}
	})
	if len(absent) == 0 {
		return
	}
	t, err := loadedWordVectors()
	if err != nil {
		return
	}
	var rows []int32
	for _, st := range absent {
		if r, ok := t.index[st]; ok {
			rows = append(rows, r)
		}
	}
	if len(rows) == 0 {
		return
	}
	type soft struct {
		id  int32
		cos float64
	}
	near := make([][]soft, len(rows))
	in := make([]bool, len(d.stems))
	for _, id := range q.terms {
		in[id] = true
	}
	for id, st := range d.stems {
		if in[id] {
			continue
		}
		r, ok := t.index[st]
		if !ok {
			continue
		}
		best, bk := 0.0, -1
		for k, qr := range rows {
			if c := t.cos(qr, r); c >= semTau && c > best {
				best, bk = c, k
			}
		}
		if bk >= 0 {
			near[bk] = append(near[bk], soft{int32(id), best})
		}
	}
	n := len(d.sents)
	for _, ms := range near {
		// Closest first, ties by term id: the order is deterministic.
		slices.SortFunc(ms, func(a, b soft) int {
			if a.cos != b.cos {
				if a.cos > b.cos {
					return -1
				}
				return 1
			}
			return int(a.id - b.id)
		})
		for _, m := range ms[:min(len(ms), semPerTerm)] {
			q.terms = append(q.terms, m.id)
			q.weight = append(q.weight, semWeight*m.cos*idf(int(d.df[m.id]), n))
		}
	}
}
