package main

import (
	"io"
	"net/http"
	"strings"
	"testing"
)

// TestOneRouter checks that serve mounts the API, MCP and the web page on
// one router behind one authentication: without a key the API and /mcp are
// refused alike, with the same envelope and request id, while the page is
// open; with a key /mcp answers.
func TestOneRouter(t *testing.T) {
	s := startServer(t)
	client := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	tests := []struct {
		method, path, body string
		key                bool
		status             int
		want               string // in the body, or the Location header of a redirect
	}{
		{"GET", "/v1/stats", "", false, 401, `"error_code":"UNAUTHORIZED"`},
		{"POST", "/mcp", ping, false, 401, `"error_code":"UNAUTHORIZED"`},
		{"POST", "/mcp", ping, true, 200, `"jsonrpc":"2.0"`},
		{"GET", "/ui/", "", false, 200, "<html"},
		{"GET", "/ui", "", false, 301, "/ui/"},
		{"GET", "/", "", false, 302, "/ui/"},
		{"GET", "/nowhere", "", true, 404, `"error_code":"NOT_FOUND"`},
	}
	for _, tt := range tests {
		req, err := http.NewRequest(tt.method, s.base+tt.path, strings.NewReader(tt.body))
		if err != nil {
			t.Fatal(err)
		}
		req.Header.Set("X-Request-ID", "router-test")
		if tt.body != "" {
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
		}
		if tt.key {
			req.Header.Set("Authorization", "Bearer "+conformanceKey)
		}
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		var b strings.Builder
		_, err = io.Copy(&b, resp.Body)
		resp.Body.Close()
		if err != nil {
			t.Fatal(err)
		}
		got := b.String()
		if resp.StatusCode >= 300 && resp.StatusCode < 400 {
			got = resp.Header.Get("Location")
		}
		if resp.StatusCode != tt.status || !strings.Contains(got, tt.want) || resp.Header.Get("X-Request-ID") != "router-test" {
			t.Errorf("%s %s (key %v): %d X-Request-ID %q %.200s; want %d with %s", tt.method, tt.path, tt.key, resp.StatusCode, resp.Header.Get("X-Request-ID"), got, tt.status, tt.want)
		}
	}
}
