package main

import (
	"testing"

	"github.com/digestd/digestd/evaluate"
)

// hygieneSets are the sets `digestd eval hygiene` is held on, with the
// bars of issues 33 and 46: on every set and on its short-text view
// (short_*) no digest longer than its source, no empty summary of a text
// of two or more sentences, no summary opening with a word that points
// back, no key point repeating the summary; on the web and PDF extraction
// sets at most maxShare of key points that are not sentences and of
// boilerplate lines, on both views.
var hygieneSets = []struct {
	set    string
	shares bool
}{
	{"extract-html-trafilatura", true},
	{"extract-html-wcxb-dev", true},
	{"extract-html-aeb-dev", false},
	{"extract-pdf-pdfbox", true},
	{"extract-pdf-robustness", true},
	{"evidence-covidqa", false},
	{"evidence-squad", false},
	{"evidence-qasper-train", false},
	{"evidence-cuad-dev", false},
	{"evidence-xquad", false},
	{"summary-govreport", false},
	{"summary-abstracts", false},
}

// maxShare is the largest share of key points that are not sentences, and
// of key points and summary sentences that are boilerplate, a set may have.
const maxShare = 0.01

// TestHygieneBars holds the hygiene reports of `digestd eval all` (the
// run TestQualityFloors shares) on every set of hygieneSets to the bars.
func TestHygieneBars(t *testing.T) {
	reports := map[string]evaluate.Report{}
	for _, rep := range evalAllReports(t) {
		if rep.Kind == "hygiene" {
			reports[rep.Set] = rep
		}
	}
	for _, s := range hygieneSets {
		rep, ok := reports[s.set]
		if !ok || rep.Metrics["hygiene_documents"] == 0 {
			t.Errorf("%s: no report", s.set)
			continue
		}
		t.Logf("%s: %v", s.set, rep.Metrics)
		for _, view := range []string{"", "short_"} {
			if _, ok := rep.Metrics[view+"hygiene_documents"]; !ok {
				t.Errorf("%s: %shygiene_documents not reported", s.set, view)
			}
			for _, name := range []string{"digests_longer_than_source", "empty_summaries", "dangling_summary_openers", "key_points_repeating_summary"} {
				if v, ok := rep.Metrics[view+name]; !ok || v != 0 {
					t.Errorf("%s: %s%s = %v (reported %v), want 0", s.set, view, name, v, ok)
				}
			}
			if v := rep.Metrics[view+"key_points_not_sentences_share"]; s.shares && v > maxShare {
				t.Errorf("%s: %skey_points_not_sentences_share = %.4f, above %.2f", s.set, view, v, maxShare)
			}
			if v := rep.Metrics[view+"boilerplate_share"]; s.shares && v > maxShare {
				t.Errorf("%s: %sboilerplate_share = %.4f, above %.2f", s.set, view, v, maxShare)
			}
		}
	}
}
