package api

import (
	"net/http"

	"github.com/digestd/digestd/wire"
)

// postSearch answers POST /v1/search: ranked passages across the archive.
func (s *Server) postSearch(w http.ResponseWriter, r *http.Request) {
	var body wire.SearchRequest
	if err := s.decodeJSON(w, r, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	req, fields, err := body.PipelineRequest(s.cursors)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	page, err := s.pipe.Search(r.Context(), req)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	st := stateOf(r)
	env, err := wire.SearchEnvelope(r.Context(), &body, fields, page, s.pipe.Labels, s.cursors, st.metaOf(), st.id, st.start)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	wire.Write(w, http.StatusOK, env)
}
