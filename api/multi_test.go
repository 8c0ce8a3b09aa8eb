package api_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest/fetch"
	"github.com/digestd/digestd/internal/payloadtest"
	"github.com/digestd/digestd/wire"
)

type digestsData struct {
	Digests []struct {
		ID         string          `json:"id"`
		Fidelity   string          `json:"fidelity"`
		DigestHash string          `json:"digest_hash"`
		Digest     *digest.Payload `json:"digest"`
		Summary    *string         `json:"summary"`
	} `json:"digests"`
	TotalSources int `json:"total_sources"`
	Included     int `json:"included"`
	Dropped      int `json:"dropped"`
	Failed       []struct {
		ID   string `json:"id"`
		Code string `json:"error_code"`
	} `json:"failed"`
}

type fidelityMeta struct {
	Meta struct {
		ContentFidelity      string            `json:"content_fidelity"`
		SchemaVersion        string            `json:"content_fidelity_schema_version"`
		DroppedContentIDs    []string          `json:"dropped_content_ids"`
		ContentArchiveHashes map[string]string `json:"content_archive_hashes"`
		Warnings             []string          `json:"warnings"`
		WarningDetails       []struct {
			Code     string         `json:"code"`
			Severity string         `json:"severity"`
			Message  string         `json:"message"`
			Context  map[string]any `json:"context"`
		} `json:"warning_details"`
	} `json:"meta"`
}

// manySources returns 20 sources: texts on different topics (one very
// relevant), HTML pages, a URL to a blocked address, and an archived hash.
func manySources(t *testing.T, archived string) []map[string]string {
	var srcs []map[string]string
	topics := []string{"volcanoes", "glaciers", "tides", "monsoons", "deserts", "coral reefs", "auroras", "earthquakes", "rivers", "forests", "tundra", "wetlands", "caves", "geysers"}
	for i, topic := range topics {
		text := syntheticDocument(3000, uint64(i+10))
		if i == 3 {
			text = "Placental DC-SIGNR expression plays a crucial role in the transmission of HIV-1 from mother to child.\n" + text
		}
		srcs = append(srcs, map[string]string{"id": fmt.Sprintf("text-%02d", i), "text": fmt.Sprintf("A note on %s.\n%s", topic, text)})
	}
	for i := 0; i < 4; i++ {
		html := fmt.Sprintf(`<html><head><title>Page %d</title></head><body><nav><a href="/">Home</a></nav><article><h1>Report %d</h1><p>%s</p><p>%s</p></article><footer>Copyright</footer></body></html>`,
			i, i, syntheticDocument(1200, uint64(100+i)), syntheticDocument(1200, uint64(200+i)))
		srcs = append(srcs, map[string]string{"id": fmt.Sprintf("html-%d", i), "html": html})
	}
	srcs = append(srcs, map[string]string{"id": "blocked-url", "url": "http://127.0.0.1:9/internal"})
	srcs = append(srcs, map[string]string{"id": "archived", "archive": archived})
	return srcs
}

func TestDigestsBudgetPartialFidelity(t *testing.T) {
	h, pipe := newTestServer(t, api.Config{MaxBodyBytes: 8 << 20})
	pipe.Ingester.Fetcher = fetch.New(fetch.Config{TotalTimeout: 2 * time.Second})
	c := loadContract(t)
	// Archive a text first, to digest it again by hash.
	_, b := c.do(t, h, "POST", "/v1/digest?query=x", "text/plain", []byte("An archived note about mother-to-child transmission of HIV-1.\n"+syntheticDocument(2000, 99)))
	var first wire.DigestData
	json.Unmarshal(decodeEnvelope(t, b).Data, &first)

	srcs := manySources(t, first.Source.ArchiveHash.String())
	if len(srcs) != 20 {
		t.Fatalf("want 20 sources, have %d", len(srcs))
	}
	// One full digest here is about 6-8k characters of JSON; 30k fits about five.
	reqBody, _ := json.Marshal(map[string]any{
		"query":   "what role does placental DC-SIGNR play in HIV-1 transmission?",
		"sources": srcs,
		"budget":  map[string]int{"max_chars": 30000},
	})
	resp, body := c.do(t, h, "POST", "/v1/digests", "application/json", reqBody)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %.500s", resp.StatusCode, body)
	}
	env := decodeEnvelope(t, body)
	var data digestsData
	json.Unmarshal(env.Data, &data)
	var fm fidelityMeta
	json.Unmarshal(body, &fm)

	if fm.Meta.ContentFidelity != "partial" || fm.Meta.SchemaVersion != "1.0" {
		t.Errorf("fidelity %q schema %q, want partial 1.0", fm.Meta.ContentFidelity, fm.Meta.SchemaVersion)
	}
	if data.TotalSources != 20 || data.Included+data.Dropped+len(data.Failed) != 20 {
		t.Errorf("counts: total %d included %d dropped %d failed %d", data.TotalSources, data.Included, data.Dropped, len(data.Failed))
	}
	full := 0
	for _, d := range data.Digests {
		if d.Fidelity == "full" {
			full++
			if err := digest.Validate(d.Digest); err != nil {
				t.Errorf("%s: %v", d.ID, err)
			}
		}
	}
	if full < 3 || full > 7 {
		t.Errorf("%d full digests fit a budget meant for about five", full)
	}
	if data.Digests[0].ID != "text-03" {
		t.Errorf("the source that answers the query ranks %q first, want text-03", data.Digests[0].ID)
	}
	if len(data.Failed) != 1 || data.Failed[0].ID != "blocked-url" || data.Failed[0].Code != "FETCH_BLOCKED" {
		t.Errorf("failed = %+v, want blocked-url FETCH_BLOCKED", data.Failed)
	}
	if len(fm.Meta.DroppedContentIDs) != data.Dropped || data.Dropped == 0 {
		t.Fatalf("dropped ids %v for %d dropped", fm.Meta.DroppedContentIDs, data.Dropped)
	}
	severity := map[string]string{}
	for i, wd := range fm.Meta.WarningDetails {
		severity[wd.Code] = wd.Severity
		if i >= len(fm.Meta.Warnings) || fm.Meta.Warnings[i] != wd.Message {
			t.Errorf("warnings[%d] is not the message of warning_details[%d] (%q)", i, i, wd.Message)
		}
	}
	for w, sev := range map[string]string{"CONTENT_TRUNCATED": "info", "PARTIAL_FAILURE": "warning"} {
		if severity[w] != sev {
			t.Errorf("%s warning has severity %q, want %q (details %+v)", w, severity[w], sev, fm.Meta.WarningDetails)
		}
	}
	for _, wd := range fm.Meta.WarningDetails {
		if wd.Code == "CONTENT_TRUNCATED" {
			if wd.Context["dropped_count"] != float64(data.Dropped) || wd.Context["total_count"] != float64(19) || wd.Context["reason"] == nil {
				t.Errorf("CONTENT_TRUNCATED context %v", wd.Context)
			}
		}
	}
	// Every digested source has archive hashes; every dropped digest can be fetched and is valid.
	if len(fm.Meta.ContentArchiveHashes) != 19 {
		t.Errorf("content_archive_hashes has %d entries, want 19", len(fm.Meta.ContentArchiveHashes))
	}
	for _, id := range fm.Meta.DroppedContentIDs {
		digestHash, ok := fm.Meta.ContentArchiveHashes[id]
		if !ok {
			t.Errorf("dropped %s has no archive hashes", id)
			continue
		}
		resp, blob := c.do(t, h, "GET", "/v1/archive/"+digestHash, "", nil)
		var stored struct {
			Payload *digest.Payload `json:"payload"`
		}
		if resp.StatusCode != 200 || json.Unmarshal(blob, &stored) != nil || stored.Payload == nil {
			t.Fatalf("dropped %s: digest %s not fetchable: %d", id, digestHash, resp.StatusCode)
		}
		if err := digest.Validate(stored.Payload); err != nil {
			t.Errorf("dropped %s: stored digest invalid (%v)", id, err)
		}
		// The digest names its text, which is archived too.
		resp, _ = c.do(t, h, "HEAD", "/v1/archive/"+stored.Payload.SourceTextHash, "", nil)
		if resp.StatusCode != 200 {
			t.Errorf("dropped %s: text %s not archived", id, stored.Payload.SourceTextHash)
		}
	}
	// The same request again is served from the cache with identical data.
	_, body2 := c.do(t, h, "POST", "/v1/digests", "application/json", reqBody)
	env2 := decodeEnvelope(t, body2)
	if env2.Meta.Telemetry.CacheHit == nil || !*env2.Meta.Telemetry.CacheHit {
		t.Error("repeated request was not a cache hit")
	}
	if string(env2.Data) != string(env.Data) {
		t.Error("repeated request gave different data")
	}
}

func TestDigestsWithoutBudgetIsFull(t *testing.T) {
	h, _ := newTestServer(t, api.Config{MaxBodyBytes: 8 << 20})
	c := loadContract(t)
	reqBody, _ := json.Marshal(map[string]any{
		"query":   "tides",
		"sources": []map[string]string{{"text": "Tides rise twice a day."}, {"text": syntheticDocument(2000, 3)}},
	})
	resp, body := c.do(t, h, "POST", "/v1/digests", "application/json", reqBody)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var fm fidelityMeta
	json.Unmarshal(body, &fm)
	if fm.Meta.ContentFidelity != "full" || len(fm.Meta.DroppedContentIDs) != 0 || len(fm.Meta.Warnings) != 0 {
		t.Errorf("fidelity %q dropped %v warnings %v", fm.Meta.ContentFidelity, fm.Meta.DroppedContentIDs, fm.Meta.Warnings)
	}
}

func TestDigestsDetailAndFields(t *testing.T) {
	h, _ := newTestServer(t, api.Config{MaxBodyBytes: 8 << 20})
	c := loadContract(t)
	src := []map[string]string{{"id": "a", "text": "Tides rise twice a day. The moon pulls the sea."}}
	for _, tc := range []struct {
		name   string
		body   map[string]any
		status int
		code   string
		check  func(t *testing.T, items []map[string]any)
	}{
		{"summary detail", map[string]any{"query": "tides", "sources": src, "detail": "summary"}, 200, "", func(t *testing.T, items []map[string]any) {
			if items[0]["fidelity"] != "summary" || items[0]["digest"] != nil || items[0]["summary"] == nil {
				t.Errorf("item %v", items[0])
			}
		}},
		{"preview is summary", map[string]any{"query": "tides", "sources": src, "detail": "preview"}, 200, "", func(t *testing.T, items []map[string]any) {
			if items[0]["fidelity"] != "summary" || items[0]["digest"] != nil || items[0]["summary"] == nil {
				t.Errorf("item %v", items[0])
			}
		}},
		{"ids_only", map[string]any{"query": "tides", "sources": src, "detail": "ids_only"}, 200, "", func(t *testing.T, items []map[string]any) {
			if !sameKeys(items[0], "id", "rank", "score", "archive_hash", "digest_hash") {
				t.Errorf("ids_only item %v, want id, rank, score and hashes", items[0])
			}
		}},
		{"metadata", map[string]any{"query": "tides", "sources": src, "detail": "metadata"}, 200, "", func(t *testing.T, items []map[string]any) {
			if !sameKeys(items[0], "id", "rank", "score", "archive_hash", "digest_hash", "fidelity", "kind", "original_chars") {
				t.Errorf("metadata item %v", items[0])
			}
			if items[0]["original_chars"] != float64(47) || items[0]["fidelity"] != "reference_only" {
				t.Errorf("metadata item %v", items[0])
			}
		}},
		{"full carries the summary too", map[string]any{"query": "tides", "sources": src}, 200, "", func(t *testing.T, items []map[string]any) {
			d, _ := items[0]["digest"].(map[string]any)
			if d == nil || items[0]["summary"] == nil || items[0]["summary"] != d["summary"] {
				t.Errorf("full item without its digest's summary at the top level: %v", items[0])
			}
		}},
		{"fields pick", map[string]any{"query": "tides", "sources": src, "detail": "ids_only", "fields": []string{"archive_hash"}}, 200, "", func(t *testing.T, items []map[string]any) {
			if !sameKeys(items[0], "id", "archive_hash") {
				t.Errorf("item %v, want id, archive_hash", items[0])
			}
		}},
		{"field outside level", map[string]any{"query": "tides", "sources": src, "detail": "summary", "fields": []string{"digest", "rank", "colour"}}, 400, "INVALID_FIELDS", nil},
		{"unknown detail", map[string]any{"query": "tides", "sources": src, "detail": "everything"}, 400, "VALIDATION_ERROR", nil},
		{"no sources", map[string]any{"query": "tides", "sources": []any{}}, 400, "MISSING_REQUIRED", nil},
		{"duplicate ids", map[string]any{"query": "tides", "sources": append(src, src[0])}, 400, "VALIDATION_ERROR", nil},
		{"all fail", map[string]any{"query": "tides", "sources": []map[string]string{{"archive": strings.Repeat("0", 64)}}}, 404, "NOT_FOUND", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, _ := json.Marshal(tc.body)
			resp, body := c.do(t, h, "POST", "/v1/digests", "application/json", b)
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d: %s", resp.StatusCode, body)
			}
			if tc.code != "" {
				ed := errorOf(t, body)
				if ed.ErrorCode != tc.code {
					t.Errorf("code %s, want %s", ed.ErrorCode, tc.code)
				}
				if tc.code == "INVALID_FIELDS" && (fmt.Sprint(ed.Details["invalid_fields"]) != "[digest colour]" || ed.Details["allowed_fields"] == nil) {
					t.Errorf("INVALID_FIELDS must name every bad field and the allowed ones: %s", body)
				}
				return
			}
			var data struct {
				Digests []map[string]any `json:"digests"`
			}
			json.Unmarshal(decodeEnvelope(t, body).Data, &data)
			tc.check(t, data.Digests)
		})
	}
}

func TestAuth(t *testing.T) {
	h, _ := newTestServer(t, api.Config{APIKeyHashes: []string{api.HashAPIKey("s3cret-key")}})
	c := loadContract(t)
	resp, body := c.do(t, h, "GET", "/v1/sources", "", nil)
	if resp.StatusCode != 401 || errorOf(t, body).ErrorCode != "UNAUTHORIZED" || errorOf(t, body).ErrorType != "authentication" || resp.Header.Get("WWW-Authenticate") == "" {
		t.Errorf("no key: %d %s", resp.StatusCode, body)
	}
	resp, _ = c.do(t, h, "GET", "/v1/sources", "", nil, "Authorization", "Bearer wrong")
	if resp.StatusCode != 401 {
		t.Errorf("wrong key: %d", resp.StatusCode)
	}
	for _, hdr := range [][2]string{{"Authorization", "Bearer s3cret-key"}, {"X-API-Key", "s3cret-key"}} {
		resp, body = c.do(t, h, "GET", "/v1/sources", "", nil, hdr[0], hdr[1])
		if resp.StatusCode != 200 {
			t.Errorf("%s: %d %s", hdr[0], resp.StatusCode, body)
		}
	}
	for _, open := range []string{"/healthz", "/v1/health"} {
		resp, _ = c.do(t, h, "GET", open, "", nil)
		if resp.StatusCode != 200 {
			t.Errorf("%s is not open: %d", open, resp.StatusCode)
		}
	}
}

func TestRateLimit(t *testing.T) {
	h, _ := newTestServer(t, api.Config{RateLimit: 5, RateWindow: time.Minute})
	c := loadContract(t)
	var last []byte
	var lastHeader http.Header
	for i := 0; i < 5; i++ {
		resp, body := c.do(t, h, "GET", "/v1/sources", "", nil)
		if resp.StatusCode != 200 {
			t.Fatalf("request %d: %d", i, resp.StatusCode)
		}
		last, lastHeader = body, resp.Header
	}
	var m struct {
		Meta struct {
			RateLimit *struct {
				Limit, Remaining int
				ResetAt          string `json:"reset_at"`
			} `json:"rate_limit"`
			Warnings []string `json:"warnings"`
		} `json:"meta"`
	}
	json.Unmarshal(last, &m)
	if m.Meta.RateLimit == nil || m.Meta.RateLimit.Limit != 5 || m.Meta.RateLimit.Remaining != 0 {
		t.Errorf("meta.rate_limit = %+v", m.Meta.RateLimit)
	}
	if !strings.Contains(string(last), `{"code":"RATE_LIMIT_APPROACHING","severity":"warning"`) {
		t.Errorf("no RATE_LIMIT_APPROACHING warning of severity warning: %v", m.Meta.Warnings)
	}
	resp, body := c.do(t, h, "GET", "/v1/sources", "", nil)
	if resp.StatusCode != 429 || errorOf(t, body).ErrorCode != "RATE_LIMIT_EXCEEDED" {
		t.Fatalf("6th request: %d %s", resp.StatusCode, body)
	}
	if resp.Header.Get("Retry-After") == "" || resp.Header.Get("RateLimit-Limit") != "5" {
		t.Errorf("headers %v", resp.Header)
	}
	// RateLimit-Reset is the seconds until the window resets (the IETF
	// RateLimit header fields), never more than the window, not a time.
	for _, h := range []http.Header{lastHeader, resp.Header} {
		if reset, err := strconv.Atoi(h.Get("RateLimit-Reset")); err != nil || reset < 0 || reset > 60 {
			t.Errorf("RateLimit-Reset %q, want the seconds until the window resets, 0-60", h.Get("RateLimit-Reset"))
		}
	}
	// Another client (by IP) is not limited.
	req, _ := http.NewRequest("GET", "/v1/sources", nil)
	req.RemoteAddr = "192.0.2.7:1234"
	if resp, _ := serve(h, req); resp.StatusCode != 200 {
		t.Errorf("another client: %d", resp.StatusCode)
	}
}

func TestSourcesListingAndCursor(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	var want []string
	for i := 0; i < 5; i++ {
		_, b := c.do(t, h, "POST", "/v1/digest?query=q", "text/plain", []byte(fmt.Sprintf("Document number %d about rivers.", i)))
		var d wire.DigestData
		json.Unmarshal(decodeEnvelope(t, b).Data, &d)
		want = append([]string{d.Source.ArchiveHash.String()}, want...) // newest first
	}
	var got []string
	cursor := ""
	for page := 0; page < 5; page++ {
		path := "/v1/sources?limit=2"
		if cursor != "" {
			path += "&cursor=" + cursor
		}
		resp, body := c.do(t, h, "GET", path, "", nil)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", path, resp.StatusCode, body)
		}
		var m struct {
			Data struct {
				Sources []struct {
					ArchiveHash string `json:"archive_hash"`
				} `json:"sources"`
			} `json:"data"`
			Meta struct {
				Pagination struct {
					Cursor     *string `json:"cursor"`
					HasMore    bool    `json:"has_more"`
					TotalCount *int    `json:"total_count"`
				} `json:"pagination"`
			} `json:"meta"`
		}
		json.Unmarshal(body, &m)
		for _, s := range m.Data.Sources {
			got = append(got, s.ArchiveHash)
		}
		if m.Meta.Pagination.TotalCount != nil {
			t.Errorf("total_count %d: a page does not count the archive", *m.Meta.Pagination.TotalCount)
		}
		if !m.Meta.Pagination.HasMore {
			break
		}
		cursor = *m.Meta.Pagination.Cursor
	}
	if strings.Join(got, ",") != strings.Join(want, ",") {
		t.Errorf("listing %v, want newest first %v", got, want)
	}
	// A tampered cursor, and one from another server, are refused.
	other, _ := newTestServer(t, api.Config{})
	_, ob := c.do(t, other, "POST", "/v1/digest?query=q", "text/plain", []byte("a"))
	_ = ob
	c.do(t, other, "POST", "/v1/digest?query=q", "text/plain", []byte("b"))
	c.do(t, other, "POST", "/v1/digest?query=q", "text/plain", []byte("c"))
	_, lb := c.do(t, other, "GET", "/v1/sources?limit=1", "", nil)
	var om struct {
		Meta struct {
			Pagination struct {
				Cursor *string `json:"cursor"`
			} `json:"pagination"`
		} `json:"meta"`
	}
	json.Unmarshal(lb, &om)
	tampered := []byte(cursor)
	tampered[len(tampered)/2] ^= 1
	for _, bad := range []string{string(tampered), *om.Meta.Pagination.Cursor, "not-a-cursor"} {
		resp, body := c.do(t, h, "GET", "/v1/sources?cursor="+bad, "", nil)
		if resp.StatusCode != 400 || errorOf(t, body).ErrorCode != "INVALID_CURSOR" {
			t.Errorf("cursor %q: %d %s", bad, resp.StatusCode, body)
		}
	}
	resp, body := c.do(t, h, "GET", "/v1/sources?limit=1000", "", nil)
	if resp.StatusCode != 400 || errorOf(t, body).ErrorCode != "VALIDATION_ERROR" {
		t.Errorf("limit=1000: %d", resp.StatusCode)
	}
	resp, body = c.do(t, h, "GET", "/v1/sources/"+want[0], "", nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"kind":"text"`) {
		t.Errorf("source record: %d %s", resp.StatusCode, body)
	}
}

func TestSliceAndVerify(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	_, b := c.do(t, h, "POST", "/v1/digest?query=MTCT", "text/plain", []byte(sampleText))
	var d wire.DigestData
	json.Unmarshal(decodeEnvelope(t, b).Data, &d)
	hash := d.Source.ArchiveHash.String()
	sn := d.Digest.EvidenceSnippets[0]
	resp, body := c.do(t, h, "GET", "/v1/archive/"+hash+"/slice?locator="+sn.Locator+"&context=5", "", nil)
	var sl struct {
		Data struct {
			Text          string `json:"text"`
			ContextBefore string `json:"context_before"`
			TextChars     int    `json:"text_chars"`
		} `json:"data"`
	}
	json.Unmarshal(body, &sl)
	if resp.StatusCode != 200 || sl.Data.Text != sn.Text {
		t.Errorf("slice %s: %d %q", sn.Locator, resp.StatusCode, sl.Data.Text)
	}
	resp, body = c.do(t, h, "GET", "/v1/archive/"+hash+"/slice?start=100&end=104", "", nil)
	json.Unmarshal(body, &sl)
	if resp.StatusCode != 200 || sl.Data.Text != pyslice(sampleText, 100, 104) {
		t.Errorf("start/end: %q want %q", sl.Data.Text, pyslice(sampleText, 100, 104))
	}
	resp, body = c.do(t, h, "GET", "/v1/archive/"+hash+"/slice?locator=char:10-999999", "", nil)
	if resp.StatusCode != 416 || errorOf(t, body).Details["text_chars"] == nil {
		t.Errorf("out of range: %d %s", resp.StatusCode, body)
	}
	resp, _ = c.do(t, h, "GET", "/v1/archive/"+hash+"/slice?locator=char:9-3", "", nil)
	if resp.StatusCode != 400 {
		t.Errorf("start > end: %d", resp.StatusCode)
	}

	good, _ := json.Marshal(map[string]any{"digest": d.Digest})
	resp, body = c.do(t, h, "POST", "/v1/verify", "application/json", good)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"verified":true`) {
		t.Errorf("verify good: %d %s", resp.StatusCode, body)
	}
	bad := *d.Digest
	bad.EvidenceSnippets = append([]wire.EvidenceSnippet(nil), d.Digest.EvidenceSnippets...)
	at, ok := payloadtest.SwapWord(&bad)
	if !ok {
		t.Fatalf("no word to swap: %+v", bad)
	}
	badBody, _ := json.Marshal(map[string]any{"digest": &bad})
	resp, body = c.do(t, h, "POST", "/v1/verify", "application/json", badBody)
	var rep struct {
		Data struct {
			Valid, Verified, HashMatches bool
			Problems                     []string
			Snippets                     []struct{ Verified bool }
		} `json:"data"`
	}
	json.Unmarshal(body, &rep)
	if resp.StatusCode != 200 || rep.Data.Verified || rep.Data.Valid || len(rep.Data.Problems) != 1 || rep.Data.Snippets[at].Verified {
		t.Errorf("verify tampered: %d %s", resp.StatusCode, body)
	}
}

func TestHealthStatsMetrics(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	c.do(t, h, "POST", "/v1/digest?query=q", "text/plain", []byte("Some text to count."))
	c.do(t, h, "POST", "/v1/digest?query=q", "text/plain", []byte("Some text to count."))
	resp, body := c.do(t, h, "GET", "/v1/health", "", nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"archive":{"status":"healthy"`) {
		t.Errorf("health: %d %s", resp.StatusCode, body)
	}
	resp, body = c.do(t, h, "GET", "/v1/stats", "", nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `"hits":1,"misses":1,"hit_rate":0.5`) {
		t.Errorf("stats: %d %s", resp.StatusCode, body)
	}
	resp, body = c.do(t, h, "GET", "/metrics", "", nil)
	if resp.StatusCode != 200 || !strings.Contains(string(body), `digestd_http_requests_total{method="POST",route="/v1/digest",status="200"} 2`) ||
		!strings.Contains(string(body), `digestd_digests_total{outcome="cached"} 1`) {
		t.Errorf("metrics: %d %.2000s", resp.StatusCode, body)
	}
}

// sameKeys reports whether m has exactly keys.
func sameKeys(m map[string]any, keys ...string) bool {
	if len(m) != len(keys) {
		return false
	}
	for _, k := range keys {
		if _, ok := m[k]; !ok {
			return false
		}
	}
	return true
}

// TestDigestsBudgetIsACeiling: the items sent never exceed the budget, at
// any detail level (a full item once carried its summary twice, and one
// copy was not counted).
func TestDigestsBudgetIsACeiling(t *testing.T) {
	h, _ := newTestServer(t, api.Config{MaxBodyBytes: 8 << 20})
	c := loadContract(t)
	var srcs []map[string]string
	for i := 0; i < 8; i++ {
		srcs = append(srcs, map[string]string{"id": fmt.Sprintf("t%d", i), "text": "Tides rise twice a day because the moon pulls the sea.\n" + syntheticDocument(3000, uint64(i+1))})
	}
	for _, detail := range []string{"full", "summary", "metadata", "ids_only"} {
		for _, budget := range []int{16000, 6000, 900} {
			b, _ := json.Marshal(map[string]any{"query": "why do tides rise", "sources": srcs, "detail": detail, "budget": map[string]int{"max_chars": budget}})
			resp, body := c.do(t, h, "POST", "/v1/digests", "application/json", b)
			if resp.StatusCode != 200 {
				t.Fatalf("%s %d: status %d %s", detail, budget, resp.StatusCode, body)
			}
			var data struct {
				Digests []json.RawMessage `json:"digests"`
			}
			json.Unmarshal(decodeEnvelope(t, body).Data, &data)
			sent := 0
			for _, it := range data.Digests {
				sent += utf8.RuneCount(it)
			}
			if sent > budget || len(data.Digests) == 0 && detail == "ids_only" {
				t.Errorf("detail %s, max_chars %d: %d characters of items sent (%d items)", detail, budget, sent, len(data.Digests))
			}
		}
	}
}

// Options: zero means zero where the range allows it, out of range is
// VALIDATION_ERROR, and an unknown query parameter is refused.
func TestDigestOptionsExact(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	text := "Tides rise twice a day. The moon pulls the sea towards it. The sun adds a smaller pull. Spring tides follow the full moon."
	for _, tc := range []struct {
		name, target string
		options      map[string]any
		status       int
		keyPoints    int // -1: not checked
	}{
		{"max_key_points 0 (JSON)", "/v1/digest", map[string]any{"max_key_points": 0}, 200, 0},
		{"max_key_points 0 (query)", "/v1/digest?query=tides&max_key_points=0", nil, 200, 0},
		{"max_key_points omitted", "/v1/digest", map[string]any{}, 200, -1},
		{"max_evidence 0", "/v1/digest", map[string]any{"max_evidence": 0}, 400, -1},
		{"snippet_max_chars 0", "/v1/digest?query=tides&snippet_max_chars=0", nil, 400, -1},
		{"summary_max_chars 0", "/v1/digest", map[string]any{"summary_max_chars": 0}, 400, -1},
		{"max_evidence 11", "/v1/digest", map[string]any{"max_evidence": 11}, 400, -1},
		{"unknown query parameter", "/v1/digest?query=tides&max_keypoints=0", nil, 400, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var resp *http.Response
			var body []byte
			if tc.options != nil {
				b, _ := json.Marshal(map[string]any{"query": "tides", "source": map[string]any{"text": text}, "options": tc.options})
				resp, body = c.do(t, h, "POST", tc.target, "application/json", b)
			} else {
				resp, body = c.do(t, h, "POST", tc.target, "text/plain", []byte(text))
			}
			if resp.StatusCode != tc.status {
				t.Fatalf("status %d, want %d: %s", resp.StatusCode, tc.status, body)
			}
			if tc.status == 400 {
				if ed := errorOf(t, body); ed.ErrorCode != "VALIDATION_ERROR" {
					t.Errorf("code %s", ed.ErrorCode)
				}
				return
			}
			var dd wire.DigestData
			json.Unmarshal(decodeEnvelope(t, body).Data, &dd)
			if tc.keyPoints >= 0 && len(dd.Digest.KeyPoints) != tc.keyPoints {
				t.Errorf("%d key points, want %d", len(dd.Digest.KeyPoints), tc.keyPoints)
			}
		})
	}
	// Unknown parameters are refused on every route that takes some.
	resp, body := c.do(t, h, "GET", "/v1/sources?limit=5&sort=old", "", nil)
	if resp.StatusCode != 400 || errorOf(t, body).Details["unknown_parameters"] == nil {
		t.Errorf("/v1/sources?sort=old: %d %s", resp.StatusCode, body)
	}
}

// One missing archived source does not fail the request: it is listed in
// data.failed with a PARTIAL_FAILURE warning.
func TestDigestsMissingArchiveIsPartial(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	b, _ := json.Marshal(map[string]any{"query": "tides", "sources": []map[string]string{
		{"id": "ok", "text": "Tides rise twice a day."},
		{"id": "gone", "archive": "sha256:" + strings.Repeat("ab", 32)},
		{"id": "zero", "archive": "sha256:" + strings.Repeat("00", 32)},
	}})
	resp, body := c.do(t, h, "POST", "/v1/digests", "application/json", b)
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, body)
	}
	var data struct {
		Failed []struct {
			ID   string `json:"id"`
			Code string `json:"error_code"`
		} `json:"failed"`
	}
	json.Unmarshal(decodeEnvelope(t, body).Data, &data)
	if len(data.Failed) != 2 || data.Failed[0].Code != "NOT_FOUND" || data.Failed[1].Code != "NOT_FOUND" || !strings.Contains(string(body), `"code":"PARTIAL_FAILURE"`) {
		t.Errorf("failed %+v: %s", data.Failed, body)
	}
}

// TestDisclosureLevelsNest walks the four disclosure levels: each item's
// top-level fields are a strict superset of the level below's, so a client
// that reads a field at one level finds it at every higher one.
func TestDisclosureLevelsNest(t *testing.T) {
	h, _ := newTestServer(t, api.Config{MaxBodyBytes: 8 << 20})
	c := loadContract(t)
	src := []map[string]string{{"id": "a", "text": "Tides rise twice a day. The moon pulls the sea."}}
	var below []string
	for _, level := range []string{"ids_only", "metadata", "summary", "full"} {
		b, _ := json.Marshal(map[string]any{"query": "tides", "sources": src, "detail": level})
		resp, body := c.do(t, h, "POST", "/v1/digests", "application/json", b)
		if resp.StatusCode != 200 {
			t.Fatalf("%s: %d %s", level, resp.StatusCode, body)
		}
		var d struct {
			Digests []map[string]any `json:"digests"`
		}
		json.Unmarshal(decodeEnvelope(t, body).Data, &d)
		var keys []string
		for k := range d.Digests[0] {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range below {
			if !slices.Contains(keys, k) {
				t.Errorf("%s: an item lacks %s, which the level below has (%v ⊄ %v)", level, k, below, keys)
			}
		}
		if len(keys) <= len(below) {
			t.Errorf("%s adds no field to the level below: %v, below %v", level, keys, below)
		}
		below = keys
	}
}
