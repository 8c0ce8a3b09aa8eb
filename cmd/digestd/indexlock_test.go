package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// holdIndex takes the search index of the archive in dir as another process
// would, as command listening on addr ("" for none), until the test ends.
func holdIndex(t *testing.T, dir, command, addr string) *indexLock {
	t.Helper()
	os.MkdirAll(dir, 0o755)
	l, err := lockIndex(filepath.Join(dir, "search-index"), command)
	if err != nil {
		t.Fatal(err)
	}
	if addr != "" {
		if err := l.SetAddress(addr); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { l.Close() })
	return l
}

// A second taker of an index's lock learns at once who holds it; once the
// holder lets go, the lock is free.
func TestIndexLock(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "search-index")
	l, err := lockIndex(dir, "serve")
	if err != nil {
		t.Fatal(err)
	}
	l.SetAddress("[::]:8080")
	_, err = lockIndex(dir, "mcp")
	var held *indexHeldError
	if !errors.As(err, &held) || held.Holder.PID != os.Getpid() || held.Holder.Command != "serve" || held.Holder.Address != "[::]:8080" {
		t.Fatalf("second lock: %v, holder %+v", err, held)
	}
	if u := held.Holder.baseURL(); u != "http://127.0.0.1:8080" {
		t.Errorf("an address on every interface is reached at %q, want http://127.0.0.1:8080", u)
	}
	if !strings.Contains(err.Error(), fmt.Sprintf("digestd serve (pid %d, since ", os.Getpid())) {
		t.Errorf("the error does not name the holder: %v", err)
	}
	l.Close()
	l, err = lockIndex(dir, "reindex")
	if err != nil {
		t.Fatalf("the lock after its holder let go: %v", err)
	}
	l.Close()
}

// Two processes, one archive (issue 47): while serve holds the archive's
// search index, reindex and a second serve stop at once naming it, digest
// archives without indexing, and mcp serves with search_archive answering
// FEATURE_DISABLED with where to search instead, never UNAVAILABLE.
func TestIndexHeldByAnotherProcess(t *testing.T) {
	dir := t.TempDir()
	holdIndex(t, dir, "serve", "127.0.0.1:18080")
	holder := fmt.Sprintf("digestd serve (pid %d", os.Getpid())

	for _, args := range [][]string{
		{"reindex", "--archive", dir},
		{"serve", "--archive", dir, "--addr", "127.0.0.1:0"},
	} {
		var stderr bytes.Buffer
		code := exitCode(run(context.Background(), args, strings.NewReader(""), io.Discard, &stderr), &stderr)
		if code != 1 || !strings.Contains(stderr.String(), holder) || !strings.Contains(stderr.String(), "listening on 127.0.0.1:18080") {
			t.Errorf("%s: exit %d, stderr %s", args[0], code, stderr.String())
		}
	}
	out, stderr, code := runCLI(t, "Glaciers retreat when summer melt exceeds winter snowfall.", "digest", "--archive", dir, "--query", "glaciers")
	if code != 0 || !strings.Contains(stderr, "search index held by another process") {
		t.Errorf("digest: exit %d %s %s", code, out, stderr)
	}

	answers := mcpSession(t, []string{"mcp", "--archive", dir},
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_archive","arguments":{"query":"glaciers"}}}`,
		`{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"search_archive","arguments":{"query":"glaciers","filter":{"labels":["alps"]}}}}`,
		`{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"digest_source","arguments":{"query":"glaciers","source":{"text":"Glaciers in the Alps have lost half their volume since 1900."}}}}`)
	for _, id := range []string{"2", "3"} {
		var res struct {
			IsError           bool `json:"isError"`
			StructuredContent struct {
				Data struct {
					ErrorCode string `json:"error_code"`
					Retryable bool   `json:"retryable"`
				} `json:"data"`
				Error string `json:"error"`
			} `json:"structuredContent"`
		}
		json.Unmarshal(answers[id], &res)
		e := res.StructuredContent
		if !res.IsError || e.Data.ErrorCode != "FEATURE_DISABLED" || e.Data.Retryable || !strings.Contains(e.Error, holder) ||
			!strings.Contains(e.Error, "http://127.0.0.1:18080/mcp") || strings.Contains(e.Error, dir) {
			t.Errorf("search_archive (id %s) with the index held: %s", id, answers[id])
		}
	}
	if res := string(answers["4"]); !strings.Contains(res, `"success":true`) {
		t.Errorf("digest_source with the index held: %s", res)
	}
}

// A holder that serves no HTTP is named with what to do instead.
func TestIndexHeldByMCP(t *testing.T) {
	dir := t.TempDir()
	holdIndex(t, dir, "mcp", "")
	answers := mcpSession(t, []string{"mcp", "--archive", dir},
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_archive","arguments":{"query":"glaciers"}}}`)
	if res := string(answers["2"]); !strings.Contains(res, "FEATURE_DISABLED") || !strings.Contains(res, fmt.Sprintf("digestd mcp (pid %d", os.Getpid())) || !strings.Contains(res, "digestd serve") {
		t.Errorf("search_archive with the index held by mcp: %s", res)
	}
}

// mcpSession runs digestd with args as an MCP client would over stdio:
// initialize, then each call (ids from 2), and returns each answer's result
// by id once the last one is in.
func mcpSession(t *testing.T, args []string, calls ...string) map[string]json.RawMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	pr, pw := io.Pipe()
	var out syncBuffer
	var stderr bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, args, pr, &out, &stderr) }()
	lines := append([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"test","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}, calls...)
	go io.WriteString(pw, strings.Join(lines, "\n")+"\n")
	last := fmt.Sprintf(`"id":%d,`, len(calls)+1)
	for ctx.Err() == nil && !strings.Contains(out.String(), last) {
		time.Sleep(10 * time.Millisecond)
	}
	pw.Close()
	if err := <-done; err != nil {
		t.Errorf("mcp: %v: %s", err, stderr.String())
	}
	answers := map[string]json.RawMessage{}
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		if json.Unmarshal([]byte(line), &msg) == nil {
			answers[string(msg.ID)] = msg.Result
		}
	}
	return answers
}

// syncBuffer is a bytes.Buffer safe for one writer and one reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
