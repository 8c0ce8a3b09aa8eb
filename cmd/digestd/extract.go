package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/ingest/htmltext"
	"github.com/digestd/digestd/structure"
)

const extractUsage = `Usage: digestd extract [--explain] [--json] [--format text|markdown] [--render auto|always] [--ocr auto|never|always] [FILE | URL]

Extracts one source (a file, a URL, or stdin when FILE is omitted or -) and prints its
canonical text, as the service archives it. --format markdown prints it as Markdown
(CommonMark with GFM tables) from the text and its structure, as GET
/v1/archive/{hash}?format=markdown does. With --explain, an HTML page's text, or an
EPUB book's, is preceded by the extractor's decisions: one line for each block a rule kept or
removed, marked "*" when it belongs to the reading the text came from, with that
reading (strict, lenient, shown, page for the outcome, or document for a book's
chapters, read by the rules of documents), the stage (clean: the
rule table; search: choosing the main content; emit: writing it as blocks; page),
the action, the rule's name, the block (tag#id.classes), its characters and
characters in links, the rule's thresholds and the measures they met, its score
in the search, and the start of its text. Every block of the page missing from
the text has a "*" drop naming its rule. --json prints one object
{"text", "record", "decisions"} instead. --render renders a URL's page in headless
Chromium first, as "render" does for the service. Nothing is archived.`

func runExtract(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := newFlagSet("extract", extractUsage, stderr)
	c := config{command: "extract"}
	c.registerIngest(fs)
	c.registerRender(fs)
	c.registerOCR(fs)
	explain := fs.Bool("explain", false, "print the rule of every block the HTML extractor kept or removed (HTML pages, EPUB books)")
	asJSON := fs.Bool("json", false, "print one JSON object: the text, the source record and the decisions")
	form := fs.String("format", "text", "print the canonical text (text) or render it as Markdown (markdown)")
	kind := fs.String("kind", "", "source kind: "+strings.Join(format.Kinds, ", ")+" (default: from the file name or its first bytes)")
	if err := parseFlags(fs, args); err != nil {
		return err
	}
	if *form != "text" && *form != "markdown" {
		return &exitError{code: 2, err: fmt.Errorf("extract: --format %q: want text or markdown", *form)}
	}
	name := fs.Arg(0)
	isURL := strings.HasPrefix(name, "http://") || strings.HasPrefix(name, "https://")
	if err := c.checkRender(isURL); err != nil {
		return err
	}
	// Nothing is archived: the app's archive is a scratch directory.
	scratch, err := os.MkdirTemp("", "digestd-extract-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	c.archive, c.index = scratch, "off"
	a, err := openApp(ctx, &c, slog.New(slog.NewJSONHandler(stderr, nil)))
	if err != nil {
		return err
	}
	defer a.Close()

	var src ingest.Source
	if isURL {
		src.URL, src.Render = name, c.render
	} else {
		raw, err := readSource(name, stdin)
		if err != nil {
			return err
		}
		src = sourceFromBytes(raw, name, *kind)
	}
	c.ocrSource(&src)
	src.Explain = *explain || *asJSON
	doc, err := a.pipe.Ingester.Ingest(ctx, src)
	if err != nil {
		return &exitError{code: 2, err: fmt.Errorf("extract: %w", err)}
	}
	if *asJSON {
		out := struct {
			Text      string              `json:"text"`
			Record    ingest.Record       `json:"record"`
			Decisions []htmltext.Decision `json:"decisions"`
		}{Text: doc.Text.String(), Record: doc.Record, Decisions: []htmltext.Decision{}}
		if doc.Trace != nil {
			out.Decisions = doc.Trace.Decisions
		}
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	}
	if *explain {
		if doc.Trace == nil {
			return &exitError{code: 2, err: errors.New("extract: --explain traces HTML pages and EPUB books only")}
		}
		if err := doc.Trace.WriteText(stdout); err != nil {
			return err
		}
		if _, err := fmt.Fprintln(stdout, "--- text"); err != nil {
			return err
		}
	}
	if *form == "markdown" {
		var s *structure.Structure
		if doc.Sidecar.Len() > 0 {
			if s, err = structure.Read([]byte(doc.Sidecar.String()), doc.Text.String(), doc.Text.Hash()); err != nil {
				return fmt.Errorf("extract: %w", err)
			}
		}
		_, err = fmt.Fprintln(stdout, structure.Markdown(doc.Text.String(), s).Markdown)
		return err
	}
	_, err = fmt.Fprintln(stdout, doc.Text.String())
	return err
}
