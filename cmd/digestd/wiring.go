package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/digest/sentences"
	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/fetch"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/pdfworker"
	"github.com/digestd/digestd/ingest/render"
	"github.com/digestd/digestd/mcpserver"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/web"
)

// workerCommand is the hidden subcommand that runs one PDF parse in a child
// process (see ingest/pdfworker).
const workerCommand = "__pdf-worker"

// runWorker is the PDF worker's entry point: PDF bytes on stdin, one JSON
// result on stdout.
func runWorker(stdin io.Reader, stdout io.Writer) error {
	if code := pdfworker.Main(stdin, stdout); code != 0 {
		return &exitError{code: code}
	}
	return nil
}

// wireIngest gives the ingester its guarded fetcher and its worker pool,
// which extracts PDFs and converts office documents, EPUB and text documents (Markdown, CSV, JSON, notebooks, feeds, XML).
func (a *app) wireIngest(c *config, in *ingest.Ingester) error {
	allow, err := fetch.ParseAllowLoopback(c.fetchAllowLoopback)
	if err != nil {
		return fmt.Errorf("--fetch-allow-loopback: %w", err)
	}
	if len(allow) > 0 {
		a.logger.Warn("URL sources may reach these loopback addresses (--fetch-allow-loopback); never set this on a server that others use", "fetch_allow_loopback", strings.Join(allow, ","))
	}
	in.Fetcher = fetch.New(fetch.Config{
		MaxBytes:      c.fetchMax,
		TotalTimeout:  c.fetchTimeout,
		UserAgent:     "digestd/" + digestd.Version,
		AllowLoopback: allow,
	})
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("find own executable for PDF workers: %w", err)
	}
	// OCR needs Tesseract on the machine; without it the service serves,
	// and images and ocr: always answer FEATURE_DISABLED.
	eng, err := ocr.Find(context.Background())
	if err != nil {
		a.logger.Info("OCR is off: images and scanned PDF pages are not read", "reason", err.Error(), "install", ocr.Install)
		eng = nil
	}
	pool, err := pdfworker.NewPool(pdfworker.PoolConfig{
		Command:          []string{exe, workerCommand},
		Workers:          c.pdfWorkers,
		Deadline:         c.pdfDeadline,
		QueueWait:        c.pdfQueueWait,
		MemoryLimitBytes: c.pdfMemory,
		MaxPages:         c.pdfMaxPages,
		MaxChars:         c.maxTextChars,
		OCR:              eng,
		OCRDeadline:      c.ocrDeadline,
		MaxOCRPages:      c.ocrMaxPages,
		Logger:           a.logger,
	})
	if err != nil {
		return fmt.Errorf("start the PDF worker pool: %w", err)
	}
	a.pool = pool
	in.PDF = ingest.PoolExtractor{Pool: pool}
	in.Documents = ingest.PoolDocuments{Pool: pool}
	if eng != nil {
		in.OCR = ingest.PoolOCR{Pool: pool, Engine: eng}
	}
	switch c.renderer {
	case "off":
	case "chromium":
		if c.render == ingest.RenderNever {
			// A one-shot command not asked to render starts no browser.
			break
		}
		r, err := render.New(render.Config{
			Pages:       c.renderPages,
			PageTimeout: c.renderTimeout,
			MaxBytes:    c.fetchMax,
			HeapBytes:   c.renderHeap,
			MemoryBytes: c.renderMemory,
			Fetcher:     in.Fetcher,
			Logger:      a.logger,
		})
		if err != nil {
			return fmt.Errorf("--renderer chromium: %w", err)
		}
		a.renderer, in.Renderer = r, r
	default:
		return fmt.Errorf("--renderer: %q is neither chromium nor off", c.renderer)
	}
	return nil
}

// probes report the PDF workers, the fetcher and the search index for GET
// /v1/health.
func (a *app) probes() []pipeline.Probe {
	var search []pipeline.Probe
	if a.pipe.Index != nil {
		search = append(search, pipeline.Probe{Name: "search_index", Check: a.pipe.IndexProbe})
	}
	probes := append(search, []pipeline.Probe{
		{Name: "pdf_workers", Check: func(context.Context) (string, map[string]any) {
			st := a.pool.Stats()
			status := "healthy"
			if st.InUse >= st.Capacity {
				status = "degraded"
			}
			return status, map[string]any{"in_use": st.InUse, "capacity": st.Capacity, "outcomes": st.Outcomes}
		}},
		{Name: "fetcher", Check: func(context.Context) (string, map[string]any) {
			return "healthy", nil
		}},
	}...)
	if a.renderer != nil {
		probes = append(probes, pipeline.Probe{Name: "renderer", Check: func(context.Context) (string, map[string]any) {
			running, version, inUse, capacity := a.renderer.Status()
			status := "healthy"
			if !running || inUse >= capacity {
				status = "degraded"
			}
			return status, map[string]any{"browser": version, "running": running, "in_use": inUse, "capacity": capacity}
		}})
	}
	return probes
}

// collectors export the PDF workers' outcomes to /metrics.
func (a *app) collectors() []prometheus.Collector {
	return []prometheus.Collector{poolCollector{a.pool}}
}

var (
	pdfOutcomeDesc = prometheus.NewDesc("digestd_pdf_worker_outcomes_total", "Finished PDF extractions by outcome (OK or the error code).", []string{"outcome"}, nil)
	pdfInUseDesc   = prometheus.NewDesc("digestd_pdf_workers_in_use", "PDF worker processes running now.", nil, nil)
)

type poolCollector struct{ pool *pdfworker.Pool }

func (c poolCollector) Describe(ch chan<- *prometheus.Desc) {
	ch <- pdfOutcomeDesc
	ch <- pdfInUseDesc
}

func (c poolCollector) Collect(ch chan<- prometheus.Metric) {
	st := c.pool.Stats()
	for outcome, n := range st.Outcomes {
		ch <- prometheus.MustNewConstMetric(pdfOutcomeDesc, prometheus.CounterValue, float64(n), outcome)
	}
	ch <- prometheus.MustNewConstMetric(pdfInUseDesc, prometheus.GaugeValue, float64(st.InUse))
}

// evalKind runs the digest evaluations through the pipeline's text path.
func evalKind(ctx context.Context, kind, dir string, p *pipeline.Pipeline, rep *evaluate.Report) error {
	var err error
	switch kind {
	case "evidence":
		*rep, err = evaluate.Evidence(ctx, dir, evidenceFunc(p))
	case "sources":
		*rep, err = evaluate.Sources(ctx, dir, rankFunc(p))
	case "summary":
		*rep, err = evaluate.Summary(ctx, dir, digestFunc(p))
	case "sbd":
		*rep, err = evaluate.SBD(ctx, dir, sentences.Strings)
	case "locate":
		*rep, err = evaluate.Locate(ctx, dir, locateFuncs(p))
	default:
		err = fmt.Errorf("unknown evaluation kind %q (want extract, evidence, sources, search, summary, sbd, hygiene or locate)", kind)
	}
	return err
}

// router mounts every edge on one chi router: the HTTP API (/v1/…,
// health, metrics, the API description), MCP's streamable HTTP at /mcp and
// the web page under /ui/. All of them pass the API's middleware (request
// ids, access log, authentication, rate limits), and /mcp its admission;
// /mcp also takes browser calls from mcpOrigins besides the server's own.
func (a *app) router(srv *api.Server, maxBody int64, cursorKey []byte, mcpOrigins []string) http.Handler {
	r := chi.NewRouter()
	srv.Mount(r)
	r.Handle("/mcp", srv.Admit(mcpserver.Handler(a.pipe, mcpserver.Options{Version: digestd.Version, Logger: a.logger, MaxBodyBytes: maxBody, Probes: a.probes(), CursorKey: cursorKey, AllowedOrigins: mcpOrigins})))
	r.Handle("/ui/*", web.Handler())
	r.Get("/ui", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ui/", http.StatusMovedPermanently) })
	r.Get("/", func(w http.ResponseWriter, r *http.Request) { http.Redirect(w, r, "/ui/", http.StatusFound) })
	return r
}
