package api

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

// limitParam reads a listing's ?limit=: 0 (the listing's default) when
// absent, -1 when not a positive number, which the listing refuses with
// every other bad limit.
func limitParam(q url.Values) int {
	v := q.Get("limit")
	if v == "" {
		return 0
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 1 {
		return -1
	}
	return n
}

func (s *Server) listSources(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	limit := limitParam(q)
	after := ""
	if c := q.Get("cursor"); c != "" {
		var err error
		if after, err = s.cursors.Decode(wire.ListingSources, c); err != nil {
			s.fail(w, r, err)
			return
		}
	}
	page, err := s.pipe.ListSourcesWhere(r.Context(), pipeline.ListFilter{Label: q.Get("label"), Kind: q.Get("kind")}, after, limit)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	st := stateOf(r)
	st.meta.Pagination = &wire.Pagination{HasMore: page.More, PageSize: len(page.Sources)}
	if page.More {
		c := s.cursors.Encode(wire.ListingSources, page.Next)
		st.meta.Pagination.Cursor = &c
	}
	success(w, r, http.StatusOK, map[string]any{"sources": page.Sources})
}

func (s *Server) getSource(w http.ResponseWriter, r *http.Request) {
	d, err := parseHashParam(chi.URLParam(r, "hash"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	recs, err := s.pipe.Records(r.Context(), d)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	success(w, r, http.StatusOK, recs)
}

// listLinks returns a page of a source's links.
func (s *Server) listLinks(w http.ResponseWriter, r *http.Request) {
	d, err := parseHashParam(chi.URLParam(r, "hash"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	limit := limitParam(q)
	st := stateOf(r)
	env, _, err := wire.ListLinks(r.Context(), s.pipe, s.cursors, wire.LinksRequest{Hash: d, Limit: limit, Cursor: q.Get("cursor")}, st.metaOf(), st.id, st.start)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	wire.Write(w, http.StatusOK, env)
}

// getSlice returns a span of an archived text, by locator or start/end.
func (s *Server) getSlice(w http.ResponseWriter, r *http.Request) {
	d, err := parseHashParam(chi.URLParam(r, "hash"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	q := r.URL.Query()
	loc, err := wire.ParseSpan(q.Get("locator"), q.Get("start"), q.Get("end"))
	if err != nil {
		s.fail(w, r, err)
		return
	}
	context := 0
	if v := q.Get("context"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 || n > pipeline.MaxSliceContext {
			s.fail(w, r, fault.E(fault.ValidationError, fmt.Sprintf("context: must be an integer between 0 and %d", pipeline.MaxSliceContext)))
			return
		}
		context = n
	}
	sl, err := s.pipe.SliceText(r.Context(), d, loc, context)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	success(w, r, http.StatusOK, sl)
}

func (s *Server) postVerify(w http.ResponseWriter, r *http.Request) {
	if _, _, err := wire.CheckContentType(r.Header.Get("Content-Type"), wire.MediaJSON); err != nil {
		s.fail(w, r, err)
		return
	}
	raw, err := s.body(w, r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if err := refuseBarePayload(raw); err != nil {
		s.fail(w, r, err)
		return
	}
	var body wire.VerifyRequest
	if err := wire.DecodeJSONBody(raw, &body); err != nil {
		s.fail(w, r, err)
		return
	}
	if body.Digest == nil {
		s.fail(w, r, fault.E(fault.MissingRequired, "digest: the payload to verify is required"))
		return
	}
	if err := requirePayloadFields(raw); err != nil {
		s.fail(w, r, err)
		return
	}
	rep, err := s.pipe.Verify(r.Context(), body.Digest.Value())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	success(w, r, http.StatusOK, wire.VerifyDataOf(rep, body.Digest))
}

// refuseBarePayload answers a verify body that is a DigestPayload itself
// (no "digest" key, and a payload's fields at the top level) with
// MISSING_REQUIRED saying to wrap it, rather than with the payload's fields
// as unknown ones.
func refuseBarePayload(raw []byte) error {
	var keys map[string]json.RawMessage
	if json.Unmarshal(raw, &keys) != nil {
		return nil // DecodeJSONBody says what is wrong
	}
	if _, ok := keys["digest"]; ok {
		return nil
	}
	for _, f := range digest.RequiredFields() {
		if _, ok := keys[f]; ok {
			return fault.E(fault.MissingRequired, `digest: is required: the body is a DigestPayload itself; send it wrapped, as {"digest": <the payload>}`).
				With("field", "digest")
		}
	}
	return nil
}

// requirePayloadFields refuses a verify body whose digest lacks a field of
// the payload (or gives it as null), naming every missing one.
func requirePayloadFields(raw []byte) error {
	var keys struct {
		Digest map[string]json.RawMessage `json:"digest"`
	}
	if err := json.Unmarshal(raw, &keys); err != nil {
		return fault.Wrap(fault.InvalidFormat, "digest: must be an object", err)
	}
	var missing []string
	for _, f := range digest.RequiredFields() {
		if v, ok := keys.Digest[f]; !ok || string(v) == "null" {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		return fault.E(fault.MissingRequired, "digest: missing "+strings.Join(missing, ", ")).With("missing_fields", missing)
	}
	return nil
}
