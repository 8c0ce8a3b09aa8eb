package main

import (
	"bufio"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"
	"time"
)

// TestMalformedRequestsGetEnvelopes sends requests that net/http refuses
// before any handler, and others that reach the handler, over a real
// connection: the refusals come back as response-v2 envelopes with the
// error table's status, and a handler's own answers, even plain-text ones
// that close the connection, pass untouched.
func TestMalformedRequestsGetEnvelopes(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{
		Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.URL.Path == "/plain" {
				w.Header().Set("Content-Type", "text/plain; charset=utf-8")
				w.Header().Set("Connection", "close")
				w.WriteHeader(http.StatusBadRequest)
				io.WriteString(w, "a handler's own plain answer")
				return
			}
			io.Copy(io.Discard, r.Body)
			w.Header().Set("Content-Type", "application/json")
			io.WriteString(w, `{"success":true}`)
		}),
		MaxHeaderBytes:    1 << 10,
		ReadHeaderTimeout: 5 * time.Second,
	}
	go hs.Serve(framingListener{ln})
	t.Cleanup(func() { hs.Close() })

	cases := []struct {
		name, req string
		status    int
		code      string // "" for the handler's own answer
	}{
		{"transfer-encoding gzip", "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: gzip\r\n\r\n", 400, "INVALID_FORMAT"},
		{"transfer-encoding identity", "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: identity\r\nContent-Length: 2\r\n\r\nab", 400, "INVALID_FORMAT"},
		{"bad header name", "GET /x HTTP/1.1\r\nHost: h\r\nBad Header: y\r\n\r\n", 400, "INVALID_FORMAT"},
		{"bad content-length", "POST /x HTTP/1.1\r\nHost: h\r\nContent-Length: abc\r\n\r\n", 400, "INVALID_FORMAT"},
		{"huge header", "GET /x HTTP/1.1\r\nHost: h\r\nX: " + strings.Repeat("a", 8<<10) + "\r\n\r\n", 431, "TOO_LARGE"},
		{"chunked body", "POST /x HTTP/1.1\r\nHost: h\r\nTransfer-Encoding: chunked\r\n\r\n2\r\nab\r\n0\r\n\r\n", 200, ""},
		{"handler's plain answer", "GET /plain HTTP/1.1\r\nHost: h\r\n\r\n", 400, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c, err := net.Dial("tcp", ln.Addr().String())
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			c.SetDeadline(time.Now().Add(10 * time.Second))
			if _, err := io.WriteString(c, tc.req); err != nil {
				t.Fatal(err)
			}
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err != nil {
				t.Fatal(err)
			}
			body, _ := io.ReadAll(resp.Body)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if tc.code == "" {
				if strings.Contains(string(body), "response-v2") {
					t.Errorf("the handler's answer was rewritten: %s", body)
				}
				return
			}
			var env struct {
				Success bool
				Data    struct {
					ErrorCode string `json:"error_code"`
				}
				Meta struct {
					Version   string
					RequestID string `json:"request_id"`
				}
			}
			if err := json.Unmarshal(body, &env); err != nil || env.Success || env.Data.ErrorCode != tc.code ||
				env.Meta.Version != "response-v2" || env.Meta.RequestID == "" || resp.Header.Get("Content-Type") != "application/json" {
				t.Errorf("answer %s (%v), want a %s envelope", body, err, tc.code)
			}
		})
	}
}
