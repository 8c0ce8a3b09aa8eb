package main

import (
	"bytes"
	"context"
	"encoding/json"
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
)

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
}

// runProbes starts the probes against addr (host:port) and returns a stop
// function that closes them and fills rep.
func runProbes(ctx context.Context, p Probes, addr, archiveHash string, client *http.Client, base string) func(rep *ProbeReport) {
	ctx, cancel := context.WithCancel(ctx)
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
		rep.SlowBodiesClosed = closedBodies.Load()
		if len(health) > 0 {
			sort.Slice(health, func(i, j int) bool { return health[i] < health[j] })
			rep.HealthSamples, rep.HealthStatuses = len(health), statuses
			rep.HealthP99MS, rep.HealthMaxMS = ms(quantile(health, 0.99)), ms(health[len(health)-1])
		}
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
