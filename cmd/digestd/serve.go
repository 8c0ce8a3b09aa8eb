package main

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"runtime"
	"strings"
	"time"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/mcpserver"
)

// defaultAddr is serve's --addr default: this machine only.
const defaultAddr = "127.0.0.1:8080"

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", "Usage: digestd serve [flags]\n\nRuns the HTTP API. POST /v1/digest digests a source; GET /v1/archive/{hash} returns archived text; /openapi.yaml describes every route.", stderr)
	c := config{command: "serve"}
	c.register(fs)
	addr := fs.String("addr", defaultAddr, "listen address, HOST:PORT (the default is this machine only; in a container use :8080 with API keys)")
	maxBody := fs.Int64("max-body-bytes", ingest.DefaultMaxSourceBytes, "largest request body, in bytes")
	readHeader := fs.Duration("read-header-timeout", 5*time.Second, "time to read request headers")
	readTimeout := fs.Duration("read-timeout", 60*time.Second, "time to read a whole request")
	writeTimeout := fs.Duration("write-timeout", 120*time.Second, "time to write a response")
	idleTimeout := fs.Duration("idle-timeout", 120*time.Second, "keep-alive idle time")
	maxHeader := fs.Int("max-header-bytes", 64<<10, "largest request header block, in bytes")
	keysFile := fs.String("api-keys-file", "", "`FILE` of accepted API keys' hex sha256 hashes, one a line (empty: no authentication); digestd hash-key KEY prints a key's hash")
	keyHashes := fs.String("api-key-hashes", "", "comma-separated hex sha256 hashes of accepted API keys (added to --api-keys-file)")
	rateLimit := fs.Int("rate-limit", 600, "requests one client (API key, else IP) may make per --rate-window; 0 disables")
	rateWindow := fs.Duration("rate-window", time.Minute, "rate limit window")
	maxInFlight := fs.Int("max-in-flight", 0, "requests that do work (digests, verify, archive reads, listings, MCP) served at once; more wait, or get 503 with Retry-After (0: 4 per CPU, at least 8)")
	memoryBudget := fs.Int64("memory-budget-bytes", 768<<20, "memory the requests served at once may expect to hold together, each weighed by its body or blob; more wait, or get 503")
	queueWait := fs.Duration("queue-wait", 500*time.Millisecond, "longest a request waits for admission; one that would wait longer is answered 503 with Retry-After at once")
	bodyTimeout := fs.Duration("body-timeout", 20*time.Second, "time to read one request body, which is read before the request is admitted")
	bodyBudget := fs.Int64("body-budget-bytes", 256<<20, "request body bytes being read at once; more: 503")
	maxConns := fs.Int("max-conns", 0, "open connections at once; at the bound the one that has waited on its client the longest (idle, or still sending its body) is closed for a new one (0: the file-descriptor limit less 512, at most 4096)")
	maxIdleConns := fs.Int("max-idle-conns", 1024, "idle (keep-alive or silent) connections kept while open connections are over 7/8 of --max-conns; beyond it the oldest idle one is closed")
	mcpOrigins := fs.String("mcp-allowed-origins", "", "comma-separated origins (scheme://host[:port]) besides the server's own whose browser pages may call /mcp; a request with another Origin is refused (403)")
	cursorKey := fs.String("cursor-key", "", "secret that signs listing cursors of the API and MCP; give replicas the same one (empty: random per process)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	origins, err := mcpserver.ParseOrigins(*mcpOrigins)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	a, err := openApp(ctx, &c, logger)
	if err != nil {
		return err
	}
	defer a.Close()
	go digest.Warm() // decode the word vectors before the first question needs them
	if a.pipe.Index != nil {
		// Reconcile the search index with the archive: a source
		// acknowledged before a crash becomes searchable. The service
		// answers meanwhile.
		go func() {
			rep, err := a.pipe.Reindex(ctx, false)
			if err != nil {
				logger.Warn("search index reconcile failed", "err", err)
				return
			}
			logger.Info("search index reconciled", "sources", rep.Sources, "indexed", rep.Indexed, "removed", rep.Removed, "failed", rep.Failed)
		}()
	}

	// One cursor key for the API and MCP, so their cursors are one format.
	key := []byte(*cursorKey)
	if len(key) == 0 {
		key = make([]byte, 32)
		rand.Read(key)
	}
	hashes, err := loadKeyHashes(*keysFile, *keyHashes)
	if err != nil {
		return err
	}
	if *maxInFlight <= 0 {
		// Digest work is CPU-bound: more at once than a few per CPU only
		// lengthens each request (measured in docs/BENCHMARKS.md).
		*maxInFlight = max(8, 4*runtime.GOMAXPROCS(0))
	}
	srv := api.New(a.pipe, api.Config{
		MaxBodyBytes: *maxBody,
		Version:      digestd.Version,
		OpenAPI:      digestd.OpenAPI,
		Logger:       logger,
		APIKeyHashes: hashes,
		RateLimit:    *rateLimit,
		RateWindow:   *rateWindow,
		MaxInFlight:  *maxInFlight,
		MemoryBudget: *memoryBudget,
		QueueWait:    *queueWait,
		BodyTimeout:  *bodyTimeout,
		BodyBudget:   *bodyBudget,
		CursorKey:    key,
		Probes:       a.probes(),
		Collectors:   a.collectors(),
	})
	hs := &http.Server{
		Addr:              *addr,
		Handler:           a.router(srv, *maxBody, key, origins),
		ReadHeaderTimeout: *readHeader,
		ReadTimeout:       *readTimeout,
		WriteTimeout:      *writeTimeout,
		IdleTimeout:       *idleTimeout,
		MaxHeaderBytes:    *maxHeader,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	ln, err := net.Listen("tcp", *addr)
	if err != nil {
		return err
	}
	if *maxConns <= 0 {
		*maxConns = defaultMaxConns()
	}
	lim := newConnLimit(framingListener{ln}, *maxConns, *maxIdleConns)
	hs.ConnState, hs.ConnContext = lim.track, lim.connContext
	hs.Handler = lim.watchBodies(hs.Handler)
	if a.indexLock != nil {
		// A second process on this archive is told where to search.
		if err := a.indexLock.SetAddress(ln.Addr().String()); err != nil {
			logger.Warn("the search index's lock does not say where this server listens", "err", err)
		}
	}
	logger.Info("digestd listening", "addr", ln.Addr().String(), "archive", c.archive, "version", digestd.Version, "auth", len(hashes) > 0)
	fmt.Fprintf(stdout, "digestd listening on %s\n", ln.Addr())

	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(lim) }()
	select {
	case err := <-errc:
		return err
	case <-ctx.Done():
	}
	logger.Info("shutting down")
	shutdownCtx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := hs.Shutdown(shutdownCtx); err != nil {
		return err
	}
	if err := <-errc; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// loadKeyHashes reads API key hashes from a file (one a line, # comments)
// and a comma-separated list.
func loadKeyHashes(file, list string) ([]string, error) {
	var out []string
	add := func(h string) error {
		h = strings.ToLower(strings.TrimSpace(h))
		if h == "" || strings.HasPrefix(h, "#") {
			return nil
		}
		if b, err := hex.DecodeString(h); err != nil || len(b) != sha256.Size {
			return fmt.Errorf("API key hashes must be 64 hex digits (the sha256 of the key), got %q", h)
		}
		out = append(out, h)
		return nil
	}
	if file != "" {
		b, err := os.ReadFile(file)
		if err != nil {
			return nil, fmt.Errorf("read API keys: %w", err)
		}
		for _, line := range strings.Split(string(b), "\n") {
			if err := add(line); err != nil {
				return nil, err
			}
		}
	}
	for _, h := range strings.Split(list, ",") {
		if err := add(h); err != nil {
			return nil, err
		}
	}
	return out, nil
}
