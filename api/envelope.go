package api

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"log/slog"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"time"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/htmltext"
	"github.com/digestd/digestd/ingest/pdftext"
	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/pipeline"
)

// Tool ids (meta.tool_id): the operation an answer comes from, named as
// the MCP tool that runs it where there is one.
const (
	ToolDigestSource    = "digest_source"
	ToolDigestSources   = "digest_sources"
	ToolGetArchivedText = "get_archived_text"
	ToolVerifyDigest    = "verify_digest"
	ToolListSources     = "list_sources"
	ToolGetSource       = "get_source"
	ToolGetArchiveBlob  = "get_archive_blob"
	ToolServiceHealth   = "get_service_health"
	ToolCacheStats      = "get_cache_stats"
	ToolLocateQuotes    = "locate_quotes"
	ToolCheckCitations  = "check_citations"
	// ToolService is the tool id of answers that belong to no operation
	// (an unknown route, a liveness probe, a request refused before routing).
	ToolService = "digestd"
)

// Capabilities returns meta.capabilities: the features and versions an
// agent can detect and cache by. The envelope and fidelity schema
// versions, verified locators, and the canonicalizer's, extractors' and
// digester's versions.
func Capabilities() []string {
	return []string{
		EnvelopeVersion,
		"fidelity-" + FidelitySchemaVersion,
		"verified-locators",
		"signed-cursors",
		normalize.Version,
		"html-extractor/" + htmltext.ExtractorVersion,
		"pdf-extractor/" + pdftext.ExtractorVersion,
		digest.DigesterVersion,
	}
}

// FidelitySchemaVersion is meta.content_fidelity_schema_version.
const FidelitySchemaVersion = "1.0"

// EnvelopeVersion is meta.version of every JSON response.
const EnvelopeVersion = "response-v2"

// Envelope is the response-v2 shape of every JSON response.
type Envelope struct {
	Success bool    `json:"success"`
	Data    any     `json:"data"`
	Error   *string `json:"error"`
	Meta    Meta    `json:"meta"`
}

// Meta is the envelope's metadata.
type Meta struct {
	Version                      string            `json:"version"`
	RequestID                    string            `json:"request_id"`
	Timestamp                    string            `json:"timestamp"`
	ToolID                       string            `json:"tool_id"`
	ToolVersion                  string            `json:"tool_version"`
	Capabilities                 []string          `json:"capabilities"`
	Telemetry                    Telemetry         `json:"telemetry"`
	Warnings                     []string          `json:"warnings,omitempty"`
	WarningDetails               []WarningDetail   `json:"warning_details,omitempty"`
	ContentFidelity              string            `json:"content_fidelity,omitempty"`
	ContentFidelitySchemaVersion string            `json:"content_fidelity_schema_version,omitempty"`
	DroppedContentIDs            *[]string         `json:"dropped_content_ids,omitempty"`
	ContentArchiveHashes         map[string]string `json:"content_archive_hashes,omitempty"`
	Pagination                   *Pagination       `json:"pagination,omitempty"`
	RateLimit                    *RateLimitMeta    `json:"rate_limit,omitempty"`
}

// Telemetry reports how the request was served.
type Telemetry struct {
	DurationMS      float64 `json:"duration_ms"`
	CacheHit        *bool   `json:"cache_hit,omitempty"`
	TokensEstimated *int    `json:"tokens_estimated,omitempty"`
}

// WarningDetail is a structured warning; Warnings holds their messages.
// Severity comes from the warning table (WarningSeverity).
type WarningDetail struct {
	Code     string         `json:"code"`
	Severity string         `json:"severity"`
	Message  string         `json:"message"`
	Context  map[string]any `json:"context,omitempty"`
}

// AddWarning appends a warning to m: its message to Warnings, and its code,
// severity (from the warning table), message and context to
// WarningDetails. Every warning of every answer goes through it.
func (m *Meta) AddWarning(code, msg string, ctx map[string]any) {
	m.Warnings = append(m.Warnings, msg)
	m.WarningDetails = append(m.WarningDetails, WarningDetail{Code: code, Severity: WarningSeverity(code), Message: msg, Context: ctx})
}

// Pagination describes a page of a listing.
type Pagination struct {
	Cursor     *string `json:"cursor"`
	HasMore    bool    `json:"has_more"`
	PageSize   int     `json:"page_size"`
	TotalCount *int    `json:"total_count,omitempty"`
}

// RateLimitMeta reports the caller's rate limit.
type RateLimitMeta struct {
	Limit     int    `json:"limit"`
	Remaining int    `json:"remaining"`
	ResetAt   string `json:"reset_at"`
}

// ErrorData is the envelope's data for a failed request.
type ErrorData struct {
	ErrorCode   string         `json:"error_code"`
	ErrorType   string         `json:"error_type"`
	Remediation string         `json:"remediation"`
	Retryable   bool           `json:"retryable"`
	RetryAfter  *int           `json:"retry_after,omitempty"`
	Details     map[string]any `json:"details"`
}

type ctxKey int

const requestKey ctxKey = 0

// requestState is per-request state the envelope helpers need.
type requestState struct {
	id     string
	start  time.Time
	client string // the authenticated client, for rate limiting
	tool   string // meta.tool_id: the operation this request runs
	// params are the query parameters the route takes, checked when
	// checkParams is set (the route is known).
	params      []string
	checkParams bool
	meta        Meta // fields a handler or middleware set before writing
}

var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// withRequest attaches request state: the client's X-Request-ID when valid,
// else a generated one, echoed as a header.
func withRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-ID")
		if !requestIDPattern.MatchString(id) {
			id = newRequestID()
		}
		w.Header().Set("X-Request-ID", id)
		st := &requestState{id: id, start: time.Now()}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestKey, st)))
	})
}

func newRequestID() string {
	var b [12]byte
	rand.Read(b[:])
	return "req_" + hex.EncodeToString(b[:])
}

func stateOf(r *http.Request) *requestState {
	if st, ok := r.Context().Value(requestKey).(*requestState); ok {
		return st
	}
	return &requestState{id: newRequestID(), start: time.Now()}
}

// RequestID returns the request's id (for logs).
func RequestID(r *http.Request) string { return stateOf(r).id }

func (st *requestState) finishMeta() Meta {
	m := st.meta
	m.Version = EnvelopeVersion
	m.RequestID = st.id
	m.Timestamp = time.Now().UTC().Format(time.RFC3339Nano)
	if m.ToolID == "" {
		m.ToolID = st.tool
	}
	if m.ToolID == "" {
		m.ToolID = ToolService
	}
	m.ToolVersion = digestd.Version
	m.Capabilities = Capabilities()
	m.Telemetry.DurationMS = math.Round(float64(time.Since(st.start).Microseconds())/10) / 100
	return m
}

// success writes a response-v2 success envelope with data.
func success(w http.ResponseWriter, r *http.Request, status int, data any) {
	st := stateOf(r)
	writeJSON(w, status, Envelope{Success: true, Data: data, Meta: st.finishMeta()})
}

// fail writes a response-v2 error envelope for err, classified by the error
// table. Internal causes are logged, never sent.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	env, status := errorEnvelope(err, stateOf(r))
	code := env.Data.(ErrorData).ErrorCode
	if status >= 500 {
		s.log().Error("request failed", "request_id", RequestID(r), "code", code, "err", err)
	} else {
		s.log().Info("request rejected", "request_id", RequestID(r), "code", code, "err", err)
	}
	if ra := env.Data.(ErrorData).RetryAfter; ra != nil {
		w.Header().Set("Retry-After", strconv.Itoa(*ra))
	}
	writeJSON(w, status, env)
}

// errorEnvelope classifies err by the error table and returns its envelope
// and HTTP status.
func errorEnvelope(err error, st *requestState) (Envelope, int) {
	fe := fault.As(err)
	class := classify(fe.Code)
	details := fe.Details
	if details == nil {
		details = map[string]any{}
	}
	data := ErrorData{
		ErrorCode:   string(fe.Code),
		ErrorType:   class.Type,
		Remediation: class.Remediation,
		Retryable:   class.Retryable,
		Details:     details,
	}
	if ra, ok := details["retry_after"].(int); ok {
		data.RetryAfter = &ra
	} else if class.Status == http.StatusServiceUnavailable || class.Status == http.StatusTooManyRequests {
		ra := 1
		data.RetryAfter = &ra
	}
	msg := fe.Msg
	return Envelope{Success: false, Data: data, Error: &msg, Meta: st.finishMeta()}, class.Status
}

// ResultEnvelope returns the envelope and HTTP status the API answers for
// one digest outcome (a result or an error): the batch job and the one-shot
// command write exactly what POST /v1/digest would.
func ResultEnvelope(res *pipeline.Result, err error, requestID string, start time.Time) (Envelope, int) {
	st := &requestState{id: requestID, start: start, tool: ToolDigestSource}
	if err != nil {
		return errorEnvelope(err, st)
	}
	return digestEnvelope(res, st), http.StatusOK
}

func digestEnvelope(res *pipeline.Result, st *requestState) Envelope {
	st.meta.Telemetry.CacheHit = &res.CacheHit
	tokens := estimateTokens(res.Payload)
	st.meta.Telemetry.TokensEstimated = &tokens
	addWarnings(st, res.Warnings)
	data := DigestData{Digest: res.Payload, Source: res.Source, DigestHash: res.DigestHash.String()}
	return Envelope{Success: true, Data: data, Meta: st.finishMeta()}
}

// addWarnings carries the pipeline's warnings into the answer's meta.
func addWarnings(st *requestState, ws []pipeline.Warning) {
	for _, w := range ws {
		st.meta.AddWarning(w.Code, w.Message, nil)
	}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		slog.Error("encode response", "err", err)
		http.Error(w, `{"success":false}`, http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	w.Write(b)
	w.Write([]byte("\n"))
}
