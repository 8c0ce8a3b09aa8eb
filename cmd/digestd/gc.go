package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"time"

	"github.com/digestd/digestd/pipeline"
)

func runGC(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("gc", "Usage: digestd gc [--dry-run] [--grace 24h] [--archive DIR]\n\nRemoves archived blobs that no reference reaches (no source, no cached digest) and that are\nolder than the grace period, and prints what it found as JSON. For an s3:// archive use a\nbucket lifecycle rule instead (see docs/operations.md).", stderr)
	c := config{command: "gc"}
	c.registerArchive(fs, false)
	c.registerIndex(fs)
	dryRun := fs.Bool("dry-run", false, "report what would be removed, remove nothing")
	grace := fs.Duration("grace", 24*time.Hour, "never remove blobs younger than this (at least "+pipeline.MinGCGrace.String()+")")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	a, err := openApp(ctx, &c, slog.New(slog.NewJSONHandler(stderr, nil)))
	if err != nil {
		return err
	}
	defer a.Close()
	rep, err := a.pipe.CollectGarbage(ctx, *grace, *dryRun)
	if err != nil {
		return err
	}
	enc := json.NewEncoder(stdout)
	return enc.Encode(struct {
		DryRun bool `json:"dry_run"`
		pipeline.GCReport
	}{*dryRun, rep})
}
