package main

import (
	"net"
	"net/http"
	"sync"
	"syscall"
	"time"
)

// connLimit bounds the server's open connections and its idle ones. When a
// new connection would pass the bound, the connection idle the longest
// (keep-alive between requests, or accepted and still silent) is closed
// to make room, so idle clients cannot starve new ones of file
// descriptors; when none is idle, the new connection is closed at once
// rather than left waiting. While more than seven eighths of the bound is
// open, idle connections beyond maxIdle are closed too, oldest first
// (closing an idle keep-alive connection races with its client's next
// request, so it is done only near the bound).
type connLimit struct {
	net.Listener
	max, maxIdle int

	mu    sync.Mutex
	open  map[net.Conn]*connInfo
	idle  int // connections in StateNew or StateIdle
	count int
}

type connInfo struct {
	idle  bool
	since time.Time
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
	for l.maxIdle > 0 && l.count > l.max-l.max/8 && l.idle > l.maxIdle && l.evictLocked() {
	}
}

// evictLocked closes the connection idle the longest; false when none is.
// The count drops when the server reports the connection closed.
func (l *connLimit) evictLocked() bool {
	var oldest net.Conn
	var at time.Time
	for c, in := range l.open {
		if in.idle && (oldest == nil || in.since.Before(at)) {
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
		in.idle, in.since = true, time.Now()
		l.trimIdleLocked()
	case http.StateClosed, http.StateHijacked:
		l.forgetLocked(c)
	}
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
