// Package fetch retrieves untrusted URLs for ingestion without letting them
// reach the service's own network.
//
// Every connection, including each redirect hop, is checked at connect time,
// after DNS resolution, against a deny list of loopback, private, link-local,
// CGNAT, multicast, unspecified, broadcast, documentation, benchmark and
// metadata addresses (and their IPv4-mapped and NAT64 IPv6 forms), so a name
// that resolves, or re-resolves, to an internal address is refused before a
// single packet is sent to it. Proxies from the environment are ignored.
// Redirects, connect time, header time, total time and the decoded body size
// are all capped. Failures are *Error values with stable codes.
package fetch

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"syscall"
	"time"

	"github.com/digestd/digestd/ingest/format"
)

// Defaults applied by New to zero Config fields.
const (
	DefaultMaxBytes       = 20 << 20
	DefaultMaxRedirects   = 5
	DefaultConnectTimeout = 10 * time.Second
	DefaultHeaderTimeout  = 20 * time.Second
	DefaultTotalTimeout   = 60 * time.Second
	DefaultUserAgent      = "digestd-fetch/1.0"
)

// maxHeaderBytes caps the size of upstream response headers.
const maxHeaderBytes = 1 << 20

// acceptHeader states the content digestd can ingest, best first.
const acceptHeader = "text/html,application/xhtml+xml;q=0.9,application/pdf;q=0.9,text/plain;q=0.8,*/*;q=0.1"

// Config sets a Client's limits. Zero fields take the Default* values.
type Config struct {
	// MaxBytes caps the body size after content decoding (gzip is decoded
	// transparently); a larger body fails with CodeTooLarge.
	MaxBytes int64
	// MaxRedirects is how many redirects one Fetch may follow; 0 means
	// DefaultMaxRedirects and a negative value means none.
	MaxRedirects int
	// ConnectTimeout bounds each TCP connect and each TLS handshake.
	ConnectTimeout time.Duration
	// HeaderTimeout bounds the wait for response headers after a request
	// is written.
	HeaderTimeout time.Duration
	// TotalTimeout bounds a whole Fetch: every hop, headers and body.
	TotalTimeout time.Duration
	// UserAgent is sent as the User-Agent header.
	UserAgent string
	// AllowLoopback lists exact loopback "IP:port" addresses (such as an
	// httptest server's Listener.Addr().String(), or the entries of
	// digestd's --fetch-allow-loopback) that the guard lets through, so
	// that tests and end-to-end checks can serve pages from this machine.
	// It is empty in production. Entries that are not loopback IP:port
	// literals are ignored (ParseAllowLoopback refuses them up front);
	// every other address, including another port on the same loopback
	// IP, stays blocked.
	AllowLoopback []string
}

// Client fetches URLs under one Config. It is safe for concurrent use and
// reuses connections across calls.
type Client struct {
	cfg       Config
	guard     *guard
	transport *http.Transport
	// dial is the guarded dialer the transport uses, for the proxy's
	// tunnels.
	dial func(ctx context.Context, network, address string) (net.Conn, error)
	// dialTripwire, when set (by tests), runs after the guard has allowed
	// an address and before connect; an error it returns aborts the dial.
	dialTripwire func(network, address string) error
}

// Response is a successfully fetched body of a supported kind.
type Response struct {
	// RequestedURL is the URL passed to Fetch, as given.
	RequestedURL string
	// FinalURL is the URL of the response that was read, after redirects.
	FinalURL string
	// Status is the final HTTP status (always 2xx).
	Status int
	// ContentType is the final response's Content-Type header value, as
	// sent (possibly empty); its charset parameter is for the extractor.
	ContentType string
	// Kind is one of format.Kinds, decided by format.Detect from
	// ContentType, the final URL's path and the body's leading bytes.
	Kind string
	// Body is the decoded body, at most Config.MaxBytes long.
	Body []byte
	// FetchedAt is when the final response's headers arrived, in UTC.
	FetchedAt time.Time
	// Redirects is how many redirects were followed.
	Redirects int
}

// New returns a Client with cfg's limits, zero fields set to defaults.
func New(cfg Config) *Client {
	return newClient(cfg, nil)
}

// newClient is New with a resolver for names (nil: the default resolver);
// tests pass one that answers from memory so they never query real DNS.
func newClient(cfg Config, resolver *net.Resolver) *Client {
	if cfg.MaxBytes <= 0 {
		cfg.MaxBytes = DefaultMaxBytes
	}
	if cfg.MaxRedirects == 0 {
		cfg.MaxRedirects = DefaultMaxRedirects
	}
	if cfg.MaxRedirects < 0 {
		cfg.MaxRedirects = 0
	}
	if cfg.ConnectTimeout <= 0 {
		cfg.ConnectTimeout = DefaultConnectTimeout
	}
	if cfg.HeaderTimeout <= 0 {
		cfg.HeaderTimeout = DefaultHeaderTimeout
	}
	if cfg.TotalTimeout <= 0 {
		cfg.TotalTimeout = DefaultTotalTimeout
	}
	if cfg.UserAgent == "" {
		cfg.UserAgent = DefaultUserAgent
	}
	c := &Client{cfg: cfg, guard: newGuard(cfg.AllowLoopback)}
	dialer := &net.Dialer{
		Timeout:   cfg.ConnectTimeout,
		KeepAlive: 30 * time.Second,
		Control:   c.control,
		Resolver:  resolver,
	}
	c.dial = dialer.DialContext
	c.transport = &http.Transport{
		Proxy:                  nil, // never route through an environment proxy
		DialContext:            dialer.DialContext,
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    cfg.ConnectTimeout,
		ResponseHeaderTimeout:  cfg.HeaderTimeout,
		ExpectContinueTimeout:  time.Second,
		MaxResponseHeaderBytes: maxHeaderBytes,
		MaxIdleConns:           64,
		MaxIdleConnsPerHost:    4,
		IdleConnTimeout:        90 * time.Second,
	}
	return c
}

// control is the dialer's Control hook: the guard, then the test tripwire.
func (c *Client) control(network, address string, conn syscall.RawConn) error {
	if err := c.guard.control(network, address, conn); err != nil {
		return err
	}
	if c.dialTripwire != nil {
		return c.dialTripwire(network, address)
	}
	return nil
}

// CloseIdleConnections closes connections kept for reuse; the Client stays
// usable.
func (c *Client) CloseIdleConnections() { c.transport.CloseIdleConnections() }

// Fetch GETs rawURL and returns its decoded body. It fails with a *Error:
// CodeInvalidURL for a URL that is not fetchable; CodeBlocked when the URL,
// a redirect target or any address they resolve to is not a permitted
// public destination; CodeFailed for network errors, too many redirects or
// a non-2xx status (Error.Status set); CodeTimeout when a Config timeout or
// ctx's deadline passes; CodeTooLarge for a body over Config.MaxBytes; and
// CodeUnsupportedContentType for a body of no kind format.Detect knows.
func (c *Client) Fetch(ctx context.Context, rawURL string) (*Response, error) {
	u, err := c.guard.checkURL(rawURL)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(ctx, c.cfg.TotalTimeout)
	defer cancel()

	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, newError(CodeInvalidURL, "URL does not form a request", err)
	}
	req.Header.Set("User-Agent", c.cfg.UserAgent)
	req.Header.Set("Accept", acceptHeader)

	redirects := 0
	hc := &http.Client{
		Transport: c.transport,
		CheckRedirect: func(next *http.Request, via []*http.Request) error {
			for _, prev := range via {
				if prev.URL.String() == next.URL.String() {
					// No number of further hops reaches a page; the
					// server most often wants a cookie the fetch does not keep.
					return failed(CauseRedirectLoop, "the page redirects in a loop", fmt.Errorf("redirect %d returns to an earlier address", len(via)))
				}
			}
			if len(via) > c.cfg.MaxRedirects {
				return failed(CauseRedirects, "too many redirects", fmt.Errorf("more than %d redirects", c.cfg.MaxRedirects))
			}
			if _, err := c.guard.checkURL(next.URL.String()); err != nil {
				// The caller's URL was fine; the upstream pointed elsewhere.
				return newError(CodeBlocked, "redirect target not allowed", err)
			}
			redirects = len(via)
			return nil
		},
	}
	resp, err := hc.Do(req)
	if err != nil {
		return nil, classify(ctx, err)
	}
	defer resp.Body.Close()
	fetchedAt := time.Now().UTC()

	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, &Error{Code: CodeFailed, Status: resp.StatusCode, Cause: CauseUpstreamStatus,
			Msg: fmt.Sprintf("the remote server answered HTTP %d", resp.StatusCode)}
	}
	if enc := resp.Header.Get("Content-Encoding"); enc != "" && !strings.EqualFold(enc, "identity") {
		// The transport decodes gzip and removes the header; anything left
		// is an encoding the extractors cannot read.
		return nil, newError(CodeUnsupportedContentType, "unsupported content encoding", nil)
	}
	contentType := resp.Header.Get("Content-Type")
	if !format.Supported(contentType) {
		return nil, newError(CodeUnsupportedContentType, "unsupported content type", nil)
	}
	if resp.ContentLength > c.cfg.MaxBytes {
		return nil, newError(CodeTooLarge, "response too large", fmt.Errorf("content-length %d over cap %d", resp.ContentLength, c.cfg.MaxBytes))
	}
	// Reading one byte past the cap tells "exactly the cap" from "over it";
	// the gzip reader inflates only as far as it is read, so a compression
	// bomb costs at most the cap.
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.cfg.MaxBytes+1))
	if err != nil {
		return nil, classify(ctx, fmt.Errorf("read body: %w", err))
	}
	if int64(len(body)) > c.cfg.MaxBytes {
		return nil, newError(CodeTooLarge, "response too large", fmt.Errorf("body over cap %d", c.cfg.MaxBytes))
	}
	kind := format.Detect(contentType, resp.Request.URL.Path, body)
	if kind == "" {
		return nil, newError(CodeUnsupportedContentType, "unsupported content type", nil)
	}
	return &Response{
		RequestedURL: rawURL,
		FinalURL:     resp.Request.URL.String(),
		Status:       resp.StatusCode,
		ContentType:  contentType,
		Kind:         kind,
		Body:         body,
		FetchedAt:    fetchedAt,
		Redirects:    redirects,
	}, nil
}

// classify turns a transport or body error into a *Error.
func classify(ctx context.Context, err error) error {
	var fe *Error
	if errors.As(err, &fe) {
		return fe
	}
	var ne net.Error
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(ctx.Err(), context.DeadlineExceeded) ||
		(errors.As(err, &ne) && ne.Timeout()) {
		return newError(CodeTimeout, "fetch timed out", err)
	}
	if errors.Is(err, context.Canceled) {
		return failed(CauseCanceled, "the fetch was canceled", err)
	}
	var dnsErr *net.DNSError
	var certErr *tls.CertificateVerificationError
	var alert tls.AlertError
	var recordErr tls.RecordHeaderError
	var unknownAuthority x509.UnknownAuthorityError
	var hostnameErr x509.HostnameError
	var invalidCert x509.CertificateInvalidError
	var opErr *net.OpError
	switch {
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			return failed(CauseDNS, "the host name does not exist", err)
		}
		return failed(CauseDNS, "the host name could not be resolved", err)
	case errors.As(err, &certErr), errors.As(err, &unknownAuthority), errors.As(err, &hostnameErr), errors.As(err, &invalidCert):
		return failed(CauseTLS, "the server's TLS certificate is not valid for its name or not trusted", err)
	case errors.As(err, &alert), errors.As(err, &recordErr):
		return failed(CauseTLS, "the TLS handshake with the server failed", err)
	case errors.Is(err, syscall.ECONNREFUSED):
		return failed(CauseConnect, "the server refused the connection", err)
	case errors.Is(err, syscall.EHOSTUNREACH), errors.Is(err, syscall.ENETUNREACH):
		return failed(CauseConnect, "the server cannot be reached", err)
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE):
		return failed(CauseConnectionClosed, "the server closed the connection before its answer was complete", err)
	case errors.As(err, &opErr) && opErr.Op == "dial":
		return failed(CauseConnect, "no connection could be made to the server", err)
	}
	return failed(CauseNetwork, "the page could not be fetched (network error)", err)
}
