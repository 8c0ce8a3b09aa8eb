package evaluate

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"time"
)

// SourcesK is the number of documents in each draw of the sources
// evaluation: the question's own document and SourcesK-1 others.
const SourcesK = 10

// RankFunc ranks several documents for one query, as a multi-source digest
// request does: it returns indices into texts, best first. Documents it
// could not digest may be left out. texts are the documents' file contents
// exactly as read.
type RankFunc func(ctx context.Context, texts []string, query string) ([]int, error)

// Sources measures cross-source ranking on the evidence set in dir: for
// every case, the case's document and SourcesK-1 other documents of the set
// (a deterministic draw, in a drawn order) are ranked by fn. It reports
// sources_p_at_1 (the case's document ranked first) and sources_mrr, and
// on the same draws bm25_doc_p_at_1 and bm25_doc_mrr for BM25 over the
// whole documents (idf over the draw), and the same four figures for each
// half of the set (DocHalf), prefixed half0_ and half1_. A failing fn call counts as a miss
// and in Report.Errors; only cancellation of ctx stops the run.
func Sources(ctx context.Context, dir string, fn RankFunc) (Report, error) {
	cases, err := readCases[EvidenceCase](dir)
	if err != nil {
		return Report{}, fmt.Errorf("evidence set %s: %w", dir, err)
	}
	rep := Report{Set: filepath.Base(filepath.Clean(dir)), Kind: "sources", Cases: len(cases), Metrics: map[string]float64{}}
	names := docNames(cases)
	docs := map[string]string{}
	for _, n := range names {
		b, err := ReadCaseFile(dir, n)
		if err != nil {
			continue
		}
		docs[n] = string(b)
	}
	var elapsed time.Duration
	var ranked int
	var own, base rankTally
	var halfOwn, halfBase [2]rankTally
	var halfRanked [2]int
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return Report{}, fmt.Errorf("sources run %s: %w", rep.Set, err)
		}
		draw := drawSources(names, c)
		texts := make([]string, 0, len(draw))
		gold := -1
		for _, n := range draw {
			t, ok := docs[n]
			if !ok {
				continue
			}
			if n == c.Doc {
				gold = len(texts)
			}
			texts = append(texts, t)
		}
		if gold < 0 {
			rep.Errors++
			continue
		}
		ranked++
		start := time.Now()
		order, err := fn(ctx, texts, c.Question)
		elapsed += time.Since(start)
		if err != nil {
			if ctx.Err() != nil {
				return Report{}, fmt.Errorf("sources run %s: %w", rep.Set, ctx.Err())
			}
			rep.Errors++
		}
		r, b := slices.Index(order, gold)+1, slices.Index(bm25Order(texts, c.Question), gold)+1
		own.add(r)
		base.add(b)
		h := DocHalf(c.Doc)
		halfRanked[h]++
		halfOwn[h].add(r)
		halfBase[h].add(b)
	}
	if ranked > 0 {
		rep.Metrics["sources_p_at_1"] = own.first / float64(ranked)
		rep.Metrics["sources_mrr"] = own.rr / float64(ranked)
		rep.Metrics["bm25_doc_p_at_1"] = base.first / float64(ranked)
		rep.Metrics["bm25_doc_mrr"] = base.rr / float64(ranked)
	}
	for h, n := range halfRanked {
		if n == 0 {
			continue
		}
		prefix := fmt.Sprintf("half%d_", h)
		rep.Metrics[prefix+"sources_p_at_1"] = halfOwn[h].first / float64(n)
		rep.Metrics[prefix+"sources_mrr"] = halfOwn[h].rr / float64(n)
		rep.Metrics[prefix+"bm25_doc_p_at_1"] = halfBase[h].first / float64(n)
		rep.Metrics[prefix+"bm25_doc_mrr"] = halfBase[h].rr / float64(n)
	}
	rep.Seconds = elapsed.Seconds()
	if elapsed > 0 {
		rep.DocsPerSec = float64(ranked*SourcesK) / elapsed.Seconds()
	}
	return rep, nil
}

// drawSources returns the case's document and up to SourcesK-1 other
// documents of names, in an order drawn from the case (caseRand).
func drawSources(names []string, c EvidenceCase) []string {
	r := caseRand(c)
	others := slices.DeleteFunc(slices.Clone(names), func(n string) bool { return n == c.Doc })
	r.Shuffle(len(others), func(i, j int) { others[i], others[j] = others[j], others[i] })
	draw := append(others[:min(len(others), SourcesK-1)], c.Doc)
	r.Shuffle(len(draw), func(i, j int) { draw[i], draw[j] = draw[j], draw[i] })
	return draw
}
