package api

import (
	"net/http"

	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

func (s *Server) postLocate(w http.ResponseWriter, r *http.Request) {
	var body wire.LocateRequest
	if err := s.decodeJSON(w, r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	srcs, failed, err := wire.LocateSources(body.Sources)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	req := pipeline.LocateRequest{Sources: srcs, Failed: failed, Quotes: body.Quotes}
	if body.MinSimilarity != nil {
		req.MinSimilarity = *body.MinSimilarity
	}
	res, err := s.pipe.Locate(r.Context(), req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	stateOf(r).meta.AddWarnings(res.Warnings)
	stateOf(r).meta.AddFailures(res.Failed)
	success(w, r, http.StatusOK, res)
}

func (s *Server) postCheck(w http.ResponseWriter, r *http.Request) {
	var body wire.CheckRequest
	if err := s.decodeJSON(w, r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	srcs, failed, err := wire.LocateSources(body.Sources)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	req := pipeline.CheckRequest{Report: body.Report, Sources: srcs, Failed: failed}
	if body.MinSimilarity != nil {
		req.MinSimilarity = *body.MinSimilarity
	}
	res, err := s.pipe.Check(r.Context(), req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	stateOf(r).meta.AddWarnings(res.Warnings)
	stateOf(r).meta.AddFailures(res.Failed)
	success(w, r, http.StatusOK, res)
}
