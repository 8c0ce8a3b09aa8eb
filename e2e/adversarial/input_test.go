package adversarial

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"
)

// nested returns depth opening brackets, inner, and depth closing ones.
func nested(open, close, inner string, depth int) []byte {
	return []byte(strings.Repeat(open, depth) + inner + strings.Repeat(close, depth))
}

// TestJSONBodies sends malformed, oversized, deeply nested, mistyped and
// duplicate-key JSON to every JSON route.
func TestJSONBodies(t *testing.T) {
	s := startServer(t)
	bigText := strings.Repeat("a", maxBodyBytes+1024)
	cases := []attackCase{
		{name: "over max-body-bytes", path: "/v1/digest", body: []byte(`{"query":"q","source":{"text":"` + bigText + `"}}`), want: want{"413 TOO_LARGE"}},
		{name: "over max-body-bytes, many sources", path: "/v1/digests", body: []byte(`{"query":"q","sources":[{"text":"` + bigText[:maxBodyBytes/2] + `"},{"text":"` + bigText[:maxBodyBytes/2] + `"}]}`), want: want{"413 TOO_LARGE"}},
		{name: "over max-body-bytes, verify", path: "/v1/verify", body: []byte(`{"digest":{"summary":"` + bigText + `"}}`), want: want{"413 TOO_LARGE"}},
		{name: "100k nested arrays", path: "/v1/digest", body: nested("[", "]", "", 100_000), want: want{"400 INVALID_FORMAT"}},
		{name: "100k nested objects", path: "/v1/digest", body: nested(`{"a":`, "}", "1", 100_000), want: want{"400 INVALID_FORMAT"}},
		{name: "100k nested under a known field", path: "/v1/digest", body: []byte(`{"query":"q","source":{"text":"x"},"options":` + string(nested(`{"a":`, "}", "1", 100_000)) + `}`), want: want{"400 INVALID_FORMAT"}},
		{name: "100k nested, digests", path: "/v1/digests", body: nested("[", "]", "", 100_000), want: want{"400 INVALID_FORMAT"}},
		{name: "100k nested, verify", path: "/v1/verify", body: nested(`{"digest":`, "}", "1", 100_000), want: want{"400 INVALID_FORMAT"}},
		{name: "unclosed 100k nesting", path: "/v1/digest", body: []byte(strings.Repeat("[", 100_000)), want: want{"400 INVALID_FORMAT"}},
		{name: "query is a number", path: "/v1/digest", body: []byte(`{"query":5,"source":{"text":"x"}}`), want: want{"400 VALIDATION_ERROR"}},
		{name: "source is a string", path: "/v1/digest", body: []byte(`{"query":"q","source":"x"}`), want: want{"400 VALIDATION_ERROR"}},
		{name: "option is a string", path: "/v1/digest", body: []byte(`{"query":"q","source":{"text":"x"},"options":{"max_evidence":"3"}}`), want: want{"400 VALIDATION_ERROR"}},
		{name: "option overflows", path: "/v1/digest", body: []byte(`{"query":"q","source":{"text":"x"},"options":{"max_evidence":1e999}}`), want: want{"400 VALIDATION_ERROR"}},
		{name: "option out of range", path: "/v1/digest", body: []byte(`{"query":"q","source":{"text":"x"},"options":{"max_evidence":-1}}`), want: want{"400 VALIDATION_ERROR"}},
		{name: "top level array", path: "/v1/digest", body: []byte(`[1,2]`), want: want{"400 VALIDATION_ERROR"}},
		{name: "top level null", path: "/v1/digest", body: []byte(`null`), want: want{"400 MISSING_REQUIRED"}},
		{name: "sources is an object", path: "/v1/digests", body: []byte(`{"query":"q","sources":{"text":"x"}}`), want: want{"400 VALIDATION_ERROR"}},
		{name: "digest is a string", path: "/v1/verify", body: []byte(`{"digest":"x"}`), want: want{"400 VALIDATION_ERROR"}},
		{name: "duplicate top-level key", path: "/v1/digest", body: []byte(`{"query":"a","query":"b","source":{"text":"hello world."}}`), want: want{"400 INVALID_FORMAT"}},
		{name: "duplicate nested key", path: "/v1/digest", body: []byte(`{"query":"a","source":{"text":"x","text":"y"}}`), want: want{"400 INVALID_FORMAT"}},
		{name: "duplicate key smuggling a second source", path: "/v1/digest", body: []byte(`{"query":"a","source":{"text":"x"},"source":{"url":"http://127.0.0.1/"}}`), want: want{"400 INVALID_FORMAT"}},
		{name: "duplicate key, escaped spelling", path: "/v1/digest", body: []byte(`{"query":"a","\u0071uery":"b","source":{"text":"x"}}`), want: want{"400 INVALID_FORMAT"}},
		{name: "duplicate key in a source list", path: "/v1/digests", body: []byte(`{"query":"q","sources":[{"text":"a","text":"b"}]}`), want: want{"400 INVALID_FORMAT"}},
		{name: "duplicate key in verify", path: "/v1/verify", body: []byte(`{"digest":{"version":"1.0","version":"2"}}`), want: want{"400 INVALID_FORMAT"}},
		{name: "truncated", path: "/v1/digest", body: []byte(`{"query":"q","source":{"te`), want: want{"400 INVALID_FORMAT"}},
		{name: "syntax error", path: "/v1/digest", body: []byte(`{"query":"q",,}`), want: want{"400 INVALID_FORMAT"}},
		{name: "two values", path: "/v1/digest", body: []byte(`{"query":"q","source":{"text":"x"}} {}`), want: want{"400 INVALID_FORMAT"}},
		{name: "empty body", path: "/v1/digest", body: nil, want: want{"400 MISSING_REQUIRED"}},
		{name: "white space body", path: "/v1/digest", body: []byte(" \n\t "), want: want{"400 MISSING_REQUIRED"}},
		{name: "unknown field", path: "/v1/digest", body: []byte(`{"query":"q","source":{"text":"x"},"zzz":1}`), want: want{"400 VALIDATION_ERROR"}},
		{name: "two source kinds", path: "/v1/digest", body: []byte(`{"query":"q","source":{"text":"x","html":"<p>y</p>"}}`), want: want{"400 VALIDATION_ERROR"}},
		{name: "no source kind", path: "/v1/digest", body: []byte(`{"query":"q","source":{}}`), want: want{"400 MISSING_REQUIRED"}},
		{name: "bad base64", path: "/v1/digest", body: []byte(`{"query":"q","source":{"pdf_base64":"!!!not base64"}}`), want: want{"400 INVALID_FORMAT"}},
		{name: "bad archive hash", path: "/v1/digest", body: []byte(`{"query":"q","source":{"archive":"../../etc/passwd"}}`), want: want{"400 VALIDATION_ERROR"}},
		{name: "too many sources", path: "/v1/digests", body: []byte(`{"query":"q","sources":[` + strings.TrimSuffix(strings.Repeat(`{"text":"x"},`, 51), ",") + `]}`), want: want{"400 VALIDATION_ERROR"}},
		{name: "NUL in a key", path: "/v1/digest", body: []byte("{\"que\u0000ry\":\"q\",\"source\":{\"text\":\"x\"}}"), want: want{"400 INVALID_FORMAT"}},
		{name: "unsupported media type", path: "/v1/digest", contentType: "audio/mpeg", body: []byte("ID3\x04\x00"), want: want{"415 UNSUPPORTED_MEDIA_TYPE"}},
		{name: "an image cut short", path: "/v1/digest", contentType: "image/png", body: []byte("\x89PNG"), want: want{"422 UNSUPPORTED_CONTENT_TYPE", "422 DOCUMENT_UNREADABLE"}},
		{name: "raw text over max-body-bytes", path: "/v1/digest?query=q", contentType: "text/plain", body: []byte(bigText), want: want{"413 TOO_LARGE"}},
		{name: "raw text in no charset", path: "/v1/digest?query=q", contentType: "text/plain", body: []byte("hello \xff\xfe world."), want: want{"422 DOCUMENT_UNREADABLE"}},
		{name: "raw text in a declared foreign charset", path: "/v1/digest?query=q", contentType: "text/plain; charset=latin1", body: []byte("caf\xe9 cr\xe8me. A second sentence."), want: want{"200"}, check: checkArchivedText},
		{name: "option query parameter not a number", path: "/v1/digest?query=q&max_evidence=zz", contentType: "text/plain", body: []byte("abc"), want: want{"400 VALIDATION_ERROR"}},
		{name: "multipart without boundary", path: "/v1/digest", contentType: "multipart/form-data", body: []byte("--x\r\n"), want: want{"400 INVALID_FORMAT"}},
		{name: "multipart cut short", path: "/v1/digest", contentType: "multipart/form-data; boundary=x", body: []byte("--x\r\nContent-Disposition: form-data; name=\"file\"\r\n\r\nabc"), want: want{"400 INVALID_FORMAT"}},
	}
	for i := range cases {
		if cases[i].contentType == "" {
			cases[i].contentType = "application/json"
		}
	}
	runStable(t, s, cases, 3, 4)

	// Invalid UTF-8 inside a JSON string: encoding/json replaces each bad
	// byte with U+FFFD, so the request is digested. Whatever the answer, it
	// must be stable, not a 5xx, and a success must archive valid text.
	badUTF8 := attackCase{name: "invalid UTF-8 in a JSON string", path: "/v1/digest", contentType: "application/json",
		body: []byte("{\"query\":\"q\",\"source\":{\"text\":\"caf\xe9 \xff\xfe bad bytes. A second sentence.\"}}"),
		want: want{"200", "400 INVALID_FORMAT", "400 VALIDATION_ERROR"}, check: checkArchivedText}
	runStable(t, s, []attackCase{badUTF8}, 3, 1)
	s.checkHealthy(t)
}

// checkArchivedText asserts that a successful digest's canonical text is in
// the archive and obeys the canonical-text contract: valid UTF-8 with no
// control characters but newline and form feed.
func checkArchivedText(t *testing.T, s *server, r result) {
	t.Helper()
	var env struct {
		Data struct {
			Source struct {
				ArchiveHash string `json:"archive_hash"`
			} `json:"source"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &env); err != nil || env.Data.Source.ArchiveHash == "" {
		t.Errorf("a 200 without data.source.archive_hash: %v %.200s", err, r.Body)
		return
	}
	a, err := s.try("GET", "/v1/archive/"+env.Data.Source.ArchiveHash, "", nil)
	if err != nil || a.Status != http.StatusOK {
		t.Errorf("archived text %s: %v %v", env.Data.Source.ArchiveHash, a.outcome(), err)
		return
	}
	if !utf8.Valid(a.Body) {
		t.Errorf("archived text %s is not valid UTF-8", env.Data.Source.ArchiveHash)
	}
	for _, c := range string(a.Body) {
		if (c < 0x20 && c != '\n' && c != '\f') || c == 0x7f {
			t.Errorf("archived text %s holds control character %U", env.Data.Source.ArchiveHash, c)
			break
		}
	}
}

// TestHashPaths tries traversal, encoded slashes, NUL bytes and wrong
// lengths in every route that takes a hash. Paths are sent byte for byte.
func TestHashPaths(t *testing.T) {
	s := startServer(t)
	hex64 := strings.Repeat("a", 64)
	type pathCase struct {
		hash string
		want want
	}
	hashes := []pathCase{
		{"..%2F..%2Fetc%2Fpasswd", want{"400 VALIDATION_ERROR"}},
		{"..%2f..%2f..%2f..%2fetc%2fpasswd", want{"400 VALIDATION_ERROR"}},
		{"%2e%2e%2f%2e%2e%2fetc%2fpasswd", want{"400 VALIDATION_ERROR"}},
		{"..%252F..%252Fetc%252Fpasswd", want{"400 VALIDATION_ERROR"}},
		{"..%5C..%5Cetc%5Cpasswd", want{"400 VALIDATION_ERROR"}},
		{"sha256%3A..%2F..%2F" + hex64[:58], want{"400 VALIDATION_ERROR"}},
		{"%2Fetc%2Fpasswd", want{"400 VALIDATION_ERROR"}},
		{"%00", want{"400 VALIDATION_ERROR"}},
		{hex64 + "%00", want{"400 VALIDATION_ERROR"}},
		{hex64[:32] + "%00" + hex64[:31], want{"400 VALIDATION_ERROR"}},
		{"sha256:" + hex64 + "%00.txt", want{"400 VALIDATION_ERROR"}},
		{hex64[:63], want{"400 VALIDATION_ERROR"}},
		{hex64 + "a", want{"400 VALIDATION_ERROR"}},
		{"sha256:" + hex64[:63], want{"400 VALIDATION_ERROR"}},
		{"sha256:", want{"400 VALIDATION_ERROR"}},
		{"sha512:" + hex64 + hex64, want{"400 VALIDATION_ERROR"}},
		{strings.Repeat("a", 4000), want{"400 VALIDATION_ERROR"}},
		{"g" + hex64[:63], want{"400 VALIDATION_ERROR"}},
		{"%C3%A9" + hex64[:62], want{"400 VALIDATION_ERROR"}},
		{"%FF%FE" + hex64[:62], want{"400 VALIDATION_ERROR"}},
		{"sha256:" + hex64, want{"404 NOT_FOUND"}},
		{hex64, want{"404 NOT_FOUND"}},
		{"sha256%3A" + hex64, want{"404 NOT_FOUND"}},
		// Go's server refuses a malformed escape before routing; serve
		// answers that refusal in an envelope too (framing.go).
		{"%zz", want{"400 INVALID_FORMAT"}},
	}
	var cases []attackCase
	for _, h := range hashes {
		for _, route := range []string{"/v1/archive/%s", "/v1/archive/%s/slice?start=0&end=1", "/v1/sources/%s"} {
			p := fmt.Sprintf(route, h.hash)
			cases = append(cases, attackCase{name: "GET " + trunc(p), method: "GET", path: p, want: h.want})
		}
	}
	// Raw, unescaped traversal: the router sees extra segments, no hash.
	for _, p := range []string{"/v1/archive/../../etc/passwd", "/v1/archive/./../../../etc/passwd", "/v1/archive//etc/passwd", "/v1/archive/" + hex64 + "/../../x"} {
		cases = append(cases, attackCase{name: "raw " + p, method: "GET", path: p, want: want{"404 NOT_FOUND", "400 VALIDATION_ERROR"}})
	}
	for _, c := range cases {
		for range 2 {
			r := s.raw(t, c.method, c.path)
			if !c.want.has(r.outcome()) {
				t.Errorf("%s: got %q, want one of %q", c.name, r.outcome(), c.want)
			}
			if bytes.Contains(r.Body, []byte("root:")) || bytes.Contains(r.Body, []byte(s.archive)) {
				t.Errorf("%s: the response leaks a file or a path: %.200s", c.name, r.Body)
			}
		}
	}
	// HEAD must refuse the same way, without a body.
	if r := s.raw(t, "HEAD", "/v1/archive/..%2F..%2Fetc%2Fpasswd"); r.Status != http.StatusBadRequest || len(r.Body) != 0 {
		t.Errorf("HEAD traversal: %d with %d bytes, want 400 without a body", r.Status, len(r.Body))
	}
	// The same hashes through the JSON archive source.
	for _, h := range hashes[:12] {
		r := s.postJSON(t, "/v1/digest", map[string]any{"query": "q", "source": map[string]string{"archive": h.hash}})
		if r.Status != http.StatusBadRequest && r.Status != http.StatusNotFound {
			t.Errorf("archive source %q: got %q, want a 400 or 404", h.hash, r.outcome())
		}
	}
	s.checkHealthy(t)
}
