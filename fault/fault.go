// Package fault is digestd's error vocabulary: an error carries a stable
// Code (the envelope's error_code), a message that is safe to show a client,
// optional structured details, and the internal cause, which is logged but
// never sent. Package wire maps each Code to an HTTP status, error_type,
// remediation and retry semantics in one table.
package fault

import (
	"errors"
	"fmt"
	"strings"
)

// Code is a stable, SCREAMING_SNAKE_CASE error code.
type Code string

// The codes digestd reports. Their HTTP status, error_type and remediation
// live in wire's error table.
const (
	ValidationError        Code = "VALIDATION_ERROR"
	InvalidFormat          Code = "INVALID_FORMAT"
	InvalidURL             Code = "INVALID_URL"
	MissingRequired        Code = "MISSING_REQUIRED"
	InvalidFields          Code = "INVALID_FIELDS"
	InvalidCursor          Code = "INVALID_CURSOR"
	NotFound               Code = "NOT_FOUND"
	MethodNotAllowed       Code = "METHOD_NOT_ALLOWED"
	TooLarge               Code = "TOO_LARGE"
	RangeNotSatisfiable    Code = "RANGE_NOT_SATISFIABLE"
	UnsupportedMediaType   Code = "UNSUPPORTED_MEDIA_TYPE"
	UnsupportedContentType Code = "UNSUPPORTED_CONTENT_TYPE"
	FeatureDisabled        Code = "FEATURE_DISABLED"
	Unauthorized           Code = "UNAUTHORIZED"
	Forbidden              Code = "FORBIDDEN"
	RateLimitExceeded      Code = "RATE_LIMIT_EXCEEDED"
	FetchBlocked           Code = "FETCH_BLOCKED"
	FetchFailed            Code = "FETCH_FAILED"
	FetchTimeout           Code = "FETCH_TIMEOUT"
	PDFUnreadable          Code = "PDF_UNREADABLE"
	PDFTimeout             Code = "PDF_TIMEOUT"
	PDFEncrypted           Code = "PDF_ENCRYPTED"
	DocumentEncrypted      Code = "DOCUMENT_ENCRYPTED"
	DocumentUnreadable     Code = "DOCUMENT_UNREADABLE"
	NoExtractableText      Code = "NO_EXTRACTABLE_TEXT"
	ExtractionFailed       Code = "EXTRACTION_FAILED"
	ContentBlocked         Code = "CONTENT_BLOCKED"
	JSRequired             Code = "JS_REQUIRED"
	NotContent             Code = "NOT_CONTENT"
	RenderFailed           Code = "RENDER_FAILED"
	Unavailable            Code = "UNAVAILABLE"
	ArchiveCorrupt         Code = "ARCHIVE_CORRUPT"
	Internal               Code = "INTERNAL_ERROR"
)

// Warning is a stable, SCREAMING_SNAKE_CASE warning code: the request
// succeeded, and the answer says how it falls short or how it was made.
// Each code's severity lives in wire's warning table.
type Warning string

// The warnings digestd reports.
const (
	ContentTruncated Warning = "CONTENT_TRUNCATED"
	PartialFailure   Warning = "PARTIAL_FAILURE"
	QueryFallback    Warning = "QUERY_FALLBACK"
	NoQueryMatch     Warning = "NO_QUERY_MATCH"
	UnmappedGlyphs   Warning = "UNMAPPED_GLYPHS"
	// OCRLowConfidence: pages read by OCR with a mean word confidence
	// under the floor (ocr.ConfidenceFloor), named in the message.
	OCRLowConfidence       Warning = "OCR_LOW_CONFIDENCE"
	RateLimitApproaching   Warning = "RATE_LIMIT_APPROACHING"
	QuotesNotFound         Warning = "QUOTES_NOT_FOUND"
	CitationsMoved         Warning = "CITATIONS_MOVED"
	CitationsNotFound      Warning = "CITATIONS_NOT_FOUND"
	CitationsUnknownSource Warning = "CITATIONS_UNKNOWN_SOURCE"
	NoCitations            Warning = "NO_CITATIONS"
	// SourcesCorrupt: sources a search found were left out because their
	// archived text failed its integrity check (the error code's name, as
	// a warning).
	SourcesCorrupt Warning = "ARCHIVE_CORRUPT"
	// IndexLagging: the search index lags the archive (a reconcile is
	// indexing what it lacks), so a search may miss archived sources.
	IndexLagging Warning = "INDEX_LAGGING"
	// NoStructure: the source's structure was not kept (archived before
	// sidecars, or by an extractor that records none), so what the
	// request asked of it (its links) is not known.
	NoStructure Warning = "NO_STRUCTURE"
)

// Error is a classified error. Msg and Details are shown to clients and must
// never hold source content, file paths or stack traces; Err is the internal
// cause.
type Error struct {
	Code    Code
	Msg     string
	Details map[string]any
	Err     error
}

func (e *Error) Error() string {
	s := fmt.Sprintf("%s: %s", e.Code, e.Msg)
	if e.Err == nil {
		return s
	}
	// A cause classified under the same code (a fetch error carried into a
	// fault) reads "CODE: message: …" itself: the code and a message
	// already said are said once.
	cause := e.Err.Error()
	if rest, ok := strings.CutPrefix(cause, string(e.Code)+": "); ok {
		cause = rest
		if rest, ok := strings.CutPrefix(cause, e.Msg); ok {
			cause = strings.TrimPrefix(rest, ": ")
		}
	}
	if cause == "" {
		return s
	}
	return s + ": " + cause
}

func (e *Error) Unwrap() error { return e.Err }

// E returns an Error with a client-safe message.
func E(code Code, msg string) *Error { return &Error{Code: code, Msg: msg} }

// Wrap returns an Error with a client-safe message and an internal cause.
func Wrap(code Code, msg string, err error) *Error { return &Error{Code: code, Msg: msg, Err: err} }

// With returns e with a detail added (for chaining at construction).
func (e *Error) With(key string, value any) *Error {
	if e.Details == nil {
		e.Details = map[string]any{}
	}
	e.Details[key] = value
	return e
}

// CodeOf returns the Code of the first *Error in err's chain, or Internal.
func CodeOf(err error) Code {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Code
	}
	return Internal
}

// As returns the first *Error in err's chain, or an Internal error wrapping
// err when there is none.
func As(err error) *Error {
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	return Wrap(Internal, "internal error", err)
}
