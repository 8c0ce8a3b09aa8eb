// Command digestd turns sources (web pages, PDFs, office documents, images,
// text and the other kinds of ingest/format) into small, verifiable digests
// for a research question, and archives their canonical text by content
// address.
//
// Usage:
//
//	digestd serve   [flags]          run the HTTP API
//	digestd digest  [flags] [FILE]   digest one file or stdin, print the envelope
//	digestd extract [flags] [FILE]   print a source's canonical text (--explain: the rules' decisions)
//	digestd batch   [flags]          digest every source of a JSONL manifest
//	digestd mcp     [flags]          serve the MCP tools over stdio
//	digestd gc      [flags]          remove unreferenced archive blobs
//	digestd verify  [flags]          re-hash every archive blob, list the corrupt
//	digestd reindex [flags]          bring the search index in line with the archive
//	digestd hash-key [KEY]           print the hash of an API key (read from stdin without KEY)
//	digestd eval    KIND DIR...      measure quality on evaluation sets
//
// Run "digestd COMMAND --help" for a command's flags.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"syscall"

	"github.com/digestd/digestd/api"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
	stop()
	os.Exit(exitCode(err, os.Stderr))
}

// exitError carries an exit status other than 1.
type exitError struct {
	code int
	err  error
}

func (e *exitError) Error() string { return e.err.Error() }

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return 0
	}
	if errors.Is(err, flag.ErrHelp) {
		return 0
	}
	var ee *exitError
	if errors.As(err, &ee) {
		if ee.err != nil {
			fmt.Fprintln(stderr, "digestd:", ee.err)
		}
		return ee.code
	}
	fmt.Fprintln(stderr, "digestd:", err)
	return 1
}

// usage is digestd's help; serve's defaults are its flags'.
var usage = `digestd turns sources into small, verifiable digests for a research question.

Usage:
  digestd serve   [flags]           run the HTTP API (default ` + defaultAddr + `, archive ` + defaultArchive + `)
  digestd digest  [flags] [FILE]    digest one file (or stdin) for --query and print the envelope
  digestd extract [flags] [FILE]    print a source's canonical text; --explain adds why each block stayed or went
  digestd batch   [flags]           digest every source of a JSONL manifest (or a directory)
  digestd mcp     [flags]           serve the MCP tools over stdio
  digestd gc      [flags]           remove unreferenced archive blobs past a grace period
  digestd verify  [flags]           re-hash every archived blob and list the corrupt ones
  digestd reindex [flags]           bring the search index in line with the archive (--all rebuilds it)
  digestd hash-key [KEY]            print the hash of an API key (read from stdin without KEY)
  digestd eval    KIND [flags] DIR  measure quality on evaluation sets (the kinds: digestd eval --help)

Run "digestd COMMAND --help" for the flags of a command. Every flag can also be
set by an environment variable: --max-body-bytes is DIGESTD_MAX_BODY_BYTES.
`

// run is digestd's testable main.
func run(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		fmt.Fprint(stderr, usage)
		return &exitError{code: 2, err: errors.New("no command given")}
	}
	switch args[0] {
	case "serve":
		return runServe(ctx, args[1:], stdout, stderr)
	case "digest":
		return runDigest(ctx, args[1:], stdin, stdout, stderr)
	case "extract":
		return runExtract(ctx, args[1:], stdin, stdout, stderr)
	case "eval":
		return runEval(ctx, args[1:], stdout, stderr)
	case "batch":
		return runBatch(ctx, args[1:], stdin, stdout, stderr)
	case "mcp":
		return runMCP(ctx, args[1:], stdin, stdout, stderr)
	case "gc":
		return runGC(ctx, args[1:], stdout, stderr)
	case "verify":
		return runVerify(ctx, args[1:], stdout, stderr)
	case "reindex":
		return runReindex(ctx, args[1:], stdout, stderr)
	case "hash-key":
		return runHashKey(args[1:], stdin, stdout, stderr)
	case workerCommand:
		return runWorker(stdin, stdout)
	case "help", "-h", "--help", "-help":
		fmt.Fprint(stdout, usage)
		return nil
	}
	fmt.Fprint(stderr, usage)
	return &exitError{code: 2, err: fmt.Errorf("unknown command %q", args[0])}
}

// hashKeyUsage is hash-key's help.
const hashKeyUsage = `Usage: digestd hash-key [KEY]

Prints the hex sha256 of an API key, as --api-keys-file and --api-key-hashes of
"digestd serve" take it. Without KEY the key is read from stdin (so that it stays out
of the shell's history); a key that starts with "-" follows "--".`

// wrap breaks s into lines of at most width bytes at spaces.
func wrap(s string, width int) string {
	var b strings.Builder
	n := 0
	for i, w := range strings.Fields(s) {
		if i > 0 && n+1+len(w) > width {
			b.WriteByte('\n')
			n = 0
		} else if i > 0 {
			b.WriteByte(' ')
			n++
		}
		b.WriteString(w)
		n += len(w)
	}
	return b.String()
}

// runHashKey prints the hash under which an API key is configured.
func runHashKey(args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("hash-key", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprintln(stderr, hashKeyUsage) }
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 1 {
		return &exitError{code: 2, err: errors.New("hash-key: one key at a time")}
	}
	key := ""
	if fs.NArg() == 1 {
		key = fs.Arg(0)
	} else {
		b, err := io.ReadAll(io.LimitReader(stdin, 4096))
		if err != nil {
			return err
		}
		key = strings.TrimSpace(string(b))
	}
	if key == "" {
		return &exitError{code: 2, err: errors.New("hash-key: no key given")}
	}
	fmt.Fprintln(stdout, api.HashAPIKey(key))
	return nil
}
