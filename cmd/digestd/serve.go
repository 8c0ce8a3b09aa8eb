package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
)

func runServe(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := newFlagSet("serve", "Usage: digestd serve [flags]\n\nRuns the HTTP API. POST /v1/digest digests a source; GET /v1/archive/{hash} returns archived text; /openapi.yaml describes every route.", stderr)
	var c config
	c.register(fs)
	addr := fs.String("addr", ":8080", "listen address, HOST:PORT")
	maxBody := fs.Int64("max-body-bytes", 32<<20, "largest request body, in bytes")
	readHeader := fs.Duration("read-header-timeout", 5*time.Second, "time to read request headers")
	readTimeout := fs.Duration("read-timeout", 60*time.Second, "time to read a whole request")
	writeTimeout := fs.Duration("write-timeout", 120*time.Second, "time to write a response")
	idleTimeout := fs.Duration("idle-timeout", 120*time.Second, "keep-alive idle time")
	maxHeader := fs.Int("max-header-bytes", 64<<10, "largest request header block, in bytes")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	a, err := openApp(ctx, &c, logger)
	if err != nil {
		return err
	}
	defer a.Close()

	srv := api.New(a.pipe, api.Config{
		MaxBodyBytes: *maxBody,
		Version:      digestd.Version,
		OpenAPI:      digestd.OpenAPI,
		Logger:       logger,
	})
	hs := &http.Server{
		Addr:              *addr,
		Handler:           srv.Handler(),
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
	logger.Info("digestd listening", "addr", ln.Addr().String(), "archive", c.archive, "version", digestd.Version)
	fmt.Fprintf(stdout, "digestd listening on %s\n", ln.Addr())

	errc := make(chan error, 1)
	go func() { errc <- hs.Serve(ln) }()
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
