package batch

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	mrand "math/rand/v2"
	"os"
	"runtime"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

// Digester runs the pipeline for one request; *pipeline.Pipeline is one.
type Digester interface {
	Digest(ctx context.Context, req pipeline.Request) (*pipeline.Result, error)
}

// Job is one batch run over a manifest. Set the fields, then call Run once.
type Job struct {
	// Digester digests each source (required).
	Digester Digester
	// Entries is the whole manifest (every shard's share), in order.
	Entries []Entry
	// Shard selects this run's share of Entries (zero: all of them).
	Shard Shard
	// Query is the question for entries without their own.
	Query string
	// Options are the digest options of every source.
	Options digest.Options
	// Output is the path of the JSONL output file, appended to and resumed.
	Output string
	// Workers is how many sources are digested at once (0: runtime.NumCPU()).
	Workers int
	// Hosts is the politeness owed to each host of URL sources.
	Hosts HostPolicy
	// FileSource turns a file's bytes into a source, deciding its kind from
	// its name or first bytes (required when entries name files).
	FileSource func(raw []byte, name string) ingest.Source
	// MaxFileBytes caps a file source (0: ingest.DefaultMaxSourceBytes); larger files are a
	// TOO_LARGE error line.
	MaxFileBytes int64
	// SyncInterval is the longest a written line stays unsynced (0: fsync
	// after every line).
	SyncInterval time.Duration
	// Retries is how many more times a source is tried after a retryable
	// failure (the service busy, a fetch that failed or timed out), waiting
	// RetryBackoff, doubled for each later attempt and at least the
	// error's retry_after, in between. 0: each source is tried once.
	Retries int
	// RetryBackoff is the wait before the first retry (0: 1s).
	RetryBackoff time.Duration
	// Progress reports progress while the job runs (nil: none).
	Progress Progress
	// Logger receives the internal cause of every INTERNAL_ERROR line and
	// other diagnostics (nil: discarded).
	Logger *slog.Logger
}

// DuplicateError is returned by Run when ids repeat in the manifest.
type DuplicateError struct {
	Duplicates []Duplicate
}

func (e *DuplicateError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d ids occur more than once in the manifest (every id must be unique):", len(e.Duplicates))
	for i, d := range e.Duplicates {
		if i == 20 {
			fmt.Fprintf(&b, "\n  … and %d more", len(e.Duplicates)-i)
			break
		}
		lines := make([]string, len(d.Lines))
		for k, l := range d.Lines {
			lines[k] = fmt.Sprint(l)
		}
		fmt.Fprintf(&b, "\n  %q on lines %s", d.ID, strings.Join(lines, ", "))
	}
	return b.String()
}

// ErrInterrupted is returned (wrapped) by Run when its context ended before
// every source was digested; the output holds what finished, and running the
// same job again resumes.
var ErrInterrupted = errors.New("interrupted")

// result is one digested source, ready to write.
type result struct {
	id       string
	attempts int // times the source was tried
	line     []byte
	outcome  Outcome
	elapsed  time.Duration
	err      error // the pipeline's error, for deciding whether to keep the line
}

// Run digests every entry of the shard that the output does not already
// hold and appends a line for each. It returns a summary, also when it
// fails. Fatal problems (duplicate ids, an output that cannot be opened,
// repaired or written) are errors; failed sources are not: they are error
// lines, counted in the summary.
func (j *Job) Run(ctx context.Context) (*Summary, error) {
	start := time.Now()
	sum := &Summary{Shard: j.Shard, Manifest: len(j.Entries), Codes: map[string]int{}}
	if dups := DuplicateIDs(j.Entries); len(dups) > 0 {
		return sum, &DuplicateError{Duplicates: dups}
	}
	if j.Digester == nil {
		return sum, errors.New("batch: no digester")
	}
	selected := j.Shard.Select(j.Entries)
	sum.Selected = len(selected)

	out, resume, err := OpenOutput(j.Output, j.SyncInterval)
	if err != nil {
		return sum, err
	}
	sum.RepairedBytes = resume.RepairedBytes
	sum.DuplicateLines = resume.DuplicateLines
	inSelection := make(map[string]bool, len(selected))
	var pending []Entry
	for _, e := range selected {
		inSelection[e.ID] = true
		if o, ok := resume.Done[e.ID]; ok {
			sum.AlreadyDone++
			sum.count(o, false)
			continue
		}
		pending = append(pending, e)
	}
	for id := range resume.Done {
		if !inSelection[id] {
			sum.Foreign++
		}
	}
	pending = interleaveByHost(pending)

	progress := j.Progress
	if progress == nil {
		progress = noProgress{}
	}
	progress.Start(len(pending))
	runErr := j.runPending(ctx, pending, out, sum, progress)
	progress.Stop()
	if cerr := out.Close(); cerr != nil && runErr == nil {
		runErr = cerr
	}
	sum.Elapsed = time.Since(start)
	sum.Remaining = len(pending) - sum.Ran
	if runErr == nil && sum.Remaining > 0 {
		runErr = fmt.Errorf("%w: %d of %d sources not digested; run the same command again to resume", ErrInterrupted, sum.Remaining, len(pending))
	}
	return sum, runErr
}

// runPending digests pending with j.Workers workers and writes their lines
// as they finish. It returns the first write error.
func (j *Job) runPending(ctx context.Context, pending []Entry, out *Output, sum *Summary, progress Progress) error {
	workers := j.Workers
	if workers <= 0 {
		workers = runtime.NumCPU()
	}
	workCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	gate := newHostGate(j.Hosts)

	todo := make(chan Entry)
	done := make(chan result, workers)
	go func() {
		defer close(todo)
		for _, e := range pending {
			select {
			case todo <- e:
			case <-workCtx.Done():
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for e := range todo {
				done <- j.digestEntry(workCtx, gate, e)
			}
		}()
	}
	go func() {
		wg.Wait()
		close(done)
	}()

	var writeErr error
	var durations []time.Duration
	for r := range done {
		// A source that failed while the run was being stopped failed
		// because of the stop: leave it for the next run.
		if r.err != nil && workCtx.Err() != nil {
			continue
		}
		if writeErr != nil {
			continue
		}
		if err := out.WriteLine(r.line); err != nil {
			writeErr = err
			cancel()
			continue
		}
		sum.Ran++
		sum.count(r.outcome, true)
		if r.attempts > 1 {
			sum.Retried++
			if r.outcome.Success {
				sum.RetriedSucceeded++
			}
		}
		durations = append(durations, r.elapsed)
		progress.Finished(r.outcome.Success)
	}
	sum.setPercentiles(durations)
	return writeErr
}

// digestEntry runs one source through the pipeline and encodes its line.
func (j *Job) digestEntry(ctx context.Context, gate *hostGate, e Entry) result {
	first := time.Now()
	start := first
	requestID := wire.NewBatchRequestID()
	res, err := j.digest(ctx, gate, e)
	attempts := 1
	for ; err != nil && attempts <= j.Retries; attempts++ {
		retry, after := wire.RetryAdvice(err)
		if !retry || ctx.Err() != nil || !sleep(ctx, max(after, j.backoff(attempts))) {
			break
		}
		start = time.Now()
		res, err = j.digest(ctx, gate, e)
	}
	env, status := wire.ResultEnvelope(res, err, requestID, start)
	if err != nil && fault.CodeOf(err) == fault.Internal && ctx.Err() == nil && j.Logger != nil {
		j.Logger.Error("source failed", "id", e.ID, "request_id", requestID, "code", fault.CodeOf(err), "err", err)
	}
	r := result{id: e.ID, attempts: attempts, elapsed: time.Since(first), err: err, outcome: Outcome{Success: err == nil}}
	if err != nil {
		r.outcome.Code = string(fault.CodeOf(err))
	}
	line, merr := json.Marshal(Line{ID: e.ID, Status: status, Envelope: env})
	if merr != nil {
		// Cannot happen for the envelope types; keep the id accounted for.
		env, status = wire.ResultEnvelope(nil, fault.Wrap(fault.Internal, "encode the result", merr), requestID, start)
		line, _ = json.Marshal(Line{ID: e.ID, Status: status, Envelope: env})
		r.outcome = Outcome{Code: string(fault.Internal)}
	}
	r.line = line
	return r
}

// backoff is the wait before the given retry (1 for the first): a quarter
// more or less than RetryBackoff·2^(retry-1), at most maxBackoff.
func (j *Job) backoff(retry int) time.Duration {
	base := j.RetryBackoff
	if base <= 0 {
		base = time.Second
	}
	d := min(base<<min(retry-1, 16), maxBackoff)
	return d - d/4 + time.Duration(mrand.Int64N(int64(d/2)+1))
}

// maxBackoff caps the wait between two attempts at a source.
const maxBackoff = time.Minute

// sleep waits d or until ctx ends, and reports whether it waited d.
func sleep(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}

func (j *Job) digest(ctx context.Context, gate *hostGate, e Entry) (*pipeline.Result, error) {
	query := j.Query
	if e.Query != "" {
		query = e.Query
	}
	req := pipeline.Request{ID: e.ID, Query: query, Options: j.Options, Labels: e.Labels}
	switch {
	case e.Archive != "":
		d, err := archive.ParseHash(e.Archive)
		if err != nil {
			return nil, fault.E(fault.ValidationError, "source.archive: must be sha256:<64 hex digits>")
		}
		req.Archive = d
	case e.Text != "":
		req.Source.Text = e.Text
	case e.File != "":
		raw, err := j.readFile(e.File)
		if err != nil {
			return nil, err
		}
		if j.FileSource == nil {
			return nil, fault.E(fault.Internal, "file sources are not configured")
		}
		req.Source = j.FileSource(raw, e.File)
		req.Source.OCR, req.Source.OCRLanguages = e.OCR, e.OCRLanguages
	case e.URL != "":
		req.Source.URL, req.Source.Render = e.URL, e.Render
		req.Source.OCR, req.Source.OCRLanguages = e.OCR, e.OCRLanguages
		release, err := gate.acquire(ctx, e.URL)
		if err != nil {
			return nil, fault.Wrap(fault.Unavailable, "the batch was stopped", err)
		}
		defer release()
	default:
		return nil, fault.E(fault.MissingRequired, "source: one of url, file, text or archive is required")
	}
	return j.Digester.Digest(ctx, req)
}

// readFile reads a file source, classifying failures: a missing file is
// NOT_FOUND, an unreadable one INVALID_FORMAT, an oversized one TOO_LARGE.
// Messages never name the path (the cause, which does, is only logged).
func (j *Job) readFile(path string) ([]byte, error) {
	max := j.MaxFileBytes
	if max <= 0 {
		max = ingest.DefaultMaxSourceBytes
	}
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fault.Wrap(fault.NotFound, "the source file does not exist", err)
	}
	if err != nil {
		return nil, fault.Wrap(fault.InvalidFormat, "the source file cannot be read", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fault.Wrap(fault.InvalidFormat, "the source file cannot be read", err)
	}
	if !fi.Mode().IsRegular() {
		return nil, fault.E(fault.InvalidFormat, "the source is not a regular file")
	}
	if fi.Size() > max {
		return nil, fault.E(fault.TooLarge, "the source file exceeds the size limit").With("limit_bytes", max)
	}
	raw, err := io.ReadAll(io.LimitReader(f, max+1))
	if err != nil {
		return nil, fault.Wrap(fault.InvalidFormat, "the source file cannot be read", err)
	}
	if int64(len(raw)) > max {
		return nil, fault.E(fault.TooLarge, "the source file exceeds the size limit").With("limit_bytes", max)
	}
	if len(raw) == 0 {
		return nil, fault.E(fault.NoExtractableText, "the source file is empty")
	}
	if bytes.HasPrefix(raw, []byte{0x1f, 0x8b}) {
		return nil, fault.E(fault.UnsupportedContentType, "the source file is gzip-compressed; batch reads files as they are: decompress it first (gunzip)").With("compression", "gzip")
	}
	return raw, nil
}

// Summary is what a run did. Counts of outcomes cover the whole shard: the
// lines the output held at start and those written by this run.
type Summary struct {
	Shard    Shard
	Manifest int // entries in the manifest
	Selected int // entries in this run's shard
	// AlreadyDone counts selected ids the output held at start.
	AlreadyDone int
	// Ran counts sources digested and written by this run.
	Ran int
	// Remaining counts selected sources with no line yet (after an
	// interruption or a write error).
	Remaining int
	// Succeeded and Failed count lines of the shard, old and new.
	Succeeded, Failed int
	// RanSucceeded and RanFailed count this run's lines.
	RanSucceeded, RanFailed int
	// Retried counts this run's sources tried more than once, and
	// RetriedSucceeded those of them that then succeeded.
	Retried, RetriedSucceeded int
	// Codes counts error lines of the shard by error_code.
	Codes map[string]int
	// Foreign counts output lines whose ids are not in this shard.
	Foreign int
	// DuplicateLines counts output lines repeating an earlier line's id.
	DuplicateLines int
	// RepairedBytes is the size of the torn tail cut off at start.
	RepairedBytes int64
	// Elapsed is the wall time of the run.
	Elapsed time.Duration
	// P50 and P95 are this run's per-source times (nearest rank).
	P50, P95 time.Duration
}

func (s *Summary) count(o Outcome, thisRun bool) {
	if o.Success {
		s.Succeeded++
		if thisRun {
			s.RanSucceeded++
		}
		return
	}
	s.Failed++
	if thisRun {
		s.RanFailed++
	}
	code := o.Code
	if code == "" {
		code = "UNKNOWN"
	}
	s.Codes[code]++
}

func (s *Summary) setPercentiles(d []time.Duration) {
	if len(d) == 0 {
		return
	}
	sort.Slice(d, func(i, k int) bool { return d[i] < d[k] })
	rank := func(p float64) time.Duration {
		i := int(p*float64(len(d))+0.999999) - 1
		return d[max(0, min(i, len(d)-1))]
	}
	s.P50, s.P95 = rank(0.50), rank(0.95)
}

// DocsPerSecond is this run's throughput: sources written per second of
// wall time.
func (s *Summary) DocsPerSecond() float64 {
	if s.Elapsed <= 0 {
		return 0
	}
	return float64(s.Ran) / s.Elapsed.Seconds()
}

// Complete reports whether every selected id has a line.
func (s *Summary) Complete() bool { return s.Succeeded+s.Failed == s.Selected }

// Print writes the summary for people, a few lines.
func (s *Summary) Print(w io.Writer) {
	shard := ""
	if s.Shard.Count > 1 {
		shard = fmt.Sprintf(" (shard %s of %d in the manifest)", s.Shard, s.Manifest)
	}
	fmt.Fprintf(w, "batch: %d sources%s: %d already in the output, %d digested now, %d remaining\n",
		s.Selected, shard, s.AlreadyDone, s.Ran, s.Remaining)
	fmt.Fprintf(w, "batch: this run: %d ok, %d failed in %s (%.1f docs/s); per source p50 %s, p95 %s\n",
		s.RanSucceeded, s.RanFailed, s.Elapsed.Round(time.Millisecond), s.DocsPerSecond(),
		s.P50.Round(time.Microsecond*100), s.P95.Round(time.Microsecond*100))
	if s.Retried > 0 {
		fmt.Fprintf(w, "batch: this run: %d sources were retried after a retryable error, %d of them then succeeded\n", s.Retried, s.RetriedSucceeded)
	}
	fmt.Fprintf(w, "batch: output: %d ok, %d failed", s.Succeeded, s.Failed)
	if len(s.Codes) > 0 {
		codes := make([]string, 0, len(s.Codes))
		for c := range s.Codes {
			codes = append(codes, c)
		}
		sort.Slice(codes, func(i, k int) bool {
			if s.Codes[codes[i]] != s.Codes[codes[k]] {
				return s.Codes[codes[i]] > s.Codes[codes[k]]
			}
			return codes[i] < codes[k]
		})
		parts := make([]string, len(codes))
		for i, c := range codes {
			parts[i] = fmt.Sprintf("%s %d", c, s.Codes[c])
		}
		fmt.Fprintf(w, " (%s)", strings.Join(parts, ", "))
	}
	fmt.Fprintln(w)
	if s.RepairedBytes > 0 {
		fmt.Fprintf(w, "batch: repaired the output: cut a torn last line of %d bytes\n", s.RepairedBytes)
	}
	if s.Foreign > 0 {
		fmt.Fprintf(w, "batch: warning: the output holds %d lines for ids outside this manifest or shard (kept)\n", s.Foreign)
	}
	if s.DuplicateLines > 0 {
		fmt.Fprintf(w, "batch: warning: the output holds %d lines repeating an earlier id (the first counts)\n", s.DuplicateLines)
	}
}
