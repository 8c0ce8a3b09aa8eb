package fetch_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/fetch"
)

// newServer starts a loopback test server and a Client whose test allowance
// names exactly that server's host:port.
func newServer(t *testing.T, cfg fetch.Config, h http.Handler) (*httptest.Server, *fetch.Client) {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	cfg.AllowLoopback = []string{srv.Listener.Addr().String()}
	c := fetch.New(cfg)
	t.Cleanup(c.CloseIdleConnections)
	return srv, c
}

// wantCode fails unless err is a *fetch.Error with the given code.
func wantCode(t *testing.T, err error, code fault.Code) *fetch.Error {
	t.Helper()
	var fe *fetch.Error
	if !errors.As(err, &fe) {
		t.Fatalf("error = %v (%T), want *fetch.Error with code %s", err, err, code)
	}
	if fe.Code != code {
		t.Fatalf("code = %s (%v), want %s", fe.Code, err, code)
	}
	return fe
}

func TestFetchSuccess(t *testing.T) {
	const page = "<!DOCTYPE html><html><head><title>t</title></head><body><p>hello</p></body></html>"
	var gotUA, gotAccept string
	srv, c := newServer(t, fetch.Config{UserAgent: "digestd-test/1"}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		gotUA, gotAccept = r.UserAgent(), r.Header.Get("Accept")
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		fmt.Fprint(w, page)
	}))
	before := time.Now().UTC()
	resp, err := c.Fetch(context.Background(), srv.URL+"/a?b=c")
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if resp.RequestedURL != srv.URL+"/a?b=c" || resp.FinalURL != srv.URL+"/a?b=c" {
		t.Errorf("urls = %q, %q", resp.RequestedURL, resp.FinalURL)
	}
	if resp.Status != 200 || resp.Kind != fetch.KindHTML || resp.ContentType != "text/html; charset=utf-8" {
		t.Errorf("status %d kind %q content type %q", resp.Status, resp.Kind, resp.ContentType)
	}
	if string(resp.Body) != page {
		t.Errorf("body = %q", resp.Body)
	}
	if resp.Redirects != 0 {
		t.Errorf("redirects = %d", resp.Redirects)
	}
	if resp.FetchedAt.Before(before) || resp.FetchedAt.Location() != time.UTC {
		t.Errorf("FetchedAt = %v, want UTC after %v", resp.FetchedAt, before)
	}
	if gotUA != "digestd-test/1" || !strings.Contains(gotAccept, "application/pdf") {
		t.Errorf("request headers UA %q Accept %q", gotUA, gotAccept)
	}
}

func TestFetchGzipTransparent(t *testing.T) {
	const text = "plain words, compressed on the wire\n"
	var zbuf bytes.Buffer
	zw := gzip.NewWriter(&zbuf)
	zw.Write([]byte(strings.Repeat(text, 100)))
	zw.Close()
	srv, c := newServer(t, fetch.Config{}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !strings.Contains(r.Header.Get("Accept-Encoding"), "gzip") {
			http.Error(w, "no gzip", http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(zbuf.Bytes())
	}))
	resp, err := c.Fetch(context.Background(), srv.URL)
	if err != nil {
		t.Fatalf("Fetch: %v", err)
	}
	if string(resp.Body) != strings.Repeat(text, 100) || resp.Kind != fetch.KindText {
		t.Errorf("kind %q body %d bytes", resp.Kind, len(resp.Body))
	}
}

func TestFetchRedirects(t *testing.T) {
	mux := http.NewServeMux()
	mux.HandleFunc("/hop/{n}", func(w http.ResponseWriter, r *http.Request) {
		n, _ := strconv.Atoi(r.PathValue("n"))
		if n == 0 {
			w.Header().Set("Content-Type", "text/plain")
			fmt.Fprint(w, "arrived")
			return
		}
		http.Redirect(w, r, fmt.Sprintf("/hop/%d", n-1), http.StatusFound)
	})
	mux.HandleFunc("/ftp", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "ftp://example.com/file", http.StatusMovedPermanently)
	})
	mux.HandleFunc("/file", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "file:///etc/passwd", http.StatusMovedPermanently)
	})
	tests := []struct {
		name          string
		maxRedirects  int
		path          string
		wantRedirects int
		wantCode      fault.Code
	}{
		{"no redirect", 3, "/hop/0", 0, ""},
		{"at the cap", 3, "/hop/3", 3, ""},
		{"over the cap", 3, "/hop/4", 0, fetch.CodeFailed},
		{"default cap 5 allows 5", 0, "/hop/5", 5, ""},
		{"default cap 5 refuses 6", 0, "/hop/6", 0, fetch.CodeFailed},
		{"negative means none", -1, "/hop/1", 0, fetch.CodeFailed},
		{"redirect to ftp", 3, "/ftp", 0, fetch.CodeBlocked},
		{"redirect to file", 3, "/file", 0, fetch.CodeBlocked},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, c := newServer(t, fetch.Config{MaxRedirects: tt.maxRedirects}, mux)
			resp, err := c.Fetch(context.Background(), srv.URL+tt.path)
			if tt.wantCode != "" {
				wantCode(t, err, tt.wantCode)
				return
			}
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if resp.Redirects != tt.wantRedirects || resp.FinalURL != srv.URL+"/hop/0" || string(resp.Body) != "arrived" {
				t.Errorf("redirects %d final %q body %q", resp.Redirects, resp.FinalURL, resp.Body)
			}
		})
	}
}

// gzipZeros returns a gzip stream that inflates to members MiB of zeros:
// one compressed MiB repeated as concatenated gzip members, which readers
// decode as one stream, so building it stays cheap.
func gzipZeros(t *testing.T, members int) []byte {
	t.Helper()
	var member bytes.Buffer
	zw, err := gzip.NewWriterLevel(&member, gzip.BestCompression)
	if err != nil {
		t.Fatal(err)
	}
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	return bytes.Repeat(member.Bytes(), members)
}

func TestFetchGzipBombStoppedAtCap(t *testing.T) {
	const inflated = 64 << 20
	const limit = 64 << 10
	bomb := gzipZeros(t, inflated>>20)
	if len(bomb) > 1<<20 {
		t.Fatalf("bomb is %d bytes compressed; want a high ratio", len(bomb))
	}
	srv, c := newServer(t, fetch.Config{MaxBytes: limit}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Encoding", "gzip")
		w.Write(bomb)
	}))
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	_, err := c.Fetch(context.Background(), srv.URL)
	runtime.ReadMemStats(&after)
	wantCode(t, err, fetch.CodeTooLarge)
	// Inflating the whole stream would allocate at least 64 MiB.
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
		t.Errorf("allocated %d bytes while refusing a %d-byte bomb; it was inflated past the cap", alloc, inflated)
	}
}

func TestFetchSizeCap(t *testing.T) {
	const limit = 1000
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	mux := http.NewServeMux()
	mux.HandleFunc("/exact", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write(bytes.Repeat([]byte("a"), limit))
	})
	mux.HandleFunc("/over-chunked", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write(bytes.Repeat([]byte("a"), limit))
		w.(http.Flusher).Flush() // chunked: no Content-Length
		w.Write([]byte("b"))
	})
	mux.HandleFunc("/declared-large", func(w http.ResponseWriter, r *http.Request) {
		// Declares a huge body, sends one byte and stalls: only an early
		// Content-Length check can finish before the total timeout.
		w.Header().Set("Content-Type", "text/plain")
		w.Header().Set("Content-Length", strconv.Itoa(100<<20))
		w.Write([]byte("a"))
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	})
	srv, c := newServer(t, fetch.Config{MaxBytes: limit, TotalTimeout: 2 * time.Second}, mux)
	resp, err := c.Fetch(context.Background(), srv.URL+"/exact")
	if err != nil || len(resp.Body) != limit {
		t.Fatalf("exact cap: err %v", err)
	}
	_, err = c.Fetch(context.Background(), srv.URL+"/over-chunked")
	wantCode(t, err, fetch.CodeTooLarge)
	// Without the early check the fetch would wait on the stalled body and
	// end in CodeTimeout, so the code alone tells, with no clock to read.
	_, err = c.Fetch(context.Background(), srv.URL+"/declared-large")
	wantCode(t, err, fetch.CodeTooLarge)
}

// TestFetchTimeouts: each timeout, alone, ends a fetch that would
// otherwise never end (the server stalls until the client leaves), so a
// timeout that does not fire hangs the test rather than passing it, and
// no wall-clock threshold is needed.
func TestFetchTimeouts(t *testing.T) {
	release := make(chan struct{})
	t.Cleanup(func() { close(release) })
	stall := func(r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/slow-headers", func(w http.ResponseWriter, r *http.Request) {
		stall(r)
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "late")
	})
	mux.HandleFunc("/slow-body", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "early part ")
		w.(http.Flusher).Flush()
		stall(r)
		fmt.Fprint(w, "late part")
	})
	tests := []struct {
		name string
		cfg  fetch.Config
		ctx  time.Duration // caller deadline, 0 for none
		path string
	}{
		{"header timeout", fetch.Config{HeaderTimeout: 50 * time.Millisecond, TotalTimeout: time.Hour}, 0, "/slow-headers"},
		{"total timeout during body", fetch.Config{HeaderTimeout: time.Hour, TotalTimeout: 80 * time.Millisecond}, 0, "/slow-body"},
		{"caller deadline", fetch.Config{HeaderTimeout: time.Hour, TotalTimeout: time.Hour}, 60 * time.Millisecond, "/slow-body"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, c := newServer(t, tt.cfg, mux)
			ctx := context.Background()
			if tt.ctx > 0 {
				var cancel context.CancelFunc
				ctx, cancel = context.WithTimeout(ctx, tt.ctx)
				defer cancel()
			}
			_, err := c.Fetch(ctx, srv.URL+tt.path)
			wantCode(t, err, fetch.CodeTimeout)
		})
	}
}

func TestFetchCanceled(t *testing.T) {
	srv, c := newServer(t, fetch.Config{}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "x")
	}))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err := c.Fetch(ctx, srv.URL)
	wantCode(t, err, fetch.CodeFailed)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want it to wrap context.Canceled", err)
	}
}

func TestFetchUpstreamStatus(t *testing.T) {
	for _, status := range []int{http.StatusNotFound, http.StatusForbidden, http.StatusInternalServerError, http.StatusNotModified} {
		t.Run(strconv.Itoa(status), func(t *testing.T) {
			srv, c := newServer(t, fetch.Config{}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Content-Type", "text/html")
				w.WriteHeader(status)
				if status != http.StatusNotModified {
					fmt.Fprint(w, "<html>not here</html>")
				}
			}))
			_, err := c.Fetch(context.Background(), srv.URL)
			fe := wantCode(t, err, fetch.CodeFailed)
			if fe.Status != status || fetch.StatusOf(err) != status {
				t.Errorf("status = %d, want %d", fe.Status, status)
			}
			if !errors.Is(err, fetch.ErrFailed) || errors.Is(err, fetch.ErrBlocked) {
				t.Errorf("errors.Is by code does not hold for %v", err)
			}
		})
	}
}

func TestFetchContentRouting(t *testing.T) {
	png := []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR")
	docx, err := os.ReadFile("../doctext/testdata/devset/report.docx")
	if err != nil {
		t.Fatal(err)
	}
	epub, err := os.ReadFile("../doctext/testdata/devset/book.epub")
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name        string
		contentType []string // nil: no header at all
		encoding    string
		body        []byte
		wantKind    string // "" means UNSUPPORTED_CONTENT_TYPE
	}{
		{"html labelled", []string{"text/html; charset=utf-8"}, "", []byte("<p>hi</p>"), fetch.KindHTML},
		{"xhtml labelled", []string{"application/xhtml+xml"}, "", []byte("<?xml version=\"1.0\"?><html/>"), fetch.KindHTML},
		{"html unlabelled", nil, "", []byte("<!DOCTYPE html><html><body>x</body></html>"), fetch.KindHTML},
		{"html as octet-stream", []string{"application/octet-stream"}, "", []byte("<html><body>x</body></html>"), fetch.KindHTML},
		{"pdf labelled", []string{"application/pdf"}, "", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj"), fetch.KindPDF},
		{"pdf as octet-stream", []string{"application/octet-stream"}, "", []byte("%PDF-1.4\n"), fetch.KindPDF},
		{"pdf mislabelled html", []string{"text/html"}, "", []byte("%PDF-1.4\n"), fetch.KindPDF},
		{"pdf unlabelled", nil, "", []byte("%PDF-1.5\n"), fetch.KindPDF},
		{"pdf label on html page", []string{"application/pdf"}, "", []byte("<html><body>sign in</body></html>"), fetch.KindHTML},
		{"pdf label on binary", []string{"application/pdf"}, "", []byte("\x00\x01\x02\x03binary"), ""},
		{"pdf label on png", []string{"application/pdf"}, "", png, "image"},
		{"text labelled", []string{"text/plain; charset=utf-8"}, "", []byte("just words"), fetch.KindText},
		{"text label on html stays text", []string{"text/plain"}, "", []byte("<html>x</html>"), fetch.KindText},
		{"text unlabelled", nil, "", []byte("just words\n"), fetch.KindText},
		{"text label on png", []string{"text/plain"}, "", png, "image"},
		{"html label on png", []string{"text/html"}, "", png, "image"},
		{"png", []string{"image/png"}, "", png, "image"},
		{"image label on text", []string{"image/png"}, "", []byte("just words"), ""},
		{"json", []string{"application/json"}, "", []byte(`{"a":1}`), "json"},
		{"json unlabelled", nil, "", []byte(`{"a":"b"}`), "json"},
		{"xml", []string{"application/xml"}, "", []byte(`<a/>`), "xml"},
		{"rss labelled", []string{"application/rss+xml; charset=utf-8"}, "", []byte(`<?xml version="1.0"?><rss version="2.0"><channel/></rss>`), "rss"},
		{"atom as xml", []string{"text/xml"}, "", []byte(`<feed xmlns="http://www.w3.org/2005/Atom"/>`), "atom"},
		{"json label on png", []string{"application/json"}, "", png, "image"},
		{"binary octet-stream", []string{"application/octet-stream"}, "", []byte("\x00\x01\x02\x03binary"), ""},
		{"brotli encoded", []string{"text/html"}, "br", []byte("\x1b\x03\x00"), ""},
		{"docx labelled", []string{"application/vnd.openxmlformats-officedocument.wordprocessingml.document"}, "", docx, "docx"},
		{"docx as octet-stream", []string{"application/octet-stream"}, "", docx, "docx"},
		{"docx unlabelled", nil, "", docx, "docx"},
		{"epub labelled", []string{"application/epub+zip"}, "", epub, "epub"},
		{"markdown labelled", []string{"text/markdown; charset=utf-8"}, "", []byte("# Title\n\nText."), "markdown"},
		{"csv labelled", []string{"text/csv"}, "", []byte("a,b\n1,2\n"), "csv"},
		{"docx label on png", []string{"application/vnd.openxmlformats-officedocument.wordprocessingml.document"}, "", png, "image"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			srv, c := newServer(t, fetch.Config{}, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				w.Header()["Content-Type"] = tt.contentType // nil suppresses sniffing by the server
				if tt.encoding != "" {
					w.Header().Set("Content-Encoding", tt.encoding)
				}
				w.Write(tt.body)
			}))
			resp, err := c.Fetch(context.Background(), srv.URL)
			if tt.wantKind == "" {
				wantCode(t, err, fetch.CodeUnsupportedContentType)
				return
			}
			if err != nil {
				t.Fatalf("Fetch: %v", err)
			}
			if resp.Kind != tt.wantKind {
				t.Errorf("kind = %q, want %q", resp.Kind, tt.wantKind)
			}
			if want := strings.Join(tt.contentType, ""); resp.ContentType != want {
				t.Errorf("ContentType = %q, want %q", resp.ContentType, want)
			}
		})
	}
}

func TestFetchInvalidURL(t *testing.T) {
	c := fetch.New(fetch.Config{})
	for _, raw := range []string{
		"", "example.com", "ftp://example.com/", "file:///etc/passwd", "gopher://example.com/",
		"javascript:alert(1)", "http:opaque", "http://user:pass@example.com/", "http://user@example.com/",
		"http://", "http://example.com:0/", "http://example.com:65536/", "http://[fe80::1%25eth0]/",
		"http://0x100000000/", "http://1.2.3.4.5/", "http://256.1.1.1/", "http://8.8.8.8./", "http://134744072/",
		"https://example.com/" + strings.Repeat("a", fetch.MaxURLLength),
	} {
		_, err := c.Fetch(context.Background(), raw)
		wantCode(t, err, fetch.CodeInvalidURL)
	}
}
