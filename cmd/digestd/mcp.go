package main

import (
	"context"
	"io"
	"log/slog"
	"strings"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/mcpserver"
)

// mcpSynopsis is mcp's help; the tools it names are the server's own.
func mcpSynopsis() string {
	return "Usage: digestd mcp [flags]\n\n" + wrap("Serves digestd's MCP tools ("+strings.Join(mcpserver.ToolNames(), ", ")+
		") and the archived texts (digestd://archive/sha256:<hex>) over stdio, for an MCP client that starts digestd as a subprocess. "+
		"Logs go to stderr. Streamable HTTP is at /mcp of \"digestd serve\". One process holds an archive's search index at a time: "+
		"while digestd serve runs on the same archive, point the MCP client at its /mcp instead, or search_archive answers where the index is.", 92)
}

// runMCP serves the MCP tools over stdio: JSON-RPC on stdin and stdout,
// logs on stderr only (stdout carries nothing but protocol messages).
func runMCP(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("mcp", mcpSynopsis(), stderr)
	c := config{command: "mcp"}
	c.register(fs)
	maxBody := fs.Int64("max-body-bytes", ingest.DefaultMaxSourceBytes, "largest JSON-RPC message, in bytes (a base64 PDF is 4/3 of its size)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	logger := slog.New(slog.NewJSONHandler(stderr, nil))
	a, err := openApp(ctx, &c, logger)
	if err != nil {
		return err
	}
	defer a.Close()
	go digest.Warm() // decode the word vectors before the first question needs them
	logger.Info("digestd mcp serving on stdio", "archive", c.archive, "version", digestd.Version)
	err = mcpserver.ServeStdio(ctx, a.pipe, mcpserver.Options{Version: digestd.Version, Logger: logger, MaxBodyBytes: *maxBody, Probes: a.probes()}, stdin, stdout)
	if ctx.Err() != nil {
		return nil // interrupted: a normal way to stop
	}
	return err
}
