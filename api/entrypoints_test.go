package api_test

import (
	"encoding/json"
	"testing"

	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/wire"
)

// TestDigestBodyWithoutItsType: a file sent as a generic binary type or
// with no Content-Type at all is told by ?name= and its first bytes, as a
// multipart part or a fetched URL is (issue 47: a PDF sent as
// application/octet-stream was 415, and sent without a type "the JSON is
// not valid UTF-8"); a body without a type that opens as JSON is still
// JSON.
func TestDigestBodyWithoutItsType(t *testing.T) {
	h, pipe := newTestServer(t, api.Config{})
	pipe.Ingester.PDF = fakePDF{pages: []string{"Placental transmission of HIV-1 was observed in Harare."}}
	c := loadContract(t)
	pdf := []byte("%PDF-1.4\n\xe2\xe3\xcf\xd3 fake")
	for _, tc := range []struct {
		name, target, ctype string
		body                []byte
		kind                string
	}{
		{"octet-stream with a name", "/v1/digest?query=placental+transmission&name=paper.pdf", "application/octet-stream", pdf, "pdf"},
		{"octet-stream, no name", "/v1/digest?query=placental+transmission", "application/octet-stream", pdf, "pdf"},
		{"zip type", "/v1/digest?query=placental+transmission&name=paper.pdf", "application/zip", pdf, "pdf"},
		{"no type, a name", "/v1/digest?query=placental+transmission&name=paper.pdf", "", pdf, "pdf"},
		{"no type, no name", "/v1/digest?query=placental+transmission", "", pdf, "pdf"},
		{"no type, text", "/v1/digest?query=glaciers&name=notes.txt", "", []byte("Glaciers retreat when summer melt exceeds winter snowfall."), "text"},
		{"no type, JSON", "/v1/digest", "", []byte(`{"query":"glaciers","source":{"text":"Glaciers retreat when summer melt exceeds winter snowfall."}}`), "text"},
	} {
		resp, b := c.do(t, h, "POST", tc.target, tc.ctype, tc.body)
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d %.300s", tc.name, resp.StatusCode, b)
			continue
		}
		var data wire.DigestData
		json.Unmarshal(decodeEnvelope(t, b).Data, &data)
		if data.Source.Kind != tc.kind {
			t.Errorf("%s: kind %q, want %q", tc.name, data.Source.Kind, tc.kind)
		}
	}
	// A body of no kind digestd reads is still refused, by what it is.
	resp, b := c.do(t, h, "POST", "/v1/digest?query=x&name=photo.gif", "application/octet-stream", []byte("GIF89a\x01\x00\x01\x00"))
	if resp.StatusCode != 422 || errorOf(t, b).ErrorCode != "UNSUPPORTED_CONTENT_TYPE" {
		t.Errorf("a GIF as octet-stream: %d %.300s", resp.StatusCode, b)
	}
}

// TestSourcesUnknownLabel: GET /v1/sources with a label no source carries
// is 404 NOT_FOUND, as POST /v1/search's filter is (docs/search.md).
func TestSourcesUnknownLabel(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	resp, b := c.do(t, h, "POST", "/v1/digest?query=glaciers&label=alps", "text/plain", []byte("Glaciers in the Alps have lost half their volume since 1900."))
	if resp.StatusCode != 200 {
		t.Fatalf("digest: %d %s", resp.StatusCode, b)
	}
	if resp, b := c.do(t, h, "GET", "/v1/sources?label=alps", "", nil); resp.StatusCode != 200 {
		t.Errorf("a label a source carries: %d %.300s", resp.StatusCode, b)
	}
	resp, b = c.do(t, h, "GET", "/v1/sources?label=andes", "", nil)
	if ed := errorOf(t, b); resp.StatusCode != 404 || ed.ErrorCode != "NOT_FOUND" || ed.Details["label"] != "andes" {
		t.Errorf("a label no source carries: %d %.300s", resp.StatusCode, b)
	}
}
