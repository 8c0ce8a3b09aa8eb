package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"
	"time"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

func runDigest(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("digest", "Usage: digestd digest --query Q [flags] [FILE | URL]\n\nDigests one source (a file, a URL, or stdin when FILE is omitted or -) and prints the\nresponse-v2 envelope that POST /v1/digest would answer. A URL whose page only its scripts\nfill (JS_REQUIRED) digests with --render auto, in headless Chromium. The exit status is 0\non success, 2 when the source could not be digested.", stderr)
	c := config{command: "digest"}
	c.registerArchive(fs, true)
	c.registerIndex(fs)
	c.registerIngest(fs)
	c.registerRender(fs)
	c.registerOCR(fs)
	query := fs.String("query", "", "the research question the digest is for")
	kind := fs.String("kind", "", "source kind: "+strings.Join(format.Kinds, ", ")+" (default: from the file name or its first bytes)")
	var opts digest.Options
	registerOptions(fs, &opts)
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	name := fs.Arg(0)
	isURL := strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://")
	if err := c.checkRender(isURL); err != nil {
		return err
	}
	start := time.Now()
	a, err := openApp(ctx, &c, slog.New(slog.NewJSONHandler(stderr, nil)))
	if err != nil {
		return err
	}
	defer a.Close()

	req := pipeline.Request{Query: *query, Options: opts}
	if isURL {
		req.Source.URL, req.Source.Render = name, c.render
	} else {
		raw, err := readSource(name, stdin)
		if err != nil {
			return err
		}
		req.Source = sourceFromBytes(raw, name, *kind)
	}
	c.ocrSource(&req.Source)
	res, derr := a.pipe.Digest(ctx, req)
	env, _ := wire.ResultEnvelope(res, derr, wire.NewRequestID(), start)
	enc := json.NewEncoder(stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(env); err != nil {
		return err
	}
	if derr != nil {
		return &exitError{code: 2}
	}
	return nil
}

func readSource(name string, stdin io.Reader) ([]byte, error) {
	if name == "" || name == "-" {
		return io.ReadAll(stdin)
	}
	return os.ReadFile(name)
}

// sourceFromBytes returns a file as a source of the given kind, or of the
// kind format.Detect finds from its name and its bytes when kind is "".
func sourceFromBytes(raw []byte, name, kind string) ingest.Source {
	return ingest.Source{File: raw, Name: name, Kind: kind}
}

// registerOptions adds the digest's size flags; their ranges and defaults
// are digest's constants.
func registerOptions(fs *flag.FlagSet, opts *digest.Options) {
	d := digest.DefaultOptions()
	fs.IntVar(&opts.MaxEvidence, "max-evidence", 0, fmt.Sprintf("evidence snippets, %d-%d (default %d)", 1, digest.MaxEvidence, d.MaxEvidence))
	fs.IntVar(&opts.MaxKeyPoints, "max-key-points", 0, fmt.Sprintf("key points, %d-%d (default %d)", 0, digest.MaxKeyPoints, d.MaxKeyPoints))
	fs.IntVar(&opts.SnippetMaxChars, "snippet-max-chars", 0, fmt.Sprintf("longest snippet in code points, %d-%d (default %d)", digest.MinSnippetChars, digest.MaxSnippetChars, d.SnippetMaxChars))
	fs.IntVar(&opts.SummaryMaxChars, "summary-max-chars", 0, fmt.Sprintf("longest summary in code points, %d-%d (default %d)", digest.MinSummaryChars, digest.MaxSummaryChars, d.SummaryMaxChars))
}
