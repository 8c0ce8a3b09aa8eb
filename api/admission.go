package api

import (
	"bytes"
	"context"
	"io"
	"math"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/wire"
)

// admission bounds the work the server does at once: slots (requests in
// progress) and a memory budget in bytes, both taken per request with a
// weight. Every route that does work passes it after its body has been read,
// so a client that sends slowly holds a connection but never a slot. A
// request that would wait longer than the queue bound is shed at once with
// 503 UNAVAILABLE and Retry-After.
type admission struct {
	slots   int   // 0: no bound on concurrent requests
	budget  int64 // 0: no bound on memory
	maxWait time.Duration

	mu      sync.Mutex
	inUse   int
	used    int64
	queue   []*admitWaiter
	service float64 // moving average of a request's hold time, seconds

	shed     atomic.Int64
	lastShed atomic.Int64 // unix nanoseconds of the latest shed request
}

type admitWaiter struct {
	weight int64
	ready  chan struct{}
	done   bool // admitted by a release; guarded by admission.mu
}

func newAdmission(slots int, budget int64, maxWait time.Duration) *admission {
	if maxWait <= 0 {
		maxWait = time.Second
	}
	return &admission{slots: slots, budget: budget, maxWait: maxWait, service: 0.05}
}

// fits reports whether a request of weight w can start now; mu is held.
func (a *admission) fits(w int64) bool {
	if a.slots > 0 && a.inUse >= a.slots {
		return false
	}
	return a.budget <= 0 || a.used+w <= a.budget || a.inUse == 0
}

// acquire admits a request of weight w bytes, waiting at most the queue
// bound; it returns the release function or an UNAVAILABLE fault with
// retry_after. A weight above the budget is taken as the whole budget: such a
// request runs alone rather than never.
func (a *admission) acquire(ctx context.Context, w int64) (func(), error) {
	if a == nil || (a.slots <= 0 && a.budget <= 0) {
		return func() {}, nil
	}
	if a.budget > 0 {
		w = min(w, a.budget)
	}
	a.mu.Lock()
	if len(a.queue) == 0 && a.fits(w) {
		a.take(w)
		a.mu.Unlock()
		return a.releaser(w), nil
	}
	if wait := a.expectedWait(); wait > a.maxWait {
		a.mu.Unlock()
		return nil, a.shedError(wait)
	}
	wt := &admitWaiter{weight: w, ready: make(chan struct{})}
	a.queue = append(a.queue, wt)
	a.mu.Unlock()

	t := time.NewTimer(a.maxWait)
	defer t.Stop()
	var err error
	select {
	case <-wt.ready:
		return a.releaser(w), nil
	case <-t.C:
		err = a.shedError(a.maxWait)
	case <-ctx.Done():
		err = fault.E(fault.Unavailable, "the request was cancelled while queued")
	}
	a.mu.Lock()
	if wt.done { // admitted just as the wait ended: give it back
		a.mu.Unlock()
		a.releaser(w)()
		return nil, err
	}
	for i, q := range a.queue {
		if q == wt {
			a.queue = append(a.queue[:i], a.queue[i+1:]...)
			break
		}
	}
	a.mu.Unlock()
	return nil, err
}

// take records an admitted request; mu is held.
func (a *admission) take(w int64) {
	a.inUse++
	a.used += w
}

// releaser returns the function that gives a request's slot and weight
// back, admits the waiters that now fit in arrival order, and learns the
// request's hold time.
func (a *admission) releaser(w int64) func() {
	start := time.Now()
	var once sync.Once
	return func() {
		once.Do(func() {
			held := time.Since(start).Seconds()
			a.mu.Lock()
			a.inUse--
			a.used -= w
			a.service = 0.9*a.service + 0.1*held
			for len(a.queue) > 0 && a.fits(a.queue[0].weight) {
				next := a.queue[0]
				a.queue = a.queue[1:]
				a.take(next.weight)
				next.done = true
				close(next.ready)
			}
			a.mu.Unlock()
		})
	}
}

// expectedWait estimates how long a request arriving now waits for a slot:
// the requests queued ahead of it, served by every slot at the average hold
// time; mu is held.
func (a *admission) expectedWait() time.Duration {
	slots := a.slots
	if slots <= 0 {
		slots = max(1, a.inUse)
	}
	secs := float64(len(a.queue)+1) * a.service / float64(slots)
	return time.Duration(min(secs, 3600) * float64(time.Second))
}

func (a *admission) shedError(wait time.Duration) error {
	a.shed.Add(1)
	a.lastShed.Store(time.Now().UnixNano())
	ra := int(math.Ceil(wait.Seconds()))
	return fault.E(fault.Unavailable, "the server is at capacity").With("retry_after", max(ra, 1))
}

// overloaded reports whether a request arriving now would be shed at once:
// requests are queued and the wait already exceeds the bound. Routes check
// it before reading a body, so that shedding under overload costs no read.
func (a *admission) overloaded() bool {
	if a == nil || (a.slots <= 0 && a.budget <= 0) {
		return false
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return len(a.queue) > 0 && a.expectedWait() > a.maxWait
}

// shedding reports whether a request was shed within the last window.
func (a *admission) shedding(window time.Duration) bool {
	last := a.lastShed.Load()
	return last != 0 && time.Since(time.Unix(0, last)) < window
}

// admissionState is a snapshot of the admission control for health and
// stats.
type admissionState struct {
	InUse, Capacity, Queued int
	MemoryUsed, Budget      int64
	Shed                    int64
}

func (a *admission) state() admissionState {
	if a == nil {
		return admissionState{}
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return admissionState{InUse: a.inUse, Capacity: a.slots, Queued: len(a.queue), MemoryUsed: a.used, Budget: a.budget, Shed: a.shed.Load()}
}

// admissionProbe reports the admission control in GET /v1/health: degraded
// while requests are being shed.
func (s *Server) admissionProbe(context.Context) (string, map[string]any) {
	st := s.adm.state()
	details := map[string]any{"in_use": st.InUse, "capacity": st.Capacity, "queued": st.Queued,
		"memory_bytes": st.MemoryUsed, "memory_budget_bytes": st.Budget, "shed_total": st.Shed}
	if s.adm.shedding(10 * time.Second) {
		return "degraded", details
	}
	return "healthy", details
}

// weightFunc estimates the memory a request needs, in bytes, from the
// request and its body as read; an error refuses the request before it is
// admitted.
type weightFunc func(r *http.Request, body []byte) (int64, error)

// Per-request memory weights. A digest holds its body, the decoded source,
// the canonical text (as bytes, a string and runes) and the digester's
// tables: a small multiple of the body. An HTML page also holds its parsed
// trees, bounded by the node budget: measured at up to 14 times the page
// for pages of long list items under the default budget. Reads of the
// archive hold one blob.
const (
	baseWeight      = 256 << 10
	bodyExpansion   = 8
	htmlExpansion   = 16
	archiveReadSize = 4 << 20
)

// bodyWeight is the weight of a request that works on its body: more for
// a body that is or carries HTML.
func bodyWeight(r *http.Request, body []byte) (int64, error) {
	factor := int64(bodyExpansion)
	ct := r.Header.Get("Content-Type")
	if strings.Contains(ct, "html") || strings.HasPrefix(ct, "multipart/") || bytes.Contains(body, []byte(`"html"`)) {
		factor = htmlExpansion
	}
	return baseWeight + factor*int64(len(body)), nil
}

// rpcWeight is the weight of a JSON-RPC message or batch: a batch weighs
// like as many requests as it holds messages (each its base weight) beside
// the work on its body; a batch of more than wire.MaxBatchEntries is
// refused before admission.
func rpcWeight(r *http.Request, body []byte) (int64, error) {
	entries, err := wire.BatchEntries(body)
	if err != nil {
		return 0, err
	}
	w, _ := bodyWeight(r, body)
	return w + int64(max(len(entries)-1, 0))*baseWeight, nil
}

// readWeight is the weight of a request that reads one archived blob.
func readWeight(*http.Request, []byte) (int64, error) { return baseWeight + archiveReadSize, nil }

// lightWeight is the weight of a request that reads small records.
func lightWeight(*http.Request, []byte) (int64, error) { return baseWeight, nil }

// admit wraps a handler that does work: it reads the body first (bounded in
// size, under its own deadline and within the body memory budget), then
// takes admission with the request's weight, and only then runs next. A
// request shed by admission is 503 UNAVAILABLE with Retry-After.
func (s *Server) admit(weight weightFunc, next http.Handler) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if s.adm.overloaded() {
			// Shed before the body is read: under overload, a refusal
			// must cost less than the work it refuses.
			s.fail(w, r, s.adm.shedError(s.adm.maxWait))
			return
		}
		var body []byte
		if r.Body != nil && r.Body != http.NoBody && r.Method != http.MethodGet && r.Method != http.MethodHead {
			b, err := s.readBody(w, r)
			if err != nil {
				s.fail(w, r, err)
				return
			}
			defer s.bodies.Add(-int64(cap(b)))
			body = b
			r.Body = &heldBody{Reader: bytes.NewReader(b), b: b}
		}
		wt, err := weight(r, body)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		release, err := s.adm.acquire(r.Context(), wt)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		defer release()
		next.ServeHTTP(w, r)
	}
}

// heldBody is a request body admission has read whole, within the body
// limit: a handler takes its bytes (Server.body) rather than a copy.
type heldBody struct {
	*bytes.Reader
	b []byte
}

func (*heldBody) Close() error { return nil }

// body returns the whole request body, at most MaxBodyBytes: the bytes
// admission read, or else read now (and then held, so that a second call
// returns the same bytes).
func (s *Server) body(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if hb, ok := r.Body.(*heldBody); ok {
		return hb.b, nil
	}
	b, err := readBody(http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes))
	if err != nil {
		return nil, err
	}
	r.Body = &heldBody{Reader: bytes.NewReader(b), b: b}
	return b, nil
}

// readBody reads the whole request body under the body deadline, at most
// MaxBodyBytes, counting what it holds against the budget for bodies being
// read. The caller gives back cap(body) to s.bodies when done with it.
//
// The deadline is lifted only once the whole body is in. When readBody
// fails, the deadline stays: net/http reads what is left of an unread body
// before it answers, and that read must end, or a client that announces a
// body and stops sending holds its connection, unanswered, for ever.
func (s *Server) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if s.cfg.BodyTimeout > 0 {
		// Errors mean the connection cannot take a deadline (HTTP/2 test
		// recorders); the server's read timeout still applies.
		_ = http.NewResponseController(w).SetReadDeadline(time.Now().Add(s.cfg.BodyTimeout))
	}
	lr := http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	// The buffer grows with what arrives, so a client that announces a
	// large body and trickles it holds little.
	buf := make([]byte, 0, min(max(r.ContentLength, 512), 64<<10))
	held := int64(0)
	complete := false
	defer func() {
		if s.cfg.BodyTimeout > 0 && complete {
			// Left in place, the deadline would expire in net/http's
			// background read while the request is worked on, and
			// cancel it; the body is all in, so nothing else is read
			// until the next request, which sets its own deadlines.
			_ = http.NewResponseController(w).SetReadDeadline(time.Time{})
		}
	}()
	for {
		if c := int64(cap(buf)); c != held {
			total := s.bodies.Add(c - held)
			held = c
			if s.cfg.BodyBudget > 0 && total > s.cfg.BodyBudget {
				s.bodies.Add(-held)
				return nil, s.adm.shedError(time.Second)
			}
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
			continue
		}
		n, err := lr.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			complete = true
			return buf, nil
		}
		if err != nil {
			s.bodies.Add(-held)
			return nil, wire.BodyError(err)
		}
	}
}

// Admit puts a handler mounted beside the API (MCP's streamable HTTP) under
// the API's admission: each POST is weighed by its body and admitted like an
// API request, a JSON-RPC batch like as many requests as it holds messages,
// and a batch of more than wire.MaxBatchEntries is 413 TOO_LARGE before
// admission. Other methods (a GET stream, DELETE) do no work and pass.
func (s *Server) Admit(next http.Handler) http.Handler {
	admitted := s.admit(rpcWeight, next)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method != http.MethodPost {
			next.ServeHTTP(w, r)
			return
		}
		admitted(w, r)
	})
}
