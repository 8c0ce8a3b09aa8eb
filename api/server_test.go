package api_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

// newTestServer returns a server over a fresh on-disk archive.
func newTestServer(t testing.TB, cfg api.Config) (http.Handler, *pipeline.Pipeline) {
	t.Helper()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	pipe := &pipeline.Pipeline{Ingester: &ingest.Ingester{MaxTextChars: 200_000}, Store: store}
	cfg.OpenAPI = digestd.OpenAPI
	if cfg.Logger == nil {
		cfg.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	if cfg.MaxBodyBytes == 0 {
		cfg.MaxBodyBytes = 1 << 20
	}
	return api.New(pipe, cfg).Handler(), pipe
}

type envelope struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Error   *string         `json:"error"`
	Meta    struct {
		Version   string `json:"version"`
		RequestID string `json:"request_id"`
		Telemetry struct {
			DurationMS *float64 `json:"duration_ms"`
			CacheHit   *bool    `json:"cache_hit"`
		} `json:"telemetry"`
		Warnings     []string `json:"warnings"`
		ToolID       string   `json:"tool_id"`
		ToolVersion  string   `json:"tool_version"`
		Capabilities []string `json:"capabilities"`
	} `json:"meta"`
}

type errorData struct {
	ErrorCode   string         `json:"error_code"`
	ErrorType   string         `json:"error_type"`
	Remediation string         `json:"remediation"`
	Retryable   bool           `json:"retryable"`
	Details     map[string]any `json:"details"`
}

func decodeEnvelope(t testing.TB, body []byte) envelope {
	t.Helper()
	var env envelope
	if err := json.Unmarshal(body, &env); err != nil {
		t.Fatalf("not JSON: %v: %.300s", err, body)
	}
	if env.Meta.Version != "response-v2" || env.Meta.RequestID == "" || env.Meta.Telemetry.DurationMS == nil {
		t.Fatalf("meta incomplete: %.300s", body)
	}
	if env.Meta.ToolID == "" || env.Meta.ToolVersion != digestd.Version || !slices.Contains(env.Meta.Capabilities, "verified-locators") {
		t.Fatalf("meta lacks tool_id, tool_version or capabilities: %.400s", body)
	}
	return env
}

func errorOf(t testing.TB, body []byte) errorData {
	t.Helper()
	env := decodeEnvelope(t, body)
	if env.Success || env.Error == nil {
		t.Fatalf("want an error envelope, got %.300s", body)
	}
	var ed errorData
	if err := json.Unmarshal(env.Data, &ed); err != nil {
		t.Fatal(err)
	}
	if ed.Remediation == "" || ed.ErrorType == "" {
		t.Errorf("error without remediation or type: %.300s", body)
	}
	for _, name := range wire.NamedDetails(ed.Remediation) {
		if _, ok := ed.Details[name]; !ok {
			t.Errorf("%s: the remediation points to details.%s, which the error does not carry: %.400s", ed.ErrorCode, name, body)
		}
	}
	return ed
}

// pyslice slices s by code points, as Python does.
func pyslice(s string, start, end int) string {
	r := []rune(s)
	return string(r[start:end])
}

const sampleText = `Mother-to-child transmission (MTCT) is the main cause of HIV-1 infection in children worldwide.
Café owners in São Paulo reported 3.5 million visits — 東京 had more. 🎉 Emoji and e\u0301 combining marks stay exact.
Placental DC-SIGNR expression plays a crucial role in MTCT of HIV-1, and impaired expression increases the risk of transmission.
The study enrolled 197 mother-child pairs in Harare, Zimbabwe, between 2002 and 2005.
Children born to infected mothers were tested at birth, at six weeks, and at six months of age.
`

func TestDigestTextVerifiesAgainstArchive(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	body := fmt.Sprintf(`{"query":"what causes MTCT?","source":{"text":%q}}`, sampleText)
	resp, b := c.do(t, h, "POST", "/v1/digest", "application/json", []byte(body))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	env := decodeEnvelope(t, b)
	var data wire.DigestData
	if err := json.Unmarshal(env.Data, &data); err != nil {
		t.Fatal(err)
	}
	if err := digest.Validate(data.Digest.Value()); err != nil {
		t.Fatalf("payload invalid: %v", err)
	}
	if len(data.Digest.EvidenceSnippets) == 0 {
		t.Fatal("no evidence snippets")
	}
	if !strings.Contains(data.Digest.EvidenceSnippets[0].Text, "MTCT") {
		t.Errorf("query did not steer the top snippet: %q", data.Digest.EvidenceSnippets[0].Text)
	}
	if data.Source.ArchiveHash.String() != data.Digest.SourceTextHash || data.Source.Kind != "text" {
		t.Errorf("source info %+v does not match the payload", data.Source)
	}
	// The archived text, sliced in code points, gives every snippet exactly.
	resp, text := c.do(t, h, "GET", "/v1/archive/"+data.Source.ArchiveHash.String(), "", nil)
	if resp.StatusCode != 200 || resp.Header.Get("ETag") != `"`+data.Source.ArchiveHash.String()+`"` {
		t.Fatalf("archive: %d %v", resp.StatusCode, resp.Header)
	}
	if digest.SourceTextHash(string(text)) != data.Digest.SourceTextHash {
		t.Fatal("archived text does not hash to source_text_hash")
	}
	for i, s := range data.Digest.EvidenceSnippets {
		loc, err := digest.ParseLocator(s.Locator)
		if err != nil {
			t.Fatal(err)
		}
		if got := pyslice(string(text), loc.Start, loc.End); got != s.Text {
			t.Errorf("snippet %d: text[%d:%d] = %q, want %q", i, loc.Start, loc.End, got, s.Text)
		}
	}
	// The same request again is a cache hit with the same data.
	_, b2 := c.do(t, h, "POST", "/v1/digest", "application/json", []byte(body))
	env2 := decodeEnvelope(t, b2)
	if env2.Meta.Telemetry.CacheHit == nil || !*env2.Meta.Telemetry.CacheHit {
		t.Error("second identical request was not a cache hit")
	}
	if string(env2.Data) != string(env.Data) {
		t.Error("cached response data differs")
	}
}

func TestDigestRawBodies(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	resp, b := c.do(t, h, "POST", "/v1/digest?query=Harare+study&max_evidence=2", "text/plain; charset=utf-8", []byte(sampleText))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var data wire.DigestData
	json.Unmarshal(decodeEnvelope(t, b).Data, &data)
	if n := len(data.Digest.EvidenceSnippets); n == 0 || n > 2 {
		t.Errorf("max_evidence=2 gave %d snippets", n)
	}
}

func TestDigestHTMLUploads(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	page := `<html><head><title>Harare study</title></head><body><nav>Menu Home About</nav><main><p>The study enrolled 197 mother-child pairs in Harare, Zimbabwe, between 2002 and 2005.</p><p>Children were tested at birth and at six weeks.</p></main></body></html>`
	for _, tc := range []struct {
		name, ctype, target, body string
	}{
		{"raw", "text/html; charset=utf-8", "/v1/digest?query=how+many+pairs", page},
		{"json", "application/json", "/v1/digest", `{"query":"how many pairs","source":{"html":` + mustJSON(page) + `}}`},
	} {
		resp, b := c.do(t, h, "POST", tc.target, tc.ctype, []byte(tc.body))
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", tc.name, resp.StatusCode, b)
		}
		var data wire.DigestData
		json.Unmarshal(decodeEnvelope(t, b).Data, &data)
		if data.Source.Kind != "html" || data.Source.Title != "Harare study" || !strings.Contains(data.Digest.EvidenceSnippets[0].Text, "197") {
			t.Errorf("%s: source %+v top snippet %q", tc.name, data.Source, data.Digest.EvidenceSnippets[0].Text)
		}
	}
}

func TestDigestErrors(t *testing.T) {
	h, _ := newTestServer(t, api.Config{MaxBodyBytes: 4096})
	c := loadContract(t)
	long := strings.Repeat("x", 5000)
	cases := []struct {
		name, ctype, body string
		status            int
		code, mention     string
	}{
		{"unknown field", "application/json", `{"query":"q","source":{"text":"hi"},"bogus":1}`, 400, "VALIDATION_ERROR", "bogus"},
		{"unknown nested field", "application/json", `{"query":"q","source":{"txt":"hi"}}`, 400, "VALIDATION_ERROR", "txt"},
		{"missing source", "application/json", `{"query":"q"}`, 400, "MISSING_REQUIRED", "source"},
		{"empty source", "application/json", `{"query":"q","source":{}}`, 400, "MISSING_REQUIRED", "source"},
		{"two sources", "application/json", `{"query":"q","source":{"text":"a","url":"http://x"}}`, 400, "VALIDATION_ERROR", "exactly one"},
		{"wrong type", "application/json", `{"query":5,"source":{"text":"a"}}`, 400, "VALIDATION_ERROR", "query"},
		{"malformed", "application/json", `{"query":`, 400, "INVALID_FORMAT", ""},
		{"empty body", "application/json", ``, 400, "MISSING_REQUIRED", ""},
		{"two values", "application/json", `{"source":{"text":"a"}} {}`, 400, "INVALID_FORMAT", ""},
		{"bad option", "application/json", `{"query":"q","source":{"text":"hello world"},"options":{"max_evidence":11}}`, 400, "VALIDATION_ERROR", "max_evidence"},
		{"bad archive hash", "application/json", `{"query":"q","source":{"archive":"sha256:abc"}}`, 400, "VALIDATION_ERROR", "source.archive"},
		{"missing archive", "application/json", `{"query":"q","source":{"archive":"` + strings.Repeat("ab", 32) + `"}}`, 404, "NOT_FOUND", ""},
		{"too large", "application/json", `{"query":"q","source":{"text":"` + long + `"}}`, 413, "TOO_LARGE", ""},
		{"no text", "application/json", `{"query":"q","source":{"text":" \n\t "}}`, 422, "NO_EXTRACTABLE_TEXT", ""},
		{"bad media type", "audio/mpeg", `<x/>`, 415, "UNSUPPORTED_MEDIA_TYPE", ""},
		{"duplicate key", "application/json", `{"query":"a","query":"b","source":{"text":"hello"}}`, 400, "INVALID_FORMAT", "twice"},
		{"duplicate nested key", "application/json", `{"query":"a","source":{"text":"x","text":"y"}}`, 400, "INVALID_FORMAT", "twice"},
		{"deep nesting", "application/json", `{"query":"a","source":{"text":"x"},"options":` + strings.Repeat("[", 100) + strings.Repeat("]", 100) + `}`, 400, "INVALID_FORMAT", "deeper"},
		{"bad pdf base64", "application/json", `{"query":"q","source":{"pdf_base64":"%%%"}}`, 400, "INVALID_FORMAT", "base64"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			resp, b := c.do(t, h, "POST", "/v1/digest", tc.ctype, []byte(tc.body))
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, b)
			}
			ed := errorOf(t, b)
			if ed.ErrorCode != tc.code {
				t.Errorf("error_code %s, want %s", ed.ErrorCode, tc.code)
			}
			if !strings.Contains(string(b), tc.mention) {
				t.Errorf("error does not mention %q: %s", tc.mention, b)
			}
		})
	}
}

func TestArchiveRetrieval(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	_, b := c.do(t, h, "POST", "/v1/digest?query=x", "text/plain", []byte("Hello archive.\nSecond block."))
	var data wire.DigestData
	json.Unmarshal(decodeEnvelope(t, b).Data, &data)
	hash := data.Source.ArchiveHash.String()
	bare := strings.TrimPrefix(hash, "sha256:")

	resp, body := c.do(t, h, "GET", "/v1/archive/"+bare, "", nil)
	if resp.StatusCode != 200 || string(body) != "Hello archive.\nSecond block." {
		t.Fatalf("bare hex: %d %q", resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/plain") {
		t.Errorf("content type %q", ct)
	}
	resp, _ = c.do(t, h, "GET", "/v1/archive/"+hash, "", nil, "If-None-Match", `"`+hash+`"`)
	if resp.StatusCode != 304 {
		t.Errorf("If-None-Match: status %d, want 304", resp.StatusCode)
	}
	resp, body = c.do(t, h, "GET", "/v1/archive/"+hash, "", nil, "Range", "bytes=0-4")
	if resp.StatusCode != 206 || string(body) != "Hello" {
		t.Errorf("Range: %d %q", resp.StatusCode, body)
	}
	// A range outside the blob is a 416 envelope, with Content-Range.
	resp, body = c.do(t, h, "GET", "/v1/archive/"+hash, "", nil, "Range", "bytes=500-600")
	if resp.StatusCode != 416 || errorOf(t, body).ErrorCode != "RANGE_NOT_SATISFIABLE" || resp.Header.Get("Content-Range") != "bytes */28" {
		t.Errorf("bad Range: %d %v %q", resp.StatusCode, resp.Header, body)
	}
	// A suffix range of length zero asks for no bytes: not satisfiable
	// (RFC 9110, 14.1.1) alone, left out beside a satisfiable range.
	for _, rg := range []string{"bytes=-0", "bytes=-000", "bytes= -0 , -0"} {
		resp, body = c.do(t, h, "GET", "/v1/archive/"+hash, "", nil, "Range", rg)
		if resp.StatusCode != 416 || errorOf(t, body).ErrorCode != "RANGE_NOT_SATISFIABLE" || resp.Header.Get("Content-Range") != "bytes */28" {
			t.Errorf("Range %q: %d %v %q", rg, resp.StatusCode, resp.Header, body)
		}
	}
	resp, body = c.do(t, h, "GET", "/v1/archive/"+hash, "", nil, "Range", "bytes=0-4,-0")
	if resp.StatusCode != 206 || string(body) != "Hello" || resp.Header.Get("Content-Range") != "bytes 0-4/28" {
		t.Errorf("Range bytes=0-4,-0: %d %v %q", resp.StatusCode, resp.Header, body)
	}
	resp, body = c.do(t, h, "HEAD", "/v1/archive/"+hash, "", nil)
	if resp.StatusCode != 200 || len(body) != 0 || resp.Header.Get("Content-Length") != "28" {
		t.Errorf("HEAD: %d len %d %v", resp.StatusCode, len(body), resp.Header)
	}
	for _, tc := range []struct {
		path   string
		status int
		code   string
	}{
		{"/v1/archive/sha256:" + strings.Repeat("0", 64), 404, "NOT_FOUND"},
		{"/v1/archive/sha256:xyz", 400, "VALIDATION_ERROR"},
		{"/v1/archive/" + strings.Repeat("a", 63), 400, "VALIDATION_ERROR"},
		{"/v1/archive/..%2F..%2Fetc%2Fpasswd", 400, "VALIDATION_ERROR"},
		{"/v1/archive/md5:" + strings.Repeat("a", 32), 400, "VALIDATION_ERROR"},
	} {
		resp, body := c.do(t, h, "GET", tc.path, "", nil)
		if resp.StatusCode != tc.status || errorOf(t, body).ErrorCode != tc.code {
			t.Errorf("%s: %d %s", tc.path, resp.StatusCode, body)
		}
	}
}

func TestRequestID(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	resp, b := c.do(t, h, "GET", "/healthz", "", nil, "X-Request-ID", "agent-42_run")
	if got := decodeEnvelope(t, b).Meta.RequestID; got != "agent-42_run" || resp.Header.Get("X-Request-ID") != got {
		t.Errorf("valid id not echoed: %q / %q", got, resp.Header.Get("X-Request-ID"))
	}
	resp, b = c.do(t, h, "GET", "/healthz", "", nil, "X-Request-ID", "bad id with spaces<script>")
	got := decodeEnvelope(t, b).Meta.RequestID
	if got == "" || strings.Contains(got, " ") || resp.Header.Get("X-Request-ID") != got {
		t.Errorf("invalid id not replaced: %q", got)
	}
}

func TestUnknownRouteAndMethod(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	for _, tc := range []struct {
		method, path string
		status       int
		code         string
	}{
		{"GET", "/nope", 404, "NOT_FOUND"},
		{"DELETE", "/v1/digest", 405, "METHOD_NOT_ALLOWED"},
	} {
		req, _ := http.NewRequest(tc.method, tc.path, nil)
		resp, b := serve(h, req)
		if resp.StatusCode != tc.status || errorOf(t, b).ErrorCode != tc.code {
			t.Errorf("%s %s: %d %s", tc.method, tc.path, resp.StatusCode, b)
		}
	}
}

func TestOpenAPIServed(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	req, _ := http.NewRequest("GET", "/openapi.yaml", nil)
	resp, b := serve(h, req)
	if resp.StatusCode != 200 || string(b) != string(digestd.OpenAPI) {
		t.Fatalf("openapi.yaml not served: %d", resp.StatusCode)
	}
}
