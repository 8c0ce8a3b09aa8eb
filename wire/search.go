package wire

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/pipeline"
)

// ListingSearch names the pages of a search (POST /v1/search and the MCP
// tool search_archive share its cursors).
const ListingSearch = "search"

// GroupBySource is the one accepted value of a search's group_by.
const GroupBySource = "source"

// SearchRequest is the body of POST /v1/search and the arguments of the
// MCP tool search_archive.
type SearchRequest struct {
	Query   string        `json:"query"`
	Limit   int           `json:"limit,omitempty"`
	Cursor  string        `json:"cursor,omitempty"`
	Detail  string        `json:"detail,omitempty"`
	Fields  []string      `json:"fields,omitempty"`
	Filter  *SearchFilter `json:"filter,omitempty"`
	GroupBy string        `json:"group_by,omitempty"`
}

// SearchFilter narrows a search: kinds, archive hashes and labels (a
// source passes with one of each list given), and the time the source was
// first archived (RFC 3339, exclusive bounds).
type SearchFilter struct {
	Kinds       []string `json:"kinds,omitempty"`
	Sources     []string `json:"sources,omitempty"`
	Labels      []string `json:"labels,omitempty"`
	AddedAfter  string   `json:"added_after,omitempty"`
	AddedBefore string   `json:"added_before,omitempty"`
}

// SearchData is data of a successful search.
type SearchData struct {
	Query         string           `json:"query"`
	Results       []map[string]any `json:"results"`
	TotalEstimate int              `json:"total_estimate"`
	GroupBy       string           `json:"group_by,omitempty"`
}

// MaxSearchFilterSources bounds the archive hashes of one filter.
const MaxSearchFilterSources = 100

// PipelineRequest checks a search request (limit, detail, fields, filter,
// group_by, cursor) and converts it; it also returns the hit fields the
// client selected. The cursor must come from a search of the same
// request: its position is bound to the rest of the body.
func (b *SearchRequest) PipelineRequest(cursors *Cursors) (pipeline.SearchRequest, []string, error) {
	req := pipeline.SearchRequest{Query: b.Query, Limit: b.Limit}
	if err := pipeline.CheckSearchLimit(b.Limit); err != nil {
		return req, nil, err
	}
	_, allowed, err := detailLevel(b.Detail, b.Fields, SearchDetailFields)
	if err != nil {
		return req, nil, err
	}
	fields := b.Fields
	if len(fields) == 0 {
		fields = allowed
	}
	switch b.GroupBy {
	case "":
	case GroupBySource:
		req.GroupBySource = true
	default:
		return req, nil, fault.E(fault.ValidationError, `group_by: must be "source" or left out`).With("field", "group_by")
	}
	if f := b.Filter; f != nil {
		for _, k := range f.Kinds {
			if !slices.Contains(format.Kinds, k) {
				return req, nil, fault.E(fault.ValidationError, "filter.kinds: each must be one of "+strings.Join(format.Kinds, ", ")).With("field", "filter.kinds")
			}
		}
		req.Filter.Kinds = f.Kinds
		if len(f.Sources) > MaxSearchFilterSources {
			return req, nil, fault.E(fault.ValidationError, fmt.Sprintf("filter.sources: at most %d archive hashes", MaxSearchFilterSources)).With("field", "filter.sources")
		}
		for _, s := range f.Sources {
			h, err := archive.ParseHash(s)
			if err != nil {
				return req, nil, fault.E(fault.ValidationError, "filter.sources: each must be sha256:<64 hex digits>").With("field", "filter.sources")
			}
			req.Filter.Sources = append(req.Filter.Sources, h)
		}
		labels, err := pipeline.CheckLabels("filter.labels", f.Labels)
		if err != nil {
			return req, nil, err
		}
		req.Filter.Labels = labels
		for _, t := range []struct {
			name string
			raw  string
			dst  *time.Time
		}{{"filter.added_after", f.AddedAfter, &req.Filter.AddedAfter}, {"filter.added_before", f.AddedBefore, &req.Filter.AddedBefore}} {
			if t.raw == "" {
				continue
			}
			v, err := time.Parse(time.RFC3339, t.raw)
			if err != nil {
				return req, nil, fault.E(fault.ValidationError, t.name+": must be an RFC 3339 time such as 2026-11-28T12:00:00Z").With("field", t.name)
			}
			*t.dst = v
		}
	}
	if b.Cursor != "" {
		pos, err := cursors.Decode(ListingSearch, b.Cursor)
		if err != nil {
			return req, nil, err
		}
		off, key, ok := strings.Cut(pos, ":")
		n, err := strconv.Atoi(off)
		if !ok || err != nil || key != b.key() {
			return req, nil, fault.E(fault.InvalidCursor, "cursor: not a cursor of this search (the query, filter, detail, fields and group_by must be the same)").With("field", "cursor")
		}
		req.Offset = n
	}
	return req, fields, nil
}

// key binds a cursor to the request it continues: a hash of the body
// without the cursor and the limit.
func (b *SearchRequest) key() string {
	c := *b
	c.Cursor, c.Limit = "", 0
	raw, _ := json.Marshal(c)
	sum := sha256.Sum256(raw)
	return hex.EncodeToString(sum[:8])
}

// SearchEnvelope returns the success envelope of a search page: the hits
// rendered with fields, each source's labels read with labels, the
// pagination with a signed cursor for the next page, and the content
// fidelity, partial with a warning when sources were left out or may be.
func SearchEnvelope(ctx context.Context, body *SearchRequest, fields []string, page *pipeline.SearchPage, labels func(context.Context, archive.Hash) ([]string, error), cursors *Cursors, meta Meta, requestID string, start time.Time) (Envelope, error) {
	if meta.ToolID == "" {
		meta.ToolID = ToolSearchArchive
	}
	data := SearchData{Query: body.Query, Results: []map[string]any{}, TotalEstimate: page.TotalEstimate, GroupBy: body.GroupBy}
	known := map[archive.Hash][]string{}
	chars := 0
	for _, h := range page.Hits {
		var ls []string
		if slices.Contains(fields, "labels") {
			var ok bool
			if ls, ok = known[h.Source]; !ok {
				var err error
				if ls, err = labels(ctx, h.Source); err != nil {
					return Envelope{}, err
				}
				known[h.Source] = ls
			}
		}
		item := RenderSearchHit(h, fields, ls)
		data.Results = append(data.Results, item)
		raw, _ := json.Marshal(item)
		chars += len(raw)
	}
	// A search answers what the index and the archive can give: full,
	// or partial when a source it found is left out or the index lags
	// the archive; a warning says which, or how many.
	meta.ContentFidelity = pipeline.FidelityFull
	meta.ContentFidelitySchemaVersion = FidelitySchemaVersion
	if len(page.Corrupt) > 0 {
		ids := make([]string, len(page.Corrupt))
		for i, h := range page.Corrupt {
			ids[i] = h.String()
		}
		meta.AddWarning(fault.SourcesCorrupt, fmt.Sprintf("%d source(s) left out: their archived text failed its integrity check: %s", len(ids), strings.Join(ids, ", ")),
			map[string]any{"archive_hashes": ids})
		meta.ContentFidelity = pipeline.FidelityPartial
	}
	switch {
	case page.Unsearchable > 0:
		meta.AddWarning(fault.IndexLagging, fmt.Sprintf("%d archived source(s) are not yet searchable: the search index is catching up with the archive", page.Unsearchable),
			map[string]any{"unsearchable_sources": page.Unsearchable, "reconciling": page.Reconciling})
		meta.ContentFidelity = pipeline.FidelityPartial
	case page.Reconciling:
		meta.AddWarning(fault.IndexLagging, "the search index is being reconciled with the archive: archived sources may not be searchable yet",
			map[string]any{"reconciling": true})
		meta.ContentFidelity = pipeline.FidelityPartial
	}
	meta.Pagination = &Pagination{HasMore: page.More, PageSize: len(page.Hits)}
	if page.More {
		c := cursors.Encode(ListingSearch, strconv.Itoa(page.Next)+":"+body.key())
		meta.Pagination.Cursor = &c
	}
	tokens := (chars + pipeline.CharsPerToken - 1) / pipeline.CharsPerToken
	meta.Telemetry.TokensEstimated = &tokens
	return Success(data, meta, requestID, start), nil
}

// SearchDetailFields is the whitelist of a search hit's fields at each
// disclosure level, the same levels as DetailFields: ids_only is the hit's
// rank, score, source and locator; metadata adds what describes the source
// and the ranking context; summary (preview) adds the passage's text; full
// adds the source's labels.
var SearchDetailFields = map[string][]string{
	pipeline.DetailIDsOnly:  {"rank", "score", "archive_hash", "locator"},
	pipeline.DetailMetadata: {"rank", "score", "archive_hash", "locator", "kind", "title", "url", "ranking"},
	pipeline.DetailSummary:  {"rank", "score", "archive_hash", "locator", "kind", "title", "url", "ranking", "text"},
	pipeline.DetailFull:     {"rank", "score", "archive_hash", "locator", "kind", "title", "url", "ranking", "text", "labels"},
}

// SearchRanking is a hit's ranking context: why it ranks where it does.
type SearchRanking struct {
	// MatchedTerms are the query's words the passage holds.
	MatchedTerms []string `json:"matched_terms"`
	// MatchedField is where they matched: "text" (the passage), or
	// "source" when the passage holds none and ranks for its source's
	// match.
	MatchedField string `json:"matched_field"`
	// RelevanceScore is the passage's relevance_score in a digest of its
	// source; SourceScore the chance that the source answers the query.
	RelevanceScore float64 `json:"relevance_score"`
	SourceScore    float64 `json:"source_score"`
}

// RenderSearchHit returns hit h as it is sent, with only fields (every
// field of the full level when fields is empty) and labels the source's
// labels.
func RenderSearchHit(h pipeline.SearchHit, fields []string, labels []string) map[string]any {
	field := "text"
	if len(h.MatchedTerms) == 0 {
		field = "source"
	}
	m := map[string]any{
		"rank": h.Rank, "score": h.Score, "archive_hash": h.Source, "locator": h.LocatorString(),
		"kind": h.Kind, "text": h.Text, "labels": labels,
		"ranking": SearchRanking{MatchedTerms: h.MatchedTerms, MatchedField: field, RelevanceScore: h.Relevance, SourceScore: h.SourceScore},
	}
	if h.Title != "" {
		m["title"] = h.Title
	}
	if h.URL != "" {
		m["url"] = h.URL
	}
	if len(fields) == 0 {
		return m
	}
	keep := map[string]any{}
	for _, f := range fields {
		if v, ok := m[f]; ok {
			keep[f] = v
		}
	}
	return keep
}
