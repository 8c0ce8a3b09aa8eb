package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Bounds of the probes, whatever the flags say.
const (
	maxSlowBodies  = 1000
	maxSlowReaders = 1000
	maxIdleConns   = 20000
	maxLimitBodies = 20000
)

// healthBar is how soon health must answer beside slow bodies at the
// connection limit.
const healthBar = time.Second

// Probes are hostile clients held open beside the load for the whole run:
// bodies sent one byte at a time, archive reads that never read, and idle
// connections. They only ever reach the loopback target.
type Probes struct {
	// SlowBodies connections each send a digest request whose body
	// arrives one byte every SlowEvery.
	SlowBodies int
	SlowEvery  time.Duration
	// SlowReaders connections each GET an archived text and read none of
	// the answer.
	SlowReaders int
	// IdleConns connections are opened and left silent.
	IdleConns int
	// Health, when set, samples GET /v1/health once a second.
	Health bool
	// LimitBodies connections (the server's --max-conns) each send
	// POST /v1/search announcing a body of 100 bytes and send one. While
	// any is open, GET /healthz is asked once a second on a new
	// connection, and must answer within a second; the server must close
	// each within ReadTimeout (its --read-timeout) of its request. The run
	// lasts until every one is closed or ReadTimeout has passed.
	LimitBodies int
	ReadTimeout time.Duration
}

func (p Probes) validate() error {
	switch {
	case p.SlowBodies < 0 || p.SlowBodies > maxSlowBodies:
		return fmt.Errorf("--slow-bodies: must be in [0, %d]", maxSlowBodies)
	case p.SlowReaders < 0 || p.SlowReaders > maxSlowReaders:
		return fmt.Errorf("--slow-readers: must be in [0, %d]", maxSlowReaders)
	case p.IdleConns < 0 || p.IdleConns > maxIdleConns:
		return fmt.Errorf("--idle-conns: must be in [0, %d]", maxIdleConns)
	case p.SlowBodies > 0 && p.SlowEvery <= 0:
		return fmt.Errorf("--slow-every: must be positive")
	case p.LimitBodies < 0 || p.LimitBodies > maxLimitBodies:
		return fmt.Errorf("--slow-bodies-at-limit: must be in [0, %d]", maxLimitBodies)
	case p.LimitBodies > 0 && (p.ReadTimeout <= 0 || p.ReadTimeout > time.Hour):
		return fmt.Errorf("--read-timeout: must be in (0, 1h]")
	}
	return nil
}

// ProbeReport is what the probes saw.
type ProbeReport struct {
	SlowBodiesOpened  int            `json:"slow_bodies_opened,omitempty"`
	SlowBodiesClosed  int64          `json:"slow_bodies_closed_by_server,omitempty"`
	SlowReadersOpened int            `json:"slow_readers_opened,omitempty"`
	IdleOpened        int            `json:"idle_conns_opened,omitempty"`
	IdleFailed        int            `json:"idle_conns_failed,omitempty"`
	HealthSamples     int            `json:"health_samples,omitempty"`
	HealthStatuses    map[string]int `json:"health_statuses,omitempty"`
	HealthP99MS       float64        `json:"health_p99_ms,omitempty"`
	HealthMaxMS       float64        `json:"health_max_ms,omitempty"`
	// AtLimit is the slow bodies at the connection limit, when asked for.
	AtLimit *LimitReport `json:"slow_bodies_at_limit,omitempty"`
}

// LimitReport is what the slow bodies at the connection limit saw, and its
// two verdicts: HealthWithinBar (every health check answered 200 within
// a second) and AllClosed (every slow connection was opened, and the
// server closed each within the read timeout).
type LimitReport struct {
	Opened int `json:"opened"`
	// Failed connections could not be opened or could not send.
	Failed int `json:"failed"`
	// ClosedInTime of the opened were closed by the server within the
	// read timeout: Answered of them with an answer, the rest without
	// (closed to make room for a new connection).
	ClosedInTime  int     `json:"closed_within_read_timeout"`
	Answered      int     `json:"answered"`
	MaxCloseMS    float64 `json:"max_close_ms"`
	ReadTimeoutMS float64 `json:"read_timeout_ms"`
	AllClosed     bool    `json:"all_closed_within_read_timeout"`
	// HealthSamples checks of GET /healthz, each on a new connection,
	// HealthInTime of them answered 200 within a second.
	HealthSamples   int            `json:"health_samples"`
	HealthInTime    int            `json:"health_answered_within_1s"`
	HealthStatuses  map[string]int `json:"health_statuses"`
	HealthMaxMS     float64        `json:"health_max_ms"`
	HealthWithinBar bool           `json:"health_always_answered_within_1s"`
}

// runProbes starts the probes against addr (host:port) and returns a stop
// function that closes them and fills rep.
func runProbes(parent context.Context, p Probes, addr, archiveHash string, client *http.Client, base string) func(rep *ProbeReport) {
	ctx, cancel := context.WithCancel(parent)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	var closedBodies atomic.Int64
	keep := func(c net.Conn) {
		mu.Lock()
		conns = append(conns, c)
		mu.Unlock()
	}
	r := &ProbeReport{}
	dialer := net.Dialer{Timeout: 5 * time.Second}
	for range p.IdleConns {
		c, err := dialer.DialContext(ctx, "tcp", addr)
		if err != nil {
			r.IdleFailed++
			continue
		}
		r.IdleOpened++
		keep(c)
	}
	for range p.SlowReaders {
		c, err := dialer.DialContext(ctx, "tcp", addr)
		if err != nil {
			continue
		}
		fmt.Fprintf(c, "GET /v1/archive/%s HTTP/1.1\r\nHost: %s\r\n\r\n", archiveHash, addr)
		r.SlowReadersOpened++
		keep(c)
	}
	for range p.SlowBodies {
		c, err := dialer.DialContext(ctx, "tcp", addr)
		if err != nil {
			continue
		}
		r.SlowBodiesOpened++
		keep(c)
		wg.Add(1)
		go func() {
			defer wg.Done()
			const n = 1 << 20
			fmt.Fprintf(c, "POST /v1/digest?query=q HTTP/1.1\r\nHost: %s\r\nContent-Type: text/plain\r\nContent-Length: %d\r\n\r\n", addr, n)
			t := time.NewTicker(p.SlowEvery)
			defer t.Stop()
			for range n {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
				if _, err := c.Write([]byte("a")); err != nil {
					closedBodies.Add(1)
					return
				}
			}
		}()
	}
	var limitDone func() *LimitReport
	if p.LimitBodies > 0 {
		// The load's kept-alive connections would be idle ones the
		// server could close to make room: close them, so that the
		// slow bodies alone fill the limit.
		client.CloseIdleConnections()
		// Not under ctx: stopping the load must not close these
		// connections before the server does or the read timeout
		// passes; only the caller's own cancellation ends them early.
		limitDone = slowBodiesAtLimit(parent, p, addr)
	}
	var health []time.Duration
	statuses := map[string]int{}
	if p.Health {
		wg.Add(1)
		go func() {
			defer wg.Done()
			t := time.NewTicker(time.Second)
			defer t.Stop()
			for {
				select {
				case <-ctx.Done():
					return
				case <-t.C:
				}
				start := time.Now()
				code, body, err := do(ctx, client, "GET", base+"/v1/health", "", nil)
				el := time.Since(start)
				key := strconv.Itoa(code)
				if err != nil {
					key = "error"
				} else {
					var env struct {
						Data struct {
							Status string `json:"status"`
						} `json:"data"`
					}
					if json.Unmarshal(body, &env) == nil && env.Data.Status != "" {
						key += " " + env.Data.Status
					}
				}
				mu.Lock()
				health = append(health, el)
				statuses[key]++
				mu.Unlock()
			}
		}()
	}
	return func(rep *ProbeReport) {
		cancel()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
		*rep = *r
		if limitDone != nil {
			rep.AtLimit = limitDone()
		}
		rep.SlowBodiesClosed = closedBodies.Load()
		if len(health) > 0 {
			sort.Slice(health, func(i, j int) bool { return health[i] < health[j] })
			rep.HealthSamples, rep.HealthStatuses = len(health), statuses
			rep.HealthP99MS, rep.HealthMaxMS = ms(quantile(health, 0.99)), ms(health[len(health)-1])
		}
	}
}

// limitSettle is how long the slow bodies at the limit are given, once
// sent, for the server to read their headers before anything else
// connects: a connection whose headers are still unread is idle, and the
// server may close it to make room whatever it does with slow bodies.
const limitSettle = time.Second

// slowBodiesAtLimit opens p.LimitBodies connections to addr, each sending
// POST /v1/search with Content-Length: 100 and one byte of body, waits
// limitSettle, then checks GET /healthz on a new connection at once and
// every second while any of them is open. It returns a function that waits
// until the server has closed every one or p.ReadTimeout has passed since
// its request was sent (or ctx ends), closes what is left and reports.
func slowBodiesAtLimit(ctx context.Context, p Probes, addr string) func() *LimitReport {
	r := &LimitReport{ReadTimeoutMS: ms(p.ReadTimeout), HealthStatuses: map[string]int{}}
	var mu sync.Mutex
	var closing sync.WaitGroup
	var open atomic.Int64
	var maxClose time.Duration
	dialer := net.Dialer{Timeout: 5 * time.Second}
	for range p.LimitBodies {
		c, err := dialer.DialContext(ctx, "tcp", addr)
		if err != nil {
			r.Failed++
			continue
		}
		if _, err := fmt.Fprintf(c, "POST /v1/search HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", addr); err != nil {
			c.Close()
			r.Failed++
			continue
		}
		sent := time.Now()
		r.Opened++
		open.Add(1)
		closing.Add(1)
		go func() {
			defer closing.Done()
			defer c.Close()
			stop := context.AfterFunc(ctx, func() { c.SetReadDeadline(time.Now()) })
			defer stop()
			c.SetReadDeadline(sent.Add(p.ReadTimeout))
			// Whatever arrives is the answer; the server closing the
			// connection ends the read with EOF or a reset, the read
			// timeout (or ctx) with a timeout.
			n, err := io.Copy(io.Discard, c)
			el := time.Since(sent)
			open.Add(-1)
			var ne net.Error
			if errors.As(err, &ne) && ne.Timeout() {
				return
			}
			mu.Lock()
			defer mu.Unlock()
			r.ClosedInTime++
			if n > 0 {
				r.Answered++
			}
			maxClose = max(maxClose, el)
		}()
	}

	select {
	case <-ctx.Done():
	case <-time.After(limitSettle):
	}
	// A new connection for each check: one kept alive would not show
	// whether the server still takes connections.
	health := &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{Proxy: nil, DisableKeepAlives: true}}
	var healthMax time.Duration
	var checking sync.WaitGroup
	checking.Add(1)
	go func() {
		defer checking.Done()
		end := time.Now().Add(p.ReadTimeout)
		t := time.NewTicker(time.Second)
		defer t.Stop()
		for {
			start := time.Now()
			code, _, err := do(ctx, health, "GET", "http://"+addr+"/healthz", "", nil)
			el := time.Since(start)
			key := strconv.Itoa(code)
			if err != nil {
				key = "error"
			}
			mu.Lock()
			r.HealthSamples++
			r.HealthStatuses[key]++
			if err == nil && code == http.StatusOK && el <= healthBar {
				r.HealthInTime++
			}
			healthMax = max(healthMax, el)
			mu.Unlock()
			select {
			case <-ctx.Done():
				return
			case <-t.C:
			}
			if open.Load() == 0 || time.Now().After(end) {
				return
			}
		}
	}()
	return func() *LimitReport {
		closing.Wait()
		checking.Wait()
		r.MaxCloseMS, r.HealthMaxMS = ms(maxClose), ms(healthMax)
		r.AllClosed = r.Opened > 0 && r.Failed == 0 && r.ClosedInTime == r.Opened
		r.HealthWithinBar = r.HealthSamples > 0 && r.HealthInTime == r.HealthSamples
		return r
	}
}

// mcpCall is the JSON-RPC body of a tools/call of digest_source on text.
func mcpCall(id int, query, text string) []byte {
	b, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": "tools/call",
		"params": map[string]any{"name": "digest_source", "arguments": map[string]any{"query": query, "source": map[string]string{"text": text}}}})
	return b
}

// drain reads and discards a response body.
func drain(r io.Reader) { io.Copy(io.Discard, r) }

// doRetry sends one request, discards the answer, and reports its status
// and whether it carried Retry-After. MCP requests accept JSON answers.
func doRetry(ctx context.Context, client *http.Client, method, url, contentType string, body []byte) (int, bool, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return 0, false, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	if strings.HasSuffix(url, "/mcp") {
		req.Header.Set("Accept", "application/json, text/event-stream")
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, false, err
	}
	defer resp.Body.Close()
	drain(resp.Body)
	return resp.StatusCode, resp.Header.Get("Retry-After") != "", nil
}
