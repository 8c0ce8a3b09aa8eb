package mcpserver_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/internal/testenv"
	"github.com/digestd/digestd/mcpserver"
	"github.com/digestd/digestd/wire"
)

// newHTTPServer serves the HTTP API with the MCP handler mounted at /mcp,
// as digestd serve does, on a loopback port.
func newHTTPServer(t testing.TB, allowedOrigins ...string) *httptest.Server {
	t.Helper()
	pipe := newPipeline(t)
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	key := []byte("test cursor key shared by the API and MCP")
	apiSrv := api.New(pipe, api.Config{OpenAPI: digestd.OpenAPI, Logger: quiet, CursorKey: key})
	h := chi.NewRouter()
	apiSrv.Mount(h)
	h.Handle("/mcp", apiSrv.Admit(mcpserver.Handler(pipe, mcpserver.Options{Version: digestd.Version, Logger: quiet, CursorKey: key, AllowedOrigins: allowedOrigins})))
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// exerciseSession runs the operations every transport must carry: the tool
// list, a digest whose locators slice the archived text, a span, a
// resource read, and a tool error with its error code.
func exerciseSession(t *testing.T, cs *mcp.ClientSession) {
	t.Helper()
	tools, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	listed := map[string]bool{}
	for _, tool := range tools.Tools {
		listed[tool.Name] = true
	}
	for _, name := range []string{"digest_source", "digest_sources", "get_archived_text", "verify_digest", "list_sources", "locate_quotes", "check_citations", "get_service_health", "get_cache_stats"} {
		if !listed[name] {
			t.Errorf("tool %s is not listed", name)
		}
	}
	var d digestData
	mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": map[string]any{"text": fixture(t, "transmission.txt")}}, &d)
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpserver.ArchiveURI(d.Digest.SourceTextHash)})
	if err != nil {
		t.Fatal(err)
	}
	text := rr.Contents[0].Text
	if digest.SourceTextHash(text) != d.Digest.SourceTextHash {
		t.Fatal("the resource does not hash to source_text_hash")
	}
	if len(d.Digest.EvidenceSnippets) == 0 {
		t.Fatal("no snippets")
	}
	for _, s := range d.Digest.EvidenceSnippets {
		loc, err := digest.ParseLocator(s.Locator)
		if err != nil {
			t.Fatal(err)
		}
		if runes(text, loc.Start, loc.End) != s.Text {
			t.Errorf("%s does not slice to its snippet", s.Locator)
		}
	}
	var sl archivedText
	s0 := d.Digest.EvidenceSnippets[0]
	mustSucceed(t, cs, "get_archived_text", map[string]any{"hash": d.Digest.SourceTextHash, "locator": s0.Locator}, &sl)
	if sl.Text != s0.Text {
		t.Errorf("get_archived_text %s = %q, want %q", s0.Locator, sl.Text, s0.Text)
	}
	ed, _ := mustFail(t, cs, "get_archived_text", map[string]any{"hash": "sha256:" + strings.Repeat("9", 64)})
	if ed.ErrorCode != string(fault.NotFound) {
		t.Errorf("error_code %s, want NOT_FOUND", ed.ErrorCode)
	}
}

func TestStreamableHTTP(t *testing.T) {
	srv := newHTTPServer(t)
	cs := connect(t, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", MaxRetries: -1})
	exerciseSession(t, cs)
	// Stateless: a second, independent session sees the same archive.
	cs2 := connect(t, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", DisableStandaloneSSE: true, MaxRetries: -1})
	var l struct {
		Sources []json.RawMessage `json:"sources"`
	}
	mustSucceed(t, cs2, "list_sources", map[string]any{}, &l)
	if len(l.Sources) != 1 {
		t.Errorf("%d sources listed, want 1", len(l.Sources))
	}
}

func TestStreamableHTTPRefusesForeignHost(t *testing.T) {
	srv := newHTTPServer(t)
	// DNS-rebinding protection: a loopback server refuses another Host.
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"x","version":"1"}}}`
	req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(body))
	req.Host = "attacker.example"
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusForbidden {
		t.Errorf("status %d, want 403", resp.StatusCode)
	}
	expectErrorEnvelope(t, resp, "FORBIDDEN")
}

// TestStreamableHTTPChecksOrigin: as the MCP transport specification asks
// (against DNS rebinding), a request whose Origin is neither the server's
// own nor an allowed one is refused with a FORBIDDEN envelope, before any
// tool runs; the server's own origin, an allowed one, and no Origin at all
// (a client that is no browser) are served.
func TestStreamableHTTPChecksOrigin(t *testing.T) {
	srv := newHTTPServer(t, "https://notebook.example")
	ping := `{"jsonrpc":"2.0","id":1,"method":"ping"}`
	for _, tc := range []struct {
		name, origin, fetchSite string
		status                  int
	}{
		{"no Origin", "", "", 200},
		{"own origin", srv.URL, "", 200},
		{"own origin, marked by the browser", srv.URL, "same-origin", 200},
		{"allowed origin", "https://notebook.example", "cross-site", 200},
		{"foreign origin", "http://attacker.example", "", 403},
		{"foreign origin, marked by the browser", "http://attacker.example", "cross-site", 403},
		{"own host on another scheme's port", "http://127.0.0.1:1", "", 403},
		{"the literal null origin", "null", "", 403},
	} {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(ping))
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept", "application/json, text/event-stream")
			if tc.origin != "" {
				req.Header.Set("Origin", tc.origin)
			}
			if tc.fetchSite != "" {
				req.Header.Set("Sec-Fetch-Site", tc.fetchSite)
			}
			resp, err := http.DefaultClient.Do(req)
			if err != nil {
				t.Fatal(err)
			}
			defer resp.Body.Close()
			if resp.StatusCode != tc.status {
				b, _ := io.ReadAll(resp.Body)
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, b)
			}
			if tc.status == 403 {
				expectErrorEnvelope(t, resp, "FORBIDDEN")
			}
		})
	}
	for _, bad := range []string{"notebook.example", "https://notebook.example/path"} {
		if _, err := mcpserver.ParseOrigins("https://ok.example, " + bad); err == nil {
			t.Errorf("ParseOrigins accepted %q", bad)
		}
	}
	if got, err := mcpserver.ParseOrigins(" https://a.example ,http://b.example:8080,"); err != nil || fmt.Sprint(got) != "[https://a.example http://b.example:8080]" {
		t.Errorf("ParseOrigins: %v %v", got, err)
	}
}

// Every error the transport answers itself is a response-v2 envelope.
func TestStreamableHTTPErrorsAreEnvelopes(t *testing.T) {
	srv := newHTTPServer(t)
	for _, method := range []string{"GET", "DELETE"} {
		req, _ := http.NewRequest(method, srv.URL+"/mcp", nil)
		req.Header.Set("Accept", "application/json, text/event-stream")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s /mcp: status %d, want 405", method, resp.StatusCode)
		}
		expectErrorEnvelope(t, resp, "METHOD_NOT_ALLOWED")
		resp.Body.Close()
	}
}

func expectErrorEnvelope(t *testing.T, resp *http.Response, code string) {
	t.Helper()
	var env envelope
	if err := json.NewDecoder(resp.Body).Decode(&env); err != nil {
		t.Fatalf("%d answer is not JSON: %v", resp.StatusCode, err)
	}
	var ed errorData
	json.Unmarshal(env.Data, &ed)
	if env.Success || env.Error == nil || ed.ErrorCode != code || env.Meta.Version != "response-v2" || resp.Header.Get("Content-Type") != "application/json" {
		t.Errorf("%d answer: %+v %+v, want a %s envelope", resp.StatusCode, env, ed, code)
	}
	checkNamedDetails(t, ed)
	if status, _, _, _ := wire.Classify(fault.Code(ed.ErrorCode)); status != resp.StatusCode {
		t.Errorf("%s answered %d; the error table says %d", ed.ErrorCode, resp.StatusCode, status)
	}
}

// A body that is not JSON is refused with the type the transport takes,
// never with the types another route takes.
func TestStreamableHTTPRefusesOtherMediaTypes(t *testing.T) {
	srv := newHTTPServer(t)
	for _, tc := range []struct {
		contentType, accept, code, detail, want string
	}{
		{"text/plain", "application/json, text/event-stream", "UNSUPPORTED_MEDIA_TYPE", "accepted_content_types", "[application/json]"},
	} {
		req, _ := http.NewRequest("POST", srv.URL+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
		req.Header.Set("Content-Type", tc.contentType)
		req.Header.Set("Accept", tc.accept)
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		resp.Body = io.NopCloser(bytes.NewReader(b))
		expectErrorEnvelope(t, resp, tc.code)
		var env struct {
			Data errorData `json:"data"`
		}
		json.Unmarshal(b, &env)
		if got := fmt.Sprint(env.Data.Details[tc.detail]); got != tc.want || strings.Contains(env.Data.Remediation, "text/plain") {
			t.Errorf("%s / Accept %s: details.%s = %s, want %s; remediation %q", tc.contentType, tc.accept, tc.detail, got, tc.want, env.Data.Remediation)
		}
	}
}

func TestStreamableHTTPBodyLimit(t *testing.T) {
	srv := httptest.NewServer(mcpserver.Handler(newPipeline(t), mcpserver.Options{MaxBodyBytes: 1 << 10}))
	t.Cleanup(srv.Close)
	body := `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"` + strings.Repeat("x", 2<<10) + `","version":"1"}}}`
	req, _ := http.NewRequest("POST", srv.URL, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("status %d, want 413", resp.StatusCode)
	}
}

// lockedBuffer is a buffer safe to write from a process's copier goroutine.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// buildDigestd builds the digestd binary into a temporary directory.
func buildDigestd(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "digestd")
	cmd := exec.Command("go", "build", "-o", bin, "github.com/digestd/digestd/cmd/digestd")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

func TestStdio(t *testing.T) {
	testenv.FullSuite(t, "builds the digestd binary")
	bin := buildDigestd(t)
	var stderr lockedBuffer
	cmd := exec.Command(bin, "mcp", "--archive", t.TempDir())
	cmd.Env = append(os.Environ(), "DIGESTD_PDF_WORKERS=1")
	cmd.Stderr = &stderr
	cs := connect(t, &mcp.CommandTransport{Command: cmd})
	exerciseSession(t, cs)
	if err := cs.Close(); err != nil {
		t.Logf("close: %v", err)
	}
	// Logs went to stderr (stdout carried only protocol messages, or the
	// session above would have broken), as JSON lines.
	logs := stderr.String()
	if !strings.Contains(logs, `"msg":"digestd mcp serving on stdio"`) {
		t.Errorf("stderr lacks the start log:\n%s", logs)
	}
	if !strings.Contains(logs, `"code":"NOT_FOUND"`) {
		t.Errorf("stderr lacks the rejected call:\n%s", logs)
	}
}

// One signed cursor format: a cursor of GET /v1/sources continues the
// listing in list_sources, and a forged one is refused.
func TestCursorsSharedAndSigned(t *testing.T) {
	srv := newHTTPServer(t)
	cs := connect(t, &mcp.StreamableClientTransport{Endpoint: srv.URL + "/mcp", MaxRetries: -1})
	var d digestData
	for i := 0; i < 3; i++ {
		mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": map[string]any{"text": fmt.Sprintf("Note %d on transmission from mother to child.", i)}}, &d)
	}
	resp, err := http.Get(srv.URL + "/v1/sources?limit=1")
	if err != nil {
		t.Fatal(err)
	}
	var page struct {
		Meta struct {
			Pagination struct {
				Cursor *string `json:"cursor"`
			} `json:"pagination"`
		} `json:"meta"`
	}
	json.NewDecoder(resp.Body).Decode(&page)
	resp.Body.Close()
	if page.Meta.Pagination.Cursor == nil {
		t.Fatal("no cursor from /v1/sources")
	}
	var listing struct {
		Sources []map[string]any `json:"sources"`
	}
	mustSucceed(t, cs, "list_sources", map[string]any{"limit": 1, "cursor": *page.Meta.Pagination.Cursor}, &listing)
	if len(listing.Sources) != 1 {
		t.Errorf("list_sources with the API's cursor: %v", listing)
	}
	// A cursor made without the key (the old unsigned format: base64url of a
	// position) is refused.
	forged := base64.RawURLEncoding.EncodeToString([]byte("sources-by-time/00000000000000000001-" + strings.Repeat("a", 64)))
	ed, _ := mustFail(t, cs, "list_sources", map[string]any{"cursor": forged})
	if ed.ErrorCode != "INVALID_CURSOR" {
		t.Errorf("forged cursor: %s", ed.ErrorCode)
	}
}

// postMCP posts one raw JSON-RPC body to srv's /mcp, with the header pairs
// given, and returns the answer.
func postMCP(t *testing.T, url, body string, header ...string) (*http.Response, []byte) {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// A tool call whose text holds bytes that are not UTF-8 is refused with
// INVALID_FORMAT, as the HTTP API refuses them, not digested without them.
func TestToolArgumentsMustBeUTF8(t *testing.T) {
	srv := newHTTPServer(t)
	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"digest_source","arguments":{"query":"tides","source":{"text":"Tides rise twice a day.` + "\xff" + ` The moon pulls the sea."}}}}`
	resp, b := postMCP(t, srv.URL, call)
	var rpc struct {
		Result struct {
			IsError           bool     `json:"isError"`
			StructuredContent envelope `json:"structuredContent"`
		} `json:"result"`
	}
	if err := json.Unmarshal(b, &rpc); err != nil {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	var ed errorData
	json.Unmarshal(rpc.Result.StructuredContent.Data, &ed)
	if !rpc.Result.IsError || ed.ErrorCode != "INVALID_FORMAT" {
		t.Errorf("a text with bytes that are not UTF-8: %d %.300s", resp.StatusCode, b)
	}
}

// A JSON-RPC batch is answered one message at a time, in order, each with
// its own answer (an error for a message that fails, none for a
// notification); a batch of notifications only is 202; a batch of more than
// wire.MaxBatchEntries messages is 413 TOO_LARGE and none of it runs.
func TestBatchIsBoundedAndAnsweredPerMessage(t *testing.T) {
	srv := newHTTPServer(t)
	list := `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`
	batch := "[" + fmt.Sprintf(list, 1) + `,{"jsonrpc":"2.0","method":"notifications/initialized"},` +
		`{"jsonrpc":"2.0","id":"two","method":"tools/call","params":{"name":"get_archived_text","arguments":{"hash":"sha256:` + strings.Repeat("0", 64) + `"}}},` +
		`{"jsonrpc":"2.0","id":3,"method":"no/such/method"},` + fmt.Sprintf(list, 4) + "]"
	resp, b := postMCP(t, srv.URL, batch)
	var answers []struct {
		ID     json.RawMessage `json:"id"`
		Result *struct {
			Tools   []json.RawMessage `json:"tools"`
			IsError bool              `json:"isError"`
		} `json:"result"`
		Error *struct {
			Code int `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(b, &answers); err != nil || resp.StatusCode != 200 || len(answers) != 4 {
		t.Fatalf("a batch of five messages: %d %.500s (%v)", resp.StatusCode, b, err)
	}
	var ids []string
	for _, a := range answers {
		ids = append(ids, string(a.ID))
	}
	if strings.Join(ids, " ") != `1 "two" 3 4` || len(answers[0].Result.Tools) == 0 || !answers[1].Result.IsError ||
		answers[2].Error == nil || len(answers[3].Result.Tools) != len(answers[0].Result.Tools) {
		t.Errorf("answers %v: %.500s", ids, b)
	}
	resp, _ = postMCP(t, srv.URL, `[{"jsonrpc":"2.0","method":"notifications/initialized"}]`)
	if resp.StatusCode != http.StatusAccepted {
		t.Errorf("a batch of notifications: %d", resp.StatusCode)
	}
	// MCP revisions from 2025-06-18 have no batches: the transport refuses one.
	resp, b = postMCP(t, srv.URL, "["+fmt.Sprintf(list, 1)+","+fmt.Sprintf(list, 2)+"]", "Mcp-Protocol-Version", "2025-06-18")
	if resp.StatusCode != http.StatusBadRequest || !strings.Contains(string(b), `"error_code":"INVALID_FORMAT"`) {
		t.Errorf("a batch from a 2025-06-18 client: %d %.300s", resp.StatusCode, b)
	}
	over := make([]string, wire.MaxBatchEntries+1)
	for i := range over {
		over[i] = fmt.Sprintf(list, i)
	}
	resp, b = postMCP(t, srv.URL, "["+strings.Join(over, ",")+"]")
	var env envelope
	var ed errorData
	json.Unmarshal(b, &env)
	json.Unmarshal(env.Data, &ed)
	if resp.StatusCode != http.StatusRequestEntityTooLarge || ed.ErrorCode != "TOO_LARGE" || ed.Details["max_batch_entries"] != float64(wire.MaxBatchEntries) {
		t.Errorf("a batch of %d messages: %d %.300s", len(over), resp.StatusCode, b)
	}
	// The same bound holds without the API's admission in front.
	direct := httptest.NewServer(mcpserver.Handler(newPipeline(t), mcpserver.Options{}))
	t.Cleanup(direct.Close)
	req, _ := http.NewRequest("POST", direct.URL, strings.NewReader("["+strings.Join(over, ",")+"]"))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	dr, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	dr.Body.Close()
	if dr.StatusCode != http.StatusRequestEntityTooLarge {
		t.Errorf("a batch of %d messages straight to the handler: %d", len(over), dr.StatusCode)
	}
}

// Over stdio a batch of more than wire.MaxBatchEntries messages is answered
// with one JSON-RPC error carrying the TOO_LARGE envelope, and the session
// goes on: the message after it is answered.
func TestStdioBatchBound(t *testing.T) {
	list := `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`
	over := make([]string, wire.MaxBatchEntries+1)
	for i := range over {
		over[i] = fmt.Sprintf(list, 100+i)
	}
	in := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		"[" + strings.Join(over, ",") + "]",
		fmt.Sprintf(list, 2),
	}, "\n") + "\n"
	var out lockedBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- mcpserver.ServeStdio(ctx, newPipeline(t), mcpserver.Options{}, pr, &out) }()
	io.WriteString(pw, in)
	// The session answers while its input is open: wait for the last
	// answer (or the deadline), then end it.
	for ctx.Err() == nil && !strings.Contains(out.String(), `"id":2,`) {
		time.Sleep(10 * time.Millisecond)
	}
	pw.Close()
	<-done
	var refused, listed int
	for _, line := range strings.Split(strings.TrimSpace(out.String()), "\n") {
		var msg struct {
			ID     json.RawMessage `json:"id"`
			Result *struct {
				Tools []json.RawMessage `json:"tools"`
			} `json:"result"`
			Error *struct {
				Data envelope `json:"data"`
			} `json:"error"`
		}
		if err := json.Unmarshal([]byte(line), &msg); err != nil {
			t.Fatalf("not a JSON-RPC line: %.200q", line)
		}
		var ed errorData
		switch {
		case msg.Error != nil && string(msg.ID) == "null" && json.Unmarshal(msg.Error.Data.Data, &ed) == nil && ed.ErrorCode == "TOO_LARGE":
			refused++
		case string(msg.ID) == "2" && msg.Result != nil && len(msg.Result.Tools) > 0:
			listed++
		case string(msg.ID) != "1":
			t.Errorf("unexpected answer %.300s", line)
		}
	}
	if refused != 1 || listed != 1 {
		t.Errorf("%d refusals and %d tool lists in %.600s", refused, listed, out.String())
	}
}

// rpcAnswer is one JSON-RPC answer, as a test reads it.
type rpcAnswer struct {
	ID     json.RawMessage `json:"id"`
	Result *struct {
		Tools []json.RawMessage `json:"tools"`
	} `json:"result"`
	Error *struct {
		Code int64    `json:"code"`
		Data envelope `json:"data"`
	} `json:"error"`
}

// errorCode is the response-v2 error_code an answer's error carries.
func (a rpcAnswer) errorCode() string {
	var ed errorData
	if a.Error != nil {
		json.Unmarshal(a.Error.Data.Data, &ed)
	}
	return ed.ErrorCode
}

// stdioSession writes lines to a stdio session, one a line, waits until
// every id in awaited has a result (or 30 s), then closes the session's
// input. The session answers requests concurrently, so the last line's
// answer can come before those of the lines before it. It returns the
// output's lines, and whether the session ended before its input was closed.
func stdioSession(t *testing.T, opts mcpserver.Options, lines []string, awaited ...string) (out []string, endedEarly bool) {
	t.Helper()
	var buf lockedBuffer
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- mcpserver.ServeStdio(ctx, newPipeline(t), opts, pr, &buf) }()
	go io.WriteString(pw, strings.Join(lines, "\n")+"\n")
	answered := func() bool {
		results := resultIDs(strings.Split(buf.String(), "\n"))
		for _, id := range awaited {
			if !results[id] {
				return false
			}
		}
		return true
	}
	for ctx.Err() == nil && !answered() {
		select {
		case err := <-done:
			endedEarly = true
			t.Logf("the session ended: %v", err)
		case <-time.After(10 * time.Millisecond):
		}
		if endedEarly {
			break
		}
	}
	pw.Close()
	if !endedEarly {
		<-done
	}
	return strings.Split(strings.TrimSpace(buf.String()), "\n"), endedEarly
}

// answersOf returns the answers of one output line, an answer alone or a
// batch's array, and whether the line is either.
func answersOf(line string) ([]rpcAnswer, bool) {
	var many []rpcAnswer
	if json.Unmarshal([]byte(line), &many) == nil {
		return many, true
	}
	var one rpcAnswer
	if json.Unmarshal([]byte(line), &one) == nil {
		return []rpcAnswer{one}, true
	}
	return nil, false
}

// resultIDs are the ids of the answers with a result among the complete
// lines of a session's output, an answer alone or in a batch's array.
func resultIDs(lines []string) map[string]bool {
	ids := map[string]bool{}
	for _, l := range lines {
		many, _ := answersOf(l)
		for _, a := range many {
			if a.Result != nil {
				ids[string(a.ID)] = true
			}
		}
	}
	return ids
}

// Over stdio no line ends the session: a line that is not JSON is a parse
// error (-32700), a message or batch element that is not a JSON-RPC message,
// an empty batch and a line over the size bound are invalid requests
// (-32600), each answered at once; a batch's good elements still run. The
// message after them all is answered.
func TestStdioBadLinesKeepTheSession(t *testing.T) {
	const list = `{"jsonrpc":"2.0","id":%d,"method":"tools/list"}`
	const maxLine = 4 << 10
	type want struct {
		code      int64
		errorCode string
	}
	cases := []struct {
		name string
		line string
		want []want // the answer's errors, in order; one answer line, an array when the line is a batch
	}{
		{"not JSON", `{"jsonrpc":"2.0","id":3,"method":`, []want{{-32700, "INVALID_FORMAT"}}},
		{"two values on a line", fmt.Sprintf(list, 4) + " " + fmt.Sprintf(list, 5), []want{{-32700, "INVALID_FORMAT"}}},
		{"a number", `1`, []want{{-32600, "INVALID_FORMAT"}}},
		{"an object of no message", `{"jsonrpc":"1.0","id":6,"method":"tools/list"}`, []want{{-32600, "INVALID_FORMAT"}}},
		{"an empty batch", `[]`, []want{{-32600, "INVALID_FORMAT"}}},
		{"a batch of non-objects", `[1,"x",null]`, []want{{-32600, "INVALID_FORMAT"}, {-32600, "INVALID_FORMAT"}, {-32600, "INVALID_FORMAT"}}},
		{"a batch with one bad element", "[" + fmt.Sprintf(list, 7) + `,"x"]`, []want{{-32600, "INVALID_FORMAT"}}},
		{"a batch with an id twice", "[" + fmt.Sprintf(list, 8) + "," + fmt.Sprintf(list, 8) + "]", []want{{-32600, "INVALID_FORMAT"}}},
		{"a line over the bound", `{"jsonrpc":"2.0","id":9,"method":"ping","params":{"_meta":{"x":"` + strings.Repeat("x", maxLine) + `"}}}`, []want{{-32600, "TOO_LARGE"}}},
	}
	lines := []string{
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
	}
	for _, c := range cases {
		lines = append(lines, c.line)
	}
	lines = append(lines, fmt.Sprintf(list, 2))
	out, endedEarly := stdioSession(t, mcpserver.Options{MaxBodyBytes: maxLine}, lines, "2", "7", "8")
	if endedEarly {
		t.Fatalf("the session ended early; it wrote:\n%.2000s", strings.Join(out, "\n"))
	}
	// The answers of the good batch elements (ids 7 and 8) and of the
	// initialize come between; the error answers keep the lines' order.
	var errs [][]rpcAnswer
	listed := map[string]bool{}
	for _, l := range out {
		many, ok := answersOf(l)
		if !ok {
			t.Fatalf("not a JSON-RPC line: %.200q", l)
		}
		if many[0].Error != nil {
			errs = append(errs, many)
		}
		for _, a := range many {
			if a.Result != nil && len(a.Result.Tools) > 0 {
				listed[string(a.ID)] = true
			}
		}
	}
	if len(errs) != len(cases) {
		t.Fatalf("%d error answers for %d bad lines:\n%.3000s", len(errs), len(cases), strings.Join(out, "\n"))
	}
	for i, c := range cases {
		got := errs[i]
		if len(got) != len(c.want) {
			t.Errorf("%s: %d errors, want %d", c.name, len(got), len(c.want))
			continue
		}
		for k, w := range c.want {
			if got[k].Error.Code != w.code || got[k].errorCode() != w.errorCode {
				t.Errorf("%s: error %d is %d %s, want %d %s", c.name, k, got[k].Error.Code, got[k].errorCode(), w.code, w.errorCode)
			}
		}
	}
	if id := string(errs[3][0].ID); id != "6" {
		t.Errorf("an object of no message with id 6 answered to id %s", id)
	}
	for _, id := range []string{"2", "7", "8"} {
		if !listed[id] {
			t.Errorf("no tool list for id %s:\n%.3000s", id, strings.Join(out, "\n"))
		}
	}
}

// A session that speaks a revision without batches (2025-06-18 and later,
// or one the SDK does not speak and answers with its latest) gets an
// invalid-request error for a batch, and goes on.
func TestStdioBatchlessRevision(t *testing.T) {
	for _, version := range []string{"2025-06-18", "1999-01-01"} {
		t.Run(version, func(t *testing.T) {
			lines := []string{
				`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`,
				`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
				`[{"jsonrpc":"2.0","id":3,"method":"tools/list"}]`,
				`{"jsonrpc":"2.0","id":2,"method":"tools/list"}`,
			}
			out, endedEarly := stdioSession(t, mcpserver.Options{}, lines, "2")
			if endedEarly {
				t.Fatalf("the session ended early; it wrote:\n%.2000s", strings.Join(out, "\n"))
			}
			refused := false
			for _, l := range out {
				var a rpcAnswer
				json.Unmarshal([]byte(l), &a)
				if a.Error != nil && a.Error.Code == -32600 && string(a.ID) == "null" && a.errorCode() == "INVALID_FORMAT" {
					refused = true
				}
				if string(a.ID) == "3" {
					t.Errorf("the batch ran: %.300s", l)
				}
			}
			if !refused {
				t.Errorf("no invalid-request answer:\n%.2000s", strings.Join(out, "\n"))
			}
		})
	}
}

// Over HTTP, a batch of elements that are not JSON-RPC messages is answered
// with an invalid-request error (-32600, id null) for each, not 202 with no
// body; a good element beside them runs.
func TestBatchOfNonMessages(t *testing.T) {
	srv := newHTTPServer(t)
	for _, c := range []struct {
		body  string
		codes []int64
	}{
		{`[1,"x",null]`, []int64{-32600, -32600, -32600}},
		{`[{"jsonrpc":"2.0","id":1,"method":"tools/list"},{}]`, []int64{0, -32600}},
	} {
		resp, b := postMCP(t, srv.URL, c.body)
		var answers []rpcAnswer
		if err := json.Unmarshal(b, &answers); err != nil || resp.StatusCode != 200 || len(answers) != len(c.codes) {
			t.Errorf("%s: %d %.500s (%v)", c.body, resp.StatusCode, b, err)
			continue
		}
		for i, a := range answers {
			switch {
			case c.codes[i] == 0 && (a.Result == nil || len(a.Result.Tools) == 0):
				t.Errorf("%s: answer %d is no tool list: %.300s", c.body, i, b)
			case c.codes[i] != 0 && (a.Error == nil || a.Error.Code != c.codes[i] || string(a.ID) != "null" || a.errorCode() != "INVALID_FORMAT"):
				t.Errorf("%s: answer %d: %.300s", c.body, i, b)
			}
		}
	}
}
