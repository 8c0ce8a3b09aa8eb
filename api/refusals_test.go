package api_test

import (
	"bytes"
	"encoding/json"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/wire"
	"golang.org/x/text/encoding/japanese"
)

// TestOpenAPIListsRefusals sends a request to every operation of
// openapi.yaml while admission control is full, and again past the rate
// limit: every operation that answers 503 or 429 with Retry-After must list
// that status, with the Retry-After header, in openapi.yaml.
func TestOpenAPIListsRefusals(t *testing.T) {
	doc := openapiDoc(t)
	request := func(method, path string) *http.Request {
		path = strings.NewReplacer("{hash}", strings.Repeat("ab", 32)).Replace(path)
		if strings.Contains(path, "/slice") {
			path += "?start=0&end=1"
		}
		var req *http.Request
		if method == http.MethodPost {
			req = httptest.NewRequest(method, path, strings.NewReader(`{}`))
			req.Header.Set("Content-Type", "application/json")
		} else {
			req = httptest.NewRequest(method, path, nil)
		}
		return req
	}
	check := func(name string, h http.Handler, status int) {
		t.Helper()
		answered := 0
		for path, item := range doc.Paths.Map() {
			for method, op := range item.Operations() {
				resp, body := serve(h, request(method, path))
				if resp.StatusCode != status || resp.Header.Get("Retry-After") == "" {
					continue
				}
				answered++
				listed := op.Responses.Status(status)
				if listed == nil || listed.Value == nil || listed.Value.Headers["Retry-After"] == nil {
					t.Errorf("%s %s answers %d with Retry-After (%s) %s; openapi.yaml does not list it with the header", method, path, status, name, body)
				}
			}
		}
		if answered < 5 {
			t.Errorf("%s: only %d operations answered %d; the probe is broken", name, answered, status)
		}
	}

	// Admission control full: an MCP call holds the one slot.
	hold, started := make(chan struct{}), make(chan struct{}, 1)
	work := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		started <- struct{}{}
		<-hold
	})
	h := withBeside(t, api.Config{MaxInFlight: 1, QueueWait: time.Millisecond}, "/mcp", work)
	done := make(chan struct{})
	go func() {
		serve(h, httptest.NewRequest("POST", "/mcp", strings.NewReader(`{}`)))
		close(done)
	}()
	<-started
	check("admission full", h, http.StatusServiceUnavailable)
	close(hold)
	<-done

	// Past the rate limit: one request per hour.
	h, _ = newTestServer(t, api.Config{RateLimit: 1, RateWindow: time.Hour})
	serve(h, httptest.NewRequest("GET", "/v1/stats", nil))
	check("rate limited", h, http.StatusTooManyRequests)
}

// Bytes that are not UTF-8 inside JSON are refused the same way whether
// in one source's text field or among several: 400 INVALID_FORMAT, never
// a digest of the text with the bytes dropped. Bytes sent as a text (a raw
// text/plain body, a multipart text file) are read in the charset a
// declaration or the detector names, and bytes no charset reads are 422
// DOCUMENT_UNREADABLE with the offset of the first byte that is not UTF-8.
func TestInvalidUTF8IsRefusedEverywhere(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	bad := "Tides rise.\x81\x8d\x8f\x90\x9d\xfe\xff\x80 The moon pulls the sea towards it."
	jsonText := `{"query":"tides","source":{"text":"` + bad + `"}}`
	multi := `{"query":"tides","sources":[{"id":"a","text":"Spring tides follow the full moon."},{"id":"b","text":"` + bad + `"}]}`
	var form bytes.Buffer
	mw := multipart.NewWriter(&form)
	mw.WriteField("query", "tides")
	part, _ := mw.CreatePart(textproto.MIMEHeader{"Content-Disposition": {`form-data; name="file"; filename="t.txt"`}, "Content-Type": {"text/plain"}})
	part.Write([]byte(bad))
	mw.Close()
	for _, tc := range []struct {
		name, target, ct string
		body             []byte
		status           int
		code             string
	}{
		{"text/plain", "/v1/digest?query=tides", "text/plain", []byte(bad), 422, "DOCUMENT_UNREADABLE"},
		{"text/plain utf-8", "/v1/digest?query=tides", "text/plain; charset=utf-8", []byte(bad), 422, "DOCUMENT_UNREADABLE"},
		{"json text", "/v1/digest", "application/json", []byte(jsonText), 400, "INVALID_FORMAT"},
		{"json sources", "/v1/digests", "application/json", []byte(multi), 400, "INVALID_FORMAT"},
		{"multipart", "/v1/digest", mw.FormDataContentType(), form.Bytes(), 422, "DOCUMENT_UNREADABLE"},
	} {
		resp, body := c.do(t, h, "POST", tc.target, tc.ct, tc.body)
		ed := errorOf(t, body)
		if resp.StatusCode != tc.status || ed.ErrorCode != tc.code {
			t.Errorf("%s: %d %.300s, want %d %s", tc.name, resp.StatusCode, body, tc.status, tc.code)
		}
		if tc.code == "DOCUMENT_UNREADABLE" && ed.Details["byte_offset"] != float64(len("Tides rise.")) {
			t.Errorf("%s: details %v, want byte_offset %d", tc.name, ed.Details, len("Tides rise."))
		}
	}
}

// TestTextInALegacyCharset: a text/plain body in Shift-JIS, declared or
// not, is digested, and its record keeps the charset and the hash of the
// bytes sent.
func TestTextInALegacyCharset(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	raw, err := japanese.ShiftJIS.NewEncoder().Bytes([]byte("潮の満ち引きは一日に二回起こる。月が海を引き寄せるからである。満潮と干潮の差は場所によって大きく異なる。"))
	if err != nil {
		t.Fatal(err)
	}
	for _, ct := range []string{"text/plain; charset=Shift_JIS", "text/plain"} {
		resp, b := c.do(t, h, "POST", "/v1/digest?query=潮", ct, raw)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %.300s", ct, resp.StatusCode, b)
		}
		var d wire.DigestData
		if err := json.Unmarshal(decodeEnvelope(t, b).Data, &d); err != nil {
			t.Fatal(err)
		}
		if rec := d.Source.Record; rec.Kind != "text" || rec.Charset != "shift_jis" || rec.RawSHA256 != archive.Sum(raw) || !strings.Contains(d.Digest.Summary, "潮の満ち引き") {
			t.Errorf("%s: record %+v, summary %q", ct, rec, d.Digest.Summary)
		}
	}
}
