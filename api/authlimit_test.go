package api_test

import (
	"bytes"
	"mime/multipart"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/digestd/digestd/api"
)

// TestGuessingKeysIsRateLimited sends requests with wrong API keys from one
// address: the first are refused 401, those past the rate limit 429 with
// Retry-After, so keys cannot be guessed at line rate.
func TestGuessingKeysIsRateLimited(t *testing.T) {
	h, _ := newTestServer(t, api.Config{APIKeyHashes: []string{api.HashAPIKey("right")}, RateLimit: 3, RateWindow: time.Hour})
	var codes []int
	for i := range 5 {
		req := httptest.NewRequest("GET", "/v1/sources", nil)
		req.Header.Set("X-API-Key", "wrong-"+string(rune('a'+i)))
		resp, _ := serve(h, req)
		codes = append(codes, resp.StatusCode)
		if resp.StatusCode == 429 && resp.Header.Get("Retry-After") == "" {
			t.Errorf("429 without Retry-After")
		}
	}
	if codes[0] != 401 || codes[4] != 429 {
		t.Errorf("statuses %v, want 401 first and 429 once over the limit", codes)
	}
}

// TestEmptySourceAsInBatch sends an empty PDF, page and text as raw bodies
// and as a multipart file: each is 422 NO_EXTRACTABLE_TEXT, as batch
// answers an empty file.
func TestEmptySourceAsInBatch(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	for _, ct := range []string{"application/pdf", "text/html", "text/plain"} {
		req := httptest.NewRequest("POST", "/v1/digest?query=q", nil)
		req.Header.Set("Content-Type", ct)
		resp, body := serve(h, req)
		if resp.StatusCode != 422 || errorOf(t, body).ErrorCode != "NO_EXTRACTABLE_TEXT" {
			t.Errorf("empty %s: %d %s", ct, resp.StatusCode, body)
		}
	}
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("query", "q")
	mw.CreateFormFile("file", "empty.pdf")
	mw.Close()
	req := httptest.NewRequest("POST", "/v1/digest", &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	resp, body := serve(h, req)
	if resp.StatusCode != 422 || errorOf(t, body).ErrorCode != "NO_EXTRACTABLE_TEXT" {
		t.Errorf("empty file part: %d %s", resp.StatusCode, body)
	}
}
