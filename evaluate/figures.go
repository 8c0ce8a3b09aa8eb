package evaluate

import (
	"encoding/json"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"sort"
	"strings"
)

// setKinds are the kinds `digestd eval all` runs on a set, by the prefix
// of the set's folder name (the evaluation data's README names its sets
// so).
var setKinds = []struct {
	prefix string
	kinds  []string
}{
	{"extract-", []string{"extract", "hygiene"}},
	{"evidence-", []string{"evidence", "sources", "search", "locate", "hygiene"}},
	{"summary-", []string{"summary", "hygiene"}},
	{"sbd-", []string{"sbd"}},
}

// KindsFor returns the kinds of evaluation that fit the set named set, in
// the order they run; none for a folder of another name.
func KindsFor(set string) []string {
	for _, k := range setKinds {
		if strings.HasPrefix(set, k.prefix) {
			return k.kinds
		}
	}
	return nil
}

// Sets returns the evaluation sets under root that some kind fits: its
// folders holding a cases.jsonl, in name order.
func Sets(root string) ([]string, error) {
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() || KindsFor(e.Name()) == nil {
			continue
		}
		if _, err := os.Stat(filepath.Join(root, e.Name(), "cases.jsonl")); err == nil {
			out = append(out, filepath.Join(root, e.Name()))
		}
	}
	sort.Strings(out)
	return out, nil
}

// Direction says which way a figure improves: Higher (a recall, an F1),
// Lower (a count of defects, a false-positive rate), or Reported (a size, a
// count of documents, a time: shown, not held).
type Direction string

// The directions of a figure.
const (
	Higher   Direction = "higher"
	Lower    Direction = "lower"
	Reported Direction = "reported"
)

// noiseCases is how many cases (questions, pages, documents) a figure may
// move by before the move counts: a rate's band is noiseCases over the
// cases it is measured on, a count's is noiseCases.
const noiseCases = 3

// Figure is one figure of a run as the quality baseline holds it: its
// value, the band within which a lower value (a higher one for a Lower
// figure) is noise, and its direction.
type Figure struct {
	Value  float64   `json:"value"`
	Band   float64   `json:"band"`
	Better Direction `json:"better"`
}

// QualityBaseline is every figure of `digestd eval all --json DATA` as last
// landed (docs/eval-baseline.json), keyed "kind/set/metric"; each report's
// errors are the figure "kind/set/errors".
type QualityBaseline struct {
	Command string            `json:"command"`
	Figures map[string]Figure `json:"figures"`
}

// countFigures are the metrics that count cases or things rather than
// average over them (their band is noiseCases itself).
var countFigures = map[string]bool{
	"errors": true, "empty_summaries": true, "duplicate_key_points": true, "verdicts": true, "false_verdicts": true,
	"empty_reference_pages": true, "no_query_match_digests": true, "hygiene_documents": true, "hygiene_key_points": true,
	"hygiene_summary_sentences": true, "key_points_not_sentences": true, "boilerplate_lines": true,
	"dangling_summary_openers": true, "key_points_repeating_summary": true, "repeated_sentences": true,
	"digests_longer_than_source": true, "summaries_not_opening_lead": true, "false_locators": true,
}

// lowerFigures are the metrics where less is better: defects and false
// positives.
var lowerFigures = map[string]bool{
	"errors": true, "empty_summaries": true, "duplicate_key_points": true, "false_verdicts": true,
	"key_points_not_sentences": true, "key_points_not_sentences_share": true, "boilerplate_lines": true,
	"boilerplate_share": true, "dangling_summary_openers": true, "key_points_repeating_summary": true,
	"digests_longer_than_source": true, "summaries_not_opening_lead": true, "false_locator_rate": true,
	"unanswerable_top_ge_0_5_share": true, "no_query_match_max_score": true, "false_locators": true,
	"negative_max_similarity": true,
}

// reportedFigures are shown and not held: sizes, counts of what was
// measured (and every n_… count of cases), shares with no better side (a
// sentence the summary and a snippet share is allowed), and every figure of
// a BM25 baseline (bm25_…): the floor the service's figures are read
// against, not a quality of the service.
var reportedFigures = map[string]bool{
	"verdicts": true, "empty_reference_pages": true, "no_query_match_digests": true, "hygiene_documents": true,
	"hygiene_key_points": true, "hygiene_summary_sentences": true, "repeated_sentences": true,
	"index_bytes": true, "text_bytes": true, "evidence_chars_per_question": true,
	"index_passages": true, "pages": true, "pages_per_sec": true, "floor_seconds": true,
}

// groupPrefix returns the prefix of a group of a set's cases that metric
// name is measured on (half0_, half1_, lang_de_), or "".
func groupPrefix(name string) string {
	for _, p := range []string{"half0_", "half1_"} {
		if strings.HasPrefix(name, p) {
			return p
		}
	}
	if rest, ok := strings.CutPrefix(name, "lang_"); ok {
		if k := strings.IndexByte(rest, '_'); k > 0 {
			return name[:len("lang_")+k+1]
		}
	}
	return ""
}

// figureOf returns how the baseline holds metric name of a report of
// cases cases, whose metrics are all: its direction and band. Prefixes a
// metric carries (short_, a group's) keep its direction; a group's figure
// is measured on the group's cases (its <group>cases metric, else half the
// set's for a half).
func figureOf(name string, value float64, cases int, all map[string]float64) Figure {
	base := strings.TrimPrefix(name, "short_")
	if g := groupPrefix(base); g != "" {
		base = strings.TrimPrefix(base, g)
		switch n, ok := all[g+"cases"]; {
		case ok && n > 0:
			cases = int(n)
		case strings.HasPrefix(g, "half"):
			cases /= 2
		}
	}
	f := Figure{Value: value, Better: Higher}
	switch {
	case reportedFigures[base] || base == "cases" || strings.HasPrefix(base, "n_") || strings.HasPrefix(base, "bm25_") || strings.HasSuffix(base, "_chars_per_question"):
		f.Better = Reported
	case lowerFigures[base]:
		f.Better = Lower
	}
	if countFigures[base] {
		f.Band = noiseCases
	} else if cases > 0 {
		f.Band = math.Round(noiseCases/float64(cases)*1e6) / 1e6
	}
	return f
}

// figureKey names a figure of a report.
func figureKey(r Report, metric string) string {
	return r.Kind + "/" + r.Set + "/" + metric
}

// BaselineOf returns the baseline that holds every figure of reports.
func BaselineOf(reports []Report, command string) QualityBaseline {
	b := QualityBaseline{Command: command, Figures: map[string]Figure{}}
	for _, r := range reports {
		b.Figures[figureKey(r, "errors")] = figureOf("errors", float64(r.Errors), r.Cases, r.Metrics)
		for m, v := range r.Metrics {
			b.Figures[figureKey(r, m)] = figureOf(m, v, r.Cases, r.Metrics)
		}
	}
	return b
}

// ReadQualityBaseline reads a baseline written by WriteFile.
func ReadQualityBaseline(path string) (QualityBaseline, error) {
	var b QualityBaseline
	raw, err := os.ReadFile(path)
	if err != nil {
		return b, err
	}
	if err := json.Unmarshal(raw, &b); err != nil {
		return b, fmt.Errorf("quality baseline %s: %w", path, err)
	}
	return b, nil
}

// WriteFile writes b as indented JSON, figures in key order.
func (b QualityBaseline) WriteFile(path string) error {
	raw, err := json.MarshalIndent(b, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(path, append(raw, '\n'), 0o644)
}

// Compare returns what a run's reports do to the baseline, one line a
// problem, in key order: a figure lowered beyond its band (raised, for a
// Lower figure), a figure of the baseline the run does not report, and a
// figure the run reports that the baseline does not hold. None means the
// run keeps every figure.
func (b QualityBaseline) Compare(reports []Report) []string {
	got := BaselineOf(reports, b.Command).Figures
	var out []string
	for key, want := range b.Figures {
		g, ok := got[key]
		switch {
		case !ok:
			out = append(out, fmt.Sprintf("%s: in the baseline (%.4f), not reported", key, want.Value))
		case want.Better == Higher && g.Value < want.Value-want.Band-1e-9:
			out = append(out, fmt.Sprintf("%s: %.4f, below the baseline %.4f by more than its band %.4f", key, g.Value, want.Value, want.Band))
		case want.Better == Lower && g.Value > want.Value+want.Band+1e-9:
			out = append(out, fmt.Sprintf("%s: %.4f, above the baseline %.4f by more than its band %.4f", key, g.Value, want.Value, want.Band))
		}
	}
	for key, g := range got {
		if _, ok := b.Figures[key]; !ok {
			out = append(out, fmt.Sprintf("%s: reported (%.4f), not in the baseline", key, g.Value))
		}
	}
	sort.Strings(out)
	return out
}
