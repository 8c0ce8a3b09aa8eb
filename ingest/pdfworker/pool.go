package pdfworker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/pdftext"
)

// PoolConfig configures a Pool. Zero durations and sizes take defaults.
type PoolConfig struct {
	// Command is the argv that starts one worker, for example
	// {os.Executable(), "__pdf-worker"}; the worker must call Main.
	Command []string
	// Env is the worker's whole environment (the limits variable is added).
	// Nil gives an empty environment, so nothing of the service's own
	// environment reaches the parser.
	Env []string
	// Workers bounds concurrent workers (default 2).
	Workers int
	// QueueWait is how long Extract waits for a free worker before
	// returning ErrBusy (default 5s).
	QueueWait time.Duration
	// Deadline is the wall-clock limit of one worker (default 20s).
	Deadline time.Duration
	// MaxInputBytes caps the PDF size (default DefaultMaxInput).
	MaxInputBytes int64
	// MaxPages and MaxChars cap the document (defaults of pdftext).
	MaxPages, MaxChars int
	// MemoryLimitBytes is each worker's address-space limit (default
	// DefaultMemoryLimit).
	MemoryLimitBytes int64
	// OCR is the engine that reads images and scanned PDF pages (nil: OCR
	// is FEATURE_DISABLED); OCRDeadline is the wall-clock limit of one
	// OCR reading (default DefaultOCRDeadline), MaxOCRPages the most pages
	// of one PDF it reads (default ocr.DefaultMaxPages).
	OCR         *ocr.Engine
	OCRDeadline time.Duration
	MaxOCRPages int
	// Logger receives one line per failed worker with its code and a
	// summary of its stderr, never the stderr itself (default:
	// slog.Default()).
	Logger *slog.Logger
}

// Defaults of PoolConfig.
const (
	DefaultWorkers   = 2
	DefaultQueueWait = 5 * time.Second
	DefaultDeadline  = 20 * time.Second
	maxStderr        = 16 << 10
)

// Pool runs one child process per document with a bound on how many run at
// once. It is safe for concurrent use.
type Pool struct {
	cfg      PoolConfig
	limits   []byte // JSON of workerLimits
	sem      chan struct{}
	mu       sync.Mutex
	outcomes map[string]int64
}

// PoolStats is a snapshot of a Pool's state.
type PoolStats struct {
	InUse    int              // workers running now
	Capacity int              // maximum concurrent workers
	Outcomes map[string]int64 // finished extractions by error code; "OK" for text
}

// OutcomeOK is the Outcomes key of successful extractions.
const OutcomeOK = "OK"

// NewPool checks cfg, fills in defaults and returns a Pool.
func NewPool(cfg PoolConfig) (*Pool, error) {
	if len(cfg.Command) == 0 || cfg.Command[0] == "" {
		return nil, errors.New("pdfworker: PoolConfig.Command is empty")
	}
	if cfg.Workers <= 0 {
		cfg.Workers = DefaultWorkers
	}
	if cfg.QueueWait <= 0 {
		cfg.QueueWait = DefaultQueueWait
	}
	if cfg.Deadline <= 0 {
		cfg.Deadline = DefaultDeadline
	}
	if cfg.MaxInputBytes <= 0 {
		cfg.MaxInputBytes = DefaultMaxInput
	}
	if cfg.MemoryLimitBytes <= 0 {
		cfg.MemoryLimitBytes = DefaultMemoryLimit
	}
	if cfg.OCRDeadline <= 0 {
		cfg.OCRDeadline = DefaultOCRDeadline
	}
	if cfg.MaxOCRPages <= 0 {
		cfg.MaxOCRPages = ocr.DefaultMaxPages
	}
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	lim := workerLimits{
		MaxInputBytes:    cfg.MaxInputBytes,
		MaxPages:         cfg.MaxPages,
		MaxChars:         cfg.MaxChars,
		MemoryLimitBytes: cfg.MemoryLimitBytes,
		CPUSeconds:       int64(cfg.Deadline/time.Second) + 1,
		OCR:              cfg.OCR,
		OCRSeconds:       int64(cfg.OCRDeadline/time.Second) + 1,
		MaxOCRPages:      cfg.MaxOCRPages,
	}
	b, err := json.Marshal(lim)
	if err != nil {
		return nil, fmt.Errorf("pdfworker: encode limits: %w", err)
	}
	return &Pool{cfg: cfg, limits: b, sem: make(chan struct{}, cfg.Workers), outcomes: map[string]int64{}}, nil
}

// Stats returns the pool's current load and outcome counts.
func (p *Pool) Stats() PoolStats {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]int64, len(p.outcomes))
	for k, v := range p.outcomes {
		out[k] = v
	}
	return PoolStats{InUse: len(p.sem), Capacity: cap(p.sem), Outcomes: out}
}

func (p *Pool) count(code fault.Code) {
	p.mu.Lock()
	p.outcomes[string(code)]++
	p.mu.Unlock()
}

// Extract extracts the text of pdf in a fresh worker process. Failures are
// *Error values with the codes of this package; a cancelled ctx returns
// ctx's error. ErrBusy (with RetryAfter) means no worker became free within
// QueueWait.
func (p *Pool) Extract(ctx context.Context, pdf []byte) (*pdftext.Result, error) {
	res, err := p.extract(ctx, pdf)
	var e *Error
	switch {
	case err == nil:
		p.count(OutcomeOK)
	case errors.As(err, &e):
		p.count(e.Code)
	}
	return res, err
}

func (p *Pool) extract(ctx context.Context, pdf []byte) (*pdftext.Result, error) {
	if int64(len(pdf)) > p.cfg.MaxInputBytes {
		return nil, &Error{Code: CodeTooLarge, Msg: fmt.Sprintf("the PDF is larger than %d bytes", p.cfg.MaxInputBytes)}
	}
	if !bytes.Contains(pdf[:min(len(pdf), 1024)], []byte("%PDF-")) {
		return nil, &Error{Code: CodeInvalidFormat, Msg: "the input is not a PDF"}
	}
	release, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	ans, err := p.run(ctx, pdf, pdfJob)
	if err != nil {
		return nil, err
	}
	if ans.Result == nil {
		return nil, &Error{Code: CodeUnreadable, Msg: "the PDF could not be parsed"}
	}
	if n := len(ans.Result.Pages); n == 0 {
		return nil, &Error{Code: CodeNoText, Msg: "the PDF has no extractable text"}
	}
	return ans.Result, nil
}

// ExtractDocument converts a document of kind (one of format.Documents)
// with ingest/doctext in a fresh worker process, under the same memory,
// CPU, wall-clock and output limits as a PDF. Failures are *Error values:
// CodeDocumentUnreadable (damaged, crashed, killed or too slow),
// CodeDocumentEncrypted, CodeTooLarge, CodeUnsupported, or ErrBusy.
// explain asks for the HTML extractor's decisions on an EPUB's chapters
// (doctext.Result.Trace).
func (p *Pool) ExtractDocument(ctx context.Context, kind string, raw []byte, explain bool) (*doctext.Result, error) {
	res, err := p.extractDocument(ctx, kind, raw, explain)
	var e *Error
	switch {
	case err == nil:
		p.count(OutcomeOK)
	case errors.As(err, &e):
		p.count(e.Code)
	}
	return res, err
}

func (p *Pool) extractDocument(ctx context.Context, kind string, raw []byte, explain bool) (*doctext.Result, error) {
	if int64(len(raw)) > p.cfg.MaxInputBytes {
		return nil, &Error{Code: CodeTooLarge, Msg: fmt.Sprintf("the document is larger than %d bytes", p.cfg.MaxInputBytes)}
	}
	release, err := p.acquire(ctx)
	if err != nil {
		return nil, err
	}
	defer release()
	job := documentJob
	job.kind = kind
	job.env = KindEnv + "=" + kind
	job.explain = explain
	ans, err := p.run(ctx, raw, job)
	if err != nil {
		return nil, err
	}
	if ans.Document == nil || len(ans.Document.Pages) == 0 {
		return nil, &Error{Code: CodeDocumentUnreadable, Msg: "the document could not be read"}
	}
	return ans.Document, nil
}

// acquire waits for a free worker slot, at most QueueWait.
func (p *Pool) acquire(ctx context.Context) (release func(), err error) {
	wait := time.NewTimer(p.cfg.QueueWait)
	defer wait.Stop()
	select {
	case p.sem <- struct{}{}:
		return func() { <-p.sem }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("pdfworker: waiting for a worker: %w", ctx.Err())
	case <-wait.C:
		busy := *ErrBusy
		busy.RetryAfter = p.cfg.Deadline / 2
		return nil, &busy
	}
}

// job is what one worker run does and how its failures read.
type job struct {
	what       string // "PDF", "document" or "image", for messages
	kind       string // the source's kind (format.Kinds), for the log
	env        string // an extra environment entry
	explain    bool   // ask for the HTML extractor's decisions (ExplainEnv)
	unreadable fault.Code
	timeout    fault.Code
	deadline   time.Duration // the pool's Deadline when zero
	known      []fault.Code  // the codes a worker's answer may carry
}

var (
	pdfJob = job{what: "PDF", kind: "pdf", unreadable: CodeUnreadable, timeout: CodeTimeout,
		known: []fault.Code{CodeUnreadable, CodeTimeout, CodeEncrypted, CodeNoText, CodeInvalidFormat, CodeTooLarge}}
	documentJob = job{what: "document", unreadable: CodeDocumentUnreadable, timeout: CodeDocumentUnreadable,
		known: []fault.Code{CodeDocumentUnreadable, CodeDocumentEncrypted, CodeTooLarge, CodeUnsupported}}
	imageJob = job{what: "image", kind: "image", unreadable: CodeDocumentUnreadable, timeout: CodeDocumentUnreadable,
		known: []fault.Code{CodeDocumentUnreadable, CodeTooLarge}}
)

// run starts one worker, waits for its answer or kills it.
func (p *Pool) run(ctx context.Context, input []byte, j job) (*answer, error) {
	cmd := exec.Command(p.cfg.Command[0], p.cfg.Command[1:]...)
	cmd.Env = append(append([]string(nil), p.cfg.Env...), LimitsEnv+"="+string(p.limits))
	if j.env != "" {
		cmd.Env = append(cmd.Env, j.env)
	}
	if j.explain {
		cmd.Env = append(cmd.Env, ExplainEnv+"=1")
	}
	cmd.Stdin = bytes.NewReader(input)
	// Text is at most MaxChars code points of up to 4 bytes, JSON-escaped.
	maxOut := int64(6*max(p.cfg.MaxChars, pdftext.DefaultMaxChars)) + 1<<20
	stdout := &cappedBuffer{max: maxOut}
	stderr := &cappedBuffer{max: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	cmd.WaitDelay = time.Second
	start := time.Now()
	if err := cmd.Start(); err != nil {
		p.cfg.Logger.Error("worker did not start", "kind", j.kind, "err", err)
		return nil, &Error{Code: j.unreadable, Msg: "the " + j.what + " could not be processed"}
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	limit := p.cfg.Deadline
	if j.deadline > 0 {
		limit = j.deadline
	}
	deadline := time.NewTimer(limit)
	defer deadline.Stop()
	var waitErr error
	select {
	case waitErr = <-done:
	case <-deadline.C:
		killGroup(cmd)
		<-done
		p.logFailure(j, j.timeout, start, stderr, nil)
		return nil, &Error{Code: j.timeout, Msg: fmt.Sprintf("the %s took longer than %s to parse", j.what, limit)}
	case <-ctx.Done():
		killGroup(cmd)
		<-done
		return nil, fmt.Errorf("pdfworker: extraction cancelled: %w", ctx.Err())
	}
	// Anything the worker left behind in its group goes too.
	killGroup(cmd)
	if stdout.overflow {
		p.logFailure(j, CodeTooLarge, start, stderr, waitErr)
		return nil, &Error{Code: CodeTooLarge, Msg: "the " + j.what + "'s text exceeds the output limit"}
	}
	var ans answer
	if waitErr != nil || json.Unmarshal(stdout.Bytes(), &ans) != nil || ans.Result == nil && ans.Document == nil && ans.Error == nil {
		// Crashed: out of memory, stack overflow, killed by RLIMIT_CPU.
		p.logFailure(j, j.unreadable, start, stderr, waitErr)
		return nil, &Error{Code: j.unreadable, Msg: "the " + j.what + " could not be parsed"}
	}
	if ans.Error != nil {
		e := &Error{Code: ans.Error.Code, Msg: ans.Error.Msg}
		if !slices.Contains(j.known, e.Code) {
			e = &Error{Code: j.unreadable, Msg: "the " + j.what + " could not be parsed"}
		}
		p.logFailure(j, e.Code, start, stderr, nil)
		return nil, e
	}
	return &ans, nil
}

// logFailure logs a failed worker as what it read ("pdf worker failed",
// "document worker failed", "image worker failed"), with the kind.
func (p *Pool) logFailure(j job, code fault.Code, start time.Time, stderr *cappedBuffer, waitErr error) {
	attrs := []any{"kind", j.kind, "code", code, "elapsed", time.Since(start).Round(time.Millisecond)}
	if waitErr != nil {
		attrs = append(attrs, "exit", waitErr.Error())
	}
	if stderr.Len() > 0 {
		// The worker's stderr can hold bytes of the PDF (a panic prints
		// its values) and build paths: it is summarised, never logged.
		attrs = append(attrs, "stderr_bytes", stderr.Len(), "cause", stderrCause(stderr.Bytes()))
	}
	p.cfg.Logger.Warn(strings.ToLower(j.what)+" worker failed", attrs...)
}

// stderrCause names what a worker's stderr says ended it, from a closed
// list: "memory limit", "stack limit", "cpu limit", "panic", or "other".
func stderrCause(b []byte) string {
	switch {
	case bytes.Contains(b, []byte("out of memory")) || bytes.Contains(b, []byte("cannot allocate memory")):
		return "memory limit"
	case bytes.Contains(b, []byte("stack exceeds")) || bytes.Contains(b, []byte("stack overflow")):
		return "stack limit"
	case bytes.Contains(b, []byte("SIGXCPU")) || bytes.Contains(b, []byte("cpu time limit")):
		return "cpu limit"
	case bytes.Contains(b, []byte("panic:")):
		return "panic"
	}
	return "other"
}

// killGroup kills the worker's whole process group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil && cmd.Process.Pid > 0 {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// cappedBuffer keeps the first max bytes written and notes overflow; it
// never fails a write, so the child is never blocked on a full pipe.
type cappedBuffer struct {
	bytes.Buffer
	max      int64
	overflow bool
}

func (b *cappedBuffer) Write(p []byte) (int, error) {
	room := b.max - int64(b.Len())
	if int64(len(p)) > room {
		b.overflow = true
		if room > 0 {
			b.Buffer.Write(p[:room])
		}
		return len(p), nil
	}
	return b.Buffer.Write(p)
}
