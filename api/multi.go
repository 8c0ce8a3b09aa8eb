package api

import (
	"net/http"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/wire"
)

func (s *Server) postDigests(w http.ResponseWriter, r *http.Request) {
	var body wire.DigestsRequest
	if err := s.decodeJSON(w, r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	req, fields, err := body.PipelineRequest()
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
	st := stateOf(r)
	env := wire.DigestsEnvelope(&body, req, fields, res, st.metaOf(), st.id, st.start)
	s.metrics.digests.WithLabelValues("multi").Inc()
	wire.Write(w, http.StatusOK, env)
}
