package api_test

import (
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/ingest/fetch"
	"github.com/digestd/digestd/wire"
)

const articleHTML = `<!doctype html><html lang="en"><head><meta charset="windows-1252">
<title>Tides explained</title><meta name="author" content="A. Writer">
<link rel="canonical" href="https://example.org/tides"></head><body>
<nav><a href="/">Home</a> <a href="/about">About</a></nav>
<article><h1>Tides explained</h1>
<p>The Moon\x92s gravity pulls the oceans, raising two bulges of water on opposite sides of the Earth.</p>
<p>As the Earth turns, a coast passes through both bulges, so most places see two high tides a day.</p>
</article><footer>Copyright 2024 Example News. All rights reserved.</footer></body></html>`

func TestURLSource(t *testing.T) {
	page := strings.ReplaceAll(articleHTML, `\x92`, "\x92") // a Windows-1252 apostrophe
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/old":
			http.Redirect(w, r, "/article", http.StatusMovedPermanently)
		case "/article":
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte(page))
		case "/image":
			w.Header().Set("Content-Type", "image/gif")
			w.Write([]byte("GIF89a\x01\x00\x01\x00"))
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	h, pipe := newTestServer(t, api.Config{})
	// Tests only: the guard lets this one loopback server through.
	pipe.Ingester.Fetcher = fetch.New(fetch.Config{TotalTimeout: 5 * time.Second, AllowLoopback: []string{srv.Listener.Addr().String()}})
	c := loadContract(t)

	body := `{"query":"why are there two high tides a day?","source":{"url":"` + srv.URL + `/old"}}`
	resp, b := c.do(t, h, "POST", "/v1/digest", "application/json", []byte(body))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var data wire.DigestData
	json.Unmarshal(decodeEnvelope(t, b).Data, &data)
	rec := data.Source.Record
	if rec.Kind != "html" || rec.RequestedURL != srv.URL+"/old" || rec.FinalURL != srv.URL+"/article" || rec.HTTPStatus != 200 || rec.FetchedAt.IsZero() {
		t.Errorf("record %+v", rec)
	}
	if rec.Title != "Tides explained" || rec.Author != "A. Writer" || rec.Language != "en" || rec.CanonicalURL != "https://example.org/tides" {
		t.Errorf("metadata %+v", rec)
	}
	_, text := c.do(t, h, "GET", "/v1/archive/"+data.Source.ArchiveHash.String(), "", nil)
	if !strings.Contains(string(text), "The Moon’s gravity") {
		t.Errorf("charset not decoded: %q", text)
	}
	if strings.Contains(string(text), "Copyright") || strings.Contains(string(text), "About") {
		t.Errorf("boilerplate kept: %q", text)
	}

	for _, tc := range []struct {
		url    string
		status int
		code   string
	}{
		{srv.URL + "/missing", 502, "FETCH_FAILED"},
		{srv.URL + "/image", 422, "UNSUPPORTED_CONTENT_TYPE"},
		{"http://169.254.169.254/latest/meta-data/", 422, "FETCH_BLOCKED"},
		{"http://[::ffff:127.0.0.1]:1/", 422, "FETCH_BLOCKED"},
		{"ftp://example.org/x", 400, "INVALID_URL"},
	} {
		resp, b := c.do(t, h, "POST", "/v1/digest", "application/json", []byte(`{"query":"q","source":{"url":"`+tc.url+`"}}`))
		ed := errorOf(t, b)
		if resp.StatusCode != tc.status || ed.ErrorCode != tc.code {
			t.Errorf("%s: %d %s, want %d %s", tc.url, resp.StatusCode, ed.ErrorCode, tc.status, tc.code)
		}
		if tc.code == "FETCH_FAILED" && (ed.Details["upstream_status"] != float64(404) || ed.Details["cause"] != "upstream_status") {
			t.Errorf("FETCH_FAILED without cause upstream_status and upstream_status 404: %v", ed.Details)
		}
	}
}

// TestFetchFailedSaysWhy: a URL whose server cannot be reached is
// FETCH_FAILED with the cause its remediation names (details.cause), and
// neither its message nor its details name the address.
func TestFetchFailedSaysWhy(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close() // nothing listens there: the connection is refused
	h, pipe := newTestServer(t, api.Config{})
	pipe.Ingester.Fetcher = fetch.New(fetch.Config{TotalTimeout: 5 * time.Second, AllowLoopback: []string{addr}})
	c := loadContract(t)
	resp, b := c.do(t, h, "POST", "/v1/digest", "application/json", []byte(`{"query":"q","source":{"url":"http://`+addr+`/paper"}}`))
	ed := errorOf(t, b) // holds every detail the remediation names
	if resp.StatusCode != 502 || ed.ErrorCode != "FETCH_FAILED" || ed.Details["cause"] != "connect" {
		t.Fatalf("refused connection: %d %s %v", resp.StatusCode, ed.ErrorCode, ed.Details)
	}
	var env struct {
		Error string `json:"error"`
	}
	json.Unmarshal(b, &env)
	said := env.Error + fmt.Sprint(ed.Details)
	if env.Error == "fetch failed" || strings.Contains(said, addr) || strings.Contains(said, "127.0.0.1") {
		t.Errorf("message %q says nothing or names the address: %s", env.Error, b)
	}
}
