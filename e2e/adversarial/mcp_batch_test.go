package adversarial

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/digestd/digestd/wire"
)

// TestMCPBatch sends the JSON-RPC batch that once took the server past its
// memory budget (5,000 tools/list calls in 250 KB, answered with 192 MB),
// ten clients at a time, beside batches at the bound: the first are 413
// TOO_LARGE before any message runs, the others are answered whole, health
// answers within a second throughout, and the server's peak resident set
// stays under the memory budget it runs with.
func TestMCPBatch(t *testing.T) {
	const budget = 768 << 20 // digestd serve's default
	s := startServer(t, "--memory-budget-bytes", strconv.Itoa(budget), "--read-header-timeout", "10s")
	ctx, cancel := context.WithCancel(context.Background())
	var sampled sync.WaitGroup
	sampled.Add(2)
	go func() { defer sampled.Done(); s.sampleRSS(ctx) }()
	var healthMax time.Duration
	healthN := 0
	go func() {
		defer sampled.Done()
		for ctx.Err() == nil {
			t0 := time.Now()
			r, err := s.try("GET", "/v1/health", "", nil)
			if err != nil || r.Status != http.StatusOK {
				t.Errorf("health during the batches: %v %v", r.outcome(), err)
			}
			healthMax = max(healthMax, time.Since(t0))
			healthN++
			time.Sleep(50 * time.Millisecond)
		}
	}()

	batch := func(n int) []byte {
		calls := make([]string, n)
		for i := range calls {
			calls[i] = fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`, i)
		}
		return []byte("[" + strings.Join(calls, ",") + "]")
	}
	huge, bound := batch(5000), batch(wire.MaxBatchEntries)
	var wg sync.WaitGroup
	for c := range 10 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 6 {
				body, want := huge, "413 TOO_LARGE"
				if (c+i)%2 == 1 {
					body, want = bound, "200"
				}
				r, err := s.postMCP(body)
				if err != nil {
					t.Errorf("client %d batch %d: %v", c, i, err)
					return
				}
				if r.outcome() != want {
					t.Errorf("client %d: a batch of %d bytes: %s, want %s", c, len(body), r.outcome(), want)
					continue
				}
				var answers []json.RawMessage
				if want == "200" && (json.Unmarshal(r.Body, &answers) != nil || len(answers) != wire.MaxBatchEntries) {
					t.Errorf("client %d: a batch at the bound: %d answers of %d bytes", c, len(answers), len(r.Body))
				}
			}
		}()
	}
	wg.Wait()
	cancel()
	sampled.Wait()
	_, peak, err := s.rss()
	if err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	maxRSS, samples := s.maxRSS, s.samples
	s.mu.Unlock()
	t.Logf("peak RSS %d MiB (VmHWM %d MiB, %d samples), health %d samples, slowest %v", maxRSS>>20, peak>>20, samples, healthN, healthMax)
	if peak >= budget || maxRSS >= budget {
		t.Errorf("peak RSS %d MiB (VmHWM %d MiB), want under the memory budget of %d MiB", maxRSS>>20, peak>>20, budget>>20)
	}
	if healthN == 0 || healthMax > time.Second {
		t.Errorf("health during the batches: %d samples, slowest %v, want every answer within 1s", healthN, healthMax)
	}
	s.checkHealthy(t)
}

// postMCP posts a JSON-RPC body to /mcp as an MCP client does.
func (s *server) postMCP(body []byte) (result, error) {
	req, err := http.NewRequest("POST", s.base+"/mcp", bytes.NewReader(body))
	if err != nil {
		return result{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := s.client.Do(req)
	if err != nil {
		return result{}, err
	}
	return s.parseResult("POST /mcp", resp)
}
