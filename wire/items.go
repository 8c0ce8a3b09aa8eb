package wire

import (
	"encoding/json"
	"unicode/utf8"

	"github.com/digestd/digestd/pipeline"
)

// DetailFields is the whitelist of item fields at each disclosure level:
// ids_only is the item's id, rank, score and hashes; metadata adds what
// describes the source (title, url, kind, character and page counts,
// fidelity); summary adds the summary; full adds the digest and the source,
// and the source's links, which are sent only when fields names them.
var DetailFields = map[string][]string{
	pipeline.DetailIDsOnly:  {"id", "rank", "score", "archive_hash", "digest_hash"},
	pipeline.DetailMetadata: {"id", "rank", "score", "archive_hash", "digest_hash", "fidelity", "kind", "title", "url", "original_chars", "page_count"},
	pipeline.DetailSummary:  {"id", "rank", "score", "archive_hash", "digest_hash", "fidelity", "kind", "title", "url", "original_chars", "page_count", "summary"},
	pipeline.DetailFull:     {"id", "rank", "score", "archive_hash", "digest_hash", "fidelity", "kind", "title", "url", "original_chars", "page_count", "summary", "digest", "source", "links"},
}

// RenderItem returns item it as it is sent: only fields (all the item
// has when fields is empty), and id always. A full item carries its summary at
// the top level too, as a summary item does, so that each disclosure level's
// fields are a superset of the level below (DetailFields).
func RenderItem(it pipeline.Item, fields []string) map[string]any {
	m := map[string]any{
		"id": it.ID, "fidelity": it.Fidelity, "rank": it.Rank, "score": it.Score,
		"archive_hash": it.ArchiveHash, "digest_hash": it.DigestHash, "kind": it.Kind,
		"original_chars": it.OriginalChars,
	}
	if it.Title != "" {
		m["title"] = it.Title
	}
	if it.URL != "" {
		m["url"] = it.URL
	}
	if it.PageCount > 0 {
		m["page_count"] = it.PageCount
	}
	if it.Summary != nil {
		m["summary"] = *it.Summary
	} else if it.Digest != nil {
		m["summary"] = it.Digest.Summary
	}
	if it.Digest != nil {
		m["digest"] = it.Digest
	}
	if it.Source != nil {
		m["source"] = RenderSource(*it.Source)
	}
	if it.Links != nil {
		m["links"] = *it.Links
	}
	if len(fields) == 0 {
		return m
	}
	keep := map[string]any{"id": it.ID}
	for _, f := range fields {
		if v, ok := m[f]; ok {
			keep[f] = v
		}
	}
	return keep
}

// ItemChars is what item it costs against a budget: the code points of
// the JSON it is sent as with fields (see pipeline.ManyRequest.Cost).
func ItemChars(it pipeline.Item, fields []string) int {
	b, _ := json.Marshal(RenderItem(it, fields))
	return utf8.RuneCount(b)
}
