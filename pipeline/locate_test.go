package pipeline_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/pipeline"
)

// TestLocateAndCheckBounds holds /v1/locate and /v1/check (and their MCP
// tools) to the bounds the docs state: each request at a bound is served,
// and one past it is refused with VALIDATION_ERROR.
func TestLocateAndCheckBounds(t *testing.T) {
	p := newPipeline(t)
	ctx := context.Background()
	texts := func(n int) []pipeline.Request {
		out := make([]pipeline.Request, n)
		for i := range out {
			out[i] = pipeline.Request{ID: fmt.Sprintf("s%d", i)}
			out[i].Source.Text = fmt.Sprintf("Source %d. %s", i, tidesText)
		}
		return out
	}
	quotes := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = "the moon pulls the sea"
		}
		return out
	}
	report := func(chars, cites int) string {
		var b strings.Builder
		for range cites {
			b.WriteString("Tides rise [a]. ")
		}
		b.WriteString(strings.Repeat("x", chars-len([]rune(b.String()))))
		return b.String()
	}
	for _, tc := range []struct {
		name string
		run  func() error
		ok   bool
	}{
		{"locate: MaxLocateSources sources", func() error {
			_, err := p.Locate(ctx, pipeline.LocateRequest{Sources: texts(pipeline.MaxLocateSources), Quotes: quotes(1)})
			return err
		}, true},
		{"locate: one source more", func() error {
			_, err := p.Locate(ctx, pipeline.LocateRequest{Sources: texts(pipeline.MaxLocateSources + 1), Quotes: quotes(1)})
			return err
		}, false},
		{"locate: MaxQuotes quotes", func() error {
			_, err := p.Locate(ctx, pipeline.LocateRequest{Sources: texts(1), Quotes: quotes(pipeline.MaxQuotes)})
			return err
		}, true},
		{"locate: one quote more", func() error {
			_, err := p.Locate(ctx, pipeline.LocateRequest{Sources: texts(1), Quotes: quotes(pipeline.MaxQuotes + 1)})
			return err
		}, false},
		{"locate: a quote of MaxQuoteChars code points", func() error {
			_, err := p.Locate(ctx, pipeline.LocateRequest{Sources: texts(1), Quotes: []string{strings.Repeat("é", pipeline.MaxQuoteChars)}})
			return err
		}, true},
		{"locate: a quote one code point longer", func() error {
			_, err := p.Locate(ctx, pipeline.LocateRequest{Sources: texts(1), Quotes: []string{strings.Repeat("é", pipeline.MaxQuoteChars+1)}})
			return err
		}, false},
		{"check: MaxLocateSources sources", func() error {
			_, err := p.Check(ctx, pipeline.CheckRequest{Report: "Tides rise [s0].", Sources: texts(pipeline.MaxLocateSources)})
			return err
		}, true},
		{"check: one source more", func() error {
			_, err := p.Check(ctx, pipeline.CheckRequest{Report: "Tides rise [s0].", Sources: texts(pipeline.MaxLocateSources + 1)})
			return err
		}, false},
		{"check: a report of MaxReportChars code points", func() error {
			_, err := p.Check(ctx, pipeline.CheckRequest{Report: report(pipeline.MaxReportChars, 1)})
			return err
		}, true},
		{"check: a report one code point longer", func() error {
			_, err := p.Check(ctx, pipeline.CheckRequest{Report: report(pipeline.MaxReportChars+1, 1)})
			return err
		}, false},
		{"check: MaxCitations citations", func() error {
			_, err := p.Check(ctx, pipeline.CheckRequest{Report: report(pipeline.MaxCitations*17, pipeline.MaxCitations)})
			return err
		}, true},
		{"check: one citation more", func() error {
			_, err := p.Check(ctx, pipeline.CheckRequest{Report: report((pipeline.MaxCitations+1)*17, pipeline.MaxCitations+1)})
			return err
		}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.run()
			switch {
			case tc.ok && err != nil:
				t.Errorf("refused at the bound: %v", err)
			case !tc.ok && fault.CodeOf(err) != fault.ValidationError:
				t.Errorf("past the bound: %v, want %s", err, fault.ValidationError)
			}
		})
	}
}
