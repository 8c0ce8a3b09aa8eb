package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/wire"
)

// framingListener hands out connections that answer in a response-v2
// envelope the requests net/http refuses before any handler runs (a
// Transfer-Encoding other than chunked, a malformed header line or
// Content-Length, headers over the limit), which it would otherwise answer
// in plain text.
type framingListener struct{ net.Listener }

// Accept wraps the next connection.
func (l framingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	return &framingConn{Conn: c}, nil
}

// framingConn rewrites net/http's canned refusals on their way out.
type framingConn struct{ net.Conn }

// cannedHeaders are what net/http writes after the status line of a
// refusal it makes itself. A handler's answer cannot carry them in this
// order: net/http writes a handler's headers sorted, Connection first.
var cannedHeaders = []byte("\r\nContent-Type: text/plain; charset=utf-8\r\nConnection: close\r\n\r\n")

// Write passes p on, unless it is one of net/http's canned refusals (always
// written whole, in one call, straight to the connection): that is
// replaced by an envelope.
func (c *framingConn) Write(p []byte) (int, error) {
	if !bytes.HasPrefix(p, []byte("HTTP/1.")) || !bytes.Contains(p, cannedHeaders) {
		return c.Conn.Write(p)
	}
	if _, err := c.Conn.Write(framingAnswer(p)); err != nil {
		return 0, err
	}
	return len(p), nil
}

// framingAnswer is the envelope that replaces the canned refusal p.
func framingAnswer(p []byte) []byte {
	status, _ := strconv.Atoi(string(p[len("HTTP/1.1 "):min(len(p), len("HTTP/1.1 400"))]))
	var err error
	switch status {
	case http.StatusNotImplemented:
		err = fault.E(fault.InvalidFormat, "Transfer-Encoding: only chunked is supported (or none, with Content-Length)")
	case http.StatusRequestHeaderFieldsTooLarge:
		err = fault.E(fault.TooLarge, "the request's header lines exceed the server's limit")
	default:
		err = fault.E(fault.InvalidFormat, "the request is not well-formed HTTP/1.1 (request line, header lines or Content-Length)")
	}
	env, code := wire.Failure(err, wire.Meta{}, wire.NewRequestID(), time.Now())
	if status == http.StatusRequestHeaderFieldsTooLarge {
		code = status // more exact than the table's 413 for a body
	}
	body, _ := json.Marshal(env)
	var b bytes.Buffer
	fmt.Fprintf(&b, "HTTP/1.1 %d %s\r\nConnection: close\r\nContent-Length: %d\r\nContent-Type: application/json\r\n\r\n%s\n",
		code, http.StatusText(code), len(body)+1, body)
	return b.Bytes()
}

// CloseWrite lets net/http half-close the connection after a refusal, so
// the client reads the answer before the connection goes.
func (c *framingConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return nil
}

// ReadFrom keeps the connection's own ReadFrom (sendfile and splice) for
// bodies copied to it.
func (c *framingConn) ReadFrom(r io.Reader) (int64, error) {
	if rf, ok := c.Conn.(io.ReaderFrom); ok {
		return rf.ReadFrom(r)
	}
	return io.Copy(c.Conn, r)
}
