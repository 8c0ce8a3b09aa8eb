package api_test

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
)

// searchMeta is what a search answer's meta says of what it left out.
type searchMeta struct {
	ContentFidelity string   `json:"content_fidelity"`
	Warnings        []string `json:"warnings"`
	WarningDetails  []struct {
		Code     string         `json:"code"`
		Severity string         `json:"severity"`
		Context  map[string]any `json:"context"`
	} `json:"warning_details"`
}

// A source whose archived text is corrupt does not fail a search that
// finds it: the other sources are answered, and the answer is partial with
// an ARCHIVE_CORRUPT warning naming the corrupt source's hash.
func TestSearchSkipsCorruptSource(t *testing.T) {
	h, pipe := newSearchServer(t)
	c := loadContract(t)
	texts := []string{
		"Glaciers in the Alps have lost half their volume since 1900. Warmer summers melt the glaciers faster.",
		"Glaciers in Norway grew in the 1990s. Snowy winters fed the glaciers.",
	}
	var hashes []archive.Hash
	for _, text := range texts {
		resp, b := c.do(t, h, "POST", "/v1/digest", "application/json", fmt.Appendf(nil, `{"query":"glaciers","source":{"text":%q}}`, text))
		if resp.StatusCode != 200 {
			t.Fatalf("digest: %d %s", resp.StatusCode, b)
		}
		var d struct {
			Source struct {
				ArchiveHash archive.Hash `json:"archive_hash"`
			} `json:"source"`
		}
		json.Unmarshal(decodeEnvelope(t, b).Data, &d)
		hashes = append(hashes, d.Source.ArchiveHash)
	}
	search := func() (int, searchData, searchMeta, []byte) {
		t.Helper()
		resp, b := c.do(t, h, "POST", "/v1/search", "application/json", []byte(`{"query":"glaciers","group_by":"source"}`))
		var (
			d    searchData
			meta searchMeta
		)
		if resp.StatusCode == 200 {
			env := decodeEnvelope(t, b)
			json.Unmarshal(env.Data, &d)
			var raw struct {
				Meta searchMeta `json:"meta"`
			}
			json.Unmarshal(b, &raw)
			meta = raw.Meta
		}
		return resp.StatusCode, d, meta, b
	}
	if code, d, meta, b := search(); code != 200 || len(d.Results) != 2 || meta.ContentFidelity != "full" || len(meta.Warnings) != 0 {
		t.Fatalf("search before the damage: %d %s", code, b)
	}

	// Damage the first text behind the archive's back, keeping its size.
	path := pipe.Store.(*fsstore.Store).BlobPath(hashes[0])
	os.Chmod(path, 0o644)
	if err := os.WriteFile(path, []byte(strings.ToUpper(texts[0])), 0o644); err != nil {
		t.Fatal(err)
	}
	code, d, meta, b := search()
	if code != 200 {
		t.Fatalf("search finding a corrupt source: %d %s", code, b)
	}
	if len(d.Results) != 1 || d.Results[0].ArchiveHash != hashes[1].String() {
		t.Errorf("search finding a corrupt source answered %s; want the other source only", b)
	}
	if meta.ContentFidelity != "partial" || len(meta.WarningDetails) != 1 {
		t.Fatalf("search finding a corrupt source: meta %+v, want partial with one warning", meta)
	}
	w := meta.WarningDetails[0]
	ids, _ := w.Context["archive_hashes"].([]any)
	if w.Code != "ARCHIVE_CORRUPT" || w.Severity != "error" || !slices.Equal(ids, []any{hashes[0].String()}) || !strings.Contains(meta.Warnings[0], hashes[0].String()) {
		t.Errorf("warning %+v %q, want ARCHIVE_CORRUPT naming %s", w, meta.Warnings[0], hashes[0])
	}
}
