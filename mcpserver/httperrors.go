package mcpserver

import (
	"net/http"
	"strings"
	"time"

	"github.com/digestd/digestd/wire"

	"github.com/digestd/digestd/fault"
)

// httpErrorCodes classify the plain-text errors the SDK's streamable HTTP
// transport writes itself (a GET without a session, a foreign Host, a bad
// Accept header, …), by status.
var httpErrorCodes = map[int]struct {
	code    fault.Code
	msg     string
	details map[string]any
}{
	http.StatusBadRequest:            {fault.InvalidFormat, "the MCP request is malformed, or its Accept header does not allow both application/json and text/event-stream", nil},
	http.StatusForbidden:             {fault.Forbidden, "requests that reach a loopback address must name it in the Host header (DNS-rebinding protection)", nil},
	http.StatusNotFound:              {fault.NotFound, "no such MCP session: this server is stateless", nil},
	http.StatusMethodNotAllowed:      {fault.MethodNotAllowed, "MCP over streamable HTTP here takes POST only (the server is stateless: no GET stream, no DELETE)", nil},
	http.StatusRequestEntityTooLarge: {fault.TooLarge, "the MCP request exceeds the body limit", nil},
	http.StatusUnsupportedMediaType: {fault.UnsupportedMediaType, "MCP requests are application/json",
		map[string]any{"accepted_content_types": []string{wire.MediaJSON}}},
}

// envelopeHTTPErrors answers every HTTP-level error of the transport with a
// response-v2 error envelope instead of the SDK's plain text; JSON answers
// (JSON-RPC results and errors) pass through untouched.
func envelopeHTTPErrors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		g := &errorGuard{ResponseWriter: w}
		next.ServeHTTP(g, r)
		if !g.swallowed {
			return
		}
		c, ok := httpErrorCodes[g.status]
		if !ok {
			c.code, c.msg = fault.Internal, "the MCP transport failed"
		}
		fe := fault.E(c.code, c.msg).With("http_status", g.status)
		for k, v := range c.details {
			fe.With(k, v)
		}
		env, _ := wire.Failure(fe, wire.Meta{}, requestID(r), start)
		w.Header().Del("Content-Length")
		wire.Write(w, g.status, env)
	})
}

// checkOrigin answers 403 FORBIDDEN, in an envelope, to a request whose
// Origin is neither the server's own (its Host) nor one of allowed; a
// request a browser marks same-origin, or without an Origin, passes
// (http.CrossOriginProtection decides, for every method: MCP calls are all
// POST).
func checkOrigin(allowed []string, next http.Handler) http.Handler {
	cop := http.NewCrossOriginProtection()
	for _, o := range allowed {
		cop.AddTrustedOrigin(o) // checked by ParseOrigins
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if err := cop.Check(r); err != nil {
			env, status := wire.Failure(fault.Wrap(fault.Forbidden, "the request's Origin is neither this server's own nor an allowed origin", err),
				wire.Meta{}, requestID(r), time.Now())
			wire.Write(w, status, env)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// requestID is the client's X-Request-ID when it is valid, else a new one.
func requestID(r *http.Request) string { return wire.RequestID(r.Header.Get("X-Request-ID")) }

// errorGuard holds back an error status written with a non-JSON body.
type errorGuard struct {
	http.ResponseWriter
	status    int
	wrote     bool
	swallowed bool
}

func (g *errorGuard) WriteHeader(code int) {
	if g.wrote {
		return
	}
	g.wrote = true
	g.status = code
	if code >= 400 && !strings.HasPrefix(g.Header().Get("Content-Type"), "application/json") {
		g.swallowed = true
		return
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *errorGuard) Write(b []byte) (int, error) {
	if !g.wrote {
		g.WriteHeader(http.StatusOK)
	}
	if g.swallowed {
		return len(b), nil
	}
	return g.ResponseWriter.Write(b)
}

// Flush passes on flushes of answers that are not held back (event streams).
func (g *errorGuard) Flush() {
	if f, ok := g.ResponseWriter.(http.Flusher); ok && !g.swallowed {
		f.Flush()
	}
}

func (g *errorGuard) Unwrap() http.ResponseWriter { return g.ResponseWriter }
