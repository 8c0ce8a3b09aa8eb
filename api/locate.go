package api

import (
	"fmt"
	"net/http"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/pipeline"
)

// LocateRequest is the body of POST /v1/locate.
type LocateRequest struct {
	Sources       []SourceSpec `json:"sources"`
	Quotes        []string     `json:"quotes"`
	MinSimilarity *float64     `json:"min_similarity,omitempty"`
}

// CheckRequest is the body of POST /v1/check.
type CheckRequest struct {
	Report        string       `json:"report"`
	Sources       []SourceSpec `json:"sources,omitempty"`
	MinSimilarity *float64     `json:"min_similarity,omitempty"`
}

// LocateSources converts the sources of a locate or check request: each
// gets its id (source-N when none is given), and ids must be distinct.
func LocateSources(specs []SourceSpec) ([]pipeline.Request, error) {
	if len(specs) > pipeline.MaxLocateSources {
		return nil, fault.E(fault.ValidationError, fmt.Sprintf("sources: at most %d sources per request", pipeline.MaxLocateSources)).With("max_sources", pipeline.MaxLocateSources)
	}
	seen := map[string]bool{}
	var out []pipeline.Request
	for i, spec := range specs {
		if spec.ID == "" {
			spec.ID = pipeline.DefaultSourceID(i)
		}
		if seen[spec.ID] {
			return nil, fault.E(fault.ValidationError, fmt.Sprintf("sources[%d].id: %q is used twice", i, spec.ID))
		}
		seen[spec.ID] = true
		req, err := spec.Request("", digest.Options{})
		if err != nil {
			fe := fault.As(err)
			return nil, &fault.Error{Code: fe.Code, Msg: fmt.Sprintf("sources[%d]: %s", i, fe.Msg), Details: fe.Details, Err: fe.Err}
		}
		out = append(out, req)
	}
	return out, nil
}

func (s *Server) postLocate(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	var body LocateRequest
	if err := decodeJSON(r.Body, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	srcs, err := LocateSources(body.Sources)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	req := pipeline.LocateRequest{Sources: srcs, Quotes: body.Quotes}
	if body.MinSimilarity != nil {
		req.MinSimilarity = *body.MinSimilarity
	}
	res, err := s.pipe.Locate(r.Context(), req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	addWarnings(stateOf(r), res.Warnings)
	success(w, r, http.StatusOK, res)
}

func (s *Server) postCheck(w http.ResponseWriter, r *http.Request) {
	r.Body = http.MaxBytesReader(w, r.Body, s.cfg.MaxBodyBytes)
	var body CheckRequest
	if err := decodeJSON(r.Body, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	srcs, err := LocateSources(body.Sources)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	req := pipeline.CheckRequest{Report: body.Report, Sources: srcs}
	if body.MinSimilarity != nil {
		req.MinSimilarity = *body.MinSimilarity
	}
	res, err := s.pipe.Check(r.Context(), req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	addWarnings(stateOf(r), res.Warnings)
	success(w, r, http.StatusOK, res)
}
