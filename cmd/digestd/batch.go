package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/digestd/digestd/batch"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/format"
)

const batchSynopsis = `Usage: digestd batch (--manifest FILE | --dir DIR) --out FILE [--query Q] [-j N] [flags]

Digests every source of a JSONL manifest (or every file under --dir whose extension names
a source kind, id = the path relative to DIR) through the same pipeline as the service,
and appends one JSON line per source to --out:

  {"id": "...", "status": 200, "envelope": {...}}

where envelope is exactly the response-v2 envelope POST /v1/digest answers for that
source and status the HTTP status it would have. A failed source is an error envelope
(success false, data.error_code) on its line; it never stops the run.

Manifest lines: {"id": "...", "url"|"file"|"text"|"archive": "...", "query": "..."}
with exactly one source field; a line's query overrides --query; relative file paths
resolve against the manifest's directory; "-" reads the manifest from stdin. A bad line
or a repeated id is fatal before anything runs (every repeated id is listed).

Retries: a source that fails with a retryable error (error table: the service or a PDF
worker busy, a fetch that failed or timed out, an internal error) is tried up to
--retries more times, after --retry-backoff doubled for each later try (a quarter more or
less, at least the error's retry_after, at most a minute); only the last outcome is
written.

Resuming: lines are written whole and fsynced (at most --fsync-interval after writing);
on start a torn last line is cut off and ids already in --out are skipped, so running
the same command again after a crash finishes the rest and every id appears once.

Sharding: --shard i/n takes the ids whose FNV-1a 64 hash mod n is i; --shard auto takes
i from JOB_COMPLETION_INDEX (a Kubernetes Indexed Job) and n from --shards.

Exit status: 0 when every source of the shard has a success line, 2 (--failed-status)
when some have error lines, 1 on a fatal problem (bad manifest, unwritable output,
interrupted: rerun to resume).`

func runBatch(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("batch", batchSynopsis, stderr)
	c := config{command: "batch"}
	c.register(fs)
	manifest := fs.String("manifest", "", "JSONL manifest of sources (- for stdin)")
	dir := fs.String("dir", "", "digest every file under this directory whose name names a kind ("+strings.Join(format.Extensions(), ", ")+") instead of a manifest")
	out := fs.String("out", "", "JSONL output file, appended to and resumed (required)")
	query := fs.String("query", "", "the research question, for sources without their own")
	workers := fs.Int("j", runtime.NumCPU(), "sources digested at once")
	shardFlag := fs.String("shard", "", "take share i/n of the manifest, or auto (JOB_COMPLETION_INDEX of --shards)")
	shards := fs.Int("shards", 0, "number of shards, with --shard auto")
	hostRate := fs.Float64("host-rate", 1, "URL sources: most requests a second to one host (0: no limit)")
	hostConc := fs.Int("host-concurrency", 2, "URL sources: most requests in flight to one host (0: no limit)")
	maxFile := fs.Int64("max-file-bytes", ingest.DefaultMaxSourceBytes, "largest file source; larger ones are TOO_LARGE lines")
	fsyncEvery := fs.Duration("fsync-interval", 100*time.Millisecond, "longest a written line stays unsynced (0: fsync every line)")
	failedStatus := fs.Int("failed-status", 2, "exit status when some sources failed (0 in a Kubernetes Job, where any other status restarts the pod)")
	retries := fs.Int("retries", 2, "more tries for a source that failed with a retryable error (0: none)")
	retryBackoff := fs.Duration("retry-backoff", time.Second, "wait before the first retry, doubled for each later one")
	progressEvery := fs.Duration("progress-interval", 5*time.Second, "how often to print a progress line when stderr is not a terminal")
	var opts digest.Options
	registerOptions(fs, &opts)
	if err := parseFlags(fs, args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &exitError{code: 1, err: err}
	}
	fatal := func(format string, a ...any) error {
		return &exitError{code: 1, err: fmt.Errorf("batch: "+format, a...)}
	}
	switch {
	case fs.NArg() > 0:
		return fatal("unexpected arguments %q", fs.Args())
	case *out == "":
		return fatal("--out is required")
	case (*manifest == "") == (*dir == ""):
		return fatal("give exactly one of --manifest and --dir")
	case *workers < 1:
		return fatal("-j must be at least 1")
	case *retries < 0 || *retryBackoff < 0:
		return fatal("--retries and --retry-backoff must not be negative")
	case *failedStatus < 0 || *failedStatus > 125 || *failedStatus == 1:
		return fatal("--failed-status must be 0 or 2-125 (1 means a fatal problem)")
	}
	if err := opts.Validate(); err != nil {
		return fatal("options: %w", err)
	}
	shard, err := parseShardFlags(*shardFlag, *shards)
	if err != nil {
		return fatal("%w", err)
	}
	entries, err := loadEntries(*manifest, *dir, stdin)
	if err != nil {
		return fatal("%w", err)
	}

	if dups := batch.DuplicateIDs(entries); len(dups) > 0 {
		return fatal("%w", &batch.DuplicateError{Duplicates: dups})
	}

	progress, logOut := progressFor(stderr, *progressEvery)
	logger := slog.New(slog.NewTextHandler(logOut, &slog.HandlerOptions{Level: slog.LevelWarn}))
	a, err := openApp(ctx, &c, logger)
	if err != nil {
		return fatal("%w", err)
	}
	defer a.Close()

	job := &batch.Job{
		Digester:     a.pipe,
		Entries:      entries,
		Shard:        shard,
		Query:        *query,
		Options:      opts,
		Output:       *out,
		Workers:      *workers,
		Hosts:        batch.HostPolicy{Rate: *hostRate, Concurrency: *hostConc},
		FileSource:   func(raw []byte, name string) ingest.Source { return sourceFromBytes(raw, name, "") },
		MaxFileBytes: *maxFile,
		SyncInterval: *fsyncEvery,
		Retries:      *retries,
		RetryBackoff: *retryBackoff,
		Progress:     progress,
		Logger:       logger,
	}
	sum, err := job.Run(ctx)
	sum.Print(stderr)
	if err != nil {
		return fatal("%w", err)
	}
	if sum.Failed > 0 {
		failed := fmt.Errorf("batch: %d of %d sources failed (their lines in %s have success false)", sum.Failed, sum.Selected, *out)
		if *failedStatus == 0 {
			fmt.Fprintln(stderr, failed)
			return nil
		}
		return &exitError{code: *failedStatus, err: failed}
	}
	return nil
}

// parseShardFlags reads --shard and --shards ("" means the whole manifest).
func parseShardFlags(s string, n int) (batch.Shard, error) {
	switch s {
	case "":
		if n != 0 {
			return batch.Shard{}, errors.New("--shards needs --shard auto")
		}
		return batch.Shard{}, nil
	case "auto":
		v, ok := os.LookupEnv("JOB_COMPLETION_INDEX")
		if !ok {
			return batch.Shard{}, errors.New("--shard auto: JOB_COMPLETION_INDEX is not set (it is set in a Kubernetes Indexed Job)")
		}
		i, err := strconv.Atoi(v)
		if err != nil {
			return batch.Shard{}, fmt.Errorf("--shard auto: JOB_COMPLETION_INDEX=%q is not an integer", v)
		}
		if n < 1 {
			return batch.Shard{}, errors.New("--shard auto needs --shards N (the Job's completions)")
		}
		return batch.NewShard(i, n)
	}
	if n != 0 {
		return batch.Shard{}, errors.New("--shards is only for --shard auto")
	}
	return batch.ParseShard(s)
}

// loadEntries reads the manifest (a path, or - for stdin) or scans dir.
func loadEntries(manifest, dir string, stdin io.Reader) ([]batch.Entry, error) {
	if dir != "" {
		entries, err := batch.ScanDir(dir)
		if err != nil {
			return nil, err
		}
		if len(entries) == 0 {
			return nil, fmt.Errorf("no file under %s has the extension of a source kind (%s)", dir, strings.Join(format.Extensions(), ", "))
		}
		return entries, nil
	}
	if manifest == "-" {
		return batch.ReadManifest(stdin, ".")
	}
	f, err := os.Open(manifest)
	if err != nil {
		return nil, fmt.Errorf("open manifest: %w", err)
	}
	defer f.Close()
	entries, err := batch.ReadManifest(f, filepath.Dir(manifest))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", manifest, err)
	}
	return entries, nil
}

// progressFor draws a bar when stderr is a terminal, else prints a plain
// line every interval; logs go to the writer it returns, which keeps them
// off the bar's line.
func progressFor(stderr io.Writer, interval time.Duration) (batch.Progress, io.Writer) {
	if f, ok := stderr.(*os.File); ok && term.IsTerminal(int(f.Fd())) {
		bar := batch.NewBarProgress(stderr)
		return bar, bar
	}
	return batch.NewLineProgress(stderr, interval), stderr
}
