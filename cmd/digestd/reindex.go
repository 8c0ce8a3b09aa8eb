package main

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
)

func runReindex(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("reindex", "Usage: digestd reindex [--all] [--archive DIR] [--index DIR]\n\nBrings the search index in line with the archive: indexes every archived source the index\nlacks (every source with --all, a rebuild), removes every indexed source the archive no longer\nholds, and prints what it did as JSON. The service does the same, without --all, when it starts.", stderr)
	c := config{command: "reindex"}
	c.registerArchive(fs, true)
	c.registerIndex(fs)
	all := fs.Bool("all", false, "index every archived source again, not only those the index lacks")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	a, err := openApp(ctx, &c, slog.New(slog.NewJSONHandler(stderr, nil)))
	if err != nil {
		return err
	}
	defer a.Close()
	rep, err := a.pipe.Reindex(ctx, *all)
	if err != nil {
		return err
	}
	return json.NewEncoder(stdout).Encode(rep)
}
