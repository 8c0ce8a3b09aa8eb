package api_test

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"mime/multipart"
	"net/http"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/search/bleveindex"
)

// newSearchServer is newTestServer with an embedded search index.
func newSearchServer(t testing.TB) (http.Handler, *pipeline.Pipeline) {
	t.Helper()
	dir := t.TempDir()
	store, err := fsstore.Open(filepath.Join(dir, "archive"))
	if err != nil {
		t.Fatal(err)
	}
	idx, err := bleveindex.Open(filepath.Join(dir, "index"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	pipe := &pipeline.Pipeline{Ingester: &ingest.Ingester{MaxTextChars: 200_000}, Store: store, Index: idx}
	cfg := api.Config{OpenAPI: digestd.OpenAPI, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), MaxBodyBytes: 1 << 20}
	return api.New(pipe, cfg).Handler(), pipe
}

type searchData struct {
	Results []struct {
		Rank        int      `json:"rank"`
		Score       float64  `json:"score"`
		ArchiveHash string   `json:"archive_hash"`
		Locator     string   `json:"locator"`
		Text        *string  `json:"text"`
		Labels      []string `json:"labels"`
		Ranking     *struct {
			MatchedTerms []string `json:"matched_terms"`
		} `json:"ranking"`
	} `json:"results"`
	TotalEstimate int `json:"total_estimate"`
}

// POST /v1/search answers in the contract: labelled digests are found by
// a question, each result's locator slices the archived text to the
// result's text, detail levels and fields select what is sent, a cursor
// continues the same search only, and bad input is a clear 4xx.
func TestSearchRoute(t *testing.T) {
	h, _ := newSearchServer(t)
	c := loadContract(t)
	texts := []string{
		"Mother-to-child transmission (MTCT) is the main cause of HIV-1 infection in children. Placental DC-SIGNR plays a crucial role in MTCT.",
		"Glaciers in the Alps have lost half their volume since 1900. Warmer summers melt the ice faster.",
		"Mitochondria are the powerhouse of the cell. They produce ATP.",
	}
	hashes := map[string]string{}
	for i, text := range texts {
		body := fmt.Sprintf(`{"query":"x","source":{"text":%q,"labels":["project-%d"]}}`, text, i)
		resp, b := c.do(t, h, "POST", "/v1/digest", "application/json", []byte(body))
		if resp.StatusCode != 200 {
			t.Fatalf("digest: %d %s", resp.StatusCode, b)
		}
		var d struct {
			Source struct {
				ArchiveHash string `json:"archive_hash"`
			} `json:"source"`
		}
		json.Unmarshal(decodeEnvelope(t, b).Data, &d)
		hashes[d.Source.ArchiveHash] = text
	}
	search := func(body string) (int, searchData, []byte) {
		t.Helper()
		resp, b := c.do(t, h, "POST", "/v1/search", "application/json", []byte(body))
		var d searchData
		if resp.StatusCode == 200 {
			env := decodeEnvelope(t, b)
			if env.Meta.ToolID != "search_archive" {
				t.Errorf("tool_id %q", env.Meta.ToolID)
			}
			json.Unmarshal(env.Data, &d)
		}
		return resp.StatusCode, d, b
	}
	code, d, b := search(`{"query":"what causes MTCT?","detail":"full"}`)
	if code != 200 || len(d.Results) == 0 {
		t.Fatalf("search: %d %s", code, b)
	}
	top := d.Results[0]
	text, ok := hashes[top.ArchiveHash]
	if !ok || !strings.Contains(text, "MTCT") || top.Text == nil || top.Ranking == nil || len(top.Labels) != 1 || top.Labels[0] != "project-0" {
		t.Fatalf("top result %s", b)
	}
	var s, e int
	if _, err := fmt.Sscanf(top.Locator, "char:%d-%d", &s, &e); err != nil || pyslice(text, s, e) != *top.Text {
		t.Errorf("locator %s does not slice the text to the result's", top.Locator)
	}
	// ids_only sends no text; a field outside the level is INVALID_FIELDS.
	if code, d, b := search(`{"query":"MTCT","detail":"ids_only"}`); code != 200 || d.Results[0].Text != nil || d.Results[0].Locator == "" {
		t.Errorf("ids_only: %d %s", code, b)
	}
	if code, _, b := search(`{"query":"MTCT","detail":"ids_only","fields":["text"]}`); code != 400 || errorOf(t, b).ErrorCode != "INVALID_FIELDS" {
		t.Errorf("text at ids_only: %d %s", code, b)
	}
	// Labels filter, and group_by source gives one passage a source.
	if code, d, b := search(`{"query":"MTCT glaciers mitochondria","filter":{"labels":["project-1"]}}`); code != 200 || len(d.Results) == 0 || !strings.Contains(hashes[d.Results[0].ArchiveHash], "Glaciers") {
		t.Errorf("label filter: %d %s", code, b)
	}
	if code, d, b := search(`{"query":"MTCT glaciers mitochondria ATP ice","group_by":"source"}`); code != 200 || len(d.Results) != 3 {
		t.Errorf("group_by source: %d %s", code, b)
	}
	// Pages: the cursor continues this search and no other.
	resp, b := c.do(t, h, "POST", "/v1/search", "application/json", []byte(`{"query":"MTCT glaciers mitochondria","limit":1}`))
	var env struct {
		Meta struct {
			Pagination struct {
				Cursor  *string `json:"cursor"`
				HasMore bool    `json:"has_more"`
			} `json:"pagination"`
		} `json:"meta"`
	}
	json.Unmarshal(b, &env)
	if resp.StatusCode != 200 || !env.Meta.Pagination.HasMore || env.Meta.Pagination.Cursor == nil {
		t.Fatalf("first page: %s", b)
	}
	cur := *env.Meta.Pagination.Cursor
	if code, d, b := search(fmt.Sprintf(`{"query":"MTCT glaciers mitochondria","limit":1,"cursor":%q}`, cur)); code != 200 || len(d.Results) != 1 || d.Results[0].Rank != 2 {
		t.Errorf("second page: %d %s", code, b)
	}
	for _, bad := range []struct{ body, code string }{
		{`{"query":""}`, "MISSING_REQUIRED"},
		{fmt.Sprintf(`{"query":%q}`, strings.Repeat("a", 2001)), "VALIDATION_ERROR"},
		{`{"query":"MTCT","limit":51}`, "VALIDATION_ERROR"},
		{fmt.Sprintf(`{"query":"other words","cursor":%q}`, cur), "INVALID_CURSOR"},
		{`{"query":"MTCT","cursor":"forged"}`, "INVALID_CURSOR"},
		{`{"query":"MTCT","filter":{"kinds":["video"]}}`, "VALIDATION_ERROR"},
		{`{"query":"MTCT","filter":{"sources":["sha256:12"]}}`, "VALIDATION_ERROR"},
		{`{"query":"MTCT","filter":{"added_after":"yesterday"}}`, "VALIDATION_ERROR"},
		{`{"query":"MTCT","filter":{"labels":["nobody-uses-this"]}}`, "NOT_FOUND"},
		{`{"query":"MTCT","group_by":"kind"}`, "VALIDATION_ERROR"},
	} {
		resp, b := c.do(t, h, "POST", "/v1/search", "application/json", []byte(bad.body))
		if resp.StatusCode < 400 || resp.StatusCode >= 500 || errorOf(t, b).ErrorCode != bad.code {
			t.Errorf("%s: %d %s, want %s", bad.body, resp.StatusCode, b, bad.code)
		}
	}
	// The listing filters by label.
	resp, b = c.do(t, h, "GET", "/v1/sources?label=project-2", "", nil)
	var listed struct {
		Sources []struct {
			ArchiveHash string   `json:"archive_hash"`
			Labels      []string `json:"labels"`
		} `json:"sources"`
	}
	json.Unmarshal(decodeEnvelope(t, b).Data, &listed)
	if resp.StatusCode != 200 || len(listed.Sources) != 1 || !strings.Contains(hashes[listed.Sources[0].ArchiveHash], "Mitochondria") {
		t.Errorf("list by label: %d %s", resp.StatusCode, b)
	}
}

// A search index that cannot be reached is 503 UNAVAILABLE for search,
// while digests are still served and health says degraded.
func TestSearchUnavailable(t *testing.T) {
	h, pipe := newSearchServer(t)
	c := loadContract(t)
	pipe.Index.Close()
	resp, b := c.do(t, h, "POST", "/v1/digest", "application/json", []byte(`{"query":"MTCT","source":{"text":"MTCT is the main cause of HIV-1 infection in children."}}`))
	if resp.StatusCode != 200 {
		t.Fatalf("digest with the index down: %d %s", resp.StatusCode, b)
	}
	resp, b = c.do(t, h, "POST", "/v1/search", "application/json", []byte(`{"query":"MTCT"}`))
	if resp.StatusCode != 503 || errorOf(t, b).ErrorCode != "UNAVAILABLE" {
		t.Errorf("search with the index down: %d %s", resp.StatusCode, b)
	}
}

// A raw body takes its source's labels as ?label=, a multipart upload as
// label fields, once per label; the listing filters by them, and more
// than pipeline.MaxLabels is a VALIDATION_ERROR.
func TestLabelsOnUploads(t *testing.T) {
	h, _ := newSearchServer(t)
	c := loadContract(t)
	listed := func(label string) []string {
		resp, b := c.do(t, h, "GET", "/v1/sources?label="+label, "", nil)
		var d struct {
			Sources []struct {
				Labels []string `json:"labels"`
			} `json:"sources"`
		}
		json.Unmarshal(decodeEnvelope(t, b).Data, &d)
		if resp.StatusCode != 200 {
			t.Fatalf("list %s: %d %s", label, resp.StatusCode, b)
		}
		var out []string
		for _, s := range d.Sources {
			out = append(out, strings.Join(s.Labels, ","))
		}
		return out
	}
	resp, b := c.do(t, h, "POST", "/v1/digest?query=glaciers&label=alps&label=raw-upload", "text/plain", []byte("Glaciers in the Alps have lost half their volume since 1900."))
	if resp.StatusCode != 200 {
		t.Fatalf("raw digest: %d %s", resp.StatusCode, b)
	}
	if got := listed("raw-upload"); len(got) != 1 || got[0] != "alps,raw-upload" {
		t.Errorf("raw upload's labels: %q, want [alps,raw-upload]", got)
	}

	form := func(labels int) (string, []byte) {
		var buf bytes.Buffer
		mw := multipart.NewWriter(&buf)
		mw.WriteField("query", "what makes ATP?")
		for i := range labels {
			mw.WriteField("label", fmt.Sprintf("form-%d", i))
		}
		fw, _ := mw.CreateFormFile("file", "cell.txt")
		fw.Write([]byte("Mitochondria are the powerhouse of the cell. They produce ATP."))
		mw.Close()
		return mw.FormDataContentType(), buf.Bytes()
	}
	ctype, body := form(2)
	resp, b = c.do(t, h, "POST", "/v1/digest", ctype, body)
	if resp.StatusCode != 200 {
		t.Fatalf("multipart digest: %d %s", resp.StatusCode, b)
	}
	if got := listed("form-1"); len(got) != 1 || got[0] != "form-0,form-1" {
		t.Errorf("multipart upload's labels: %q, want [form-0,form-1]", got)
	}
	ctype, body = form(pipeline.MaxLabels + 1)
	resp, b = c.do(t, h, "POST", "/v1/digest", ctype, body)
	if resp.StatusCode != 400 || errorOf(t, b).ErrorCode != "VALIDATION_ERROR" {
		t.Errorf("%d labels: %d %s, want 400 VALIDATION_ERROR", pipeline.MaxLabels+1, resp.StatusCode, b)
	}
	resp, b = c.do(t, h, "POST", "/v1/digest?query=x&label=", "text/plain", []byte("Some text."))
	if resp.StatusCode != 400 || errorOf(t, b).ErrorCode != "VALIDATION_ERROR" {
		t.Errorf("empty label: %d %s, want 400 VALIDATION_ERROR", resp.StatusCode, b)
	}
}
