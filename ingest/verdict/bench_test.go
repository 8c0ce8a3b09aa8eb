package verdict_test

import (
	"testing"
	"time"

	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/ingest/htmltext"
	"github.com/digestd/digestd/ingest/verdict"
	"github.com/digestd/digestd/internal/shareddata"
)

// BenchmarkStaticPath reads every page of the three HTML dev sets as the
// ingester does: the extraction, then the verdict. It reports the time of
// each per page and the verdict's share of the extraction's time
// (verdict-%), timed page by page in the same run, so that the machine's
// other load weighs on both alike.
func BenchmarkStaticPath(b *testing.B) {
	var pages [][]byte
	for _, set := range []string{"extract-html-aeb-dev", "extract-html-trafilatura", "extract-html-wcxb-dev"} {
		dir := shareddata.Set(b, set)
		cases, err := evaluate.ReadExtractCases(dir)
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range cases {
			raw, err := evaluate.ReadCaseFile(dir, c.File)
			if err != nil {
				b.Fatal(err)
			}
			pages = append(pages, raw)
		}
	}
	var extract, judge time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, raw := range pages {
			t0 := time.Now()
			res, err := htmltext.Extract(raw, "", "")
			if err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			verdict.Judge(verdict.Page{Raw: raw, Title: res.Meta.Title, Text: res.Text, Tree: res.Tree})
			extract, judge = extract+t1.Sub(t0), judge+time.Since(t1)
		}
	}
	n := float64(b.N * len(pages))
	b.ReportMetric(float64(extract.Microseconds())/n, "extract-us/page")
	b.ReportMetric(float64(judge.Microseconds())/n, "verdict-us/page")
	b.ReportMetric(100*float64(judge)/float64(extract), "verdict-%")
}
