package main

import (
	"context"
	"errors"
	"fmt"
	"github.com/digestd/digestd"
	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/ingest/fetch"
	"github.com/digestd/digestd/pipeline"
	"io"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/ingest"
)

// workerCommand is the hidden subcommand that runs one PDF parse in a child
// process (see ingest/pdfworker).
const workerCommand = "__pdf-worker"

// wireIngest gives the ingester its guarded fetcher and PDF worker pool.
func (a *app) wireIngest(c *config, in *ingest.Ingester) error {
	in.Fetcher = fetch.New(fetch.Config{
		MaxBytes:     c.fetchMax,
		TotalTimeout: c.fetchTimeout,
		UserAgent:    "digestd/" + digestd.Version,
	})
	return nil
}

func openS3(ctx context.Context, loc string) (archive.Store, error) {
	return nil, errors.New("s3 archives are not supported yet")
}

func runWorker(stdin io.Reader, stdout io.Writer) error {
	return errors.New("the PDF worker is not available")
}

func evalKind(ctx context.Context, kind, dir string, p *pipeline.Pipeline, rep *evaluate.Report) error {
	return fmt.Errorf("unknown evaluation kind %q (want extract, evidence, summary or sbd)", kind)
}
