package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/internal/testenv"
)

// floorMargin is how far below its measured figure a headline figure may
// fall before CI fails.
const floorMargin = 0.01

// qualityFloors are the headline figures of `digestd eval KIND --json SET`
// on every dev set of the shared evaluation data, as measured on
// 2026-11-28 at f45d7c9 (cut to four decimals); CI fails when one falls more than floorMargin
// below, so that a regression is caught by the suite rather than in review.
// maxErrors bounds the cases that fail outright. Raise a figure when a
// change lifts it for good.
//
// The evidence sets hold only the BM25 sentence-window baseline's figures
// (the baseline guards the sentence windows and canonical text the
// digester shares); the digester's own evidence figures are left out while
// evidence selection is being changed, and are measured by the same
// command (docs/BENCHMARKS.md).
var qualityFloors = []struct {
	kind, set string
	measured  map[string]float64
	maxErrors int
	// ceilings bound counts from above: false_verdicts is a verdict
	// (CONTENT_BLOCKED, JS_REQUIRED, NOT_CONTENT) on a page whose case
	// says it has content, and none is allowed on any page set.
	ceilings map[string]float64
}{
	{"extract", "extract-html-wcxb-dev", map[string]float64{"word_f1_lc": 0.8777, "word_f1_lc_nonempty": 0.8855, "shingle_f1": 0.8596, "snippet_f1": 0.8766}, 16, noFalseVerdicts},
	{"extract", "extract-html-trafilatura", map[string]float64{"snippet_f1": 0.9336}, 0, noFalseVerdicts},
	{"extract", "extract-html-aeb-dev", map[string]float64{"shingle_f1": 0.9849}, 0, noFalseVerdicts},
	{"extract", "extract-pdf-pdfbox", map[string]float64{"word_f1": 0.9952, "shingle_f1": 0.9346, "word_shingle_f1": 0.9342}, 0, nil},
	{"extract", "extract-pdf-robustness", map[string]float64{}, 8, nil},
	{"summary", "summary-govreport", map[string]float64{"rouge1": 0.5454, "rouge2": 0.2768, "rougeL": 0.2884}, 0, nil},
	{"summary", "summary-abstracts", map[string]float64{"rouge1": 0.4164, "rouge2": 0.1249, "rougeL": 0.1932}, 0, nil},
	{"sbd", "sbd-sentencex", map[string]float64{"sbd_accuracy": 0.9576}, 0, nil},
	{"evidence", "evidence-covidqa", map[string]float64{"bm25_window_answer_recall_at_10": 0.8847, "bm25_window_hit_at_1": 0.6478, "bm25_window_mrr_at_10": 0.7293}, 0, nil},
	{"evidence", "evidence-squad", map[string]float64{"bm25_window_answer_recall_at_10": 0.9727, "bm25_window_hit_at_1": 0.8221, "bm25_window_mrr_at_10": 0.8811}, 0, nil},
	{"evidence", "evidence-qasper-train", map[string]float64{"bm25_window_evidence_hit_at_10": 0.808}, 0, nil},
	// Search across the whole corpus (issue 34), on the set that runs
	// fastest (about 2 minutes); docs/search.md has all three.
	// Measured at 3600138, which scores an excerpt of each candidate
	// source instead of its whole text: half 0 lost 10 questions (0.3704)
	// and half 1 gained 8 (0.3035), both still above BM25's.
	{"search", "evidence-qasper-train", map[string]float64{"evidence_hit_at_10": 0.334, "evidence_mrr_at_10": 0.1431, "half0_evidence_hit_at_10": 0.3498, "half1_evidence_hit_at_10": 0.3191, "bm25_evidence_hit_at_10": 0.281}, 0, nil},
}

// noFalseVerdicts is the ceiling of every page set.
var noFalseVerdicts = map[string]float64{"false_verdicts": 0}

// TestQualityFloors runs `digestd eval` (built without the race detector,
// as users run it) on every dev set and holds each headline figure to its
// floor, and summaries to be never empty.
func TestQualityFloors(t *testing.T) {
	testenv.FullSuite(t, "evaluates every dev set with the digestd binary")
	data := sharedData(t)
	bin := buildDigestd(t)
	for _, f := range qualityFloors {
		t.Run(f.set, func(t *testing.T) {
			cmd := exec.Command(bin, "eval", f.kind, "--json", filepath.Join(data, f.set))
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			out, err := cmd.Output()
			if err != nil {
				t.Fatalf("digestd eval %s %s: %v\n%s", f.kind, f.set, err, stderr.Bytes())
			}
			var rep evaluate.Report
			sc := bufio.NewScanner(bytes.NewReader(out))
			sc.Buffer(nil, 16<<20)
			if !sc.Scan() || json.Unmarshal(sc.Bytes(), &rep) != nil || rep.Cases == 0 {
				t.Fatalf("no report in %q", out)
			}
			t.Logf("%s: %d cases, %d errors, %v", rep.Set, rep.Cases, rep.Errors, rep.Metrics)
			if rep.Errors > f.maxErrors {
				t.Errorf("%d cases failed, at most %d did when the floors were measured", rep.Errors, f.maxErrors)
			}
			for name, measured := range f.measured {
				got, ok := rep.Metrics[name]
				if !ok {
					t.Errorf("%s: not reported", name)
					continue
				}
				if got < measured-floorMargin {
					t.Errorf("%s = %.4f, below its floor %.4f (measured %.4f)", name, got, measured-floorMargin, measured)
				}
			}
			for name, ceiling := range f.ceilings {
				if got, ok := rep.Metrics[name]; !ok || got > ceiling {
					t.Errorf("%s = %v (reported: %v), above its ceiling %v", name, got, ok, ceiling)
				}
			}
			if n, ok := rep.Metrics["empty_summaries"]; ok && n != 0 {
				t.Errorf("%v empty summaries", n)
			}
		})
	}
}
