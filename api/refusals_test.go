package api_test

import (
	"bytes"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"net/textproto"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/api"
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

// Bytes that are not UTF-8 are refused the same way whether they come as a
// raw text/plain body, inside a JSON text field, among several sources or
// as a multipart text file: 400 INVALID_FORMAT, never a digest of the text
// with the bytes dropped.
func TestInvalidUTF8IsRefusedEverywhere(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	bad := "Tides rise twice a day.\xff The moon pulls the sea towards it."
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
	}{
		{"text/plain", "/v1/digest?query=tides", "text/plain", []byte(bad)},
		{"json text", "/v1/digest", "application/json", []byte(jsonText)},
		{"json sources", "/v1/digests", "application/json", []byte(multi)},
		{"multipart", "/v1/digest", mw.FormDataContentType(), form.Bytes()},
	} {
		resp, body := c.do(t, h, "POST", tc.target, tc.ct, tc.body)
		if ed := errorOf(t, body); resp.StatusCode != 400 || ed.ErrorCode != "INVALID_FORMAT" {
			t.Errorf("%s: %d %.300s", tc.name, resp.StatusCode, body)
		}
	}
}
