package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/htmltext"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/pdfworker"
	"github.com/digestd/digestd/ingest/render"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/search"
)

// config is what every command that runs the pipeline shares. Each
// command registers the flag groups that apply to it.
type config struct {
	// command names the subcommand (serve, mcp, reindex, …): the search
	// index's lock records it, and it decides what the command does when
	// another process holds the index (indexHeldPolicy).
	command      string
	archive      string
	maxTextChars int
	maxTextBytes int64
	htmlMaxNodes int
	pdfWorkers   int
	pdfDeadline  time.Duration
	pdfQueueWait time.Duration
	pdfMemory    int64
	pdfMaxPages  int
	ocrDeadline  time.Duration
	ocrMaxPages  int
	fetchMax     int64
	fetchTimeout time.Duration
	// fetchAllowLoopback is --fetch-allow-loopback as given.
	fetchAllowLoopback string
	index              string
	renderer           string
	renderPages        int
	renderTimeout      time.Duration
	renderHeap         int64
	renderMemory       int64
	// ingest is set by registerIngest: only a command that reads sources
	// gets the fetcher, the worker pool and a renderer.
	ingest bool
	// render is --render of a one-shot command (digest, extract): a URL
	// source's render mode, for which the browser starts; "" elsewhere.
	render string
	// ocr and ocrLanguages are --ocr and --ocr-languages of a one-shot
	// command: the source's OCR mode and languages.
	ocr          string
	ocrLanguages string
}

// register adds the flags of a command that reads sources and keeps them
// (serve, mcp, batch): the archive's, the index's, the ingester's and the
// renderer's.
func (c *config) register(fs *flag.FlagSet) {
	c.registerArchive(fs, true)
	c.registerIndex(fs)
	c.registerIngest(fs)
	c.registerRenderer(fs)
}

// registerArchive adds --archive and, for a command that reads archived
// texts back (readsTexts), --max-text-bytes.
func (c *config) registerArchive(fs *flag.FlagSet, readsTexts bool) {
	fs.StringVar(&c.archive, "archive", defaultArchive, "archive location: a directory, or s3://bucket/prefix")
	if readsTexts {
		fs.Int64Var(&c.maxTextBytes, "max-text-bytes", 64<<20, "largest archived blob read back, in bytes")
	}
}

// defaultArchive is --archive's default.
const defaultArchive = "./digestd-data"

// registerIndex adds --index.
func (c *config) registerIndex(fs *flag.FlagSet) {
	fs.StringVar(&c.index, "index", "", "search index: a directory for the embedded engine (default: search-index inside a directory archive; none for an S3 archive), postgres://… for a PostgreSQL database every replica shares, or off")
}

// registerIngest adds the limits of reading a source: its text, HTML,
// the worker processes and fetching.
func (c *config) registerIngest(fs *flag.FlagSet) {
	c.ingest = true
	fs.IntVar(&c.maxTextChars, "max-text-chars", 5_000_000, "largest canonical text of one source, in code points")
	fs.IntVar(&c.htmlMaxNodes, "html-max-nodes", htmltext.DefaultMaxNodes, "most elements and text runs of one HTML page; a larger page is TOO_LARGE before it is parsed (bounds extraction memory, about 300 bytes a node)")
	fs.IntVar(&c.pdfWorkers, "pdf-workers", 2, "worker processes (PDFs, office documents, EPUB, Markdown, CSV, JSON, notebooks, feeds, XML) that may run at once")
	fs.DurationVar(&c.pdfDeadline, "pdf-deadline", 20*time.Second, "wall-clock limit for parsing one PDF or converting one document")
	fs.DurationVar(&c.pdfQueueWait, "pdf-queue-wait", pdfworker.DefaultQueueWait, "how long a PDF waits for a free worker before the request gets 503 with Retry-After")
	fs.Int64Var(&c.pdfMemory, "pdf-memory-bytes", 1<<30, "address-space limit of a worker process (PDFs and documents)")
	fs.IntVar(&c.pdfMaxPages, "pdf-max-pages", 2000, "most pages read from one PDF")
	fs.DurationVar(&c.ocrDeadline, "ocr-deadline", pdfworker.DefaultOCRDeadline, "wall-clock limit for reading one image, or the pages of one PDF without text, by OCR")
	fs.IntVar(&c.ocrMaxPages, "ocr-max-pages", ocr.DefaultMaxPages, "most pages of one PDF read by OCR; a PDF with more pages without text is TOO_LARGE")
	fs.Int64Var(&c.fetchMax, "fetch-max-bytes", 20<<20, "largest decoded body fetched for a URL source")
	fs.DurationVar(&c.fetchTimeout, "fetch-timeout", 20*time.Second, "time limit for fetching a URL source")
	fs.StringVar(&c.fetchAllowLoopback, "fetch-allow-loopback", "", "comma-separated exact loopback `IP:PORT` pairs (127.0.0.1:8081,[::1]:9000) that URL sources may reach, for end-to-end checks; anything else is refused at start-up, and a server started with it logs a warning (empty: no loopback address is reachable)")
}

// registerRenderer adds the browser that renders URL sources asking for
// it ("render": "auto" or "always"), off unless --renderer chromium.
func (c *config) registerRenderer(fs *flag.FlagSet) {
	fs.StringVar(&c.renderer, "renderer", "off", "browser that renders URL sources asking for \"render\": \"auto\" or \"always\": chromium (headless /usr/bin/chromium, every request through the fetch guard) or off")
	fs.IntVar(&c.renderPages, "render-pages", render.DefaultPages, "pages the browser renders at once; more wait")
	c.registerPageLimits(fs)
}

// registerRender adds --render to a one-shot command (digest, extract),
// which reads one source: the browser (--renderer, chromium by default)
// starts only when --render asks for it, and renders one page.
func (c *config) registerRender(fs *flag.FlagSet) {
	fs.StringVar(&c.render, "render", ingest.RenderNever, "render a URL source's page in a browser: "+strings.Join(ingest.RenderModes, ", ")+" (auto: when the fetched page is a shell its scripts fill, the pages that answer JS_REQUIRED; always: every HTML page)")
	fs.StringVar(&c.renderer, "renderer", "chromium", "browser that renders with --render auto or always: chromium (headless /usr/bin/chromium, every request through the fetch guard) or off")
	c.renderPages = 1
	c.registerPageLimits(fs)
}

// registerOCR adds --ocr and --ocr-languages to a one-shot command
// (digest, extract).
func (c *config) registerOCR(fs *flag.FlagSet) {
	fs.StringVar(&c.ocr, "ocr", ingest.OCRAuto, "read by OCR: "+strings.Join(ingest.OCRModes, ", ")+" (auto: images, and the PDF pages without a usable text layer; always: every PDF page; never: the text layer alone)")
	fs.StringVar(&c.ocrLanguages, "ocr-languages", "", "comma-separated languages OCR reads (ISO 639-1 codes or Tesseract pack names, each installed; default: the language of a PDF's text layer, else English)")
}

// ocrSource sets a source's OCR mode and languages from --ocr and
// --ocr-languages.
func (c *config) ocrSource(src *ingest.Source) {
	src.OCR = c.ocr
	for _, l := range strings.Split(c.ocrLanguages, ",") {
		if l = strings.TrimSpace(l); l != "" {
			src.OCRLanguages = append(src.OCRLanguages, l)
		}
	}
}

// registerPageLimits adds the limits of rendering one page.
func (c *config) registerPageLimits(fs *flag.FlagSet) {
	fs.DurationVar(&c.renderTimeout, "render-timeout", render.DefaultPageTimeout, "time limit for rendering one page")
	fs.Int64Var(&c.renderHeap, "render-heap-bytes", render.DefaultHeapBytes, "JavaScript heap limit of one rendered page; a page past it fails with RENDER_FAILED")
	fs.Int64Var(&c.renderMemory, "render-memory-bytes", render.DefaultMemoryBytes, "resident memory limit of one rendered page's renderer process, all of it (heap, DOM, images, canvas, ArrayBuffers); a page past it fails with RENDER_FAILED")
}

// checkRender refuses a --render mode that is none of ingest.RenderModes,
// and one that asks for rendering of a source that is not a URL.
func (c *config) checkRender(isURL bool) error {
	if !slices.Contains(ingest.RenderModes, c.render) {
		return &exitError{code: 2, err: fmt.Errorf("--render: %q is not one of %s", c.render, strings.Join(ingest.RenderModes, ", "))}
	}
	if c.render != ingest.RenderNever && !isURL {
		return &exitError{code: 2, err: errors.New("--render renders URL sources; a file is read as it is")}
	}
	return nil
}

// parseFlags parses args, after first applying DIGESTD_* environment
// variables (a flag on the command line wins over its variable).
func parseFlags(fs *flag.FlagSet, args []string) error {
	var envErr error
	fs.VisitAll(func(f *flag.Flag) {
		name := "DIGESTD_" + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if v, ok := os.LookupEnv(name); ok {
			if err := f.Value.Set(v); err != nil && envErr == nil {
				envErr = fmt.Errorf("%s: %w", name, err)
			}
		}
	})
	if envErr != nil {
		return envErr
	}
	return fs.Parse(args)
}

// newFlagSet returns a flag set that prints usage to stderr.
func newFlagSet(name, synopsis string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "%s\n\nFlags (each also read from DIGESTD_<NAME>, e.g. --max-body-bytes from DIGESTD_MAX_BODY_BYTES):\n", synopsis)
		fs.PrintDefaults()
	}
	return fs
}

// app is an assembled pipeline and what must be closed with it.
type app struct {
	pipe     *pipeline.Pipeline
	pool     *pdfworker.Pool
	renderer *render.Renderer
	logger   *slog.Logger
	// indexLock is this process's hold on an embedded search index, nil
	// for none (closed with the index).
	indexLock *indexLock
}

// Close releases what the app holds: the search index, once the texts
// queued for it are in (a minute at most: the reconcile at the next start
// indexes what is left), and the browser when one renders pages. Worker
// processes end with their requests.
func (a *app) Close() error {
	if a.renderer != nil {
		a.renderer.Close()
	}
	if a.pipe.Index != nil {
		// What the archive accepted enters the index before it closes.
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		a.pipe.WaitIndexed(ctx)
		cancel()
		return a.pipe.Index.Close()
	}
	return nil
}

// openApp wires the store, the ingester and the pipeline from c.
func openApp(ctx context.Context, c *config, logger *slog.Logger) (*app, error) {
	store, err := openStore(ctx, c.archive)
	if err != nil {
		return nil, fmt.Errorf("open archive %s: %w", c.archive, err)
	}
	in := &ingest.Ingester{MaxTextChars: c.maxTextChars, MaxHTMLNodes: c.htmlMaxNodes}
	a := &app{logger: logger, pipe: &pipeline.Pipeline{
		Ingester: in,
		Store:    store,
		Limits:   pipeline.Limits{MaxTextBytes: c.maxTextBytes},
	}}
	if c.ingest {
		if err := a.wireIngest(c, in); err != nil {
			return nil, err
		}
	}
	a.pipe.Log = logger
	// An archive written before records were kept per raw input gets its
	// records keyed, once. One that cannot be written (read-only) still
	// serves: its records are read from the sources' references.
	if n, err := a.pipe.MigrateRecords(ctx); err != nil {
		logger.Warn("source records not migrated; the next start tries again", "err", err)
	} else if n > 0 {
		logger.Info("source records migrated: each kept under its raw input", "records", n)
	}
	idx, lock, err := openIndex(ctx, c)
	var held *indexHeldError
	switch {
	case errors.As(err, &held):
		switch indexHeldPolicy[c.command] {
		case heldRefuse:
			a.Close()
			return nil, held.refusal(c.command)
		case heldSearchElsewhere:
			logger.Warn("search index held by another process; search answers where to search instead", "index", held.Dir, "holder", held.Holder.String())
			idx = heldIndex{held.Holder}
		default:
			logger.Info("search index held by another process; what this run archives is indexed by the holder's reconcile (digestd serve at its start, or digestd reindex)", "index", held.Dir, "holder", held.Holder.String())
			idx = nil
		}
	case err != nil:
		// The archive serves without search: digests never wait on the
		// index, and the next start reconciles it.
		logger.Warn("search index not opened; search is unavailable", "err", err)
		idx = unavailableIndex{err}
	}
	a.pipe.Index, a.indexLock = idx, lock
	return a, nil
}

// indexLocation returns where the search index of c lives: --index, or
// search-index inside a directory archive; "" for none.
func indexLocation(c *config) string {
	switch {
	case c.index == "off":
		return ""
	case c.index != "":
		return c.index
	case strings.Contains(c.archive, "://"):
		return ""
	}
	return filepath.Join(c.archive, "search-index")
}

// openIndex opens the search index of c through its backend (see
// indexBackends), or returns nil when there is none; an embedded index
// comes with its lock.
func openIndex(ctx context.Context, c *config) (search.Index, *indexLock, error) {
	loc := indexLocation(c)
	if loc == "" {
		return nil, nil, nil
	}
	return openIndexAt(ctx, loc, c.command)
}

// unavailableIndex stands for an index that could not be opened: every
// call is search.ErrUnavailable, so search answers 503 and health is
// degraded while digests are served.
type unavailableIndex struct{ err error }

func (u unavailableIndex) fail() error                                             { return fmt.Errorf("%w: %w", search.ErrUnavailable, u.err) }
func (u unavailableIndex) Put(context.Context, ...search.Document) error           { return u.fail() }
func (u unavailableIndex) SetLabels(context.Context, archive.Hash, []string) error { return u.fail() }
func (u unavailableIndex) HasLabel(context.Context, string) (bool, error)          { return false, u.fail() }
func (u unavailableIndex) Remove(context.Context, archive.Hash) error              { return u.fail() }
func (u unavailableIndex) Source(context.Context, archive.Hash) (search.Source, error) {
	return search.Source{}, u.fail()
}
func (u unavailableIndex) Sources(context.Context, func(search.Source) error) error { return u.fail() }
func (u unavailableIndex) Candidates(context.Context, string, search.Filter, int) ([]search.Candidate, int, error) {
	return nil, 0, u.fail()
}
func (u unavailableIndex) Frequencies(context.Context, []string) ([]int, int, error) {
	return nil, 0, u.fail()
}
func (u unavailableIndex) Close() error { return nil }
