package mcpserver_test

import (
	"encoding/base64"
	"fmt"
	"strings"
	"testing"
)

// TestListLinks: digest_source with fields [links] carries the source's
// links; list_links pages through them with the cursor of meta.pagination,
// and says when a source's links are not known.
func TestListLinks(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	var md strings.Builder
	md.WriteString("# Walks\n\n")
	for i := range 7 {
		fmt.Fprintf(&md, "Walk %d follows the [coast](https://walks.example/%d) for a day.\n\n", i, i)
	}
	var d struct {
		Source struct {
			ArchiveHash string `json:"archive_hash"`
			Links       []struct {
				URL     string  `json:"url"`
				InMain  bool    `json:"in_main"`
				Locator *string `json:"locator"`
			} `json:"links"`
		} `json:"source"`
	}
	mustSucceed(t, cs, "digest_source", map[string]any{"query": "coast", "fields": []string{"links"},
		"source": map[string]any{"file_base64": base64.StdEncoding.EncodeToString([]byte(md.String())), "file_name": "walks.md"}}, &d)
	if len(d.Source.Links) != 7 || !d.Source.Links[6].InMain || d.Source.Links[6].Locator == nil || d.Source.Links[6].URL != "https://walks.example/6" {
		t.Fatalf("links %+v", d.Source.Links)
	}
	ed, _ := mustFail(t, cs, "digest_source", map[string]any{"query": "coast", "fields": []string{"decisions"}, "source": map[string]any{"text": "A text."}})
	if ed.ErrorCode != "INVALID_FIELDS" && ed.ErrorCode != "VALIDATION_ERROR" {
		t.Errorf("fields [decisions]: %s", ed.ErrorCode)
	}
	var urls []string
	cursor := ""
	for page := 0; ; page++ {
		args := map[string]any{"hash": d.Source.ArchiveHash, "limit": 3}
		if cursor != "" {
			args["cursor"] = cursor
		}
		var l struct {
			Total int `json:"total"`
			Links []struct {
				URL string `json:"url"`
			} `json:"links"`
		}
		res, env := mustSucceed(t, cs, "list_links", args, &l)
		if l.Total != 7 || !strings.Contains(textOf(res), "https://walks.example/") {
			t.Fatalf("page %d: total %d, text %q", page, l.Total, textOf(res))
		}
		for _, x := range l.Links {
			urls = append(urls, x.URL)
		}
		p := env.Meta.Pagination
		if p == nil || !p.HasMore {
			break
		}
		if p.Cursor == nil || page > 3 {
			t.Fatalf("page %d: has_more without a cursor", page)
		}
		cursor = *p.Cursor
	}
	if len(urls) != 7 || urls[0] != "https://walks.example/0" || urls[6] != "https://walks.example/6" {
		t.Errorf("paged %v", urls)
	}
	var plain digestData
	mustSucceed(t, cs, "digest_source", map[string]any{"query": "coast", "source": map[string]any{"text": "A plain text about the coast."}}, &plain)
	var l struct {
		Links []any `json:"links"`
	}
	_, env := mustSucceed(t, cs, "list_links", map[string]any{"hash": plain.Source.ArchiveHash.String()}, &l)
	if len(l.Links) != 0 || !hasWarning(env, "NO_STRUCTURE") {
		t.Errorf("a plain text's links: %v, warnings %v", l.Links, env.Meta.Warnings)
	}
}

// TestListLinksSaysOutsideCut: list_links of a page with more links outside
// its main content than its archive keeps counts them (outside) and says
// so with a CONTENT_TRUNCATED warning; digest_source's links say so too.
func TestListLinksSaysOutsideCut(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	const n = 300
	var page strings.Builder
	page.WriteString("<html><body><nav><ul>")
	for i := range n {
		fmt.Fprintf(&page, `<li><a href="https://x.example/menu/section-%d/page">Menu entry number %d</a></li>`, i, i)
	}
	page.WriteString(`</ul></nav><article><p>A page about rivers, which carry silt to the sea and build deltas where they slow down, as <a href="https://x.example/survey">this survey</a> shows in detail for three rivers.</p></article></body></html>`)
	var d struct {
		Source struct {
			ArchiveHash string `json:"archive_hash"`
		} `json:"source"`
	}
	_, env := mustSucceed(t, cs, "digest_source", map[string]any{"query": "silt", "fields": []string{"links"},
		"source": map[string]any{"file_base64": base64.StdEncoding.EncodeToString([]byte(page.String())), "file_name": "rivers.html"}}, &d)
	if !hasWarning(env, "CONTENT_TRUNCATED") {
		t.Errorf("digest_source: warnings %v", env.Meta.Warnings)
	}
	var l struct {
		Total   int `json:"total"`
		Outside *struct {
			Total  int `json:"total"`
			Listed int `json:"listed"`
		} `json:"outside"`
	}
	res, env := mustSucceed(t, cs, "list_links", map[string]any{"hash": d.Source.ArchiveHash}, &l)
	if l.Outside == nil || l.Outside.Total != n || l.Outside.Listed == 0 || l.Outside.Listed >= n || l.Total != l.Outside.Listed+1 {
		t.Fatalf("outside %+v, total %d", l.Outside, l.Total)
	}
	if !hasWarning(env, "CONTENT_TRUNCATED") || !strings.Contains(textOf(res), fmt.Sprintf("the page has %d links outside its main content", n)) {
		t.Errorf("list_links: warnings %v, text %q", env.Meta.Warnings, textOf(res))
	}
}
