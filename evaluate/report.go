// Package evaluate measures digestd's quality on evaluation sets laid out as
// in shared/data/README.md (a folder with cases.jsonl): extraction
// (shingle, snippet and PDF word metrics), evidence selection, summaries and
// sentence boundaries. The work being measured is passed in as a function,
// so the command wires the same code paths the service uses.
package evaluate

import (
	"encoding/json"
	"fmt"
	"io"
	"sort"
)

// Report is the result of evaluating one set. Its JSON form is the one line
// per set that `digestd eval ... --json` prints. Metrics are fractions in
// [0,1], except the counts empty_summaries and duplicate_key_points and
// the hygiene report's counts (see Hygiene); a metric is present only when
// the set supports it.
type Report struct {
	Set        string             `json:"set"`
	Kind       string             `json:"kind"`
	Cases      int                `json:"cases"`
	Errors     int                `json:"errors"`
	Seconds    float64            `json:"seconds"`
	DocsPerSec float64            `json:"docs_per_sec"`
	Metrics    map[string]float64 `json:"metrics"`
}

// WriteJSON writes r as exactly one line of JSON.
func (r Report) WriteJSON(w io.Writer) error {
	b, err := json.Marshal(r)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(w, "%s\n", b)
	return err
}

// WriteTable writes r as a small human-readable table.
func (r Report) WriteTable(w io.Writer) error {
	fmt.Fprintf(w, "%s (%s): %d cases, %d errors, %.1fs, %.1f docs/s\n", r.Set, r.Kind, r.Cases, r.Errors, r.Seconds, r.DocsPerSec)
	names := make([]string, 0, len(r.Metrics))
	for k := range r.Metrics {
		names = append(names, k)
	}
	sort.Strings(names)
	for _, k := range names {
		fmt.Fprintf(w, "  %-20s %.4f\n", k, r.Metrics[k])
	}
	_, err := fmt.Fprintln(w)
	return err
}
