package evaluate

import (
	"iter"
	"os"
	"path/filepath"

	"github.com/digestd/digestd/normalize"
)

// SearchCorpus reads the evaluation sets under data as the corpus of the
// search engines' benchmark (search/searchtest.Benchmark): texts yields the
// canonical texts of the evidence and summary documents, then of the HTML
// dev pages through html (the extractor, which the caller gives: the
// extractor's own tests import this package), reading each only when it is
// asked for; questions are the first 100 of three evidence sets. It fails
// when a set it asks questions of is missing.
func SearchCorpus(data string, html func(raw []byte) (string, error)) (texts iter.Seq[string], questions []string, err error) {
	for _, set := range []string{"evidence-qasper-train", "evidence-covidqa", "evidence-squad"} {
		cases, err := ReadEvidenceCases(filepath.Join(data, set))
		if err != nil {
			return nil, nil, err
		}
		for _, c := range cases[:min(100, len(cases))] {
			questions = append(questions, c.Question)
		}
	}
	texts = func(yield func(string) bool) {
		for _, set := range []string{"evidence-qasper-train", "evidence-covidqa", "evidence-squad", "summary-govreport", "summary-abstracts"} {
			files, _ := filepath.Glob(filepath.Join(data, set, "docs", "*"))
			for _, f := range files {
				raw, err := os.ReadFile(f)
				if err == nil && !yield(normalize.Canonical(string(raw))) {
					return
				}
			}
		}
		for _, set := range []string{"extract-html-wcxb-dev", "extract-html-trafilatura"} {
			cases, err := ReadExtractCases(filepath.Join(data, set))
			if err != nil {
				continue
			}
			for _, c := range cases {
				raw, err := ReadCaseFile(filepath.Join(data, set), c.File)
				if err != nil {
					continue
				}
				if text, err := html(raw); err == nil && !yield(text) {
					return
				}
			}
		}
	}
	return texts, questions, nil
}
