package evaluate

import (
	"context"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"time"

	"github.com/digestd/digestd/digest"
)

// SearchAddFunc puts one document into a fresh search index: text is the
// document's file content exactly as read; it returns the source's id in
// the index (its archive hash) and the canonical text the index holds.
type SearchAddFunc func(ctx context.Context, text string) (id, canonical string, err error)

// SearchFunc asks the index a question across every document put into it;
// it returns the ranked passages, best first.
type SearchFunc func(ctx context.Context, question string) ([]SearchHit, error)

// SearchHit is one ranked passage of a search: its source's id (as
// SearchAddFunc returned it) and text.
type SearchHit struct {
	Source string
	Text   string
}

// SearchTop3 is the source rank cut-off reported beside the passage
// figures.
const SearchTop3 = 3

// Search measures search across a whole evidence set: every document of the
// set in dir is put into the index with add, and each case's question is
// asked across all of them with ask. It reports the figures of Evidence on
// the first EvidenceK passages (answer_recall_at_10, hit_at_1, mrr_at_10;
// evidence_hit_at_10, evidence_hit_at_1, evidence_mrr_at_10), with the
// rank of the case's own document among the sources of the passages in
// order (source_in_top_3, the share ranked at most SearchTop3, and
// source_mrr_at_10), and the same figures for BM25 over the same passages
// (digest.Passages of the canonical texts, idf over the whole corpus),
// prefixed bm25_; in a set whose questions all name a category in quotes
// (see categories), the evidence figures by category
// (category_evidence_hit_at_10, …_hit_at_1, …_mrr_at_10, and BM25's); and
// all of them for each half of the set (DocHalf), prefixed half0_ and
// half1_, and for each language where cases carry one, prefixed
// lang_<lang>_ (groupsOf), each group's number of cases as <group>cases.
// index_passages counts the passages. A
// document that cannot be put or a question that fails counts as a miss
// and in Report.Errors; only cancellation of ctx stops the run. Seconds
// and DocsPerSec time ask alone.
func Search(ctx context.Context, dir string, add SearchAddFunc, ask SearchFunc) (Report, error) {
	cases, err := readCases[EvidenceCase](dir)
	if err != nil {
		return Report{}, fmt.Errorf("evidence set %s: %w", dir, err)
	}
	rep := Report{Set: filepath.Base(filepath.Clean(dir)), Kind: "search", Cases: len(cases), Metrics: map[string]float64{}}
	// Every document into the index, and its passages into the baseline.
	docOf := map[string]string{} // source id → document name
	var passages []string
	var passageDoc []string
	for _, name := range docNames(cases) {
		if err := ctx.Err(); err != nil {
			return Report{}, fmt.Errorf("search run %s: %w", rep.Set, err)
		}
		b, err := ReadCaseFile(dir, name)
		if err != nil {
			rep.Errors++
			continue
		}
		id, canon, err := add(ctx, string(b))
		if err != nil {
			if ctx.Err() != nil {
				return Report{}, fmt.Errorf("search run %s: %w", rep.Set, ctx.Err())
			}
			rep.Errors++
			continue
		}
		docOf[id] = name
		runes := []rune(canon)
		for _, l := range digest.Passages(canon) {
			passages = append(passages, string(runes[l.Start:l.End]))
			passageDoc = append(passageDoc, name)
		}
	}
	rep.Metrics["index_passages"] = float64(len(passages))
	base := newCorpusBM25(passages)

	catOf, catRuns := categories(cases)
	var elapsed time.Duration
	type tallies struct {
		ans, ev, src, bAns, bEv, bSrc rankTally
		cat, bCat                     rankTally
		top3, bTop3                   int
		answered, evidenced, n        int
		categorized                   int // cases whose category has gold passages
	}
	var all tallies
	groups := map[string]*tallies{} // by prefix: halves and languages (groupsOf)
	for ci, c := range cases {
		if err := ctx.Err(); err != nil {
			return Report{}, fmt.Errorf("search run %s: %w", rep.Set, err)
		}
		start := time.Now()
		hits, err := ask(ctx, c.Question)
		elapsed += time.Since(start)
		if err != nil {
			if ctx.Err() != nil {
				return Report{}, fmt.Errorf("search run %s: %w", rep.Set, ctx.Err())
			}
			rep.Errors++
		}
		var texts, docs []string
		for _, h := range hits {
			texts = append(texts, h.Text)
			docs = append(docs, docOf[h.Source])
		}
		var bTexts, bDocs []string
		for _, i := range base.top(c.Question, EvidenceK*4) {
			bTexts = append(bTexts, passages[i])
			bDocs = append(bDocs, passageDoc[i])
		}
		counted := []*tallies{&all}
		for _, g := range groupsOf(c) {
			if groups[g] == nil {
				groups[g] = &tallies{}
			}
			counted = append(counted, groups[g])
		}
		for _, t := range counted {
			t.n++
			if len(c.Answers) > 0 {
				t.answered++
				t.ans.add(AnswerRank(texts, c.Answers))
				t.bAns.add(AnswerRank(bTexts, c.Answers))
			}
			if len(c.Evidence) > 0 {
				t.evidenced++
				t.ev.add(EvidenceRank(texts, c.Evidence))
				t.bEv.add(EvidenceRank(bTexts, c.Evidence))
			}
			if catOf != nil {
				if g := catRuns[catOf[ci]]; len(g.byLen) > 0 {
					t.categorized++
					t.cat.add(g.rank(texts))
					t.bCat.add(g.rank(bTexts))
				}
			}
			r, b := sourceRank(docs, c.Doc), sourceRank(bDocs, c.Doc)
			t.src.add(r)
			t.bSrc.add(b)
			if r > 0 && r <= SearchTop3 {
				t.top3++
			}
			if b > 0 && b <= SearchTop3 {
				t.bTop3++
			}
		}
	}
	report := func(prefix string, t tallies) {
		if t.answered > 0 {
			t.ans.report(rep.Metrics, prefix, "answer_recall_at_10", t.answered)
			t.bAns.report(rep.Metrics, prefix+"bm25_", "answer_recall_at_10", t.answered)
		}
		if t.evidenced > 0 {
			t.ev.report(rep.Metrics, prefix+"evidence_", "hit_at_10", t.evidenced)
			t.bEv.report(rep.Metrics, prefix+"bm25_evidence_", "hit_at_10", t.evidenced)
			if t.answered == 0 {
				rep.Metrics[prefix+"hit_at_1"] = rep.Metrics[prefix+"evidence_hit_at_1"]
				rep.Metrics[prefix+"mrr_at_10"] = rep.Metrics[prefix+"evidence_mrr_at_10"]
				rep.Metrics[prefix+"bm25_hit_at_1"] = rep.Metrics[prefix+"bm25_evidence_hit_at_1"]
				rep.Metrics[prefix+"bm25_mrr_at_10"] = rep.Metrics[prefix+"bm25_evidence_mrr_at_10"]
			}
		}
		if t.categorized > 0 {
			t.cat.report(rep.Metrics, prefix+"category_evidence_", "hit_at_10", t.categorized)
			t.bCat.report(rep.Metrics, prefix+"bm25_category_evidence_", "hit_at_10", t.categorized)
		}
		if t.n > 0 {
			rep.Metrics[prefix+"source_in_top_3"] = float64(t.top3) / float64(t.n)
			rep.Metrics[prefix+"bm25_source_in_top_3"] = float64(t.bTop3) / float64(t.n)
			rep.Metrics[prefix+"source_mrr_at_10"] = t.src.rr / float64(t.n)
			rep.Metrics[prefix+"bm25_source_mrr_at_10"] = t.bSrc.rr / float64(t.n)
		}
	}
	report("", all)
	for g, t := range groups {
		report(g, *t)
		rep.Metrics[g+"cases"] = float64(t.n)
	}
	rep.Seconds = elapsed.Seconds()
	if elapsed > 0 {
		rep.DocsPerSec = float64(len(cases)) / elapsed.Seconds()
	}
	return rep, nil
}

// sourceRank returns the 1-based rank of doc among the distinct documents
// of docs in order, counting the first EvidenceK, or 0.
func sourceRank(docs []string, doc string) int {
	var seen []string
	for _, d := range docs {
		if d == "" || slices.Contains(seen, d) {
			continue
		}
		seen = append(seen, d)
		if d == doc {
			return len(seen)
		}
		if len(seen) == EvidenceK {
			break
		}
	}
	return 0
}

// corpusBM25 is BM25 over a whole corpus of passages, idf over the corpus,
// with postings so that a question reads only the passages that hold one
// of its terms.
type corpusBM25 struct {
	postings map[string][]posting
	lens     []int
	avgdl    float64
}

type posting struct {
	doc int32
	tf  int32
}

func newCorpusBM25(docs []string) *corpusBM25 {
	ix := &corpusBM25{postings: map[string][]posting{}, lens: make([]int, len(docs))}
	total := 0
	for i, d := range docs {
		toks := bm25Tokens(d)
		tf := map[string]int32{}
		for _, t := range toks {
			tf[t]++
		}
		for t, f := range tf {
			ix.postings[t] = append(ix.postings[t], posting{int32(i), f})
		}
		ix.lens[i] = len(toks)
		total += len(toks)
	}
	if len(docs) > 0 {
		ix.avgdl = math.Max(float64(total)/float64(len(docs)), 1)
	}
	return ix
}

// top returns the indices of the best k passages for question, best
// first; ties keep corpus order, and passages without a query term are left
// out.
func (ix *corpusBM25) top(question string, k int) []int {
	n := float64(len(ix.lens))
	score := map[int32]float64{}
	for _, t := range queryTerms(question) {
		ps := ix.postings[t]
		if len(ps) == 0 {
			continue
		}
		df := float64(len(ps))
		idf := math.Log(1 + (n-df+0.5)/(df+0.5))
		for _, p := range ps {
			f := float64(p.tf)
			norm := baselineK1 * (1 - baselineB + baselineB*float64(ix.lens[p.doc])/ix.avgdl)
			score[p.doc] += idf * f * (baselineK1 + 1) / (f + norm)
		}
	}
	order := make([]int, 0, len(score))
	for d := range score {
		order = append(order, int(d))
	}
	slices.SortFunc(order, func(a, b int) int {
		switch sa, sb := score[int32(a)], score[int32(b)]; {
		case sa > sb:
			return -1
		case sa < sb:
			return 1
		}
		return a - b
	})
	return order[:min(k, len(order))]
}
