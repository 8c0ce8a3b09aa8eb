package digest_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/digest/sentences"
	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/internal/shareddata"
	"github.com/digestd/digestd/normalize"
)

// sharedData returns the evaluation data folder, skipping the test when it
// is absent (failing under CI=true).
func sharedData(t *testing.T) string {
	t.Helper()
	return shareddata.Set(t, "")
}

// digestText is the service's text-source path: canonical text, then Build.
func digestText(_ context.Context, text, query string) (*digest.Payload, error) {
	p, _, err := digest.Build(normalize.Canonical(text), query, digest.Options{})
	return p, err
}

// TestQuality prints the evaluation reports of the digester on the shared
// sets. It runs only when DIGESTD_EVAL is set, since it takes CPU time: 1
// runs every set, otherwise the kinds it names ("sbd,evidence,summary"). The
// figures are measured, not asserted.
func TestQuality(t *testing.T) {
	if os.Getenv("DIGESTD_EVAL") == "" {
		t.Skip("set DIGESTD_EVAL=1 to run the evaluations")
	}
	dir := sharedData(t)
	ctx := context.Background()
	only := os.Getenv("DIGESTD_EVAL")
	run := func(name string, f func() (evaluate.Report, error)) {
		if only != "1" && !strings.Contains(only, name) {
			return
		}
		rep, err := f()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		rep.WriteTable(os.Stdout)
	}
	run("sbd", func() (evaluate.Report, error) {
		return evaluate.SBD(ctx, filepath.Join(dir, "sbd-sentencex"), sentences.Strings)
	})
	run("evidence", func() (evaluate.Report, error) {
		return evaluate.Evidence(ctx, filepath.Join(dir, "evidence-covidqa"), func(ctx context.Context, text, query string) (evaluate.EvidenceDigest, error) {
			canon := normalize.Canonical(text)
			p, warns, err := digest.Build(canon, query, digest.Options{})
			d := evaluate.EvidenceDigest{Payload: p, Canonical: canon}
			for _, w := range warns {
				d.Warnings = append(d.Warnings, w.Code)
			}
			return d, err
		})
	})
	for _, set := range []string{"summary-govreport", "summary-abstracts"} {
		run("summary", func() (evaluate.Report, error) {
			return evaluate.Summary(ctx, filepath.Join(dir, set), digestText)
		})
	}
}
