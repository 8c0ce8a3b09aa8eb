package htmltext

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/internal/shareddata"
	"github.com/digestd/digestd/internal/testenv"
)

// sharedData locates the shared evaluation data: $DIGESTD_SHARED_DATA, or
// ../shared/data beside the repository root. Absent data skips the test,
// except under CI=true, where it fails.
func sharedData(t testing.TB) string {
	t.Helper()
	return shareddata.Set(t, "")
}

func extractFunc(_ context.Context, kind string, raw []byte, pageURL string) (string, error) {
	res, err := Extract(raw, "", pageURL)
	if err != nil {
		return "", err
	}
	return res.Text, nil
}

// TestQualityBars runs the HTML extraction sets and checks the quality
// bars, that no page fails, and that a second run gives identical text.
func TestQualityBars(t *testing.T) {
	testenv.FullSuite(t, "evaluates the extraction on the shared sets")
	data := sharedData(t)
	tests := []struct {
		set    string
		metric string
		bar    float64
	}{
		{"extract-html-trafilatura", "snippet_f1", 0.920},
		{"extract-html-aeb-dev", "shingle_f1", 0.95},
	}
	for _, tt := range tests {
		t.Run(tt.set, func(t *testing.T) {
			dir := filepath.Join(data, tt.set)
			run, err := evaluate.RunExtract(context.Background(), dir, extractFunc)
			if err != nil {
				t.Fatal(err)
			}
			r := run.Report
			t.Logf("%s: %d cases, %d errors, %.1f docs/s, metrics %v", r.Set, r.Cases, r.Errors, r.DocsPerSec, r.Metrics)
			if r.Errors != 0 {
				for _, o := range run.Outputs {
					if o.Err != nil {
						t.Errorf("case %s: %v", o.Case.ID, o.Err)
					}
				}
			}
			if got := r.Metrics[tt.metric]; got < tt.bar {
				t.Errorf("%s = %.4f, below the bar %.3f", tt.metric, got, tt.bar)
			}
			if os.Getenv("HTMLTEXT_DUMP") != "" {
				dumpFailures(t, run)
			}
			again, err := evaluate.RunExtract(context.Background(), dir, extractFunc)
			if err != nil {
				t.Fatal(err)
			}
			for i, o := range again.Outputs {
				if o.Text != run.Outputs[i].Text {
					t.Errorf("case %s: output differs between runs", o.Case.ID)
				}
			}
		})
	}
}

// dumpFailures logs missed and wrongly kept segments, for error analysis.
func dumpFailures(t *testing.T, run evaluate.ExtractRun) {
	for _, o := range run.Outputs {
		text := evaluate.CollapseSpace(o.Text)
		for _, s := range o.Case.MustContain {
			if !strings.Contains(text, evaluate.CollapseSpace(s)) {
				t.Logf("MISS %s [%d chars out]: %.100s", o.Case.ID, len(text), s)
			}
		}
		for _, s := range o.Case.MustNotContain {
			if strings.Contains(text, evaluate.CollapseSpace(s)) {
				t.Logf("KEPT %s: %.100s", o.Case.ID, s)
			}
		}
		if o.Case.ReferenceFile != "" {
			ref, _ := evaluate.ReadCaseFile(filepath.Join(sharedData(t), run.Report.Set), o.Case.ReferenceFile)
			m := evaluate.ShingleMatch(o.Text, string(ref))
			t.Logf("SHINGLE %s P=%.3f R=%.3f", o.Case.ID, m.TP/(m.TP+m.FP), m.TP/(m.TP+m.FN))
		}
	}
}
