package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/digestd/digestd/wire"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/getkin/kin-openapi/openapi3filter"
	"github.com/getkin/kin-openapi/routers"
	"github.com/getkin/kin-openapi/routers/gorillamux"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/fault"
)

// The conformance suite starts "digestd serve" on 127.0.0.1, as a user
// would, and checks every point of the response-v2 contract over HTTP and
// MCP; every HTTP answer of a route in openapi.yaml is validated against it.

const conformanceKey = "conformance-test-key"

// server is a running digestd and the client side of the contract.
type server struct {
	t      *testing.T
	base   string
	router routers.Router
	dir    string
}

func startServer(t *testing.T, flags ...string) *server {
	t.Helper()
	dir := t.TempDir()
	ctx, cancel := context.WithCancel(context.Background())
	pr, pw := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, append([]string{"serve", "--addr", "127.0.0.1:0", "--archive", filepath.Join(dir, "archive"),
			"--api-key-hashes", api.HashAPIKey(conformanceKey), "--rate-limit", "0"}, flags...), strings.NewReader(""), pw, io.Discard)
		pw.Close()
	}()
	t.Cleanup(func() {
		cancel()
		<-done
	})
	line, err := bufio.NewReader(pr).ReadString('\n')
	if err != nil || !strings.HasPrefix(line, "digestd listening on ") {
		t.Fatalf("serve did not start: %q %v", line, err)
	}
	go io.Copy(io.Discard, pr)
	addr := strings.TrimSpace(strings.TrimPrefix(line, "digestd listening on "))
	if !strings.HasPrefix(addr, "127.0.0.1:") {
		t.Fatalf("listening on %s, want loopback", addr)
	}
	doc, err := openapi3.NewLoader().LoadFromData(digestd.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	doc.Servers = openapi3.Servers{{URL: "http://" + addr}}
	router, err := gorillamux.NewRouter(doc)
	if err != nil {
		t.Fatal(err)
	}
	return &server{t: t, base: "http://" + addr, router: router, dir: dir}
}

// answer is one HTTP exchange, its envelope decoded.
type answer struct {
	status int
	header http.Header
	body   []byte
	env    struct {
		Success bool            `json:"success"`
		Data    json.RawMessage `json:"data"`
		Error   *string         `json:"error"`
		Meta    struct {
			Version        string   `json:"version"`
			RequestID      string   `json:"request_id"`
			ToolID         string   `json:"tool_id"`
			ToolVersion    string   `json:"tool_version"`
			Capabilities   []string `json:"capabilities"`
			Warnings       []string `json:"warnings"`
			WarningDetails []struct {
				Code     string `json:"code"`
				Severity string `json:"severity"`
				Message  string `json:"message"`
			} `json:"warning_details"`
			ContentFidelity      string            `json:"content_fidelity"`
			DroppedContentIDs    []string          `json:"dropped_content_ids"`
			ContentArchiveHashes map[string]string `json:"content_archive_hashes"`
			Pagination           *struct {
				Cursor *string `json:"cursor"`
			} `json:"pagination"`
		} `json:"meta"`
	}
	errData struct {
		ErrorCode string         `json:"error_code"`
		ErrorType string         `json:"error_type"`
		Retryable bool           `json:"retryable"`
		Details   map[string]any `json:"details"`
	}
}

// do sends a request (with the API key unless noKey) and checks what every
// answer must hold: a response-v2 envelope with the full meta, the tool id
// wantTool, and agreement with openapi.yaml for the routes it describes.
func (s *server) do(method, path, contentType string, body []byte, wantTool string, header ...string) *answer {
	t := s.t
	t.Helper()
	req, _ := http.NewRequest(method, s.base+path, bytes.NewReader(body))
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	req.Header.Set("Authorization", "Bearer "+conformanceKey)
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
		if header[i] == "Authorization" && header[i+1] == "" {
			req.Header.Del("Authorization")
		}
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatalf("%s %s: %v", method, path, err)
	}
	defer resp.Body.Close()
	a := &answer{status: resp.StatusCode, header: resp.Header}
	a.body, _ = io.ReadAll(resp.Body)
	// An archived blob is served as its exact bytes, not in an envelope.
	if method == "HEAD" || resp.StatusCode < 300 && wantTool == wire.ToolGetArchiveBlob || resp.StatusCode == 304 {
		return a
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		t.Errorf("%s %s → %d: Content-Type %q, want an envelope", method, path, resp.StatusCode, ct)
		return a
	}
	if err := json.Unmarshal(a.body, &a.env); err != nil {
		t.Fatalf("%s %s → %d: not an envelope: %v %s", method, path, resp.StatusCode, err, a.body)
	}
	m := a.env.Meta
	if m.Version != "response-v2" || m.RequestID == "" || m.ToolID != wantTool || m.ToolVersion != digestd.Version || !slices.Equal(m.Capabilities, wire.Capabilities()) {
		t.Errorf("%s %s: meta version %q request_id %q tool_id %q (want %q) tool_version %q capabilities %v",
			method, path, m.Version, m.RequestID, m.ToolID, wantTool, m.ToolVersion, m.Capabilities)
	}
	if len(m.Warnings) != len(m.WarningDetails) {
		t.Errorf("%s %s: %d warnings, %d details", method, path, len(m.Warnings), len(m.WarningDetails))
	}
	for i, wd := range m.WarningDetails {
		if wd.Severity != wire.WarningSeverity(fault.Warning(wd.Code)) || m.Warnings[i] != wd.Message || wd.Message == wd.Code {
			t.Errorf("%s %s: warning %d %+v, message %q", method, path, i, wd, m.Warnings[i])
		}
	}
	if a.env.Success == (a.env.Error != nil) || a.env.Success != (resp.StatusCode < 400) {
		t.Errorf("%s %s → %d: success %t, error %v", method, path, resp.StatusCode, a.env.Success, a.env.Error)
	}
	if !a.env.Success {
		json.Unmarshal(a.env.Data, &a.errData)
		if a.errData.ErrorCode == "" || a.errData.ErrorType == "" {
			t.Errorf("%s %s → %d: error data incomplete: %s", method, path, resp.StatusCode, a.body)
		}
		if st, typ, _, retry := wire.Classify(fault.Code(a.errData.ErrorCode)); st != resp.StatusCode || typ != a.errData.ErrorType || retry != a.errData.Retryable {
			t.Errorf("%s %s: %s answered %d %s retryable %t; the error table says %d %s %t", method, path, a.errData.ErrorCode, resp.StatusCode, a.errData.ErrorType, a.errData.Retryable, st, typ, retry)
		}
		_, _, remediation, _ := wire.Classify(fault.Code(a.errData.ErrorCode))
		for _, name := range wire.NamedDetails(remediation) {
			if _, ok := a.errData.Details[name]; !ok {
				t.Errorf("%s %s: %s's remediation points to details.%s, which the answer does not carry: %s", method, path, a.errData.ErrorCode, name, a.body)
			}
		}
	}
	s.validate(req, body, a)
	return a
}

// validate checks an answer against openapi.yaml when it describes the route.
func (s *server) validate(req *http.Request, body []byte, a *answer) {
	t := s.t
	t.Helper()
	vreq, _ := http.NewRequest(req.Method, req.URL.String(), bytes.NewReader(body))
	vreq.Header = req.Header.Clone()
	route, params, err := s.router.FindRoute(vreq)
	if err != nil {
		return // /mcp and unknown routes are not in openapi.yaml
	}
	in := &openapi3filter.ResponseValidationInput{
		RequestValidationInput: &openapi3filter.RequestValidationInput{Request: vreq, PathParams: params, Route: route,
			Options: &openapi3filter.Options{AuthenticationFunc: openapi3filter.NoopAuthenticationFunc}},
		Status: a.status, Header: a.header,
		Options: &openapi3filter.Options{IncludeResponseStatus: true, MultiError: true},
	}
	in.SetBodyBytes(a.body)
	if err := openapi3filter.ValidateResponse(context.Background(), in); err != nil {
		t.Errorf("%s %s → %d does not match openapi.yaml: %v\n%.400s", req.Method, req.URL.Path, a.status, err, a.body)
	}
}

func (s *server) data(a *answer, v any) {
	s.t.Helper()
	if err := json.Unmarshal(a.env.Data, v); err != nil {
		s.t.Fatalf("data: %v %s", err, a.body)
	}
}

func jsonBody(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

const conformanceText = "Mother-to-child transmission (MTCT) is the main cause of HIV-1 infection in children. " +
	"Placental DC-SIGNR plays a crucial role in MTCT. Breastfeeding adds to the risk after birth. " +
	"Antiretroviral therapy in pregnancy lowers the rate of transmission."

func TestConformance(t *testing.T) {
	s := startServer(t)

	// Envelope and meta on a digest; warnings are messages with severities.
	a := s.do("POST", "/v1/digest", "application/json", jsonBody(map[string]any{"query": "what causes MTCT?", "source": map[string]any{"text": conformanceText}}), "digest_source")
	var dd wire.DigestData
	s.data(a, &dd)
	if a.status != 200 || dd.Digest == nil {
		t.Fatalf("digest: %d %s", a.status, a.body)
	}
	textHash := dd.Source.ArchiveHash.String()
	s.do("POST", "/v1/digest?query=zzzz+qqqq", "text/plain", []byte(conformanceText), "digest_source") // NO_QUERY_MATCH: info

	// Authentication: 401 is error_type authentication, in an envelope.
	a = s.do("GET", "/v1/sources", "", nil, "list_sources", "Authorization", "")
	if a.status != 401 || a.errData.ErrorType != "authentication" {
		t.Errorf("no key: %d %+v", a.status, a.errData)
	}

	// Several sources: archive hashes are digest hashes, failures partial,
	// budgets a ceiling, four disclosure levels.
	var sources []map[string]string
	for i := 0; i < 6; i++ {
		sources = append(sources, map[string]string{"id": fmt.Sprintf("s%d", i), "text": fmt.Sprintf("Note %d. %s %s", i, conformanceText, strings.Repeat("Other words fill this note. ", 40))})
	}
	sources = append(sources, map[string]string{"id": "gone", "archive": "sha256:" + strings.Repeat("ab", 32)})
	a = s.do("POST", "/v1/digests", "application/json", jsonBody(map[string]any{"query": "what causes MTCT?", "sources": sources, "budget": map[string]int{"max_chars": 1500}}), "digest_sources")
	var many struct {
		Digests []json.RawMessage `json:"digests"`
		Failed  []struct {
			ID   string `json:"id"`
			Code string `json:"error_code"`
		} `json:"failed"`
	}
	s.data(a, &many)
	sent := 0
	for _, d := range many.Digests {
		sent += utf8.RuneCount(d)
	}
	if a.status != 200 || sent > 1500 || len(many.Failed) != 1 || many.Failed[0].ID != "gone" {
		t.Errorf("digests: %d, %d chars of items for 1500, failed %+v", a.status, sent, many.Failed)
	}
	codes := map[string]string{}
	for _, wd := range a.env.Meta.WarningDetails {
		codes[wd.Code] = wd.Severity
	}
	if codes["PARTIAL_FAILURE"] != "warning" || codes["CONTENT_TRUNCATED"] != "info" || len(a.env.Meta.DroppedContentIDs) == 0 {
		t.Errorf("warnings %v, dropped %v", codes, a.env.Meta.DroppedContentIDs)
	}
	if len(a.env.Meta.ContentArchiveHashes) != 6 {
		t.Errorf("content_archive_hashes %v", a.env.Meta.ContentArchiveHashes)
	}
	for _, id := range a.env.Meta.DroppedContentIDs {
		blob := s.do("GET", "/v1/archive/"+a.env.Meta.ContentArchiveHashes[id], "", nil, "get_archive_blob")
		var stored struct {
			Payload struct {
				SourceTextHash string `json:"source_text_hash"`
			} `json:"payload"`
		}
		if blob.status != 200 || json.Unmarshal(blob.body, &stored) != nil || !strings.HasPrefix(stored.Payload.SourceTextHash, "sha256:") {
			t.Errorf("dropped %s: its content_archive_hashes value does not retrieve its digest: %d", id, blob.status)
			continue
		}
		if head := s.do("HEAD", "/v1/archive/"+stored.Payload.SourceTextHash, "", nil, ""); head.status != 200 {
			t.Errorf("dropped %s: the digest's source_text_hash is not archived", id)
		}
	}
	for detail, keys := range map[string][]string{
		"ids_only": {"archive_hash", "digest_hash", "id", "rank", "score"},
		"metadata": {"archive_hash", "digest_hash", "fidelity", "id", "kind", "original_chars", "rank", "score"},
	} {
		a = s.do("POST", "/v1/digests", "application/json", jsonBody(map[string]any{"query": "MTCT", "sources": sources[:2], "detail": detail}), "digest_sources")
		var items struct {
			Digests []map[string]any `json:"digests"`
		}
		s.data(a, &items)
		for _, it := range items.Digests {
			var got []string
			for k := range it {
				got = append(got, k)
			}
			slices.Sort(got)
			if !slices.Equal(got, keys) {
				t.Errorf("detail %s: item fields %v, want %v", detail, got, keys)
			}
		}
	}
	// The levels nest: every field of a level is in the level above.
	var below []string
	for _, detail := range []string{"ids_only", "metadata", "summary", "full"} {
		a = s.do("POST", "/v1/digests", "application/json", jsonBody(map[string]any{"query": "MTCT", "sources": sources[:1], "detail": detail}), "digest_sources")
		var items struct {
			Digests []map[string]any `json:"digests"`
		}
		s.data(a, &items)
		var got []string
		for k := range items.Digests[0] {
			got = append(got, k)
		}
		for _, k := range below {
			if !slices.Contains(got, k) {
				t.Errorf("detail %s: item fields %v lack %s, which the level below has", detail, got, k)
			}
		}
		if len(got) <= len(below) {
			t.Errorf("detail %s adds nothing to the level below: %v", detail, got)
		}
		below = got
	}
	a = s.do("POST", "/v1/digests", "application/json", jsonBody(map[string]any{"query": "MTCT", "sources": sources[:1], "detail": "preview", "fields": []string{"digest", "nope"}}), "digest_sources")
	if a.status != 400 || a.errData.ErrorCode != "INVALID_FIELDS" || fmt.Sprint(a.errData.Details["invalid_fields"]) != "[digest nope]" || a.errData.Details["allowed_fields"] == nil {
		t.Errorf("INVALID_FIELDS: %d %s", a.status, a.body)
	}

	// Options: zero is zero where allowed, out of range and unknown
	// parameters are VALIDATION_ERROR.
	a = s.do("POST", "/v1/digest?query=MTCT&max_key_points=0", "text/plain", []byte(conformanceText), "digest_source")
	s.data(a, &dd)
	if a.status != 200 || len(dd.Digest.KeyPoints) != 0 {
		t.Errorf("max_key_points=0: %d, %d key points", a.status, len(dd.Digest.KeyPoints))
	}
	for _, target := range []string{"/v1/digest?query=MTCT&max_evidence=0", "/v1/digest?query=MTCT&colour=red"} {
		if a = s.do("POST", target, "text/plain", []byte(conformanceText), "digest_source"); a.status != 400 || a.errData.ErrorCode != "VALIDATION_ERROR" {
			t.Errorf("%s: %d %s", target, a.status, a.body)
		}
	}

	// Verify: required fields required, derived numbers checked.
	a = s.do("POST", "/v1/verify", "application/json", []byte(`{"digest":{"version":"1.0","content_type":"digest/v1"}}`), "verify_digest")
	if a.status != 400 || a.errData.ErrorCode != "MISSING_REQUIRED" {
		t.Errorf("verify without fields: %d %s", a.status, a.body)
	}
	bad := *dd.Digest
	bad.OriginalChars++
	a = s.do("POST", "/v1/verify", "application/json", jsonBody(map[string]any{"digest": bad}), "verify_digest")
	if a.status != 200 || strings.Contains(string(a.body), `"verified":true`) {
		t.Errorf("verify with a wrong original_chars: %d %s", a.status, a.body)
	}

	// Locate and check: a source that cannot be read fails alone.
	for route, body := range map[string]map[string]any{
		"/v1/locate": {"quotes": []string{"plays a crucial role in MTCT"}},
		"/v1/check":  {"report": `DC-SIGNR "plays a crucial role in MTCT" [text].`},
	} {
		body["sources"] = []map[string]string{{"id": "text", "archive": textHash}, {"id": "gone", "archive": "sha256:" + strings.Repeat("ab", 32)}}
		tool := map[string]string{"/v1/locate": "locate_quotes", "/v1/check": "check_citations"}[route]
		a = s.do("POST", route, "application/json", jsonBody(body), tool)
		var part struct {
			Failed []struct {
				ID   string `json:"id"`
				Code string `json:"error_code"`
			} `json:"failed"`
		}
		s.data(a, &part)
		partial := false
		for _, wd := range a.env.Meta.WarningDetails {
			partial = partial || wd.Code == "PARTIAL_FAILURE"
		}
		if a.status != 200 || len(part.Failed) != 1 || part.Failed[0].ID != "gone" || part.Failed[0].Code != "NOT_FOUND" || !partial {
			t.Errorf("%s with one source missing: %d %s", route, a.status, a.body)
		}
	}

	// A body declared as anything but JSON is 415 on every JSON route, /mcp
	// included, naming the types the route takes.
	for route, tool := range map[string]string{"/v1/digests": "digest_sources", "/v1/locate": "locate_quotes", "/v1/check": "check_citations", "/v1/verify": "verify_digest", "/mcp": "digestd"} {
		for _, ctype := range []string{"application/xml", "text/plain"} {
			a = s.do("POST", route, ctype, []byte(`{}`), tool, "Accept", "application/json, text/event-stream")
			if a.status != 415 || a.errData.ErrorCode != "UNSUPPORTED_MEDIA_TYPE" || fmt.Sprint(a.errData.Details["accepted_content_types"]) != "[application/json]" {
				t.Errorf("%s as %s: %d %s", route, ctype, a.status, a.body)
			}
		}
	}

	// Archive reads, a bad Range, listings and their cursors.
	if a = s.do("GET", "/v1/archive/"+textHash+"/slice?start=0&end=6", "", nil, "get_archived_text"); a.status != 200 {
		t.Errorf("slice: %d", a.status)
	}
	a = s.do("GET", "/v1/archive/"+textHash, "", nil, "get_archive_blob", "Range", "bytes=100000-100010")
	if a.status != 416 || a.errData.ErrorCode != "RANGE_NOT_SATISFIABLE" {
		t.Errorf("bad Range: %d %s", a.status, a.body)
	}
	a = s.do("GET", "/v1/sources?limit=1", "", nil, "list_sources")
	if a.status != 200 || a.env.Meta.Pagination == nil || a.env.Meta.Pagination.Cursor == nil {
		t.Fatalf("sources: %d %s", a.status, a.body)
	}
	httpCursor := *a.env.Meta.Pagination.Cursor
	if a = s.do("GET", "/v1/sources?cursor="+httpCursor[:len(httpCursor)-2]+"xx", "", nil, "list_sources"); a.status != 400 || a.errData.ErrorCode != "INVALID_CURSOR" {
		t.Errorf("tampered cursor: %d %s", a.status, a.body)
	}
	s.do("GET", "/v1/sources/"+textHash, "", nil, "get_source")

	// Health and stats.
	a = s.do("GET", "/v1/health", "", nil, "get_service_health")
	var health struct {
		Status          string         `json:"status"`
		HealthyServices int            `json:"healthy_services"`
		TotalServices   int            `json:"total_services"`
		Components      map[string]any `json:"components"`
	}
	s.data(a, &health)
	if a.status != 200 || health.Status != "healthy" || health.TotalServices != len(health.Components) || health.HealthyServices != health.TotalServices {
		t.Errorf("health: %d %+v", a.status, health)
	}
	a = s.do("GET", "/v1/stats", "", nil, "get_cache_stats")
	var stats wire.CacheStats
	s.data(a, &stats)
	if stats.TotalRequests < 3 || stats.CacheHits+stats.CacheMisses != stats.TotalRequests || stats.HitRate < 0 || stats.HitRate > 1 {
		t.Errorf("stats %+v", stats)
	}

	// Errors the router and the MCP transport answer are envelopes too.
	if a = s.do("GET", "/v1/nothing-here", "", nil, "digestd"); a.status != 404 {
		t.Errorf("unknown route: %d", a.status)
	}
	if a = s.do("GET", "/mcp", "", nil, "digestd", "Accept", "application/json, text/event-stream"); a.status != 405 || a.errData.ErrorCode != "METHOD_NOT_ALLOWED" {
		t.Errorf("GET /mcp: %d %s", a.status, a.body)
	}
	a = s.do("POST", "/mcp", "application/json", []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), "digestd",
		"Host", "attacker.example", "Accept", "application/json, text/event-stream")
	if a.status != 403 || a.errData.ErrorCode != "FORBIDDEN" {
		t.Errorf("foreign Host on /mcp: %d %s", a.status, a.body)
	}
	a = s.do("POST", "/mcp", "application/json", []byte(`{"jsonrpc":"2.0","id":1,"method":"ping"}`), "digestd",
		"Origin", "http://attacker.example", "Accept", "application/json, text/event-stream")
	if a.status != 403 || a.errData.ErrorCode != "FORBIDDEN" {
		t.Errorf("foreign Origin on /mcp: %d %s", a.status, a.body)
	}
	own, _ := http.NewRequest("POST", s.base+"/mcp", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	for k, v := range map[string]string{"Origin": s.base, "Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Authorization": "Bearer " + conformanceKey} {
		own.Header.Set(k, v)
	}
	if resp, err := http.DefaultClient.Do(own); err != nil || resp.StatusCode != 200 {
		t.Errorf("the server's own Origin on /mcp: %v %v", resp, err)
	} else {
		resp.Body.Close()
	}

	// The same contract over MCP, on the same server.
	conformanceMCP(t, s, httpCursor)

	// A lost archive directory: a new digest is UNAVAILABLE (not NOT_FOUND),
	// and health is unhealthy, success false, with the component statuses.
	if err := os.RemoveAll(filepath.Join(s.dir, "archive")); err != nil {
		t.Fatal(err)
	}
	a = s.do("POST", "/v1/digest?query=MTCT", "text/plain", []byte("A text never seen before."), "digest_source")
	if a.status != 503 || a.errData.ErrorCode != "UNAVAILABLE" {
		t.Errorf("digest into a lost archive: %d %s", a.status, a.body)
	}
	a = s.do("GET", "/v1/health", "", nil, "get_service_health")
	s.data(a, &health)
	if a.status != 503 || a.errData.ErrorCode != "UNAVAILABLE" || health.Status != "unhealthy" || health.HealthyServices >= health.TotalServices || len(health.Components) == 0 {
		t.Errorf("health of a lost archive: %d %s", a.status, a.body)
	}
}

// TestConformanceRateLimit: a limited client gets the RateLimit header
// fields, RateLimit-Reset in seconds until the window resets (not a time),
// and 429 in an envelope past the limit.
func TestConformanceRateLimit(t *testing.T) {
	s := startServer(t, "--rate-limit", "2", "--rate-window", "1m")
	for i := range 3 {
		a := s.do("GET", "/v1/sources", "", nil, "list_sources")
		reset, err := strconv.Atoi(a.header.Get("RateLimit-Reset"))
		if err != nil || reset < 0 || reset > 60 || a.header.Get("RateLimit-Limit") != "2" {
			t.Errorf("request %d: RateLimit-Limit %q, RateLimit-Reset %q, want 2 and the seconds until the window resets",
				i, a.header.Get("RateLimit-Limit"), a.header.Get("RateLimit-Reset"))
		}
		if want := map[bool]int{true: 200, false: 429}[i < 2]; a.status != want {
			t.Errorf("request %d: %d, want %d", i, a.status, want)
		}
	}
}

// keyTransport adds the API key to every request.
type keyTransport struct{}

func (keyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("Authorization", "Bearer "+conformanceKey)
	return http.DefaultTransport.RoundTrip(r)
}

func conformanceMCP(t *testing.T, s *server, httpCursor string) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	client := mcp.NewClient(&mcp.Implementation{Name: "conformance", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.base + "/mcp", HTTPClient: &http.Client{Transport: keyTransport{}}, MaxRetries: -1}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	call := func(tool string, args map[string]any) (bool, map[string]any) {
		t.Helper()
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: tool, Arguments: args})
		if err != nil {
			t.Fatalf("%s: %v", tool, err)
		}
		b, _ := json.Marshal(res.StructuredContent)
		var env map[string]any
		json.Unmarshal(b, &env)
		meta, _ := env["meta"].(map[string]any)
		if meta["version"] != "response-v2" || meta["tool_id"] != tool || meta["tool_version"] != digestd.Version || meta["capabilities"] == nil {
			t.Errorf("%s: meta %v", tool, meta)
		}
		details, _ := meta["warning_details"].([]any)
		warnings, _ := meta["warnings"].([]any)
		if len(details) != len(warnings) {
			t.Errorf("%s: %d warnings, %d details", tool, len(warnings), len(details))
		}
		for i, d := range details {
			wd := d.(map[string]any)
			if wd["severity"] != wire.WarningSeverity(fault.Warning(wd["code"].(string))) || warnings[i] != wd["message"] {
				t.Errorf("%s: warning %v / %v", tool, wd, warnings[i])
			}
		}
		return env["success"] == true && !res.IsError, env
	}
	sources := []map[string]any{
		{"id": "a", "text": conformanceText + strings.Repeat(" More words here.", 60)},
		{"id": "b", "text": "Placental DC-SIGNR plays a crucial role in MTCT." + strings.Repeat(" Filler sentence.", 60)},
		{"id": "gone", "archive": "sha256:" + strings.Repeat("cd", 32)},
	}
	ok, env := call("digest_sources", map[string]any{"query": "what causes MTCT?", "sources": sources, "budget": map[string]any{"max_chars": 700}, "detail": "full", "options": map[string]any{"max_evidence": 2}})
	meta := env["meta"].(map[string]any)
	if !ok || meta["content_fidelity"] == "full" || meta["content_fidelity_schema_version"] != "1.0" {
		t.Errorf("digest_sources: %v", env)
	}
	for id, h := range meta["content_archive_hashes"].(map[string]any) {
		if hs, _ := h.(string); !strings.HasPrefix(hs, "sha256:") {
			t.Errorf("content_archive_hashes[%s] = %v, want a hash string", id, h)
		}
	}
	var below []string
	for _, detail := range []string{"ids_only", "metadata", "summary", "full"} {
		ok, env = call("digest_sources", map[string]any{"query": "MTCT", "sources": sources[:1], "detail": detail})
		data, _ := env["data"].(map[string]any)
		items, _ := data["digests"].([]any)
		if !ok || len(items) != 1 {
			t.Fatalf("digest_sources at %s: %v", detail, env)
		}
		var got []string
		for k := range items[0].(map[string]any) {
			got = append(got, k)
		}
		for _, k := range below {
			if !slices.Contains(got, k) {
				t.Errorf("digest_sources at %s: item fields %v lack %s, which the level below has", detail, got, k)
			}
		}
		if len(got) <= len(below) {
			t.Errorf("digest_sources at %s adds nothing to the level below: %v", detail, got)
		}
		below = got
	}
	if ok, env = call("list_sources", map[string]any{"limit": 1, "cursor": httpCursor}); !ok {
		t.Errorf("list_sources with the API's cursor: %v", env)
	}
	if ok, env = call("list_sources", map[string]any{"cursor": "c291cmNlcy1ieS10aW1lLzAx"}); ok || env["data"].(map[string]any)["error_code"] != "INVALID_CURSOR" {
		t.Errorf("list_sources with a forged cursor: %v", env)
	}
	if ok, env = call("get_service_health", map[string]any{}); !ok || env["data"].(map[string]any)["total_services"] == nil {
		t.Errorf("get_service_health: %v", env)
	}
	if ok, env = call("get_cache_stats", map[string]any{}); !ok || env["data"].(map[string]any)["hit_rate"] == nil {
		t.Errorf("get_cache_stats: %v", env)
	}
	if ok, env = call("digest_source", map[string]any{"query": "MTCT", "source": map[string]any{"text": conformanceText}, "options": map[string]any{"summary_max_chars": 0}}); ok || env["data"].(map[string]any)["error_code"] != "VALIDATION_ERROR" {
		t.Errorf("digest_source with summary_max_chars 0: %v", env)
	}
}

// TestServeDefaultsToLoopback: with no --addr, serve listens on this
// machine only.
func TestServeDefaultsToLoopback(t *testing.T) {
	_, stderr, _ := runCLI(t, "", "serve", "--help")
	if !strings.Contains(stderr, `(default "127.0.0.1:8080")`) {
		t.Errorf("serve --help does not show the loopback default:\n%s", stderr)
	}
}

// readmeStdioConfig matches the README's stdio MCP client configuration.
var readmeStdioConfig = regexp.MustCompile("(?s)\\*\\*stdio\\.\\*\\*.*?```json\n(.*?)\n```")

// TestReadmeStdioConfig starts "digestd mcp" with the arguments of the
// README's client configuration (the archive moved into a temporary
// directory) and lists its tools over stdio, as a desktop client would.
func TestReadmeStdioConfig(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	m := readmeStdioConfig.FindSubmatch(readme)
	if m == nil {
		t.Fatal("the README has no stdio configuration")
	}
	var cfg struct {
		MCPServers map[string]struct {
			Command string   `json:"command"`
			Args    []string `json:"args"`
		} `json:"mcpServers"`
	}
	if err := json.Unmarshal(m[1], &cfg); err != nil {
		t.Fatalf("the README's stdio configuration is not JSON: %v", err)
	}
	server, ok := cfg.MCPServers["digestd"]
	if !ok || server.Command != "digestd" || len(server.Args) == 0 || server.Args[0] != "mcp" {
		t.Fatalf("configuration %+v: want the digestd command (installed by go install) with mcp", server)
	}
	args := slices.Clone(server.Args)
	for i := range args {
		if i > 0 && args[i-1] == "--archive" {
			args[i] = filepath.Join(t.TempDir(), "archive")
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() {
		done <- run(ctx, args, inR, outW, io.Discard)
		outW.Close()
	}()
	client := mcp.NewClient(&mcp.Implementation{Name: "readme", Version: "1"}, nil)
	cs, err := client.Connect(ctx, &mcp.IOTransport{Reader: outR, Writer: inW}, nil)
	if err != nil {
		t.Fatalf("connect over stdio: %v", err)
	}
	tools, err := cs.ListTools(ctx, nil)
	if err != nil || len(tools.Tools) < 5 {
		t.Fatalf("tools/list over stdio: %v %v", tools, err)
	}
	cs.Close()
	inW.Close()
	if err := <-done; err != nil {
		t.Errorf("digestd mcp: %v", err)
	}
}
