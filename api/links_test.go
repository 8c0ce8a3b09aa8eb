package api_test

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/digestd/digestd/api"
)

// linksPage is a page of links on the wire.
const linksPage = `<html><head><base href="https://walks.example/coast/"></head><body>
<nav><a href="/">Home</a> <a href="maps/">Maps</a> <a href="#top">Top</a></nav>
<article><h1>The coast path</h1>
<p>The path runs for ninety miles between the estuaries; the <a href="stages/one">first stage</a> climbs to the cliffs,
the <a href="stages/two">second</a> follows them to the lighthouse, and the <a href="javascript:go()">planner</a> lists the rest.
Most walkers take a week, sleeping in the villages, and the <a href="maps/">maps</a> show each night's stop.</p>
</article></body></html>`

type wireLink struct {
	URL     string  `json:"url"`
	Text    string  `json:"text"`
	InMain  bool    `json:"in_main"`
	Locator *string `json:"locator"`
}

// TestDigestLinksField: fields ["links"] (or ?fields=links) adds the
// source's links to data.source, and nothing else asks for them; a field
// that is no optional part of data.source is INVALID_FIELDS.
func TestDigestLinksField(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	body, _ := json.Marshal(map[string]any{"query": "how long is the path?", "fields": []string{"links"}, "source": map[string]any{"html": linksPage}})
	resp, b := serve(h, jsonRequest("/v1/digest", string(body)))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	var data struct {
		Source struct {
			ArchiveHash string      `json:"archive_hash"`
			Links       *[]wireLink `json:"links"`
		} `json:"source"`
	}
	json.Unmarshal(decodeEnvelope(t, b).Data, &data)
	if data.Source.Links == nil {
		t.Fatalf("no source.links: %s", b)
	}
	var got []string
	for _, l := range *data.Source.Links {
		loc := "null"
		if l.Locator != nil {
			loc = "loc"
		}
		got = append(got, l.URL+" "+l.Text+" "+loc)
	}
	want := "https://walks.example/coast/stages/one first stage loc|https://walks.example/coast/stages/two second loc|https://walks.example/coast/maps/ maps loc|https://walks.example/ Home null"
	if strings.Join(got, "|") != want {
		t.Errorf("links\n%s\nwant\n%s", strings.Join(got, "|"), want)
	}

	// A raw page with ?fields=links, and without.
	for _, c := range []struct {
		query string
		links bool
	}{{"?query=path&fields=links", true}, {"?query=path", false}} {
		req, _ := http.NewRequest("POST", "/v1/digest"+c.query, strings.NewReader(linksPage))
		req.Header.Set("Content-Type", "text/html")
		resp, b := serve(h, req)
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d %s", c.query, resp.StatusCode, b)
		}
		if has := strings.Contains(string(b), `"links":[`); has != c.links {
			t.Errorf("%s: links sent: %v, want %v", c.query, has, c.links)
		}
	}

	for _, bad := range []string{
		`{"query": "q", "fields": ["links", "decisions"], "source": {"text": "A text."}}`,
	} {
		resp, b := serve(h, jsonRequest("/v1/digest", bad))
		ed := errorOf(t, b)
		if resp.StatusCode != http.StatusBadRequest || ed.ErrorCode != "INVALID_FIELDS" || !strings.Contains(string(b), `"invalid_fields":["decisions"]`) {
			t.Errorf("%s: %d %s", bad, resp.StatusCode, b)
		}
	}
	req, _ := http.NewRequest("POST", "/v1/digest?query=q&fields=link", strings.NewReader("A text."))
	req.Header.Set("Content-Type", "text/plain")
	if resp, b := serve(h, req); resp.StatusCode != http.StatusBadRequest || errorOf(t, b).ErrorCode != "INVALID_FIELDS" {
		t.Errorf("?fields=link: %d %s", resp.StatusCode, b)
	}

	// POST /v1/digests: links is a field of the full level, sent when named.
	multi := `{"query": "how long is the path?", "sources": [{"id": "walk", "html": ` + mustJSON(linksPage) + `}], "fields": ["id", "links"]}`
	resp, b = serve(h, jsonRequest("/v1/digests", multi))
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(b), `"links":[{"url":"https://walks.example/coast/stages/one"`) || strings.Contains(string(b), `"source":`) {
		t.Errorf("digests with fields [id, links]: %d %.600s", resp.StatusCode, b)
	}
	resp, b = serve(h, jsonRequest("/v1/digests", strings.Replace(multi, `"fields"`, `"detail": "metadata", "fields"`, 1)))
	if ed := errorOf(t, b); resp.StatusCode != http.StatusBadRequest || ed.ErrorCode != "INVALID_FIELDS" {
		t.Errorf("links at detail metadata: %d %s", resp.StatusCode, b)
	}
	resp, b = serve(h, jsonRequest("/v1/digests", strings.Replace(multi, `, "fields": ["id", "links"]`, "", 1)))
	if resp.StatusCode != http.StatusOK || strings.Contains(string(b), `"links"`) {
		t.Errorf("digests without fields: links sent: %d %.600s", resp.StatusCode, b)
	}

	// GET /v1/sources/{hash}/links pages through the same links.
	var paged []string
	next := "/v1/sources/" + data.Source.ArchiveHash + "/links?limit=3"
	for pages := 0; next != ""; pages++ {
		resp, b := serve(h, httptest.NewRequest("GET", next, nil))
		if resp.StatusCode != http.StatusOK || pages > 3 {
			t.Fatalf("%s: %d %s", next, resp.StatusCode, b)
		}
		env := decodeEnvelope(t, b)
		var page struct {
			Total  int        `json:"total"`
			Offset int        `json:"offset"`
			Links  []wireLink `json:"links"`
		}
		json.Unmarshal(env.Data, &page)
		var meta struct {
			Meta struct {
				Pagination struct {
					Cursor  *string `json:"cursor"`
					HasMore bool    `json:"has_more"`
				} `json:"pagination"`
			} `json:"meta"`
		}
		json.Unmarshal(b, &meta)
		if page.Total != 4 || page.Offset != len(paged) {
			t.Errorf("page %d: total %d offset %d", pages, page.Total, page.Offset)
		}
		for _, l := range page.Links {
			loc := "null"
			if l.Locator != nil {
				loc = "loc"
			}
			paged = append(paged, l.URL+" "+l.Text+" "+loc)
		}
		next = ""
		if c := meta.Meta.Pagination.Cursor; c != nil {
			next = "/v1/sources/" + data.Source.ArchiveHash + "/links?limit=3&cursor=" + url.QueryEscape(*c)
			// A cursor of this source's links names no other's.
			other := "/v1/sources/sha256:" + strings.Repeat("ab", 32) + "/links?cursor=" + url.QueryEscape(*c)
			if resp, b := serve(h, httptest.NewRequest("GET", other, nil)); resp.StatusCode != http.StatusBadRequest || errorOf(t, b).ErrorCode != "INVALID_CURSOR" {
				t.Errorf("another source's cursor: %d %s", resp.StatusCode, b)
			}
		}
	}
	if strings.Join(paged, "|") != want {
		t.Errorf("pages\n%s\nwant\n%s", strings.Join(paged, "|"), want)
	}
	for _, q := range []string{"limit=0", "limit=501", "limit=x", "offset=2"} {
		resp, b := serve(h, httptest.NewRequest("GET", "/v1/sources/"+data.Source.ArchiveHash+"/links?"+q, nil))
		if resp.StatusCode != http.StatusBadRequest || errorOf(t, b).ErrorCode != "VALIDATION_ERROR" {
			t.Errorf("?%s: %d %s", q, resp.StatusCode, b)
		}
	}
	if resp, b := serve(h, httptest.NewRequest("GET", "/v1/sources/sha256:"+strings.Repeat("ab", 32)+"/links", nil)); resp.StatusCode != http.StatusNotFound {
		t.Errorf("a text never archived: %d %s", resp.StatusCode, b)
	}
}

func jsonRequest(path, body string) *http.Request {
	req := httptest.NewRequest("POST", path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	return req
}
