package render

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/fetch"
	"github.com/digestd/digestd/internal/testenv"
)

// newRenderer starts a renderer whose guard allows exactly the given
// loopback addresses; it needs Chromium (skipped without it, except in CI).
func newRenderer(t testing.TB, cfg Config, allow ...string) *Renderer {
	t.Helper()
	_, err := os.Stat(DefaultExecPath)
	testenv.Need(t, err == nil, "chromium not installed at %s", DefaultExecPath)
	cfg.Fetcher = fetch.New(fetch.Config{AllowLoopback: allow})
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

func TestRenderJSOnlyPage(t *testing.T) {
	page, _ := os.ReadFile("testdata/js_only.html")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	defer srv.Close()
	r := newRenderer(t, Config{}, srv.Listener.Addr().String())
	for i := 0; i < 3; i++ {
		start := time.Now()
		p, err := r.Render(context.Background(), srv.URL+"/notes")
		if err != nil {
			t.Fatal(err)
		}
		t.Logf("render %d: %v", i, time.Since(start))
		if !strings.Contains(string(p.HTML), "Shallow water cools quickly") {
			t.Fatalf("rendered DOM lacks the injected text: %.300s", p.HTML)
		}
	}
	if !strings.HasPrefix(r.Version(), "Chrome/") {
		t.Errorf("version %q", r.Version())
	}
}

// canary is a TCP listener that counts the connections it is offered; a
// guard that holds lets none through.
type canary struct {
	ln    net.Listener
	conns atomic.Int64
}

func newCanary(t *testing.T) *canary {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	c := &canary{ln: ln}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.conns.Add(1)
			conn.Close()
		}
	}()
	t.Cleanup(func() { ln.Close() })
	return c
}

// The rendered-page adversarial cases: every request a hostile page makes
// (script fetches, an image, a WebSocket, a redirect of the page itself) to
// a loopback canary or the metadata address is refused by the guard, a page
// that never finishes and a page that allocates without end fail with
// typed errors within their limits (the second both past V8's heap and
// past its renderer's resident memory outside that heap), and the same
// browser then renders an ordinary page.
func TestRenderAdversarial(t *testing.T) {
	can := newCanary(t)
	canURL := "http://" + can.ln.Addr().String()
	pages := map[string]string{
		"/fetches": `<html><body><p id=out>waiting</p><script>
			var targets = ["` + canURL + `/secret", "http://169.254.169.254/latest/meta-data/", "http://localhost:` + portOf(can.ln) + `/x", "http://[::1]:` + portOf(can.ln) + `/x", "http://0x7f000001:` + portOf(can.ln) + `/x"];
			targets.forEach(function (u) { fetch(u).catch(function(){}); var x = new XMLHttpRequest(); try { x.open("GET", u); x.send(); } catch (e) {} });
			var img = new Image(); img.src = "` + canURL + `/pixel.png"; document.body.appendChild(img);
			try { new WebSocket("ws://` + can.ln.Addr().String() + `/ws"); } catch (e) {}
			try { new WebSocket("wss://` + can.ln.Addr().String() + `/ws"); } catch (e) {}
			var f = document.createElement("iframe"); f.src = "` + canURL + `/frame"; document.body.appendChild(f);
			document.getElementById("out").textContent = "The page asked for every forbidden address it knows of.";
			</script><img src="` + canURL + `/static.png"><link rel=stylesheet href="` + canURL + `/style.css"></body></html>`,
		"/spin":  `<html><body><p>Spinning.</p><script>while (true) {}</script></body></html>`,
		"/hoard": `<html><body><p>Hoarding.</p><script>var a = []; while (true) { a.push(new Array(1e6).fill(Math.random())); }</script></body></html>`,
		// Memory V8's heap limit does not count: the backing stores of
		// ArrayBuffers, touched so that they are resident, up to 2 GiB.
		"/buffers": `<html><body><p>Buffering.</p><script>var a = []; for (var i = 0; i < 128; i++) { var b = new Uint8Array(16 << 20); for (var j = 0; j < b.length; j += 4096) { b[j] = 1; } a.push(b); }</script></body></html>`,
		"/normal":  `<html><body><main><h1>Tides</h1><p>Tides rise twice a day.</p></main></body></html>`,
		// A service worker that asks for the canary when it installs and
		// answers the page's own requests by asking for it again.
		"/worker": `<html><body><p id=out></p><script>
			var out = document.getElementById("out");
			navigator.serviceWorker.register("/sw.js").then(function () { return navigator.serviceWorker.ready; })
				.then(function () { return navigator.serviceWorker.controller || new Promise(function (ok) { navigator.serviceWorker.addEventListener("controllerchange", ok); }); })
				.then(function () { return fetch("/through-worker").then(function (r) { return r.text(); }).catch(function () { return "refused"; }); })
				.then(function (t) { out.textContent = "The service worker ran and answered: " + t; })
				.catch(function (e) { out.textContent = "no service worker: " + e; });
			</script></body></html>`,
		"/through-worker": "answered by the server, not the worker",
		"/sw.js": `self.addEventListener("install", function (e) { self.skipWaiting(); e.waitUntil(fetch("` + canURL + `/sw-install").catch(function () {})); });
			self.addEventListener("activate", function (e) { e.waitUntil(self.clients.claim()); });
			self.addEventListener("fetch", function (e) { e.respondWith(fetch("` + canURL + `/sw-fetch").catch(function () { return new Response("canary unreachable"); })); });`,
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/redirect":
			http.Redirect(w, r, canURL+"/after-redirect", http.StatusFound)
			return
		case "/stall":
			// Headers, then a body that never ends.
			w.Header().Set("Content-Type", "text/html")
			w.Write([]byte("<html><body><p>Loading"))
			w.(http.Flusher).Flush()
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/sw.js" {
			w.Header().Set("Content-Type", "text/javascript")
		}
		w.Write([]byte(pages[r.URL.Path]))
	}))
	defer srv.Close()
	// The page limit leaves room for a loaded machine (a page here takes
	// 0.5-2.5 s on two busy cores); the cases that must hit it take it.
	const limit = 8 * time.Second
	r := newRenderer(t, Config{PageTimeout: limit, HeapBytes: 64 << 20, MemoryBytes: 384 << 20}, srv.Listener.Addr().String())
	version := r.Version()
	first := r.browser

	tests := []struct {
		path, code, cause string
		within            time.Duration
	}{
		{"/fetches", "", "", limit},
		{"/worker", "", "", limit},
		{"/redirect", "FETCH_BLOCKED", "", limit},
		{"/stall", "RENDER_FAILED", CauseTimeout, limit + 2*time.Second},
		{"/spin", "RENDER_FAILED", CauseTimeout, limit + 2*time.Second},
		{"/hoard", "RENDER_FAILED", CauseCrashed, limit},
		{"/buffers", "RENDER_FAILED", CauseCrashed, limit},
		{"/normal", "", "", limit},
	}
	for _, tt := range tests {
		start := time.Now()
		p, err := r.Render(context.Background(), srv.URL+tt.path)
		took := time.Since(start)
		fe := fault.As(err)
		switch {
		case tt.code == "" && err != nil:
			t.Errorf("%s: %v", tt.path, err)
		case tt.code != "" && (err == nil || string(fe.Code) != tt.code):
			t.Errorf("%s: %v, want %s", tt.path, err, tt.code)
		case tt.cause != "" && fe.Details["cause"] != tt.cause:
			t.Errorf("%s: cause %v, want %s", tt.path, fe.Details["cause"], tt.cause)
		}
		if took > tt.within {
			t.Errorf("%s: took %v, more than %v", tt.path, took, tt.within)
		}
		if tt.path == "/fetches" && err == nil && !strings.Contains(string(p.HTML), "every forbidden address") {
			t.Errorf("/fetches: the page's script did not run: %.300s", p.HTML)
		}
		if tt.path == "/worker" && err == nil {
			// The page's request went to the worker, whose own request
			// for the canary the guard refused.
			if html := string(p.HTML); !strings.Contains(html, "The service worker ran and answered") || strings.Contains(html, "by the server") {
				t.Errorf("/worker: the service worker did not run and answer: %.300s", html)
			}
		}
		t.Logf("%s: %v in %v", tt.path, err, took.Round(time.Millisecond))
	}
	// Let any request a page left behind arrive before counting.
	time.Sleep(300 * time.Millisecond)
	if n := can.conns.Load(); n != 0 {
		t.Errorf("the canary saw %d connections", n)
	}
	if r.browser != first || r.Version() != version {
		t.Error("the browser was restarted")
	}

	// The control: with the canary allowed, the same page reaches it, so
	// the count above is one that could have failed.
	open := newRenderer(t, Config{PageTimeout: limit}, srv.Listener.Addr().String(), can.ln.Addr().String())
	if _, err := open.Render(context.Background(), srv.URL+"/fetches"); err != nil {
		t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	if can.conns.Load() == 0 {
		t.Error("with the canary allowed, the page did not reach it: the test proves nothing")
	}
}

func portOf(ln net.Listener) string { return fmt.Sprint(ln.Addr().(*net.TCPAddr).Port) }

// BenchmarkRenderJSOnly renders the JS-only fixture with a warm pool (the
// browser started before the timer) and reports the median and 95th
// percentile page times, p50-ms and p95-ms, beside ns/op.
func BenchmarkRenderJSOnly(b *testing.B) {
	page, _ := os.ReadFile("testdata/js_only.html")
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
	}))
	defer srv.Close()
	r := newRenderer(b, Config{}, srv.Listener.Addr().String())
	if _, err := r.Render(context.Background(), srv.URL+"/warm"); err != nil {
		b.Fatal(err)
	}
	var times []time.Duration
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		start := time.Now()
		if _, err := r.Render(context.Background(), srv.URL+"/notes"); err != nil {
			b.Fatal(err)
		}
		times = append(times, time.Since(start))
	}
	b.StopTimer()
	slices.Sort(times)
	b.ReportMetric(float64(times[len(times)/2].Milliseconds()), "p50-ms")
	b.ReportMetric(float64(times[len(times)*95/100].Milliseconds()), "p95-ms")
}
