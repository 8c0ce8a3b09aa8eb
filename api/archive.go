package api

import (
	"bytes"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/pipeline"
)

// getArchive serves an archived blob's exact bytes, with ETag (the content
// hash), If-None-Match, HEAD and byte Range support. Every answer, a 304 and
// a HEAD included, comes after pipeline.OpenBlob has read the whole blob
// through the verifying reader; the bytes are then streamed through it
// again, never held whole, and damage done meanwhile ends the response
// short of its Content-Length. A range is checked too: the read that ends
// it reads on to the blob's end first (BlobReader.CheckAt), and damage
// found before any byte went out is answered ARCHIVE_CORRUPT, after it a
// response cut short. Admission covers opening and verifying; the stream
// itself holds no slot, so a client that reads slowly holds only its
// connection.
func (s *Server) getArchive(w http.ResponseWriter, r *http.Request) {
	d, err := parseHashParam(chi.URLParam(r, "hash"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	wt, _ := readWeight(r, nil)
	release, err := s.adm.acquire(r.Context(), wt)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if f := r.URL.Query().Get("format"); f != "" {
		defer release()
		s.getMarkdown(w, r, d, f)
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
	if rg := r.Header.Get("Range"); rg != "" {
		rg = dropEmptySuffixRanges(rg, br.Size())
		r.Header.Set("Range", rg)
		br.CheckAt(rangeEnds(rg, br.Size())...)
	}
	g := &rangeGuard{ResponseWriter: w}
	http.ServeContent(g, r, "", time.Time{}, br)
	switch {
	case g.refused:
		// ServeContent answered a bad Range in plain text: answer it in an
		// envelope instead, keeping its Content-Range: bytes */size.
		h.Del("ETag")
		h.Del("Cache-Control")
		s.fail(w, r, fault.E(fault.RangeNotSatisfiable, "the Range header asks for bytes outside the blob").
			With("blob_bytes", br.Size()))
	case !g.sent && br.Corrupt():
		// The blob changed after it was opened and before any byte of
		// the answer went out: nothing was promised yet.
		for _, k := range []string{"ETag", "Cache-Control", "Content-Length", "Content-Range", "Content-Type", "Accept-Ranges", "Last-Modified"} {
			h.Del(k)
		}
		s.fail(w, r, pipeline.ArchiveFault("read the archive", archive.ErrCorrupt))
	default:
		g.commit()
	}
}

// FormatMarkdown is the one format getArchive renders a canonical text in
// (?format=markdown): CommonMark with GFM tables, from the text and its
// structure.
const FormatMarkdown = "markdown"

// getMarkdown answers an archived canonical text rendered in format
// (FormatMarkdown, the only one) from its text and structure.
func (s *Server) getMarkdown(w http.ResponseWriter, r *http.Request, d archive.Hash, format string) {
	if format != FormatMarkdown {
		s.fail(w, r, fault.E(fault.ValidationError, "format: must be "+FormatMarkdown).With("field", "format"))
		return
	}
	md, err := s.pipe.Markdown(r.Context(), d)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	h := w.Header()
	h.Set("Content-Type", "text/markdown; charset=utf-8")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Content-Length", strconv.Itoa(len(md.Markdown)))
	w.WriteHeader(http.StatusOK)
	io.WriteString(w, md.Markdown)
}

// rangeEnds returns where the byte ranges of a Range header end, as
// offsets past their last byte in a blob of size bytes: the reads that
// ServeContent makes of each range end there. Only first-last ranges end
// short of the blob; the others, and specs it cannot read, are left out.
func rangeEnds(rg string, size int64) []int64 {
	set, ok := strings.CutPrefix(rg, "bytes=")
	if !ok {
		return nil
	}
	var ends []int64
	for _, spec := range strings.Split(set, ",") {
		first, last, ok := strings.Cut(strings.TrimSpace(spec), "-")
		if !ok || strings.TrimSpace(first) == "" {
			continue
		}
		if n, err := strconv.ParseInt(strings.TrimSpace(last), 10, 64); err == nil && n >= 0 && n < size-1 {
			ends = append(ends, n+1)
		}
	}
	return ends
}

// sniffBytes is how much of a blob names its content type.
const sniffBytes = 4096

// openArchived opens blob d, verified, for streaming and names its content
// type from its first bytes: JSON, UTF-8 text, or octet-stream.
func (s *Server) openArchived(r *http.Request, d archive.Hash) (*pipeline.BlobReader, string, error) {
	br, err := s.pipe.OpenBlob(r.Context(), d)
	if err != nil {
		return nil, "", err
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

// dropEmptySuffixRanges rewrites each suffix range of length zero
// ("bytes=-0") in the Range header rg as a range starting at size, which
// ServeContent, like RFC 9110 (14.1.1), takes as not satisfiable: a set of
// only such ranges is answered 416, and one beside satisfiable ranges is left
// out. ServeContent itself answers "-0" with a 206 of no bytes. Any other
// header is returned as it is, for ServeContent to judge.
func dropEmptySuffixRanges(rg string, size int64) string {
	set, ok := strings.CutPrefix(rg, "bytes=")
	if !ok {
		return rg
	}
	specs := strings.Split(set, ",")
	changed := false
	for i, spec := range specs {
		spec = strings.TrimSpace(spec)
		n, isSuffix := strings.CutPrefix(spec, "-")
		if !isSuffix || n == "" || strings.Trim(n, "0") != "" {
			continue
		}
		specs[i] = strconv.FormatInt(size, 10) + "-"
		changed = true
	}
	if !changed {
		return rg
	}
	return "bytes=" + strings.Join(specs, ",")
}

// rangeGuard holds back a 416 answer (and its plain-text body), and any
// other status until the first byte of the body: an answer that has sent
// nothing can still be an error.
type rangeGuard struct {
	http.ResponseWriter
	refused bool
	code    int  // the status held back
	sent    bool // the status went out
}

func (g *rangeGuard) WriteHeader(code int) {
	if code == http.StatusRequestedRangeNotSatisfiable {
		g.refused = true
		return
	}
	if g.code == 0 {
		g.code = code
	}
}

func (g *rangeGuard) Write(b []byte) (int, error) {
	if g.refused {
		return len(b), nil
	}
	if len(b) == 0 {
		return 0, nil
	}
	g.commit()
	return g.ResponseWriter.Write(b)
}

// commit sends the status held back, if it has not gone out.
func (g *rangeGuard) commit() {
	if g.sent {
		return
	}
	g.sent = true
	if g.code != 0 {
		g.ResponseWriter.WriteHeader(g.code)
	}
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
