package render

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/digestd/digestd/fault"
)

// A browser killed while it renders a page fails that page with
// RENDER_FAILED; the next page starts the browser again and renders, in the
// same Renderer (no service restart).
func TestRenderBrowserKilled(t *testing.T) {
	loading := make(chan struct{}, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		if r.URL.Path == "/stall" {
			w.Write([]byte("<html><body><p>Loading"))
			w.(http.Flusher).Flush()
			select {
			case loading <- struct{}{}:
			default:
			}
			<-r.Context().Done()
			return
		}
		w.Write([]byte(`<html><body><main><h1>Tides</h1><p>Tides rise twice a day.</p></main></body></html>`))
	}))
	defer srv.Close()
	r := newRenderer(t, Config{PageTimeout: 30 * time.Second}, srv.Listener.Addr().String())
	if _, err := r.Render(context.Background(), srv.URL+"/normal"); err != nil {
		t.Fatal(err)
	}
	proc := chromedp.FromContext(r.browser).Browser.Process()
	if proc == nil {
		t.Fatal("no browser process")
	}
	done := make(chan error, 1)
	go func() {
		_, err := r.Render(context.Background(), srv.URL+"/stall")
		done <- err
	}()
	select {
	case <-loading:
	case <-time.After(30 * time.Second):
		t.Fatal("the page never started loading")
	}
	if err := proc.Kill(); err != nil {
		t.Fatal(err)
	}
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the page whose browser was killed did not end")
	}
	var f *fault.Error
	if !errors.As(err, &f) || f.Code != fault.RenderFailed {
		t.Fatalf("killed mid-page: %v, want %s", err, fault.RenderFailed)
	}
	t.Logf("killed mid-page: %v (cause %v)", err, f.Details["cause"])
	for i := 0; i < 2; i++ {
		p, err := r.Render(context.Background(), srv.URL+"/normal")
		if err != nil {
			t.Fatalf("render %d after the kill: %v", i, err)
		}
		if !strings.Contains(string(p.HTML), "Tides rise twice a day.") {
			t.Fatalf("render %d after the kill: %.300s", i, p.HTML)
		}
	}
	if again := chromedp.FromContext(r.browser).Browser.Process(); again == nil || again.Pid == proc.Pid {
		t.Errorf("the browser was not started again (pid %d)", proc.Pid)
	}
	if running, _, _, _ := r.Status(); !running {
		t.Error("the renderer reports its browser down after rendering again")
	}
}
