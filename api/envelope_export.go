package api

import (
	"time"

	"github.com/digestd/digestd/fault"
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
