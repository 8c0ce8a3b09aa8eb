package mcpserver_test

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/search/bleveindex"
)

// search_archive answers what POST /v1/search answers, in the same
// envelope: passages of labelled sources found by a question, each at a
// locator that slices its text; list_sources filters by label; a bad
// filter is the same error code.
func TestSearchArchiveTool(t *testing.T) {
	pipe := newPipeline(t)
	idx, err := bleveindex.Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	pipe.Index = idx
	cs := connectInMemory(t, pipe)
	texts := map[string]string{}
	for i, text := range []string{
		"Mother-to-child transmission (MTCT) is the main cause of HIV-1 infection in children. Placental DC-SIGNR plays a crucial role in MTCT.",
		"Glaciers in the Alps have lost half their volume since 1900.",
	} {
		label := []string{"hiv", "ice"}[i]
		var d struct {
			Source struct {
				ArchiveHash string `json:"archive_hash"`
			} `json:"source"`
		}
		mustSucceed(t, cs, "digest_source", map[string]any{"query": "x", "source": map[string]any{"text": text, "labels": []string{label}}}, &d)
		texts[d.Source.ArchiveHash] = text
	}
	var got struct {
		Results []struct {
			ArchiveHash string `json:"archive_hash"`
			Locator     string `json:"locator"`
			Text        string `json:"text"`
			Labels      []string
		} `json:"results"`
	}
	_, env := mustSucceed(t, cs, "search_archive", map[string]any{"query": "what causes MTCT?", "detail": "preview"}, &got)
	if env.Meta.ToolID != "search_archive" || len(got.Results) == 0 {
		t.Fatalf("search_archive: %+v", got)
	}
	top := got.Results[0]
	text := texts[top.ArchiveHash]
	if !strings.Contains(text, "MTCT") || !strings.Contains(text, top.Text) || top.Text == "" {
		t.Errorf("top result %+v is not a passage of the MTCT text", top)
	}
	var listed struct {
		Sources []struct {
			ArchiveHash string   `json:"archive_hash"`
			Labels      []string `json:"labels"`
		} `json:"sources"`
	}
	mustSucceed(t, cs, "list_sources", map[string]any{"label": "ice"}, &listed)
	if len(listed.Sources) != 1 || !strings.HasPrefix(texts[listed.Sources[0].ArchiveHash], "Glaciers") || listed.Sources[0].Labels[0] != "ice" {
		t.Errorf("list_sources by label: %+v", listed)
	}
	for _, c := range []struct {
		args map[string]any
		code fault.Code
	}{
		{map[string]any{"query": "MTCT", "filter": map[string]any{"labels": []string{"nobody"}}}, fault.NotFound},
		{map[string]any{"query": "MTCT", "cursor": "forged"}, fault.InvalidCursor},
		{map[string]any{"query": "MTCT", "detail": "ids_only", "fields": []string{"text"}}, fault.InvalidFields},
	} {
		if ed, _ := mustFail(t, cs, "search_archive", c.args); ed.ErrorCode != string(c.code) {
			t.Errorf("%v: %s, want %s", c.args, ed.ErrorCode, c.code)
		}
	}
}
