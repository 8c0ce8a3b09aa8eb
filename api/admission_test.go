package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
	"github.com/go-chi/chi/v5"
)

// TestAdmissionSheds fills the one slot with a request that does not finish
// and checks that the next one is shed at once with 503 and Retry-After, and
// that health reports degraded while requests are shed.
func TestAdmissionSheds(t *testing.T) {
	hold := make(chan struct{})
	started := make(chan struct{}, 1)
	work := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		<-hold
		w.WriteHeader(http.StatusOK)
	})
	h := withBeside(t, api.Config{MaxInFlight: 1, QueueWait: time.Millisecond}, "/mcp", work)
	done := make(chan struct{})
	go func() {
		serve(h, httptest.NewRequest("POST", "/mcp", strings.NewReader(`{}`)))
		close(done)
	}()
	<-started
	for _, path := range []string{"/mcp", "/v1/digest?query=q", "/v1/sources", "/v1/verify"} {
		req := httptest.NewRequest("POST", path, strings.NewReader(`{}`))
		if path == "/v1/sources" {
			req = httptest.NewRequest("GET", path, nil)
		}
		req.Header.Set("Content-Type", "application/json")
		resp, body := serve(h, req)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" || !bytes.Contains(body, []byte("UNAVAILABLE")) {
			t.Errorf("%s while the only slot is held: %d Retry-After %q %s", path, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
	}
	resp, body := serve(h, httptest.NewRequest("GET", "/v1/health", nil))
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"admission":{"status":"degraded"`)) || !bytes.Contains(body, []byte(`"status":"degraded"`)) {
		t.Errorf("health while shedding: %d %s", resp.StatusCode, body)
	}
	close(hold)
	<-done
	resp, _ = serve(h, httptest.NewRequest("POST", "/mcp", strings.NewReader(`{}`)))
	if resp.StatusCode != 200 {
		t.Errorf("after the slot is free: %d", resp.StatusCode)
	}
}

// TestTricklingBodyHoldsNoSlot keeps a request body half sent on a real
// connection while the one slot is free for others: bodies are read before
// admission.
func TestTricklingBodyHoldsNoSlot(t *testing.T) {
	h, _ := newTestServer(t, api.Config{MaxInFlight: 1, QueueWait: time.Millisecond})
	ts := httptest.NewServer(h)
	defer ts.Close()
	for range 3 {
		c, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST /v1/digest?query=q HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\nContent-Length: 1000\r\n\r\nA")
	}
	for i := range 3 {
		resp, err := http.Post(ts.URL+"/v1/digest?query=MTCT", "text/plain", strings.NewReader(sampleText))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("digest %d beside trickling bodies: %d", i, resp.StatusCode)
		}
	}
}

// TestStalledBodyIsAnsweredAndClosed announces a body of 100 bytes, sends
// one and stops, on a real connection: once the body timeout passes, the
// server answers and closes the connection. The server's own read timeout
// is far longer than the wait, so only the body deadline can end it.
func TestStalledBodyIsAnsweredAndClosed(t *testing.T) {
	h, _ := newTestServer(t, api.Config{BodyTimeout: 200 * time.Millisecond})
	ts := httptest.NewUnstartedServer(h)
	ts.Config.ReadTimeout = time.Hour
	ts.Start()
	defer ts.Close()
	for _, path := range []string{"/v1/search", "/v1/digest?query=q"} {
		c, err := net.Dial("tcp", ts.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		fmt.Fprintf(c, "POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{", path)
		// Generous: the answer is due after 200 ms; only a connection
		// left without a deadline waits this long.
		c.SetReadDeadline(time.Now().Add(20 * time.Second))
		got, err := io.ReadAll(c)
		if err != nil {
			t.Fatalf("%s, a stalled body: no close from the server (%v), read %q", path, err, got)
		}
		if !bytes.HasPrefix(got, []byte("HTTP/1.1 400")) || !bytes.Contains(got, []byte("INVALID_FORMAT")) {
			t.Errorf("%s, a stalled body: answered %q, want 400 INVALID_FORMAT", path, got)
		}
	}
}

// TestVerifyOversizedPayloadStops sends a payload of 20,000 snippets: it is
// invalid by its count, and no locator is sliced.
func TestVerifyOversizedPayloadStops(t *testing.T) {
	h, _ := newTestServer(t, api.Config{MaxBodyBytes: 8 << 20})
	req := httptest.NewRequest("POST", "/v1/digest?query=MTCT", strings.NewReader(sampleText))
	req.Header.Set("Content-Type", "text/plain")
	resp, body := serve(h, req)
	if resp.StatusCode != 200 {
		t.Fatalf("digest: %d %s", resp.StatusCode, body)
	}
	hash := decodeEnvelopeData(t, body)
	var sb strings.Builder
	sb.WriteString(`{"digest":{"version":"1.0","content_type":"digest/v1","query_hash":"00000000","source_text_hash":"` + hash + `","summary":"s","key_points":[],"original_chars":1,"digest_chars":1,"compression_ratio":1,"evidence_snippets":[`)
	for i := range 20000 {
		if i > 0 {
			sb.WriteByte(',')
		}
		sb.WriteString(`{"text":"Mother","locator":"char:0-6","relevance_score":0.5}`)
	}
	sb.WriteString(`]}}`)
	resp, body = serve(h, httptest.NewRequest("POST", "/v1/verify", strings.NewReader(sb.String())))
	if resp.StatusCode != 200 || !bytes.Contains(body, []byte(`"valid":false`)) || !bytes.Contains(body, []byte(`"snippets":[]`)) ||
		!bytes.Contains(body, []byte("exceeds maximum of 10 items")) || bytes.Count(body, []byte("evidence_snippets[")) > 10 {
		t.Errorf("verify of 20,000 snippets: %d %.600s", resp.StatusCode, body)
	}
}

func decodeEnvelopeData(t *testing.T, body []byte) string {
	t.Helper()
	var env struct {
		Data struct {
			Source struct {
				ArchiveHash string `json:"archive_hash"`
			} `json:"source"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &env); err != nil || env.Data.Source.ArchiveHash == "" {
		t.Fatalf("no archive hash in %s", body)
	}
	return env.Data.Source.ArchiveHash
}

// withBeside returns a router with the API mounted and next at path beside
// it under the API's admission, as digestd serve mounts /mcp.
func withBeside(t testing.TB, cfg api.Config, path string, next http.Handler) http.Handler {
	t.Helper()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pipe := &pipeline.Pipeline{Ingester: &ingest.Ingester{MaxTextChars: 200_000}, Store: store}
	cfg.OpenAPI = digestd.OpenAPI
	cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	cfg.MaxBodyBytes = 1 << 20
	srv := api.New(pipe, cfg)
	r := chi.NewRouter()
	srv.Mount(r)
	r.Handle(path, srv.Admit(next))
	return r
}

// A JSON-RPC batch beside the API is admitted like as many requests as it
// holds messages, and one of more than wire.MaxBatchEntries is 413
// TOO_LARGE before admission, even while the only slot is held.
func TestMCPBatchWeighsItsMessages(t *testing.T) {
	var h http.Handler
	memory := map[string]float64{}
	hold, started := make(chan struct{}), make(chan struct{}, 1)
	work := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		if string(b) == "hold" {
			started <- struct{}{}
			<-hold
			return
		}
		_, body := serve(h, httptest.NewRequest("GET", "/v1/health", nil))
		var env struct {
			Data struct {
				Components map[string]struct {
					Details map[string]any `json:"details"`
				} `json:"components"`
			} `json:"data"`
		}
		json.Unmarshal(body, &env)
		memory[string(b)], _ = env.Data.Components["admission"].Details["memory_bytes"].(float64)
	})
	h = withBeside(t, api.Config{MaxInFlight: 1, MemoryBudget: 1 << 30, QueueWait: time.Millisecond}, "/mcp", work)
	one := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	ten := "[" + strings.TrimSuffix(strings.Repeat(one+",", 10), ",") + "]"
	serve(h, httptest.NewRequest("POST", "/mcp", strings.NewReader(one)))
	serve(h, httptest.NewRequest("POST", "/mcp", strings.NewReader(ten)))
	if memory[one] == 0 || memory[ten] < 9*memory[one] {
		t.Errorf("admitted memory: one message %v, a batch of ten %v", memory[one], memory[ten])
	}
	go serve(h, httptest.NewRequest("POST", "/mcp", strings.NewReader("hold")))
	<-started
	defer close(hold)
	over := "[" + strings.TrimSuffix(strings.Repeat(one+",", wire.MaxBatchEntries+1), ",") + "]"
	resp, body := serve(h, httptest.NewRequest("POST", "/mcp", strings.NewReader(over)))
	if resp.StatusCode != http.StatusRequestEntityTooLarge || !bytes.Contains(body, []byte(`"error_code":"TOO_LARGE"`)) ||
		!bytes.Contains(body, []byte(fmt.Sprintf(`"max_batch_entries":%d`, wire.MaxBatchEntries))) {
		t.Errorf("a batch of %d messages: %d %s", wire.MaxBatchEntries+1, resp.StatusCode, body)
	}
}
