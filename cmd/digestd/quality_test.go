package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"

	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/internal/testenv"
)

var updateBaseline = flag.Bool("update-baseline", false, "TestQualityFloors: write docs/eval-baseline.json from this run")

// reportsFrom names a file of `digestd eval all --json DATA` output to read
// in place of running it (a run saved from the same commit).
var reportsFrom = flag.String("reports-from", "", "TestQualityFloors, TestHygieneBars: read the reports of eval all --json from this file instead of running it")

// baselineFile holds every figure of `digestd eval all --json DATA` as
// last landed, each with its noise band (evaluate.QualityBaseline).
const baselineFile = "../../docs/eval-baseline.json"

// evalAllRun is the one run of `digestd eval all --json DATA` the quality
// and hygiene tests share (it takes many minutes).
var evalAllRun struct {
	once    sync.Once
	reports []evaluate.Report
	failed  string
}

// evalAllReports returns the reports of `digestd eval all --json DATA`,
// run once for the whole test binary.
func evalAllReports(t *testing.T) []evaluate.Report {
	t.Helper()
	testenv.FullSuite(t, "evaluates every dev set with the digestd binary (minutes)")
	data := sharedData(t)
	evalAllRun.once.Do(func() {
		if *reportsFrom != "" {
			out, err := os.ReadFile(*reportsFrom)
			if err != nil {
				evalAllRun.failed = err.Error()
				return
			}
			evalAllRun.reports, evalAllRun.failed = parseReports(out)
			return
		}
		bin := buildDigestd(t)
		cmd := exec.Command(bin, "eval", "all", "--json", data)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			evalAllRun.failed = fmt.Sprintf("digestd eval all: %v\n%s", err, stderr.Bytes())
			return
		}
		if keep := os.Getenv("DIGESTD_EVAL_REPORTS_TO"); keep != "" {
			// The run's reports, kept for comparing with the baseline
			// (the run of a whole suite takes many minutes).
			if err := os.WriteFile(keep, out, 0o644); err != nil {
				t.Logf("keep the reports: %v", err)
			}
		}
		evalAllRun.reports, evalAllRun.failed = parseReports(out)
	})
	if evalAllRun.failed != "" {
		t.Fatal(evalAllRun.failed)
	}
	return evalAllRun.reports
}

// parseReports reads eval's JSON lines, or says why it cannot.
func parseReports(out []byte) ([]evaluate.Report, string) {
	var reports []evaluate.Report
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 16<<20)
	for sc.Scan() {
		var rep evaluate.Report
		if err := json.Unmarshal(sc.Bytes(), &rep); err != nil {
			return nil, fmt.Sprintf("report %q: %v", sc.Bytes(), err)
		}
		reports = append(reports, rep)
	}
	if len(reports) == 0 {
		return nil, fmt.Sprintf("no report in %q", out)
	}
	return reports, ""
}

// TestQualityFloors runs `digestd eval all` (built without the race
// detector, as users run it) on the shared evaluation data and holds every
// figure of every kind on every set to docs/eval-baseline.json: a figure
// lowered beyond its band (three questions or pages of its set; a defect
// count raised by more than three) fails, and so does a figure the run
// adds or drops. A change that moves a figure for good updates the
// baseline in the same commit (go test ./cmd/digestd -run
// TestQualityFloors -update-baseline) and says in its message which figure
// moved, by how much, and why it is worth it.
func TestQualityFloors(t *testing.T) {
	reports := evalAllReports(t)
	for _, rep := range reports {
		if n := rep.Metrics["empty_summaries"]; rep.Kind == "summary" && n != 0 {
			t.Errorf("%s: %v empty summaries", rep.Set, n)
		}
	}
	path := filepath.Clean(baselineFile)
	if *updateBaseline {
		if err := evaluate.BaselineOf(reports, "digestd eval all --json DATA").WriteFile(path); err != nil {
			t.Fatal(err)
		}
		t.Logf("wrote %s: %d reports", path, len(reports))
		return
	}
	base, err := evaluate.ReadQualityBaseline(path)
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range base.Compare(reports) {
		t.Error(p)
	}
}
