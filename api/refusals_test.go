package api_test

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/api"
)

// TestOpenAPIListsRefusals sends a request to every operation of
// openapi.yaml while admission control is full, and again past the rate
// limit: every operation that answers 503 or 429 with Retry-After must list
// that status, with the Retry-After header, in openapi.yaml.
func TestOpenAPIListsRefusals(t *testing.T) {
	doc := openapiDoc(t)
	request := func(method, path string) *http.Request {
		path = strings.NewReplacer("{hash}", strings.Repeat("ab", 32)).Replace(path)
		if strings.Contains(path, "/slice") {
			path += "?start=0&end=1"
		}
		var req *http.Request
		if method == http.MethodPost {
			req = httptest.NewRequest(method, path, strings.NewReader(`{}`))
			req.Header.Set("Content-Type", "application/json")
		} else {
			req = httptest.NewRequest(method, path, nil)
		}
		return req
	}
	check := func(name string, h http.Handler, status int) {
		t.Helper()
		answered := 0
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				resp, body := serve(h, request(method, path))
				if resp.StatusCode != status || resp.Header.Get("Retry-After") == "" {
					continue
				}
				answered++
				listed := op.Responses.Status(status)
				if listed == nil || listed.Value == nil || listed.Value.Headers["Retry-After"] == nil {
					t.Errorf("%s %s answers %d with Retry-After (%s) %s; openapi.yaml does not list it with the header", method, path, status, name, body)
				}
			}
		}
		if answered < 5 {
			t.Errorf("%s: only %d operations answered %d; the probe is broken", name, answered, status)
		}
	}

	// Admission control full: an MCP call holds the one slot.
	hold, started := make(chan struct{}), make(chan struct{}, 1)
	work := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		<-hold
	})
	h := withBeside(t, api.Config{MaxInFlight: 1, QueueWait: time.Millisecond}, "/mcp", work)
	done := make(chan struct{})
	go func() {
		serve(h, httptest.NewRequest("POST", "/mcp", strings.NewReader(`{}`)))
		close(done)
	}()
	<-started
	check("admission full", h, http.StatusServiceUnavailable)
	close(hold)
	<-done

	// Past the rate limit: one request per hour.
	h, _ = newTestServer(t, api.Config{RateLimit: 1, RateWindow: time.Hour})
	serve(h, httptest.NewRequest("GET", "/v1/stats", nil))
	check("rate limited", h, http.StatusTooManyRequests)
}
