package fetch

import (
	"errors"
	"fmt"

	"github.com/digestd/digestd/fault"
)

// Error codes carried by *Error: the fault codes a fetch can fail with.
const (
	// CodeBlocked means the destination (the URL's host or any address it
	// resolved to, on the first request or on a redirect) is not a permitted
	// public address.
	CodeBlocked = fault.FetchBlocked
	// CodeFailed means the fetch did not produce a usable response: a network
	// error, a TLS failure, too many redirects, or a non-2xx upstream status
	// (then Error.Status holds that status).
	CodeFailed = fault.FetchFailed
	// CodeTimeout means a connect, response-header or total deadline passed.
	CodeTimeout = fault.FetchTimeout
	// CodeTooLarge means the body (after content decoding) exceeds
	// Config.MaxBytes, either by its declared Content-Length or while reading.
	CodeTooLarge = fault.TooLarge
	// CodeUnsupportedContentType means the response is of no kind digestd
	// reads (format.Detect: by its Content-Type header, its URL's file name
	// and its first bytes).
	CodeUnsupportedContentType = fault.UnsupportedContentType
	// CodeInvalidURL means the URL is malformed or not fetchable: a scheme
	// other than http or https, userinfo, no host, a bad port, or a host
	// written in a non-canonical numeric IPv4 form.
	CodeInvalidURL = fault.InvalidURL
)

// Causes of a CodeFailed error (Error.Cause): why no usable response came.
const (
	// CauseUpstreamStatus: the server answered with a status outside 2xx
	// (Error.Status).
	CauseUpstreamStatus = "upstream_status"
	// CauseDNS: the host name could not be resolved.
	CauseDNS = "dns"
	// CauseConnect: no connection could be made (refused, unreachable).
	CauseConnect = "connect"
	// CauseTLS: the TLS handshake failed (an untrusted or mismatched
	// certificate, a protocol error).
	CauseTLS = "tls"
	// CauseConnectionClosed: the server closed or reset the connection
	// before its answer was complete.
	CauseConnectionClosed = "connection_closed"
	// CauseRedirects: the server redirected more than Config.MaxRedirects
	// times.
	CauseRedirects = "redirects"
	// CauseRedirectLoop: a redirect led back to an address already
	// visited by this fetch. Package ingest answers it as a page that is
	// not content (NOT_CONTENT, reason redirect_loop), not as a failure.
	CauseRedirectLoop = "redirect_loop"
	// CauseCanceled: the request was canceled before the answer came.
	CauseCanceled = "canceled"
	// CauseNetwork: any other network failure.
	CauseNetwork = "network"
)

// Error is the only error type Fetch returns. Code is one of the Code*
// constants; Status is the upstream HTTP status for CodeFailed responses (0
// otherwise); Cause is one of the Cause* constants for CodeFailed errors;
// Msg is a short description that is safe to show to clients (it never
// holds resolved addresses or body content); Err is the underlying cause,
// for logs and errors.Is/As, and may name addresses.
type Error struct {
	Code   fault.Code
	Status int
	Cause  string
	Msg    string
	Err    error
}

// Error returns "CODE: Msg" followed by the cause, if any. It is meant for
// logs; use Code and Msg for client-facing output.
func (e *Error) Error() string {
	s := string(e.Code) + ": " + e.Msg
	if e.Status != 0 {
		s += fmt.Sprintf(" (status %d)", e.Status)
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying cause.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same Code, so that
// errors.Is(err, fetch.ErrBlocked) matches any blocked-destination error
// regardless of its message or cause.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels for errors.Is; they compare by Code only. Do not modify them.
var (
	ErrBlocked                = &Error{Code: CodeBlocked, Msg: "destination not allowed"}
	ErrFailed                 = &Error{Code: CodeFailed, Msg: "fetch failed"}
	ErrTimeout                = &Error{Code: CodeTimeout, Msg: "fetch timed out"}
	ErrTooLarge               = &Error{Code: CodeTooLarge, Msg: "response too large"}
	ErrUnsupportedContentType = &Error{Code: CodeUnsupportedContentType, Msg: "unsupported content type"}
	ErrInvalidURL             = &Error{Code: CodeInvalidURL, Msg: "invalid URL"}
)

// CodeOf returns the Code of the first *Error in err's chain, or "" when
// there is none.
func CodeOf(err error) fault.Code {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Code
	}
	return ""
}

// StatusOf returns the upstream HTTP status carried by the first *Error in
// err's chain, or 0 when there is none.
func StatusOf(err error) int {
	var fe *Error
	if errors.As(err, &fe) {
		return fe.Status
	}
	return 0
}

func newError(code fault.Code, msg string, cause error) *Error {
	return &Error{Code: code, Msg: msg, Err: cause}
}

// failed returns a CodeFailed error with its cause.
func failed(cause, msg string, err error) *Error {
	return &Error{Code: CodeFailed, Cause: cause, Msg: msg, Err: err}
}
