// Command digestload drives a running digestd server on a loopback address
// at a fixed request rate with a mixed workload, and reports throughput,
// latency percentiles per request kind, response counts by status and the
// server's peak resident memory.
//
// Usage:
//
//	digestload --url http://127.0.0.1:8080 --rate 50 --duration 30s \
//	    --mix cached=40,archive=20,html=20,pdf=10,hostile=10 [--pid N] [--json]
//
// The load is open-loop: request i is due at start + i/rate whatever the
// server's latency, and its latency is measured from that due time, so a
// slow server cannot slow the load down and hide its own queueing. The run
// sends at most rate × duration requests and stops by itself. Only loopback
// targets are accepted.
//
// Request kinds:
//
//	cached   POST /v1/digest of a text digested during warm-up (a cache hit)
//	archive  GET /v1/archive/{hash} of a text archived during warm-up
//	html     POST /v1/digest of a new generated HTML page
//	pdf      POST /v1/digest of a new generated PDF (or of the --pdf files)
//	mcp      POST /mcp tools/call digest_source of a new 50,000-character text
//	hostile  inputs that must be refused: malformed, oversized, deeply
//	         nested or duplicate-key JSON, traversal paths, loopback URLs,
//	         broken PDFs, invalid UTF-8 (and the --hostile files)
//
// Probes held beside the load for the whole run (--slow-bodies,
// --slow-readers, --idle-conns, --health) reach only the same loopback
// target and are bounded in number. --slow-bodies-at-limit N (N: the
// server's --max-conns) opens N connections that each announce a body of
// 100 bytes and send one, and reports two verdicts: whether GET /healthz
// answered within 1 s on a new connection while they were open, and whether
// the server closed every one within --read-timeout (the server's). The
// load starts a second after they are sent, once the server has read their
// headers, and the run lasts until they are all closed or the read timeout
// has passed.
//
// The exit status is 0 when the run completed (whatever the statuses), 1 on
// a setup failure and 2 for bad flags.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdout, os.Stderr)
	stop()
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		os.Exit(0)
	case errors.As(err, new(*usageError)):
		fmt.Fprintln(os.Stderr, "digestload:", err)
		os.Exit(2)
	default:
		fmt.Fprintln(os.Stderr, "digestload:", err)
		os.Exit(1)
	}
}

// usageError is a bad flag or argument.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

// listFlag is a repeatable string flag.
type listFlag []string

func (l *listFlag) String() string     { return strings.Join(*l, ",") }
func (l *listFlag) Set(v string) error { *l = append(*l, v); return nil }

// run is digestload's testable main.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("digestload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var cfg Config
	var mix string
	var pdfs, hostile listFlag
	var asJSON bool
	fs.StringVar(&cfg.URL, "url", "http://127.0.0.1:8080", "base URL of the digestd server; must be a loopback address")
	fs.Float64Var(&cfg.Rate, "rate", 50, "requests per second (open-loop)")
	fs.DurationVar(&cfg.Duration, "duration", 30*time.Second, "how long to send requests")
	fs.StringVar(&mix, "mix", DefaultMix, "weights of the request kinds, KIND=WEIGHT,…")
	fs.IntVar(&cfg.PID, "pid", 0, "the server's process id, to sample its resident memory from /proc (0: not measured)")
	fs.IntVar(&cfg.MaxInFlight, "max-in-flight", 512, "most requests outstanding at once; a request due when all are busy is counted as skipped")
	fs.DurationVar(&cfg.Timeout, "timeout", 60*time.Second, "time limit of one request")
	fs.Uint64Var(&cfg.Seed, "seed", 1, "seed of the kind sequence and generated documents")
	fs.StringVar(&cfg.Query, "query", "what are the main findings and their risks?", "query of the digest requests")
	fs.Var(&pdfs, "pdf", "a PDF file for the pdf kind (repeatable; default: generated PDFs)")
	fs.Var(&hostile, "hostile", "a file sent as an extra hostile input, as application/pdf when it starts with %PDF-, else text/html (repeatable)")
	fs.BoolVar(&asJSON, "json", false, "print the report as JSON")
	fs.IntVar(&cfg.Probes.SlowBodies, "slow-bodies", 0, fmt.Sprintf("connections held for the run sending a digest body one byte every --slow-every (at most %d)", maxSlowBodies))
	fs.DurationVar(&cfg.Probes.SlowEvery, "slow-every", 5*time.Second, "interval between the bytes of a slow body")
	fs.IntVar(&cfg.Probes.SlowReaders, "slow-readers", 0, fmt.Sprintf("connections held for the run that GET an archived text and read nothing (at most %d)", maxSlowReaders))
	fs.IntVar(&cfg.Probes.IdleConns, "idle-conns", 0, fmt.Sprintf("silent connections held open for the run (at most %d)", maxIdleConns))
	fs.BoolVar(&cfg.Probes.Health, "health", false, "sample GET /v1/health once a second during the run and report its latency")
	fs.IntVar(&cfg.Probes.LimitBodies, "slow-bodies-at-limit", 0, fmt.Sprintf("connections (give the server's --max-conns) that each send POST /v1/search with Content-Length: 100 and one byte; reports whether GET /healthz answered within 1 s beside them and whether the server closed each within --read-timeout (at most %d)", maxLimitBodies))
	fs.DurationVar(&cfg.Probes.ReadTimeout, "read-timeout", 60*time.Second, "the server's --read-timeout: the time within which it must close each --slow-bodies-at-limit connection")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: digestload [flags]\n\nDrives a digestd server on a loopback address at a fixed rate with a mixed workload and reports throughput, latency percentiles per kind, status counts and the server's peak RSS.\n\nFlags:")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return err
		}
		return &usageError{err.Error()}
	}
	if fs.NArg() > 0 {
		return &usageError{fmt.Sprintf("unexpected arguments %q", fs.Args())}
	}
	var err error
	if cfg.Mix, err = ParseMix(mix); err != nil {
		return &usageError{err.Error()}
	}
	if err := cfg.validate(); err != nil {
		return &usageError{err.Error()}
	}
	for _, p := range pdfs {
		b, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("read --pdf: %w", err)
		}
		cfg.PDFs = append(cfg.PDFs, b)
	}
	for _, p := range hostile {
		b, err := os.ReadFile(p)
		if err != nil {
			return fmt.Errorf("read --hostile: %w", err)
		}
		cfg.HostileFiles = append(cfg.HostileFiles, b)
	}
	rep, err := Run(ctx, cfg)
	if err != nil {
		return err
	}
	if asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(rep)
	}
	rep.WriteText(stdout)
	return nil
}

// checkLoopback accepts only http URLs whose host is a loopback IP literal
// or "localhost", so the tool cannot be pointed at someone else's server.
func checkLoopback(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("--url: %w", err)
	}
	if u.Scheme != "http" {
		return nil, fmt.Errorf("--url: scheme must be http, got %q", u.Scheme)
	}
	if u.User != nil || u.Opaque != "" {
		return nil, errors.New("--url: must be http://HOST:PORT without userinfo")
	}
	host := u.Hostname()
	if strings.EqualFold(host, "localhost") {
		return u, nil
	}
	ip := net.ParseIP(host)
	if ip == nil || !ip.IsLoopback() {
		return nil, fmt.Errorf("--url: %q is not a loopback address; digestload only drives local servers", host)
	}
	return u, nil
}
