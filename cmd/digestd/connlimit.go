package main

import (
	"context"
	"io"
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// connLimit bounds the server's open connections and its idle ones. When a
// new connection would pass the bound, the connection that has waited on
// its client the longest is closed to make room: an idle one (keep-alive
// between requests, or accepted and still silent) or one whose request's
// body has not all arrived (see watchBodies), whichever has waited longer.
// So neither idle clients nor clients that announce a body and stop sending
// can starve new ones of file descriptors, and a connection just accepted
// is not closed for the next one while older ones wait. When no connection
// waits on its client, the new connection is closed at once rather than
// left waiting. While more than seven eighths of the bound is open, idle
// connections beyond maxIdle are closed too, oldest first (closing an idle
// keep-alive connection races with its client's next request, so it is
// done only near the bound).
type connLimit struct {
	net.Listener
	max, maxIdle int

	mu    sync.Mutex
	open  map[net.Conn]*connInfo
	idle  int // connections in StateNew or StateIdle
	count int
}

type connInfo struct {
	idle bool
	// awaitingBody: the request in progress has a body that has not all
	// arrived; never set on an idle connection.
	awaitingBody bool
	since        time.Time // when it became idle, or its body began
}

// newConnLimit wraps ln; install track as the http.Server's ConnState.
func newConnLimit(ln net.Listener, max, maxIdle int) *connLimit {
	return &connLimit{Listener: ln, max: max, maxIdle: maxIdle, open: map[net.Conn]*connInfo{}}
}

// Accept returns the next connection, first making room for it.
func (l *connLimit) Accept() (net.Conn, error) {
	for {
		c, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		l.mu.Lock()
		if l.count >= l.max && !l.evictLocked() {
			l.mu.Unlock()
			c.Close()
			continue
		}
		l.count++
		l.open[c] = &connInfo{idle: true, since: time.Now()}
		l.idle++
		l.trimIdleLocked()
		l.mu.Unlock()
		return c, nil
	}
}

// trimIdleLocked closes the oldest idle connections beyond maxIdle while
// more than seven eighths of the bound is open.
func (l *connLimit) trimIdleLocked() {
	for l.maxIdle > 0 && l.count > l.max-l.max/8 && l.idle > l.maxIdle && l.closeOldestLocked(isIdle) {
	}
}

// evictLocked makes room for one connection: it closes the connection that
// has waited on its client the longest, idle or awaiting its request's
// body; false when none waits. The two are weighed alike: preferring idle
// ones would close each new connection, still silent while its headers
// arrive, for the next, and leave the stalled bodies in place.
func (l *connLimit) evictLocked() bool {
	return l.closeOldestLocked(waitsOnClient)
}

func isIdle(in *connInfo) bool        { return in.idle }
func waitsOnClient(in *connInfo) bool { return in.idle || in.awaitingBody }

// closeOldestLocked closes, of the connections that match, the one with
// the oldest since; false when none matches. The connection is forgotten
// at once, and the server's report of its closing is then ignored.
func (l *connLimit) closeOldestLocked(match func(*connInfo) bool) bool {
	var oldest net.Conn
	var at time.Time
	for c, in := range l.open {
		if match(in) && (oldest == nil || in.since.Before(at)) {
			oldest, at = c, in.since
		}
	}
	if oldest == nil {
		return false
	}
	l.forgetLocked(oldest)
	oldest.Close()
	return true
}

func (l *connLimit) forgetLocked(c net.Conn) {
	if in, ok := l.open[c]; ok {
		if in.idle {
			l.idle--
		}
		delete(l.open, c)
		l.count--
	}
}

// track follows each connection's state (http.Server.ConnState).
func (l *connLimit) track(c net.Conn, st http.ConnState) {
	l.mu.Lock()
	defer l.mu.Unlock()
	in, ok := l.open[c]
	if !ok {
		return
	}
	switch st {
	case http.StateActive:
		if in.idle {
			l.idle--
		}
		in.idle = false
	case http.StateIdle:
		if !in.idle {
			l.idle++
		}
		in.idle, in.awaitingBody, in.since = true, false, time.Now()
		l.trimIdleLocked()
	case http.StateClosed, http.StateHijacked:
		l.forgetLocked(c)
	}
}

// connKey is the request context key of the connection a request came on
// (set by connContext).
type connKey struct{}

// connContext is the http.Server's ConnContext: it records each request's
// connection, which watchBodies marks.
func (l *connLimit) connContext(ctx context.Context, c net.Conn) context.Context {
	return context.WithValue(ctx, connKey{}, c)
}

// watchBodies marks a request's connection as awaiting its body from the
// time the request reaches the handlers until its body has been read to
// the end, so that a client that announces a body and stops sending can be
// closed to make room at the bound like an idle one. A body the handlers
// leave unread keeps the mark while net/http reads the rest of it before
// answering. Requests without a body are not marked.
func (l *connLimit) watchBodies(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, ok := r.Context().Value(connKey{}).(net.Conn)
		if !ok || r.Body == nil || r.Body == http.NoBody || r.ContentLength == 0 {
			next.ServeHTTP(w, r)
			return
		}
		l.markAwaitingBody(c, true)
		r.Body = &watchedBody{ReadCloser: r.Body, arrived: func() { l.markAwaitingBody(c, false) }}
		next.ServeHTTP(w, r)
	})
}

// markAwaitingBody sets or clears c's mark; a connection already closed
// or idle is left alone.
func (l *connLimit) markAwaitingBody(c net.Conn, awaiting bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if in, ok := l.open[c]; ok && !in.idle {
		in.awaitingBody = awaiting
		if awaiting {
			in.since = time.Now()
		}
	}
}

// watchedBody calls arrived once, when its body has been read to the end.
type watchedBody struct {
	io.ReadCloser
	arrived func()
	once    sync.Once
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.once.Do(b.arrived)
	}
	return n, err
}

// defaultMaxConns is the connection bound when the operator sets none:
// the process's file-descriptor limit less what the archive, the PDF
// workers and the logs need, and at most 4096.
func defaultMaxConns() int {
	var rl syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &rl); err != nil || rl.Cur <= 0 {
		return 1024
	}
	return int(min(4096, max(64, int64(rl.Cur)-512)))
}
