package main

import (
	"context"

	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
)

// locateFuncs locate quotes through the pipeline exactly as POST
// /v1/locate with a text source does, 100 quotes a request.
func locateFuncs(p *pipeline.Pipeline) evaluate.LocateFuncs {
	return evaluate.LocateFuncs{
		Canonical: func(ctx context.Context, doc string) (string, error) {
			d, err := p.Ingester.Ingest(ctx, ingest.Source{Text: doc})
			if err != nil {
				return "", err
			}
			return d.Text.String(), nil
		},
		Locate: func(ctx context.Context, doc string, quotes []string) ([]evaluate.LocatedSpan, error) {
			out := make([]evaluate.LocatedSpan, 0, len(quotes))
			src := []pipeline.Request{{ID: "doc", Source: ingest.Source{Text: doc}}}
			for lo := 0; lo < len(quotes); lo += pipeline.MaxQuotes {
				batch := quotes[lo:min(len(quotes), lo+pipeline.MaxQuotes)]
				res, err := p.Locate(ctx, pipeline.LocateRequest{Sources: src, Quotes: batch})
				if err != nil {
					return nil, err
				}
				for _, r := range res.Results {
					sp := evaluate.LocatedSpan{Match: r.Match, Similarity: r.Similarity}
					if r.Locator != nil {
						sp.Start, sp.End = r.Locator.Start, r.Locator.End
					}
					out = append(out, sp)
				}
			}
			return out, nil
		},
	}
}
