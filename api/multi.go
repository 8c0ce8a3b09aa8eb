package api

import (
	"fmt"
	"net/http"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/pipeline"
)

// MaxSources bounds the sources of one POST /v1/digests.
const MaxSources = 50

// DigestsRequest is the body of POST /v1/digests.
type DigestsRequest struct {
	Query   string          `json:"query"`
	Sources []SourceSpec    `json:"sources"`
	Budget  *BudgetSpec     `json:"budget,omitempty"`
	Detail  string          `json:"detail,omitempty"`
	Fields  []string        `json:"fields,omitempty"`
	Options *digest.Options `json:"options,omitempty"`
}

// BudgetSpec bounds a multi-source response: max_chars counts the
// characters of the digests' JSON; max_tokens is taken at 4 characters a
// token.
type BudgetSpec struct {
	MaxChars  int `json:"max_chars,omitempty"`
	MaxTokens int `json:"max_tokens,omitempty"`
}

// DigestsData is data of a successful POST /v1/digests.
type DigestsData struct {
	Query        string             `json:"query"`
	QueryHash    string             `json:"query_hash"`
	Digests      []map[string]any   `json:"digests"`
	TotalSources int                `json:"total_sources"`
	Included     int                `json:"included"`
	Dropped      int                `json:"dropped"`
	Failed       []pipeline.Failure `json:"failed"`
}

// detailAliases maps every accepted detail name to a fidelity level.
var detailAliases = map[string]string{
	"":               pipeline.FidelityFull,
	"full":           pipeline.FidelityFull,
	"summary":        pipeline.FidelitySummary,
	"preview":        pipeline.FidelitySummary,
	"reference_only": pipeline.FidelityReferenceOnly,
	"metadata":       pipeline.FidelityReferenceOnly,
	"ids_only":       pipeline.FidelityReferenceOnly,
}

// fieldsByLevel is the whitelist of item fields a client may select at
// each detail level.
var fieldsByLevel = map[string][]string{
	pipeline.FidelityReferenceOnly: {"id", "fidelity", "rank", "score", "archive_hash", "digest_hash", "kind", "title"},
	pipeline.FidelitySummary:       {"id", "fidelity", "rank", "score", "archive_hash", "digest_hash", "kind", "title", "summary"},
	pipeline.FidelityFull:          {"id", "fidelity", "rank", "score", "archive_hash", "digest_hash", "kind", "title", "summary", "digest", "source"},
}

func (s *Server) postDigests(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	var body DigestsRequest
	if err := decodeJSON(r.Body, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	req, fields, err := body.pipelineRequest()
	if err != nil {
		s.fail(w, r, err)
		return
	}
	res, err := s.pipe.DigestMany(r.Context(), req)
	if err != nil {
		s.metrics.digests.WithLabelValues(string(fault.CodeOf(err))).Inc()
		s.fail(w, r, err)
		return
	}
	env := digestsEnvelope(stateOf(r), &body, req, fields, res)
	s.metrics.digests.WithLabelValues("multi").Inc()
	writeJSON(w, http.StatusOK, env)
}

// pipelineRequest checks the request and converts it.
func (b *DigestsRequest) pipelineRequest() (pipeline.ManyRequest, []string, error) {
	var req pipeline.ManyRequest
	if len(b.Sources) == 0 {
		return req, nil, fault.E(fault.MissingRequired, "sources: at least one source is required")
	}
	if len(b.Sources) > MaxSources {
		return req, nil, fault.E(fault.ValidationError, fmt.Sprintf("sources: at most %d sources per request", MaxSources)).With("max_sources", MaxSources)
	}
	level, ok := detailAliases[b.Detail]
	if !ok {
		return req, nil, fault.E(fault.ValidationError, "detail: must be one of full, summary, reference_only (or ids_only, metadata, preview)")
	}
	allowed := fieldsByLevel[level]
	for _, f := range b.Fields {
		if !contains(allowed, f) {
			return req, nil, fault.E(fault.InvalidFields, fmt.Sprintf("fields: %q is not available at detail %q", f, level)).
				With("allowed", allowed).With("field", f)
		}
	}
	if b.Budget != nil {
		if b.Budget.MaxChars < 0 || b.Budget.MaxTokens < 0 {
			return req, nil, fault.E(fault.ValidationError, "budget: max_chars and max_tokens must be ≥ 0")
		}
		req.Budget = pipeline.Budget{MaxChars: b.Budget.MaxChars, MaxTokens: b.Budget.MaxTokens}
	}
	if b.Options != nil {
		req.Options = *b.Options
	}
	req.Query = b.Query
	req.Detail = level
	seen := map[string]bool{}
	for i, spec := range b.Sources {
		if spec.ID == "" {
			spec.ID = pipeline.DefaultSourceID(i)
		}
		if seen[spec.ID] {
			return req, nil, fault.E(fault.ValidationError, fmt.Sprintf("sources[%d].id: %q is used twice", i, spec.ID))
		}
		seen[spec.ID] = true
		one, err := spec.Request(b.Query, req.Options)
		if err != nil {
			fe := fault.As(err)
			fe.Msg = fmt.Sprintf("sources[%d]: %s", i, fe.Msg)
			return req, nil, fe
		}
		req.Sources = append(req.Sources, one)
	}
	return req, b.Fields, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

// selectFields renders an item, keeping only the chosen fields (all when
// none are chosen); id and fidelity are always kept.
func selectFields(it pipeline.Item, fields []string) map[string]any {
	m := map[string]any{
		"id": it.ID, "fidelity": it.Fidelity, "rank": it.Rank, "score": it.Score,
		"archive_hash": it.ArchiveHash, "digest_hash": it.DigestHash, "kind": it.Kind,
	}
	if it.Title != "" {
		m["title"] = it.Title
	}
	if it.Summary != nil {
		m["summary"] = *it.Summary
	}
	if it.Digest != nil {
		m["digest"] = it.Digest
		m["summary"] = it.Digest.Summary
	}
	if it.Source != nil {
		m["source"] = it.Source
	}
	if len(fields) == 0 {
		return m
	}
	keep := map[string]any{"id": it.ID, "fidelity": it.Fidelity}
	for _, f := range fields {
		if v, ok := m[f]; ok {
			keep[f] = v
		}
	}
	return keep
}
