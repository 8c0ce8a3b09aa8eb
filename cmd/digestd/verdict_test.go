package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// verdictPages serves the verdict fixtures, and an article, on loopback.
func verdictPages(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/")
		b, err := os.ReadFile(filepath.Join("../../ingest/verdict/testdata", filepath.Base(name)))
		if err != nil {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(b)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// verdictWant is each fixture's answer: its error code and details.reason,
// or OK.
var verdictWant = map[string][2]string{
	"challenge.html":         {"CONTENT_BLOCKED", "challenge"},
	"consent.html":           {"CONTENT_BLOCKED", "consent"},
	"login.html":             {"CONTENT_BLOCKED", "login"},
	"paywall.html":           {"CONTENT_BLOCKED", "paywall"},
	"js_shell.html":          {"JS_REQUIRED", ""},
	"react_shell.html":       {"JS_REQUIRED", ""},
	"soft404.html":           {"NOT_CONTENT", "soft_404"},
	"ok_article_banner.html": {"OK", ""},
}

// Pages that are not content are listed as failed with their verdict's
// code by a batch run and by POST /v1/digests, served to the real commands
// on loopback (--fetch-allow-loopback); the article beside them is
// digested, and its record keeps its verdict and extraction confidence.
func TestVerdictsListedAsFailed(t *testing.T) {
	srv := verdictPages(t)
	addr := srv.Listener.Addr().String()
	dir := t.TempDir()
	var manifest bytes.Buffer
	var sources []map[string]string
	for name := range verdictWant {
		json.NewEncoder(&manifest).Encode(map[string]string{"id": name, "url": srv.URL + "/" + name})
		sources = append(sources, map[string]string{"id": name, "url": srv.URL + "/" + name})
	}
	mf := filepath.Join(dir, "m.jsonl")
	os.WriteFile(mf, manifest.Bytes(), 0o644)
	out := filepath.Join(dir, "out.jsonl")
	_, stderr, _ := runCLI(t, "", "batch", "--manifest", mf, "--out", out, "--archive", filepath.Join(dir, "a"),
		"--fetch-allow-loopback", addr, "--query", "why did the river freeze early")
	b, err := os.ReadFile(out)
	if err != nil {
		t.Fatalf("batch wrote no output: %v %s", err, stderr)
	}
	got := map[string][2]string{}
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l struct {
			ID       string `json:"id"`
			Envelope struct {
				Success bool `json:"success"`
				Data    struct {
					ErrorCode string `json:"error_code"`
					Details   struct {
						Reason string `json:"reason"`
					} `json:"details"`
					Source struct {
						Record struct {
							Verdict    string  `json:"verdict"`
							Confidence float64 `json:"extraction_confidence"`
						} `json:"record"`
					} `json:"source"`
				} `json:"data"`
			} `json:"envelope"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		d := l.Envelope.Data
		if l.Envelope.Success {
			got[l.ID] = [2]string{"OK", ""}
			if d.Source.Record.Verdict != "content" || d.Source.Record.Confidence != 1 {
				t.Errorf("batch %s: record verdict %q confidence %v", l.ID, d.Source.Record.Verdict, d.Source.Record.Confidence)
			}
			continue
		}
		got[l.ID] = [2]string{d.ErrorCode, d.Details.Reason}
	}
	for name, want := range verdictWant {
		if got[name] != want {
			t.Errorf("batch %s: %v, want %v", name, got[name], want)
		}
	}

	// The service answers the same in data.failed.
	s := startServer(t, "--fetch-allow-loopback", addr)
	body, _ := json.Marshal(map[string]any{"query": "why did the river freeze early", "sources": sources})
	var data struct {
		Digests []struct {
			ID string `json:"id"`
		} `json:"digests"`
		Failed []struct {
			ID   string `json:"id"`
			Code string `json:"error_code"`
		} `json:"failed"`
	}
	s.data(s.do("POST", "/v1/digests", "application/json", body, "digest_sources"), &data)
	failed := map[string]string{}
	for _, f := range data.Failed {
		failed[f.ID] = f.Code
	}
	for name, want := range verdictWant {
		if want[0] != "OK" && failed[name] != want[0] {
			t.Errorf("/v1/digests %s: failed with %q, want %s", name, failed[name], want[0])
		}
	}
	if len(data.Digests) != 1 || data.Digests[0].ID != "ok_article_banner.html" {
		t.Errorf("/v1/digests digested %+v, want the article alone", data.Digests)
	}
}
