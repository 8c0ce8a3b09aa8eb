package evaluate

import (
	"context"
	"fmt"
	"sync"
)

// Variant is a named extraction measured against a baseline: the
// extractor with one of its rules turned off, for an ablation.
type Variant struct {
	Name string
	Fn   ExtractFunc
}

// AblationRow is one variant measured on one extract set.
type AblationRow struct {
	Set     string `json:"set"`
	Variant string `json:"variant"`
	// PagesChanged counts the cases whose output differs from the
	// baseline's.
	PagesChanged int `json:"pages_changed"`
	// Metrics are the variant's; Delta is each metric minus the
	// baseline's.
	Metrics map[string]float64 `json:"metrics"`
	Delta   map[string]float64 `json:"delta"`
}

// Ablate runs the extract set in dir with base and with each variant, on
// up to workers goroutines, and returns the baseline's report and one row
// per variant, in the variants' order. Only cancellation of ctx or an
// unreadable set stops it.
func Ablate(ctx context.Context, dir string, base ExtractFunc, variants []Variant, workers int) (Report, []AblationRow, error) {
	baseline, err := RunExtract(ctx, dir, base)
	if err != nil {
		return Report{}, nil, err
	}
	rows := make([]AblationRow, len(variants))
	errs := make([]error, len(variants))
	next := make(chan int)
	var wg sync.WaitGroup
	for range max(workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				run, err := RunExtract(ctx, dir, variants[i].Fn)
				if err != nil {
					errs[i] = fmt.Errorf("ablate %s: %w", variants[i].Name, err)
					continue
				}
				rows[i] = compareRuns(baseline, run, variants[i].Name)
			}
		}()
	}
	for i := range variants {
		next <- i
	}
	close(next)
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return Report{}, nil, err
		}
	}
	return baseline.Report, rows, nil
}

// compareRuns measures run against baseline (the same cases, in order).
func compareRuns(baseline, run ExtractRun, name string) AblationRow {
	row := AblationRow{Set: run.Report.Set, Variant: name, Metrics: run.Report.Metrics, Delta: map[string]float64{}}
	for i, o := range run.Outputs {
		if o.Text != baseline.Outputs[i].Text {
			row.PagesChanged++
		}
	}
	for k, v := range baseline.Report.Metrics {
		row.Delta[k] = run.Report.Metrics[k] - v
	}
	return row
}
