package evaluate

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/digestd/digestd/digest/sentences"
)

// SummaryCase is one line of a summary set's cases.jsonl.
type SummaryCase struct {
	ID        string `json:"id"`
	Doc       string `json:"doc"`
	Reference string `json:"reference"`
}

// Summary runs fn over every document of the summary set in dir with an
// empty query and scores each payload's summary against the reference:
// rouge1, rouge2 and rougeL F1 on the whole summary and rouge1_lead3,
// rouge2_lead3 and rougeL_lead3 on its first three sentences, each the mean
// over cases, and empty_summaries, the number of cases whose document has
// words but whose summary is empty (a count, not a fraction). A case whose document cannot be read or whose digest fails
// scores 0 and counts in Report.Errors; only cancellation of ctx stops the
// run. Seconds and DocsPerSec time fn alone.
func Summary(ctx context.Context, dir string, fn DigestFunc) (Report, error) {
	cases, err := readCases[SummaryCase](dir)
	if err != nil {
		return Report{}, fmt.Errorf("summary set %s: %w", dir, err)
	}
	rep := Report{Set: filepath.Base(filepath.Clean(dir)), Kind: "summary", Cases: len(cases), Metrics: map[string]float64{}}
	var elapsed time.Duration
	sums := map[string]float64{}
	empty := 0
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return Report{}, fmt.Errorf("summary run %s: %w", rep.Set, err)
		}
		summary := ""
		b, err := ReadCaseFile(dir, c.Doc)
		if err != nil {
			rep.Errors++
		} else {
			start := time.Now()
			p, err := fn(ctx, string(b), "")
			elapsed += time.Since(start)
			if err != nil {
				if ctx.Err() != nil {
					return Report{}, fmt.Errorf("summary run %s: %w", rep.Set, ctx.Err())
				}
				rep.Errors++
			} else {
				summary = p.Summary
			}
			if strings.TrimSpace(summary) == "" && len(RougeTokens(string(b))) > 0 {
				empty++
			}
		}
		for k, v := range SummaryScores(summary, c.Reference) {
			sums[k] += v
		}
	}
	if len(cases) > 0 {
		for k, v := range sums {
			rep.Metrics[k] = v / float64(len(cases))
		}
	}
	rep.Metrics["empty_summaries"] = float64(empty)
	rep.Seconds = elapsed.Seconds()
	if elapsed > 0 {
		rep.DocsPerSec = float64(len(cases)) / elapsed.Seconds()
	}
	return rep, nil
}

// SummaryScores returns the ROUGE F1 metrics of one summary against its
// reference, keyed as in the summary report.
func SummaryScores(summary, reference string) map[string]float64 {
	ref := RougeTokens(reference)
	whole := RougeTokens(summary)
	lead := RougeTokens(Lead(summary, 3))
	return map[string]float64{
		"rouge1":       RougeN(whole, ref, 1).F1,
		"rouge2":       RougeN(whole, ref, 2).F1,
		"rougeL":       RougeL(whole, ref).F1,
		"rouge1_lead3": RougeN(lead, ref, 1).F1,
		"rouge2_lead3": RougeN(lead, ref, 2).F1,
		"rougeL_lead3": RougeL(lead, ref).F1,
	}
}

// Lead returns the first n sentences of text joined by spaces.
func Lead(text string, n int) string {
	s := sentences.Strings(text)
	if len(s) > n {
		s = s[:n]
	}
	return strings.Join(s, " ")
}
