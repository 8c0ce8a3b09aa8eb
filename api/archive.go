package api

import (
	"bytes"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
)

// getArchive serves an archived blob's exact bytes, with ETag (the content
// hash), If-None-Match, HEAD and byte Range support.
func (s *Server) getArchive(w http.ResponseWriter, r *http.Request) {
	d, err := parseHashParam(chi.URLParam(r, "hash"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	b, err := s.pipe.Blob(r.Context(), d)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	ct := "application/octet-stream"
	switch {
	case bytes.HasPrefix(b, []byte("{")) && utf8.Valid(b):
		ct = "application/json"
	case utf8.Valid(b):
		ct = "text/plain; charset=utf-8"
	}
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("ETag", `"`+d.String()+`"`)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	g := &rangeGuard{ResponseWriter: w}
	http.ServeContent(g, r, "", time.Time{}, bytes.NewReader(b))
	if g.refused {
		// ServeContent answered a bad Range in plain text: answer it in an
		// envelope instead, keeping its Content-Range: bytes */size.
		h.Del("ETag")
		h.Del("Cache-Control")
		s.fail(w, r, fault.E(fault.RangeNotSatisfiable, "the Range header asks for bytes outside the blob").
			With("blob_bytes", len(b)))
	}
}

// rangeGuard holds back a 416 answer (and its plain-text body).
type rangeGuard struct {
	http.ResponseWriter
	refused bool
}

func (g *rangeGuard) WriteHeader(code int) {
	if code == http.StatusRequestedRangeNotSatisfiable {
		g.refused = true
		return
	}
	g.ResponseWriter.WriteHeader(code)
}

func (g *rangeGuard) Write(b []byte) (int, error) {
	if g.refused {
		return len(b), nil
	}
	return g.ResponseWriter.Write(b)
}

// parseHashParam parses a path hash (sha256:<hex> or bare hex).
func parseHashParam(raw string) (archive.Digest, error) {
	s, err := url.PathUnescape(raw)
	if err != nil {
		s = raw
	}
	d, err := archive.ParseDigest(s)
	if err != nil {
		return archive.Digest{}, fault.E(fault.ValidationError, "hash: must be sha256:<64 hex digits> or 64 hex digits")
	}
	return d, nil
}

// optionsFromQuery reads digest options given as query parameters.
func optionsFromQuery(q url.Values) (digest.Options, error) {
	var o digest.Options
	for name, dst := range map[string]*int{
		"max_evidence":      &o.MaxEvidence,
		"max_key_points":    &o.MaxKeyPoints,
		"snippet_max_chars": &o.SnippetMaxChars,
		"summary_max_chars": &o.SummaryMaxChars,
	} {
		v := q.Get(name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return o, fault.E(fault.ValidationError, fmt.Sprintf("%s: must be an integer", name)).With("field", name)
		}
		*dst = n
	}
	return o, nil
}
