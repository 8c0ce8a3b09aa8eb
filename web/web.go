// Package web is digestd's page for people: plain HTML, CSS and JavaScript,
// embedded in the binary and served under /ui/. The page calls the same JSON
// API as any other client (POST /v1/digest, POST /v1/digests, GET
// /v1/archive/{hash}, GET /v1/sources/{hash}); it has no build step and makes
// no request to any other host.
package web

import (
	"bytes"
	"crypto/sha256"
	"embed"
	"encoding/hex"
	"fmt"
	"io/fs"
	"mime"
	"net/http"
	"path"
	"strings"
	"time"
)

// Prefix is the path under which Handler serves the page. Every path below
// it that is not an asset (/ui/, /ui/multi, /ui/archive/<hash>, …) answers
// with the same index.html, and the page's script reads the path.
const Prefix = "/ui/"

// assetDir is the folder under Prefix that holds the page's files; only
// paths inside it are looked up as files.
const assetDir = "assets/"

// contentSecurityPolicy allows the page to load its own files and call its
// own origin, and nothing else: no inline script, no other host.
const contentSecurityPolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"

//go:embed static
var static embed.FS

// file is one embedded file, ready to serve.
type file struct {
	body        []byte
	contentType string
	etag        string
}

// Handler serves the embedded page for GET and HEAD requests whose path
// starts with Prefix: /ui/assets/<name> is a file (404 when there is none),
// any other path is index.html. Other methods get 405; paths outside Prefix
// get 404. Responses carry a Content-Security-Policy that confines the page
// to its own origin, and an ETag so that unchanged files are not sent again.
func Handler() http.Handler {
	files, err := load()
	if err != nil {
		// The files are compiled in; failing to read them is a build defect.
		panic(fmt.Sprintf("web: read embedded files: %v", err))
	}
	index := files["index.html"]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			h.Set("Allow", "GET, HEAD")
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		rel, ok := strings.CutPrefix(r.URL.Path, Prefix)
		if !ok {
			http.NotFound(w, r)
			return
		}
		f := index
		if strings.HasPrefix(rel, assetDir) {
			name := path.Clean(rel)
			f, ok = files[name]
			if !ok || !strings.HasPrefix(name, assetDir) {
				http.NotFound(w, r)
				return
			}
		}
		h.Set("Content-Type", f.contentType)
		h.Set("Content-Security-Policy", contentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("Referrer-Policy", "no-referrer")
		h.Set("Cache-Control", "no-cache")
		h.Set("ETag", f.etag)
		http.ServeContent(w, r, "", time.Time{}, bytes.NewReader(f.body))
	})
}

// load reads every embedded file, keyed by its path below static/.
func load() (map[string]file, error) {
	files := map[string]file{}
	err := fs.WalkDir(static, "static", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := static.ReadFile(p)
		if err != nil {
			return fmt.Errorf("read %s: %w", p, err)
		}
		ct := mime.TypeByExtension(path.Ext(p))
		if ct == "" {
			ct = "application/octet-stream"
		}
		sum := sha256.Sum256(b)
		files[strings.TrimPrefix(p, "static/")] = file{body: b, contentType: ct, etag: `"` + hex.EncodeToString(sum[:16]) + `"`}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if _, ok := files["index.html"]; !ok {
		return nil, fmt.Errorf("index.html is missing")
	}
	return files, nil
}
