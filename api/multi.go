package api

import (
	"fmt"
	"net/http"
	"slices"
	"strings"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/pipeline"
)

// MaxSources bounds the sources of one POST /v1/digests.
const MaxSources = 50

// DigestsRequest is the body of POST /v1/digests.
type DigestsRequest struct {
	Query   string       `json:"query"`
	Sources []SourceSpec `json:"sources"`
	Budget  *BudgetSpec  `json:"budget,omitempty"`
	Detail  string       `json:"detail,omitempty"`
	Fields  []string     `json:"fields,omitempty"`
	Options *OptionsSpec `json:"options,omitempty"`
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

// detailNames maps every accepted detail name to its disclosure level:
// preview is summary, and reference_only (the level's former name) is
// metadata.
var detailNames = map[string]string{
	"":               pipeline.DetailFull,
	"full":           pipeline.DetailFull,
	"summary":        pipeline.DetailSummary,
	"preview":        pipeline.DetailSummary,
	"metadata":       pipeline.DetailMetadata,
	"reference_only": pipeline.DetailMetadata,
	"ids_only":       pipeline.DetailIDsOnly,
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
	level, ok := detailNames[b.Detail]
	if !ok {
		return req, nil, fault.E(fault.ValidationError, "detail: must be one of ids_only, metadata, summary (or preview), full").With("field", "detail")
	}
	allowed := pipeline.DetailFields[level]
	var bad []string
	for _, f := range b.Fields {
		if !slices.Contains(allowed, f) {
			bad = append(bad, f)
		}
	}
	if len(bad) > 0 {
		return req, nil, fault.E(fault.InvalidFields, fmt.Sprintf("fields: %s not available at detail %q", strings.Join(bad, ", "), level)).
			With("invalid_fields", bad).With("allowed_fields", allowed).With("detail", level)
	}
	fields := b.Fields
	if len(fields) == 0 && (level == pipeline.DetailIDsOnly || level == pipeline.DetailMetadata) {
		fields = allowed
	}
	if b.Budget != nil {
		if b.Budget.MaxChars < 0 || b.Budget.MaxTokens < 0 {
			return req, nil, fault.E(fault.ValidationError, "budget: max_chars and max_tokens must be ≥ 0")
		}
		req.Budget = pipeline.Budget{MaxChars: b.Budget.MaxChars, MaxTokens: b.Budget.MaxTokens}
	}
	opts, err := b.Options.Options()
	if err != nil {
		return req, nil, err
	}
	req.Options = opts
	req.Query = b.Query
	req.Detail = pipeline.DetailFidelity[level]
	req.Fields = fields
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
		if fe := fault.As(err); err != nil && fe.Code == fault.NotFound {
			// A source that names nothing archived fails alone.
			req.Failed = append(req.Failed, pipeline.Failure{ID: spec.ID, Code: string(fe.Code), Message: fe.Msg, Details: fe.Details})
			continue
		}
		if err != nil {
			fe := fault.As(err)
			fe.Msg = fmt.Sprintf("sources[%d]: %s", i, fe.Msg)
			return req, nil, fe
		}
		req.Sources = append(req.Sources, one)
	}
	return req, fields, nil
}
