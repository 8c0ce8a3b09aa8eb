// Package wire is what digestd's edges (api, mcpserver, batch) share, so
// that they stand side by side and import none of each other: the
// response-v2 envelope with its one success and one error builder, the
// error and warning tables, request ids, the client request specs and their
// checking, exact-key JSON decoding, listing cursors and the health
// monitor. It sits between the edges and the pipeline.
package wire

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log/slog"
	"math"
	"net/http"
	"regexp"
	"strings"
	"time"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/archive"
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
	ToolListLinks       = "list_links"
	ToolGetArchiveBlob  = "get_archive_blob"
	ToolServiceHealth   = "get_service_health"
	ToolCacheStats      = "get_cache_stats"
	ToolLocateQuotes    = "locate_quotes"
	ToolCheckCitations  = "check_citations"
	ToolSearchArchive   = "search_archive"
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
	Version                      string                  `json:"version"`
	RequestID                    string                  `json:"request_id"`
	Timestamp                    string                  `json:"timestamp"`
	ToolID                       string                  `json:"tool_id"`
	ToolVersion                  string                  `json:"tool_version"`
	Capabilities                 []string                `json:"capabilities"`
	Telemetry                    Telemetry               `json:"telemetry"`
	Warnings                     []string                `json:"warnings,omitempty"`
	WarningDetails               []WarningDetail         `json:"warning_details,omitempty"`
	ContentFidelity              string                  `json:"content_fidelity,omitempty"`
	ContentFidelitySchemaVersion string                  `json:"content_fidelity_schema_version,omitempty"`
	DroppedContentIDs            *[]string               `json:"dropped_content_ids,omitempty"`
	ContentArchiveHashes         map[string]archive.Hash `json:"content_archive_hashes,omitempty"`
	Pagination                   *Pagination             `json:"pagination,omitempty"`
	RateLimit                    *RateLimitMeta          `json:"rate_limit,omitempty"`
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
	Code     fault.Warning  `json:"code"`
	Severity string         `json:"severity"`
	Message  string         `json:"message"`
	Context  map[string]any `json:"context,omitempty"`
}

// AddWarning appends a warning to m: its message to Warnings, and its code,
// severity (from the warning table), message and context to
// WarningDetails. Every warning of every answer goes through it.
func (m *Meta) AddWarning(code fault.Warning, msg string, ctx map[string]any) {
	m.Warnings = append(m.Warnings, msg)
	m.WarningDetails = append(m.WarningDetails, WarningDetail{Code: code, Severity: WarningSeverity(code), Message: msg, Context: ctx})
}

// AddWarnings carries the pipeline's warnings into m.
func (m *Meta) AddWarnings(ws []pipeline.Warning) {
	for _, w := range ws {
		m.AddWarning(w.Code, w.Message, w.Context)
	}
}

// AddFailures adds the PARTIAL_FAILURE warning naming the sources of a
// request that failed while the others were used (data.failed lists them
// with their codes); it adds nothing when none failed.
func (m *Meta) AddFailures(failed []pipeline.Failure) {
	if len(failed) == 0 {
		return
	}
	ids := make([]string, len(failed))
	for i, f := range failed {
		ids[i] = f.ID
	}
	m.AddWarning(fault.PartialFailure, fmt.Sprintf("%d source(s) failed: %s", len(ids), strings.Join(ids, ", ")),
		map[string]any{"failed_ids": ids})
}

// Pagination describes a page of a listing.
type Pagination struct {
	Cursor   *string `json:"cursor"`
	HasMore  bool    `json:"has_more"`
	PageSize int     `json:"page_size"`
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

var requestIDPattern = regexp.MustCompile(`^[A-Za-z0-9_-]{1,128}$`)

// NewRequestID returns a fresh request id: "req_" and 24 hex digits.
func NewRequestID() string { return newID("req_") }

// NewBatchRequestID returns a fresh request id for the envelope of one batch
// entry: "batch_" and 24 hex digits, so a batch answer is told apart from
// one the service gave.
func NewBatchRequestID() string { return newID("batch_") }

func newID(prefix string) string {
	var b [12]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// RequestID returns the id a request is answered under: the client's
// X-Request-ID (given as clientID) when it is 1 to 128 characters of
// [A-Za-z0-9_-], else a new one.
func RequestID(clientID string) string {
	if requestIDPattern.MatchString(clientID) {
		return clientID
	}
	return NewRequestID()
}

// finish fills in what every envelope's meta carries: the version, request
// id, timestamp, tool id (ToolService when meta names none), tool version,
// capabilities and the duration since start.
func finish(m Meta, requestID string, start time.Time) Meta {
	m.Version = EnvelopeVersion
	m.RequestID = requestID
	m.Timestamp = time.Now().UTC().Format(time.RFC3339Nano)
	if m.ToolID == "" {
		m.ToolID = ToolService
	}
	m.ToolVersion = digestd.Version
	m.Capabilities = Capabilities()
	m.Telemetry.DurationMS = math.Round(float64(time.Since(start).Microseconds())/10) / 100
	return m
}

// Success returns the response-v2 success envelope of data. meta carries
// the optional fields (tool id, warnings, fidelity, pagination, telemetry
// counters); the version, request id, timestamp and duration since start
// are filled in here.
func Success(data any, meta Meta, requestID string, start time.Time) Envelope {
	return Envelope{Success: true, Data: data, Meta: finish(meta, requestID, start)}
}

// Failure returns the response-v2 error envelope for err, classified by the
// error table, and the HTTP status the table gives it. meta is filled in as
// by Success.
func Failure(err error, meta Meta, requestID string, start time.Time) (Envelope, int) {
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
	return Envelope{Success: false, Data: data, Error: &msg, Meta: finish(meta, requestID, start)}, class.Status
}

// Write writes v (an envelope) as the JSON body of an answer with status.
func Write(w http.ResponseWriter, status int, v any) {
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
