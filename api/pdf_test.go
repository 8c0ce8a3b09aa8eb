package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"mime/multipart"
	"net/textproto"
	"testing"

	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/wire"
)

// fakePDF stands in for the worker pool: it "extracts" fixed pages, or fails.
type fakePDF struct {
	pages []string
	err   error
}

func (f fakePDF) Extract(ctx context.Context, pdf []byte) (*ingest.PDFText, error) {
	if f.err != nil {
		return nil, f.err
	}
	return &ingest.PDFText{Pages: f.pages, Title: "A Paper", Extractor: "fake", Version: "1"}, nil
}

func TestPDFSourceGetsPageLocators(t *testing.T) {
	for _, pages := range [][]string{
		{"Only one page about placental transmission of HIV-1 in Harare."},
		{"Introduction page about something else entirely.", "", "Results: placental transmission of HIV-1 was observed in Harare.\nMore text."},
	} {
		h, pipe := newTestServer(t, api.Config{})
		pipe.Ingester.PDF = fakePDF{pages: pages}
		c := loadContract(t)
		resp, b := c.do(t, h, "POST", "/v1/digest?query=placental+transmission", "application/pdf", []byte("%PDF-1.4 fake"))
		if resp.StatusCode != 200 {
			t.Fatalf("status %d: %s", resp.StatusCode, b)
		}
		var data wire.DigestData
		json.Unmarshal(decodeEnvelope(t, b).Data, &data)
		if data.Source.Kind != "pdf" || data.Source.Record.PageCount != len(pages) || len(data.Source.Record.PageOffsets) != len(pages) {
			t.Errorf("record %+v", data.Source.Record)
		}
		_, text := c.do(t, h, "GET", "/v1/archive/"+data.Source.ArchiveHash.String(), "", nil)
		if len(data.Digest.EvidenceSnippets) == 0 {
			t.Fatal("no snippets")
		}
		for _, s := range data.Digest.EvidenceSnippets {
			loc, err := digest.ParseLocator(s.Locator)
			if err != nil || loc.Page == 0 {
				t.Fatalf("PDF snippet locator %q is not a page locator", s.Locator)
			}
			if err := loc.Verify(string(text), s.Text); err != nil {
				t.Errorf("%s: %v", s.Locator, err)
			}
		}
		if top, _ := digest.ParseLocator(data.Digest.EvidenceSnippets[0].Locator); top.Page != len(pages) {
			t.Errorf("top snippet on page %d, want %d", top.Page, len(pages))
		}
	}
}

func TestPDFErrorsAreTyped(t *testing.T) {
	h, pipe := newTestServer(t, api.Config{})
	c := loadContract(t)
	for _, code := range []fault.Code{fault.PDFEncrypted, fault.PDFUnreadable, fault.PDFTimeout, fault.NoExtractableText, fault.TooLarge} {
		pipe.Ingester.PDF = fakePDF{err: fault.E(code, "the PDF failed")}
		resp, b := c.do(t, h, "POST", "/v1/digest?query=q", "application/pdf", []byte("%PDF-1.4"))
		if resp.StatusCode < 400 || resp.StatusCode >= 500 || errorOf(t, b).ErrorCode != string(code) {
			t.Errorf("%s: %d %s", code, resp.StatusCode, b)
		}
	}
	pipe.Ingester.PDF = fakePDF{err: fault.E(fault.Unavailable, "busy").With("retry_after", 3)}
	resp, b := c.do(t, h, "POST", "/v1/digest?query=q", "application/pdf", []byte("%PDF-1.4"))
	if resp.StatusCode != 503 || resp.Header.Get("Retry-After") != "3" || errorOf(t, b).ErrorCode != "UNAVAILABLE" {
		t.Errorf("busy pool: %d %v %s", resp.StatusCode, resp.Header, b)
	}
}

func TestMultipartUpload(t *testing.T) {
	h, pipe := newTestServer(t, api.Config{})
	pipe.Ingester.PDF = fakePDF{pages: []string{"Placental transmission of HIV-1 was measured in Harare."}}
	c := loadContract(t)
	for _, tc := range []struct {
		name, filename, ctype, content string
		status                         int
		kind, code                     string
	}{
		{"pdf", "paper.pdf", "application/pdf", "%PDF-1.4 fake", 200, "pdf", ""},
		{"pdf by magic", "paper.bin", "application/octet-stream", "%PDF-1.7 fake", 200, "pdf", ""},
		{"text", "notes.txt", "text/plain", "Tides rise twice a day.", 200, "text", ""},
		{"image", "x.png", "image/png", "\x89PNG....", 422, "", "UNSUPPORTED_CONTENT_TYPE"},
	} {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		mw.WriteField("query", "placental transmission")
		hdr := textproto.MIMEHeader{}
		hdr.Set("Content-Disposition", `form-data; name="file"; filename="`+tc.filename+`"`)
		hdr.Set("Content-Type", tc.ctype)
		part, _ := mw.CreatePart(hdr)
		part.Write([]byte(tc.content))
		mw.Close()
		resp, b := c.do(t, h, "POST", "/v1/digest", mw.FormDataContentType(), buf.Bytes())
		if resp.StatusCode != tc.status {
			t.Fatalf("%s: %d %s", tc.name, resp.StatusCode, b)
		}
		if tc.code != "" {
			if got := errorOf(t, b).ErrorCode; got != tc.code {
				t.Errorf("%s: %s, want %s", tc.name, got, tc.code)
			}
			continue
		}
		var data wire.DigestData
		json.Unmarshal(decodeEnvelope(t, b).Data, &data)
		if data.Source.Kind != tc.kind {
			t.Errorf("%s: kind %s, want %s", tc.name, data.Source.Kind, tc.kind)
		}
	}
	// No file part.
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	mw.WriteField("query", "q")
	mw.Close()
	resp, b := c.do(t, h, "POST", "/v1/digest", mw.FormDataContentType(), buf.Bytes())
	if resp.StatusCode != 400 || errorOf(t, b).ErrorCode != "MISSING_REQUIRED" {
		t.Errorf("no file: %d %s", resp.StatusCode, b)
	}
}
