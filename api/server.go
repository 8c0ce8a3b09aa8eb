// Package api serves digestd over HTTP: JSON requests in, response-v2
// envelopes out (built by package wire, which also holds the error table and
// the request specs that MCP and batch share). Server.Mount installs the
// routes and the middleware every edge on the router passes.
package api

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

// Config holds the server's limits and identity.
type Config struct {
	// MaxBodyBytes caps a request body; larger bodies get 413 TOO_LARGE.
	MaxBodyBytes int64
	// Version is reported by health endpoints.
	Version string
	// OpenAPI is the spec served at /openapi.yaml.
	OpenAPI []byte
	Logger  *slog.Logger
	// APIKeyHashes are the hex sha256 hashes of accepted API keys (see
	// HashAPIKey). Empty: no authentication.
	APIKeyHashes []string
	// RateLimit is the requests one client (API key, else IP) may make per
	// RateWindow; 0 disables rate limiting.
	RateLimit  int
	RateWindow time.Duration
	// MaxInFlight bounds the requests that do work (digests, verification,
	// archive reads, listings, MCP) served at once, and MemoryBudget the
	// bytes they may expect to hold together; a request that would wait
	// longer than QueueWait is shed at once with 503 and Retry-After (see
	// admission.go). 0: unbounded.
	MaxInFlight  int
	MemoryBudget int64
	QueueWait    time.Duration
	// BodyTimeout bounds the time to read one request body, which is read
	// before the request is admitted; BodyBudget bounds the bytes of bodies
	// being read at once (more: 503). 0: only the server's read timeout, no
	// budget.
	BodyTimeout time.Duration
	BodyBudget  int64
	// CursorKey signs listing cursors; replicas behind one balancer share
	// it. Empty: a random key per process.
	CursorKey []byte
	// Probes report components' health (PDF workers, fetcher, …).
	Probes []pipeline.Probe
	// Collectors are extra Prometheus collectors for /metrics.
	Collectors []prometheus.Collector
}

// Server is digestd's HTTP API.
type Server struct {
	pipe    *pipeline.Pipeline
	cfg     Config
	started time.Time
	adm     *admission
	bodies  atomic.Int64
	cursors *wire.Cursors
	metrics *metrics
	monitor *wire.Monitor
}

// New returns a server that runs requests through pipe.
func New(pipe *pipeline.Pipeline, cfg Config) *Server {
	if cfg.MaxBodyBytes <= 0 {
		cfg.MaxBodyBytes = ingest.DefaultMaxSourceBytes
	}
	s := &Server{pipe: pipe, cfg: cfg, started: time.Now(), cursors: wire.NewCursors(cfg.CursorKey), metrics: newMetrics(cfg.Collectors)}
	s.adm = newAdmission(cfg.MaxInFlight, cfg.MemoryBudget, cfg.QueueWait)
	s.cfg.Probes = append([]pipeline.Probe{{Name: "admission", Check: s.admissionProbe}}, s.cfg.Probes...)
	s.monitor = &wire.Monitor{Pipe: pipe, Version: cfg.Version, Probes: s.cfg.Probes, Started: s.started}
	return s
}

func (s *Server) log() *slog.Logger {
	if s.cfg.Logger != nil {
		return s.cfg.Logger
	}
	return slog.Default()
}

// Handler returns a router with the API mounted (see Mount) and nothing
// beside it.
func (s *Server) Handler() http.Handler {
	r := chi.NewRouter()
	s.Mount(r)
	return r
}

// Mount installs on r the middleware every route shares (request ids, the
// operation's tool id, the access log and metrics, panic recovery,
// authentication, rate limits, query-parameter checks), the envelope answers
// for unknown routes and methods, and the API's routes: /v1/…, /healthz,
// /metrics and /openapi.yaml. Handlers mounted on r afterwards (/mcp, /ui)
// pass the same middleware; wrap those that do work in Admit.
func (s *Server) Mount(r chi.Router) {
	r.Use(withRequest, identify(r), s.observe, s.recoverer, s.authenticate, s.rateLimit, s.refuseUnknownParams)
	r.NotFound(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, fault.E(fault.NotFound, "no such route"))
	})
	r.MethodNotAllowed(func(w http.ResponseWriter, r *http.Request) {
		s.fail(w, r, fault.E(fault.MethodNotAllowed, "method not allowed on this route"))
	})
	for _, rt := range routes {
		if rt.method == "" {
			r.Handle(rt.pattern, s.handlerOf(rt))
		} else {
			r.Method(rt.method, rt.pattern, s.handlerOf(rt))
		}
	}
}

// route is one route of the API, declared once: its method ("" for any)
// and chi pattern, its operation (meta.tool_id; "" for the probes and
// documents beside the operations, which take any query parameter), the
// query parameters it takes (any other is refused, as unknown JSON fields
// are), its handler, and its admission class: the weight a request is
// admitted with (nil: not admitted by the router).
type route struct {
	method, pattern string
	tool            string
	params          []string
	serve           func(*Server, http.ResponseWriter, *http.Request)
	admission       weightFunc
}

// optionParams are the digest options a raw upload may give as query
// parameters.
var optionParams = []string{"max_evidence", "max_key_points", "snippet_max_chars", "summary_max_chars"}

// routes are the API's routes, in the order they are mounted.
var routes = []route{
	{"GET", "/healthz", "", nil, (*Server).healthz, nil},
	{"GET", "/openapi.yaml", "", nil, (*Server).openapi, nil},
	{"GET", "/v1/health", wire.ToolServiceHealth, nil, (*Server).health, nil},
	{"GET", "/v1/stats", wire.ToolCacheStats, nil, (*Server).stats, nil},
	{"", "/metrics", "", nil, (*Server).serveMetrics, nil},
	{"POST", "/v1/digest", wire.ToolDigestSource, append([]string{"query", "id", "name", "label", "explain", "fields"}, optionParams...), (*Server).postDigest, bodyWeight},
	{"POST", "/v1/digests", wire.ToolDigestSources, nil, (*Server).postDigests, bodyWeight},
	{"POST", "/v1/verify", wire.ToolVerifyDigest, nil, (*Server).postVerify, bodyWeight},
	{"POST", "/v1/locate", wire.ToolLocateQuotes, nil, (*Server).postLocate, bodyWeight},
	{"POST", "/v1/check", wire.ToolCheckCitations, nil, (*Server).postCheck, bodyWeight},
	{"POST", "/v1/search", wire.ToolSearchArchive, nil, (*Server).postSearch, bodyWeight},
	{"GET", "/v1/sources", wire.ToolListSources, []string{"limit", "cursor", "label", "kind"}, (*Server).listSources, lightWeight},
	{"GET", "/v1/sources/{hash}", wire.ToolGetSource, nil, (*Server).getSource, lightWeight},
	{"GET", "/v1/sources/{hash}/links", wire.ToolListLinks, []string{"limit", "cursor"}, (*Server).listLinks, readWeight},
	// The archive's blobs are admitted inside the handler: streaming one
	// holds no slot.
	{"GET", "/v1/archive/{hash}", wire.ToolGetArchiveBlob, []string{"format"}, (*Server).getArchive, nil},
	{"HEAD", "/v1/archive/{hash}", wire.ToolGetArchiveBlob, nil, (*Server).getArchive, nil},
	{"GET", "/v1/archive/{hash}/slice", wire.ToolGetArchivedText, []string{"locator", "start", "end", "context"}, (*Server).getSlice, readWeight},
}

// handlerOf returns rt's handler on s, behind its admission.
func (s *Server) handlerOf(rt route) http.HandlerFunc {
	serve := func(w http.ResponseWriter, r *http.Request) { rt.serve(s, w, r) }
	if rt.admission == nil {
		return serve
	}
	return s.admit(rt.admission, http.HandlerFunc(serve))
}

// routeOps finds an operation's route by method and chi pattern.
var routeOps = func() map[string]route {
	ops := map[string]route{}
	for _, rt := range routes {
		if rt.tool != "" {
			ops[rt.method+" "+rt.pattern] = rt
		}
	}
	return ops
}()

// Route is what a client sees of a route of the API: its method ("" for
// any), path pattern, operation (meta.tool_id, "" for none) and query
// parameters.
type Route struct {
	Method, Pattern, Tool string
	Params                []string
}

// Routes lists the API's routes, as the router mounts them.
func Routes() []Route {
	out := make([]Route, len(routes))
	for i, rt := range routes {
		out[i] = Route{Method: rt.method, Pattern: rt.pattern, Tool: rt.tool, Params: slices.Clone(rt.params)}
	}
	return out
}

// identify sets the request's tool id from the route it will take, before
// any middleware can answer, so a refusal names the operation too.
func identify(mux chi.Routes) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			rctx := chi.NewRouteContext()
			if mux.Match(rctx, r.Method, r.URL.Path) {
				if op, ok := routeOps[r.Method+" "+rctx.RoutePattern()]; ok {
					st := stateOf(r)
					st.tool = op.tool
					st.params = op.params
					st.checkParams = true
				}
			}
			next.ServeHTTP(w, r)
		})
	}
}

// refuseUnknownParams answers VALIDATION_ERROR to a request with a query
// parameter its route does not take, naming every such parameter.
func (s *Server) refuseUnknownParams(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		st := stateOf(r)
		if st.checkParams {
			var unknown []string
			for name := range r.URL.Query() {
				if !slices.Contains(st.params, name) {
					unknown = append(unknown, name)
				}
			}
			if len(unknown) > 0 {
				slices.Sort(unknown)
				allowed := st.params
				if allowed == nil {
					allowed = []string{}
				}
				s.fail(w, r, fault.E(fault.ValidationError, fmt.Sprintf("unknown query parameter(s): %s", strings.Join(unknown, ", "))).
					With("unknown_parameters", unknown).With("allowed_parameters", allowed))
				return
			}
		}
		next.ServeHTTP(w, r)
	})
}

// recoverer turns a panic in a handler into a 500 envelope, never a crash.
func (s *Server) recoverer(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				s.fail(w, r, fault.Wrap(fault.Internal, "internal error", fmt.Errorf("panic: %v", v)))
			}
		}()
		next.ServeHTTP(w, r)
	})
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	success(w, r, http.StatusOK, map[string]any{"status": "ok"})
}

func (s *Server) openapi(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/yaml")
	w.Write(s.cfg.OpenAPI)
}

func (s *Server) postDigest(w http.ResponseWriter, r *http.Request) {
	req, err := s.decodeDigest(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if req.Source.Explain, err = explainParam(r.URL.Query().Get("explain")); err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := s.pipe.Digest(r.Context(), req)
	if err != nil {
		s.metrics.digests.WithLabelValues(string(fault.CodeOf(err))).Inc()
		s.fail(w, r, err)
		return
	}
	if res.CacheHit {
		s.metrics.digests.WithLabelValues("cached").Inc()
	} else {
		s.metrics.digests.WithLabelValues("built").Inc()
	}
	st := stateOf(r)
	wire.Write(w, http.StatusOK, wire.DigestEnvelope(res, st.metaOf(), st.id, st.start))
}

// explainParam reads ?explain=: "1" or "true" asks for the HTML
// extractor's decisions (source.decisions), "", "0" or "false" does not.
func explainParam(v string) (bool, error) {
	switch v {
	case "", "0", "false":
		return false, nil
	case "1", "true":
		return true, nil
	}
	return false, fault.E(fault.ValidationError, "explain: must be 1, true, 0 or false").With("field", "explain")
}

// decodeDigest reads a digest request from JSON, a raw body (text/plain,
// text/html, application/pdf, an office document, EPUB or a text document,
// with ?query= and ?label=, once per label) or a multipart upload; the
// fields of a JSON body, else ?fields=, name optional parts of
// data.source.
func (s *Server) decodeDigest(w http.ResponseWriter, r *http.Request) (pipeline.Request, error) {
	mt, params, err := wire.CheckContentType(r.Header.Get("Content-Type"), digestContentTypes...)
	if err != nil {
		return pipeline.Request{}, err
	}
	q := r.URL.Query()
	if r.Header.Get("Content-Type") == "" {
		// A body declared as nothing is JSON when it opens as JSON does and
		// no ?name= names it a file; otherwise it is a file, told by its
		// name and its first bytes as a generic binary type is.
		raw, err := s.body(w, r)
		if err != nil {
			return pipeline.Request{}, err
		}
		if trimmed := bytes.TrimLeft(raw, " \t\r\n"); q.Get("name") != "" || len(trimmed) > 0 && trimmed[0] != '{' && trimmed[0] != '[' {
			mt = ""
		}
	}
	spec, err := wire.OptionsFromQuery(q)
	if err != nil {
		return pipeline.Request{}, err
	}
	links, err := wire.SourceFieldsOf(wire.FieldsFromQuery(q["fields"]))
	if err != nil {
		return pipeline.Request{}, err
	}
	switch mt {
	case "application/json":
		raw, err := s.body(w, r)
		if err != nil {
			return pipeline.Request{}, err
		}
		var body wire.DigestRequest
		if err := wire.DecodeJSONBody(raw, &body); err != nil {
			return pipeline.Request{}, err
		}
		if body.Source == nil {
			return pipeline.Request{}, fault.E(fault.MissingRequired, "source: is required")
		}
		if body.Options != nil {
			spec = body.Options
		}
		opts, err := spec.Options()
		if err != nil {
			return pipeline.Request{}, err
		}
		if body.Fields != nil {
			if links, err = wire.SourceFieldsOf(body.Fields); err != nil {
				return pipeline.Request{}, err
			}
		}
		req, err := body.Source.Request(body.Query, opts)
		req.Links = links
		return req, err
	}
	opts, err := spec.Options()
	if err != nil {
		return pipeline.Request{}, err
	}
	switch mt {
	case "multipart/form-data":
		r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
		req, err := s.decodeMultipart(r, opts)
		req.Links = links
		return req, err
	default:
		raw, err := s.body(w, r)
		if err != nil {
			return pipeline.Request{}, err
		}
		req := pipeline.Request{ID: q.Get("id"), Query: q.Get("query"), Options: opts, Labels: q["label"], Links: links}
		if len(raw) == 0 {
			return req, errEmptySource
		}
		switch mt {
		case "text/plain":
			if cs := params["charset"]; (cs == "" || strings.EqualFold(cs, "utf-8")) && utf8.Valid(raw) {
				req.Source.Text = string(raw)
				break
			}
			// Text in another charset, declared or not, is read as a
			// text file is (ingest/charset).
			req.Source.File, req.Source.Kind = raw, format.Text
			req.Source.ContentType = r.Header.Get("Content-Type")
		case "application/pdf":
			req.Source.PDF = raw
		case "text/html", "application/xhtml+xml":
			req.Source.HTML = raw
			req.Source.ContentType = r.Header.Get("Content-Type")
		default:
			// An office document, EPUB or a text document by its media type,
			// or any kind under a generic type or none; ?name= may give its
			// file name.
			req.Source.File, req.Source.Name = raw, q.Get("name")
			req.Source.ContentType = r.Header.Get("Content-Type")
		}
		return req, nil
	}
}

// digestContentTypes are the request bodies POST /v1/digest takes: JSON
// (a body declared as nothing is JSON when it opens with { or [), every
// media type of a source kind (format.MediaTypes), the generic binary types
// a file of any kind may be sent as (format.GenericMediaTypes), and
// multipart uploads.
var digestContentTypes = slices.Concat([]string{wire.MediaJSON}, format.MediaTypes(), format.GenericMediaTypes(), []string{"multipart/form-data"})

// decodeJSON decodes the JSON body of a route that takes only JSON into v,
// refusing a body declared as anything else (415) before reading it.
func (s *Server) decodeJSON(w http.ResponseWriter, r *http.Request, v any) error {
	if _, _, err := wire.CheckContentType(r.Header.Get("Content-Type"), wire.MediaJSON); err != nil {
		return err
	}
	body, err := s.body(w, r)
	if err != nil {
		return err
	}
	return wire.DecodeJSONBody(body, v)
}

// decodeMultipart reads a form with a "query" field, "label" fields (one
// per label) and one "file" part (of any kind, by its declared type, its
// name or its first bytes). ?query=, ?id= and ?label= count as fields.
func (s *Server) decodeMultipart(r *http.Request, opts digest.Options) (pipeline.Request, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return pipeline.Request{}, fault.Wrap(fault.InvalidFormat, "malformed multipart body", err)
	}
	q := r.URL.Query()
	req := pipeline.Request{ID: q.Get("id"), Query: q.Get("query"), Options: opts, Labels: q["label"]}
	var file []byte
	var fileType, fileName string
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return req, wire.BodyError(err)
		}
		switch part.FormName() {
		case "query", "id", "label":
			b, err := io.ReadAll(io.LimitReader(part, 64<<10))
			if err != nil {
				return req, wire.BodyError(err)
			}
			switch part.FormName() {
			case "query":
				req.Query = string(b)
			case "id":
				req.ID = string(b)
			default:
				// The pipeline checks labels (pipeline.CheckLabels) as
				// it does those of every entry point.
				req.Labels = append(req.Labels, string(b))
			}
		case "file":
			file, err = readBody(part)
			if err != nil {
				return req, err
			}
			fileType, fileName = part.Header.Get("Content-Type"), part.FileName()
		default:
			return req, fault.E(fault.ValidationError, fmt.Sprintf("unknown form field %q (want query, id, label, file)", part.FormName()))
		}
	}
	if file == nil {
		return req, fault.E(fault.MissingRequired, "file: a multipart upload needs a file part")
	}
	if len(file) == 0 {
		return req, errEmptySource
	}
	// The part's kind is format.Detect's, from its declared type, its file
	// name and its bytes, as for every other entry point.
	req.Source.File, req.Source.Name, req.Source.ContentType = file, fileName, fileType
	return req, nil
}

// errEmptySource answers a raw body or file part with no bytes, as batch
// answers an empty file: there is a source, and it has no text.
var errEmptySource = fault.E(fault.NoExtractableText, "the source is empty")

func readBody(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return nil, wire.BodyError(err)
	}
	return b, nil
}
