package api

import (
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/pipeline"
)

// SuccessEnvelope returns the response-v2 success envelope for data outside
// an HTTP request (the MCP tools answer with it). meta carries the optional
// fields (warnings, fidelity, pagination, telemetry counters); its version,
// request id, timestamp and duration since start are filled in here.
func SuccessEnvelope(data any, meta Meta, requestID string, start time.Time) Envelope {
	st := &requestState{id: requestID, start: start, meta: meta}
	return Envelope{Success: true, Data: data, Meta: st.finishMeta()}
}

// ErrorEnvelope returns the response-v2 error envelope for err, classified
// by the error table exactly as the HTTP API classifies it, and the HTTP
// status the API would answer with.
func ErrorEnvelope(err error, requestID string, start time.Time) (Envelope, int) {
	return errorEnvelope(err, &requestState{id: requestID, start: start})
}

// WriteEnvelope writes env as the JSON body of an answer with status (for
// handlers mounted beside the API, such as MCP's transport).
func WriteEnvelope(w http.ResponseWriter, status int, env Envelope) { writeJSON(w, status, env) }

// Classify returns what the error table says about code: the HTTP status,
// the error_type, the remediation and whether a retry may succeed. Unknown
// codes are classified as INTERNAL_ERROR.
func Classify(code fault.Code) (status int, errorType, remediation string, retryable bool) {
	c := classify(code)
	return c.Status, c.Type, c.Remediation, c.Retryable
}

// NewRequestID returns a fresh request id of the form the API generates
// ("req_" and 24 hex digits).
func NewRequestID() string { return newRequestID() }

// PipelineRequest checks a multi-source request exactly as POST /v1/digests
// does (source count, detail, fields, budget, unique ids, each source) and
// converts it; it also returns the item fields the client selected.
func (b *DigestsRequest) PipelineRequest() (pipeline.ManyRequest, []string, error) {
	return b.pipelineRequest()
}

// DigestsEnvelope returns the response-v2 envelope POST /v1/digests answers
// for res: data with the selected fields of each included item, and meta
// with the content fidelity, dropped ids, archive hashes, truncation and
// partial-failure warnings and telemetry. req is the request res answers.
func DigestsEnvelope(body *DigestsRequest, req pipeline.ManyRequest, fields []string, res *pipeline.ManyResult, requestID string, start time.Time) Envelope {
	return digestsEnvelope(&requestState{id: requestID, start: start, tool: ToolDigestSources}, body, req, fields, res)
}

// digestsEnvelope builds the envelope of a multi-source result on st, which
// may already carry meta set by middleware (rate limits).
func digestsEnvelope(st *requestState, body *DigestsRequest, req pipeline.ManyRequest, fields []string, res *pipeline.ManyResult) Envelope {
	data := DigestsData{
		Query:        body.Query,
		QueryHash:    res.QueryHash,
		Digests:      []map[string]any{},
		TotalSources: len(body.Sources),
		Included:     len(res.Items),
		Dropped:      len(res.Dropped),
		Failed:       res.Failed,
	}
	if data.Failed == nil {
		data.Failed = []pipeline.Failure{}
	}
	for _, it := range res.Items {
		data.Digests = append(data.Digests, it.Render(fields))
	}
	st.meta.ContentFidelity = res.Fidelity
	st.meta.ContentFidelitySchemaVersion = FidelitySchemaVersion
	dropped := []string{}
	for _, it := range res.Dropped {
		dropped = append(dropped, it.ID)
	}
	st.meta.DroppedContentIDs = &dropped
	// Each value retrieves the source's full digest (GET /v1/archive/{hash});
	// its payload names the canonical text by source_text_hash.
	st.meta.ContentArchiveHashes = map[string]string{}
	for id, ref := range res.ArchiveHashes {
		st.meta.ContentArchiveHashes[id] = ref.DigestHash
	}
	if res.Fidelity != pipeline.FidelityFull && (len(res.Dropped) > 0 || req.Budget != (pipeline.Budget{})) {
		reason := "budget"
		if req.Detail != pipeline.FidelityFull && len(res.Dropped) == 0 {
			reason = "detail"
		}
		st.meta.AddWarning("CONTENT_TRUNCATED",
			fmt.Sprintf("%d of %d digests were left out and others may be cut down to fit; fetch them by content_archive_hashes", len(res.Dropped), len(res.Items)+len(res.Dropped)),
			map[string]any{"dropped_count": len(res.Dropped), "total_count": len(res.Items) + len(res.Dropped), "reason": reason})
	}
	if len(res.Failed) > 0 {
		ids := make([]string, len(res.Failed))
		for i, f := range res.Failed {
			ids[i] = f.ID
		}
		st.meta.AddWarning("PARTIAL_FAILURE", fmt.Sprintf("%d source(s) failed: %s", len(ids), strings.Join(ids, ", ")),
			map[string]any{"failed_ids": ids})
	}
	hit := res.AllCached
	st.meta.Telemetry.CacheHit = &hit
	tokens := (res.UsedChars + pipeline.CharsPerToken - 1) / pipeline.CharsPerToken
	st.meta.Telemetry.TokensEstimated = &tokens
	return Envelope{Success: true, Data: data, Meta: st.finishMeta()}
}
