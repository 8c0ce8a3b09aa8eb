// Package mcpserver serves digestd's operations as Model Context Protocol
// tools and resources: digest_source, digest_sources, get_archived_text,
// verify_digest and list_sources, and the archived canonical texts as the
// resource template digestd://archive/{+hash}. Every tool is a thin wrapper
// over the pipeline (the same calls the HTTP API makes) and answers with the
// response-v2 envelope as structured content, plus a compact text rendering
// for the model. Failures are tool errors (isError) carrying the same
// error_code, error_type and remediation as the HTTP API.
//
// It is an edge package beside api and batch: it calls the pipeline and
// builds its answers with wire, imports no other edge, and no core package
// imports it. cmd/digestd mounts Handler at /mcp on the API's router.
package mcpserver

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

// Options configures an MCP server. The zero value is usable.
type Options struct {
	// Version is reported to clients in the initialize handshake.
	Version string
	// Logger receives the server's logs (rejected and failed calls); nil
	// discards them. Over stdio it must not write to stdout.
	Logger *slog.Logger
	// CursorKey signs list_sources and list_links cursors, in the HTTP API's format: give
	// it the API's key and cursors continue across both. Empty: a random
	// key for this server.
	CursorKey []byte
	// Probes report the components beside the archive to get_service_health.
	Probes []pipeline.Probe
	// MaxBodyBytes caps one HTTP request to Handler (413 beyond), and one
	// JSON-RPC message over stdio; 0 means ingest.DefaultMaxSourceBytes, the
	// HTTP API's default.
	MaxBodyBytes int64
	// AllowedOrigins are the origins (scheme://host[:port]) besides the
	// server's own whose browser pages may call Handler; a request whose
	// Origin is another is refused (403 FORBIDDEN), against DNS rebinding
	// and cross-site calls. A request without an Origin (a client that is
	// no browser) is served. Check a list with ParseOrigins first; Handler
	// skips entries that do not parse.
	AllowedOrigins []string
}

// ParseOrigins splits a comma-separated list of origins (scheme://host[:port],
// no path) and checks each, for Options.AllowedOrigins.
func ParseOrigins(list string) ([]string, error) {
	var out []string
	for _, o := range strings.Split(list, ",") {
		if o = strings.TrimSpace(o); o == "" {
			continue
		}
		if err := http.NewCrossOriginProtection().AddTrustedOrigin(o); err != nil {
			return nil, fmt.Errorf("allowed origin %q: want scheme://host[:port] without a path", o)
		}
		out = append(out, o)
	}
	return out, nil
}

func (o Options) maxBodyBytes() int64 {
	if o.MaxBodyBytes > 0 {
		return o.MaxBodyBytes
	}
	return ingest.DefaultMaxSourceBytes
}

func (o Options) logger() *slog.Logger {
	if o.Logger != nil {
		return o.Logger
	}
	return slog.New(slog.DiscardHandler)
}

// instructions tell a connected model what the server is for and how its
// parts fit together.
const instructions = `digestd turns sources (web pages, PDFs, plain text) into small, verifiable digests for a research question.
Call digest_source for one source or digest_sources for several within a size budget. Every evidence snippet carries a locator
(char:S-E, or page:N:char:S-E for PDFs) into the archived canonical text named by source_text_hash; offsets are Unicode code points,
and text[S:E] equals the snippet exactly. Quote a source by fetching a span with get_archived_text, check a digest with verify_digest,
find sources digested earlier with list_sources, and follow a source's links with list_links (or digest_source's fields ["links"]). The archived texts are also resources: digestd://archive/sha256:<hex>, and as Markdown with their headings, lists, tables and links:
digestd://markdown/sha256:<hex>.`

// NewServer returns an MCP server with digestd's tools and resource
// template, running every call through pipe. One server may serve any
// number of sessions at once.
func NewServer(pipe *pipeline.Pipeline, opts Options) *mcp.Server {
	version := opts.Version
	if version == "" {
		version = "dev"
	}
	srv := mcp.NewServer(&mcp.Implementation{Name: "digestd", Title: "digestd", Version: version}, &mcp.ServerOptions{
		Instructions: instructions,
		Logger:       sdkLogger(opts.Logger),
		// No logging capability: logs go to the operator, not the client.
		Capabilities: &mcp.ServerCapabilities{},
	})
	t := &tools{pipe: pipe, log: opts.logger(), monitor: &wire.Monitor{Pipe: pipe, Version: version, Probes: opts.Probes, Started: time.Now()}, cursors: wire.NewCursors(opts.CursorKey)}
	t.register(srv)
	srv.AddResourceTemplate(archiveTemplate(), t.readArchive)
	srv.AddResourceTemplate(markdownTemplate(), t.readMarkdown)
	srv.AddReceivingMiddleware(envelopeInputErrors, refuseBadUTF8)
	return srv
}

// Handler returns the streamable HTTP transport of the MCP server, to be
// mounted at /mcp. It refuses a request whose Origin header is neither the
// server's own (the request's Host) nor one of opts.AllowedOrigins, as the
// MCP transport specification asks. It is stateless (no Mcp-Session-Id), so any replica can
// answer any request, and it answers with application/json rather than an
// event stream. A JSON-RPC batch holds at most wire.MaxBatchEntries
// messages and is answered one message at a time (answerBatches).
func Handler(pipe *pipeline.Pipeline, opts Options) http.Handler {
	srv := NewServer(pipe, opts)
	return checkOrigin(opts.AllowedOrigins, answerBatches(opts.maxBodyBytes(), envelopeHTTPErrors(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return srv }, &mcp.StreamableHTTPOptions{
		Stateless:           true,
		JSONResponse:        true,
		Logger:              sdkLogger(opts.Logger),
		MaxRequestBodyBytes: opts.maxBodyBytes(),
	}))))
}

// ServeStdio serves one MCP session over newline-delimited JSON-RPC on in
// and out (a process's stdin and stdout) until the client closes in or ctx
// ends. Nothing but protocol messages is written to out. A line the session
// cannot take (not JSON, not a JSON-RPC message, over the size bound, a
// batch of more than wire.MaxBatchEntries messages) is answered with a
// JSON-RPC error and the session goes on (screenStdio).
func ServeStdio(ctx context.Context, pipe *pipeline.Pipeline, opts Options, in io.Reader, out io.Writer) error {
	w := &lockedWriter{w: out}
	lines := screenStdio(in, w, int(opts.maxBodyBytes()))
	defer lines.Close()
	return NewServer(pipe, opts).Run(ctx, &mcp.IOTransport{
		Reader:        lines,
		Writer:        nopWriteCloser{w},
		MaxLineLength: int(opts.maxBodyBytes()),
	})
}

// sdkLogger passes on the SDK's warnings and errors only: it logs at INFO
// for every session, which over stateless HTTP is every request.
func sdkLogger(l *slog.Logger) *slog.Logger {
	if l == nil {
		return nil
	}
	return slog.New(minLevel{Handler: l.Handler(), min: slog.LevelWarn})
}

// minLevel drops records below min.
type minLevel struct {
	slog.Handler
	min slog.Level
}

func (h minLevel) Enabled(ctx context.Context, l slog.Level) bool {
	return l >= h.min && h.Handler.Enabled(ctx, l)
}

func (h minLevel) WithAttrs(attrs []slog.Attr) slog.Handler {
	return minLevel{Handler: h.Handler.WithAttrs(attrs), min: h.min}
}

func (h minLevel) WithGroup(name string) slog.Handler {
	return minLevel{Handler: h.Handler.WithGroup(name), min: h.min}
}

type nopWriteCloser struct{ io.Writer }

func (nopWriteCloser) Close() error { return nil }
