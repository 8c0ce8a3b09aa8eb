package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
)

func runVerify(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("verify", "Usage: digestd verify [--archive DIR|s3://bucket/prefix]\n\nReads every archived blob to its end, re-hashing it, and prints what it found as JSON: the\nblobs checked and the hashes of those whose bytes no longer match (emptied, cut short,\nextended or changed). Exits 1 when any blob is corrupt; posting the same content again repairs it.", stderr)
	c := config{command: "verify"}
	c.registerArchive(fs, false)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	c.index = "off" // blobs are read, never searched
	a, err := openApp(ctx, &c, slog.New(slog.NewJSONHandler(stderr, nil)))
	if err != nil {
		return err
	}
	defer a.Close()
	rep, err := a.pipe.VerifyArchive(ctx)
	if err != nil {
		return err
	}
	if err := json.NewEncoder(stdout).Encode(rep); err != nil {
		return err
	}
	if len(rep.Corrupt) > 0 {
		return &exitError{code: 1, err: fmt.Errorf("verify: %d of %d blobs are corrupt", len(rep.Corrupt), rep.Blobs)}
	}
	return nil
}
