package api

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/pipeline"
)

// getArchive serves an archived blob's exact bytes, with ETag (the content
// hash), If-None-Match, HEAD and byte Range support. The blob is streamed
// through the verifying reader, never held whole: a full read that finds it
// corrupt ends the response short of its Content-Length; a Range request
// verifies the whole blob first. Admission covers opening and verifying;
// the stream itself holds no slot, so a client that reads slowly holds
// only its connection.
func (s *Server) getArchive(w http.ResponseWriter, r *http.Request) {
	d, err := parseHashParam(chi.URLParam(r, "hash"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	release, err := s.adm.acquire(r.Context(), readWeight(r, nil))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	br, ct, err := s.openArchived(r, d)
	release()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	defer br.Close()
	h := w.Header()
	h.Set("Content-Type", ct)
	h.Set("ETag", `"`+d.String()+`"`)
	h.Set("Cache-Control", "public, max-age=31536000, immutable")
	h.Set("X-Content-Type-Options", "nosniff")
	g := &rangeGuard{ResponseWriter: w}
	http.ServeContent(g, r, "", time.Time{}, br)
	if g.refused {
		// ServeContent answered a bad Range in plain text: answer it in an
		// envelope instead, keeping its Content-Range: bytes */size.
		h.Del("ETag")
		h.Del("Cache-Control")
		s.fail(w, r, fault.E(fault.RangeNotSatisfiable, "the Range header asks for bytes outside the blob").
			With("blob_bytes", br.Size()))
	}
}

// sniffBytes is how much of a blob names its content type.
const sniffBytes = 4096

// openArchived opens blob d for streaming and names its content type from
// its first bytes: JSON, UTF-8 text, or octet-stream. A Range request
// verifies the whole blob before any of it is sent.
func (s *Server) openArchived(r *http.Request, d archive.Hash) (*pipeline.BlobReader, string, error) {
	br, err := s.pipe.OpenBlob(r.Context(), d)
	if err != nil {
		return nil, "", err
	}
	if r.Method == http.MethodGet && r.Header.Get("Range") != "" {
		if err := br.Verify(); err != nil {
			br.Close()
			return nil, "", err
		}
	}
	head := make([]byte, min(br.Size(), sniffBytes))
	if _, err := io.ReadFull(br, head); err != nil {
		br.Close()
		return nil, "", pipeline.ArchiveFault("read the archive", err)
	}
	br.Seek(0, io.SeekStart)
	valid := utf8.Valid(head)
	if !valid && int64(len(head)) < br.Size() {
		// The prefix may end inside a code point.
		for k := 1; k <= 3 && k < len(head) && !valid; k++ {
			valid = utf8.Valid(head[:len(head)-k])
		}
	}
	switch {
	case valid && bytes.HasPrefix(head, []byte("{")):
		return br, "application/json", nil
	case valid:
		return br, "text/plain; charset=utf-8", nil
	}
	return br, "application/octet-stream", nil
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
func parseHashParam(raw string) (archive.Hash, error) {
	s, err := url.PathUnescape(raw)
	if err != nil {
		s = raw
	}
	d, err := archive.ParseHash(s)
	if err != nil {
		return archive.Hash{}, fault.E(fault.ValidationError, "hash: must be sha256:<64 hex digits> or 64 hex digits")
	}
	return d, nil
}

// OptionsSpec is digest options as a client sends them: an omitted field
// takes its default, a given one is used as given, so max_key_points 0
// asks for no key points and max_evidence 0 is out of range.
type OptionsSpec struct {
	MaxEvidence     *int `json:"max_evidence,omitempty"`
	MaxKeyPoints    *int `json:"max_key_points,omitempty"`
	SnippetMaxChars *int `json:"snippet_max_chars,omitempty"`
	SummaryMaxChars *int `json:"summary_max_chars,omitempty"`
}

// optionFields are the digest options, their JSON names and ranges.
func (o *OptionsSpec) fields(d *digest.Options) []struct {
	name   string
	in     **int
	out    *int
	lo, hi int
} {
	return []struct {
		name   string
		in     **int
		out    *int
		lo, hi int
	}{
		{"max_evidence", &o.MaxEvidence, &d.MaxEvidence, 1, digest.MaxEvidence},
		{"max_key_points", &o.MaxKeyPoints, &d.MaxKeyPoints, 0, digest.MaxKeyPoints},
		{"snippet_max_chars", &o.SnippetMaxChars, &d.SnippetMaxChars, digest.MinSnippetChars, digest.MaxSnippetChars},
		{"summary_max_chars", &o.SummaryMaxChars, &d.SummaryMaxChars, digest.MinSummaryChars, digest.MaxSummaryChars},
	}
}

// Options checks every given field against its range (VALIDATION_ERROR
// naming the field) and converts them; nil gives the defaults.
func (o *OptionsSpec) Options() (digest.Options, error) {
	var d digest.Options
	if o == nil {
		return d, nil
	}
	for _, f := range o.fields(&d) {
		if *f.in == nil {
			continue
		}
		v := **f.in
		if v < f.lo || v > f.hi {
			return d, fault.E(fault.ValidationError, fmt.Sprintf("options.%s: must be between %d and %d (got %d)", f.name, f.lo, f.hi, v)).
				With("field", f.name).With("minimum", f.lo).With("maximum", f.hi)
		}
		*f.out = v
		if f.name == "max_key_points" && v == 0 {
			*f.out = digest.NoKeyPoints
		}
	}
	return d, nil
}

// optionsFromQuery reads digest options given as query parameters.
func optionsFromQuery(q url.Values) (*OptionsSpec, error) {
	var o OptionsSpec
	var d digest.Options
	for _, f := range o.fields(&d) {
		v := q.Get(f.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fault.E(fault.ValidationError, fmt.Sprintf("%s: must be an integer", f.name)).With("field", f.name)
		}
		*f.in = &n
	}
	return &o, nil
}
