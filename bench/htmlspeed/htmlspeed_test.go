//go:build unix

package htmlspeed

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
	"time"

	trafilatura "github.com/markusmobius/go-trafilatura"
	"golang.org/x/sys/unix"

	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/ingest/htmltext"
)

// dataDir is the trafilatura set: $DIGESTD_SHARED_DATA or ../shared/data
// beside the repository root.
func dataDir() string {
	root := os.Getenv("DIGESTD_SHARED_DATA")
	if root == "" {
		root = filepath.Join("..", "..", "..", "shared", "data")
	}
	return filepath.Join(root, "extract-html-trafilatura")
}

// loadPages reads every page of the set, or skips when the set is absent.
func loadPages(b *testing.B) [][]byte {
	dir := dataDir()
	if _, err := os.Stat(filepath.Join(dir, "cases.jsonl")); err != nil {
		b.Skipf("trafilatura set not present at %s (set DIGESTD_SHARED_DATA): %v", dir, err)
	}
	cases, err := evaluate.ReadExtractCases(dir)
	if err != nil {
		b.Fatal(err)
	}
	pages := make([][]byte, 0, len(cases))
	for _, c := range cases {
		raw, err := evaluate.ReadCaseFile(dir, c.File)
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, raw)
	}
	return pages
}

// extractor runs one extraction of a raw page; an error is not a failure
// (the page counts all the same), as in the evaluation.
type extractor struct {
	name string
	run  func(raw []byte)
}

var extractors = []extractor{
	{"digestd", func(raw []byte) { _, _ = htmltext.Extract(raw, "", "") }},
	{"gotrafilatura", func(raw []byte) {
		_, _ = trafilatura.Extract(bytes.NewReader(raw), trafilatura.Options{})
	}},
	{"gotrafilatura_fallback", func(raw []byte) {
		_, _ = trafilatura.Extract(bytes.NewReader(raw), trafilatura.Options{EnableFallback: true})
	}},
}

// BenchmarkTrafilaturaSet extracts every page of the trafilatura set with
// each extractor, b.N rounds, on this one goroutine, and reports each
// extractor's docs/s and digestd's speed as a multiple of go-trafilatura's
// (without and with its fallback extractors). The extractors take turns
// page by page, so that a change in the machine's load falls on all of
// them alike. Besides the wall-clock figures (docs/s) it reports figures
// from the process's CPU time (cpu_docs/s), which a busy machine disturbs
// less; garbage collection is charged to whichever extractor runs while
// it works.
func BenchmarkTrafilaturaSet(b *testing.B) {
	pages := loadPages(b)
	// One untimed pass over a few pages first: go-trafilatura compiles
	// its regular expressions on first use.
	for _, e := range extractors {
		for _, p := range pages[:min(len(pages), 20)] {
			e.run(p)
		}
	}
	wall := make([]time.Duration, len(extractors))
	cpu := make([]time.Duration, len(extractors))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range pages {
			for k, e := range extractors {
				c0 := cpuTime()
				start := time.Now()
				e.run(p)
				wall[k] += time.Since(start)
				cpu[k] += cpuTime() - c0
			}
		}
	}
	b.StopTimer()
	docs := float64(b.N * len(pages))
	rate := make([]float64, len(extractors))
	cpuRate := make([]float64, len(extractors))
	for k, e := range extractors {
		rate[k] = docs / wall[k].Seconds()
		cpuRate[k] = docs / cpu[k].Seconds()
		b.ReportMetric(rate[k], e.name+"_docs/s")
		b.ReportMetric(cpuRate[k], e.name+"_cpu_docs/s")
	}
	b.ReportMetric(rate[0]/rate[1], "x_gotrafilatura")
	b.ReportMetric(rate[0]/rate[2], "x_gotrafilatura_fallback")
	b.ReportMetric(cpuRate[0]/cpuRate[1], "cpu_x_gotrafilatura")
	b.ReportMetric(cpuRate[0]/cpuRate[2], "cpu_x_gotrafilatura_fallback")
}

// cpuTime is the CPU time (user and system) the process has used so far.
func cpuTime() time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(unix.CLOCK_PROCESS_CPUTIME_ID, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
