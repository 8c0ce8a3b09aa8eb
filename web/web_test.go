package web

import (
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/format"
)

func TestHandler(t *testing.T) {
	h := Handler()
	tests := []struct {
		name     string
		method   string
		path     string
		status   int
		mimeType string // prefix of Content-Type
		body     string // substring of the body
	}{
		{"root of the page", "GET", "/ui/", 200, "text/html", `<main id="main"`},
		{"archive route is the page", "GET", "/ui/archive/sha256:" + strings.Repeat("ab", 32), 200, "text/html", `id="view-archive"`},
		{"archive route with a locator", "GET", "/ui/archive/" + strings.Repeat("ab", 32) + "?locator=char:1-2", 200, "text/html", `id="view-archive"`},
		{"multi route is the page", "GET", "/ui/multi", 200, "text/html", `id="view-multi"`},
		{"check route is the page", "GET", "/ui/check", 200, "text/html", `id="view-check"`},
		{"check module", "GET", "/ui/assets/check.js", 200, "text/javascript", "export function checkView("},
		{"unknown route is the page", "GET", "/ui/some/where", 200, "text/html", `<main id="main"`},
		{"script", "GET", "/ui/assets/app.js", 200, "text/javascript", "function render("},
		{"locator module", "GET", "/ui/assets/locator.js", 200, "text/javascript", "export function checkLocator("},
		{"style", "GET", "/ui/assets/style.css", 200, "text/css", ":root"},
		{"icon", "GET", "/ui/assets/icon.svg", 200, "image/svg+xml", "<svg"},
		{"head of the page", "HEAD", "/ui/", 200, "text/html", ""},
		{"missing asset", "GET", "/ui/assets/missing.js", 404, "text/plain", ""},
		{"asset path escaping the folder", "GET", "/ui/assets/../index.html", 404, "text/plain", ""},
		{"outside the prefix", "GET", "/elsewhere", 404, "text/plain", ""},
		{"post", "POST", "/ui/", 405, "text/plain", ""},
		{"delete an asset", "DELETE", "/ui/assets/app.js", 405, "text/plain", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(tc.method, tc.path, nil))
			if rec.Code != tc.status {
				t.Fatalf("status %d, want %d", rec.Code, tc.status)
			}
			if ct := rec.Header().Get("Content-Type"); !strings.HasPrefix(ct, tc.mimeType) {
				t.Errorf("Content-Type %q, want %s…", ct, tc.mimeType)
			}
			if !strings.Contains(rec.Body.String(), tc.body) {
				t.Errorf("body lacks %q", tc.body)
			}
			if tc.status == 200 {
				if csp := rec.Header().Get("Content-Security-Policy"); !strings.Contains(csp, "default-src 'none'") || !strings.Contains(csp, "connect-src 'self'") {
					t.Errorf("Content-Security-Policy %q does not confine the page to its origin", csp)
				}
				if rec.Header().Get("X-Content-Type-Options") != "nosniff" {
					t.Error("X-Content-Type-Options is not nosniff")
				}
			}
			if tc.status == 405 && rec.Header().Get("Allow") != "GET, HEAD" {
				t.Errorf("Allow %q, want GET, HEAD", rec.Header().Get("Allow"))
			}
		})
	}
}

func TestHandlerETag(t *testing.T) {
	h := Handler()
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/ui/assets/app.js", nil))
	etag := rec.Header().Get("ETag")
	if etag == "" {
		t.Fatal("no ETag")
	}
	req := httptest.NewRequest("GET", "/ui/assets/app.js", nil)
	req.Header.Set("If-None-Match", etag)
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != http.StatusNotModified {
		t.Fatalf("status %d with a matching If-None-Match, want 304", rec.Code)
	}
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("GET", "/ui/assets/style.css", nil))
	if rec.Header().Get("ETag") == etag {
		t.Error("two different files share an ETag")
	}
}

// offsite matches references that would make the browser load something
// from another host: absolute or protocol-relative URLs in src, href or
// action attributes, CSS url() and @import, and script imports.
var offsite = regexp.MustCompile(`(?i)(?:\b(?:src|href|action)\s*=\s*["']?|url\(\s*["']?|@import\s+["']?|\bimport\s*\(?\s*["']|\bfrom\s+["']|fetch\(\s*["'\x60])(?:[a-z][a-z0-9+.-]*:)?//`)

func TestNoOffsiteReferences(t *testing.T) {
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(p)
		if err != nil {
			return err
		}
		if m := offsite.Find(b); m != nil {
			t.Errorf("%s refers to another host: %q", p, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, probe := range []string{`<script src="https://cdn.example/x.js">`, `@import url(//fonts.example/css)`, `import x from "https://esm.example/x"`} {
		if !offsite.MatchString(probe) {
			t.Errorf("the check misses %q", probe)
		}
	}
}

// The page's file pickers take every extension of a source kind, and its
// hints name every document kind.
func TestPageListsSourceKinds(t *testing.T) {
	page, err := fs.ReadFile(static, "static/index.html")
	if err != nil {
		t.Fatal(err)
	}
	accepts := regexp.MustCompile(`<input id="(digest-file|multi-files)"[^>]* accept="([^"]*)"`).FindAllSubmatch(page, -1)
	if len(accepts) != 2 {
		t.Fatalf("found %d file pickers with accept, want 2", len(accepts))
	}
	for _, a := range accepts {
		got := strings.Split(string(a[2]), ",")
		for _, ext := range format.Extensions() {
			if !slices.Contains(got, ext) {
				t.Errorf("#%s does not accept %s", a[1], ext)
			}
		}
	}
	names := map[string]string{format.DOCX: "DOCX", format.PPTX: "PPTX", format.XLSX: "XLSX", format.ODT: "ODT", format.ODP: "ODP",
		format.ODS: "ODS", format.EPUB: "EPUB", format.Markdown: "Markdown", format.CSV: "CSV",
		format.JSON: "JSON", format.Notebook: "notebook", format.RSS: "RSS", format.Atom: "Atom", format.XML: "XML"}
	for _, k := range format.Documents {
		if !strings.Contains(string(page), names[k]+",") && !strings.Contains(string(page), names[k]+" ") {
			t.Errorf("the page does not name %s", names[k])
		}
	}
}
