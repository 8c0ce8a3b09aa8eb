package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/render"
	"github.com/digestd/digestd/internal/testenv"
)

// jsOnlyText is the text the JS-only fixture's script writes, block by
// block, as the canonical text holds it.
const jsOnlyText = "Why the river froze early\n" +
	"The river that runs through the valley froze three weeks earlier than usual this winter, and hydrologists say the cause lies upstream.\n" +
	"A dry autumn left the water lower and slower than in most years, so it lost its heat to the cold nights much faster than a full river would.\n" +
	"Shallow water cools quickly because there is less of it to hold the warmth of the summer, and the first ice formed along the banks on a clear, still night."

// A page whose content only its script writes digests with render "auto"
// on a server started with --renderer chromium, and its canonical text is
// the text the script wrote; "never" answers JS_REQUIRED; "always"
// renders a static page too; a bad mode is VALIDATION_ERROR, and a server
// without a renderer reads the page as fetched for "auto" and refuses
// "always" (FEATURE_DISABLED).
func TestRenderJSOnlyPageEndToEnd(t *testing.T) {
	_, err := os.Stat(render.DefaultExecPath)
	testenv.Need(t, err == nil, "chromium not installed at %s", render.DefaultExecPath)
	page, err := os.ReadFile("../../ingest/render/testdata/js_only.html")
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/static" {
			w.Write([]byte("<html><body><main><h1>Tides</h1><p>Tides rise and fall twice a day because the Moon pulls the oceans.</p></main></body></html>"))
			return
		}
		w.Write(page)
	}))
	defer srv.Close()
	addr := srv.Listener.Addr().String()

	type answer struct {
		ErrorCode string `json:"error_code"`
		Source    struct {
			ArchiveHash string `json:"archive_hash"`
			Record      struct {
				Rendered bool   `json:"rendered"`
				Browser  string `json:"browser"`
				Verdict  string `json:"verdict"`
			} `json:"record"`
		} `json:"source"`
	}
	digest := func(s *server, path, mode string) (answer, int) {
		src := map[string]string{"url": srv.URL + path}
		if mode != "" {
			src["render"] = mode
		}
		body, _ := json.Marshal(map[string]any{"query": "why did the river freeze early", "source": src})
		a := s.do("POST", "/v1/digest", "application/json", body, "digest_source")
		var data answer
		s.data(a, &data)
		return data, a.status
	}

	s := startServer(t, "--fetch-allow-loopback", addr, "--renderer", "chromium")
	got, status := digest(s, "/notes", "auto")
	if status != 200 || !got.Source.Record.Rendered || !strings.HasPrefix(got.Source.Record.Browser, "Chrome/") || got.Source.Record.Verdict != "content" {
		t.Fatalf("auto: status %d, %+v", status, got)
	}
	req, _ := http.NewRequest("GET", s.base+"/v1/archive/"+got.Source.ArchiveHash, nil)
	req.Header.Set("Authorization", "Bearer "+conformanceKey)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(text) != jsOnlyText {
		t.Errorf("the rendered page's text is %q, want %q", text, jsOnlyText)
	}
	if got, status := digest(s, "/notes", "never"); status != 422 || got.ErrorCode != "JS_REQUIRED" {
		t.Errorf("never: status %d, %+v", status, got)
	}
	if got, status := digest(s, "/static", "always"); status != 200 || !got.Source.Record.Rendered {
		t.Errorf("always: status %d, %+v", status, got)
	}
	if got, status := digest(s, "/static", "auto"); status != 200 || got.Source.Record.Rendered {
		t.Errorf("auto on a static page: status %d, rendered %v", status, got.Source.Record.Rendered)
	}
	if got, status := digest(s, "/notes", "sometimes"); status != 400 || got.ErrorCode != "VALIDATION_ERROR" {
		t.Errorf("a bad mode: status %d, %+v", status, got)
	}

	// GET /v1/health reports the browser.
	var health struct {
		Components map[string]struct {
			Status  string         `json:"status"`
			Details map[string]any `json:"details"`
		} `json:"components"`
	}
	s.data(s.do("GET", "/v1/health", "", nil, "get_service_health"), &health)
	if c := health.Components["renderer"]; c.Status != "healthy" || !strings.HasPrefix(fmt.Sprint(c.Details["browser"]), "Chrome/") {
		t.Errorf("health: renderer %+v", c)
	}

	off := startServer(t, "--fetch-allow-loopback", addr)
	if got, status := digest(off, "/notes", "auto"); status != 422 || got.ErrorCode != "JS_REQUIRED" {
		t.Errorf("auto without a renderer: status %d, %+v", status, got)
	}
	if got, status := digest(off, "/notes", "always"); status != 501 || got.ErrorCode != "FEATURE_DISABLED" {
		t.Errorf("always without a renderer: status %d, %+v", status, got)
	}
}
