package api

import (
	"context"
	"net/http"
	"strconv"
	"time"

	"github.com/digestd/digestd/wire"
)

type ctxKey int

const requestKey ctxKey = 0

// requestState is per-request state the envelope helpers need.
type requestState struct {
	id     string
	start  time.Time
	client string // the authenticated client, for rate limiting
	tool   string // meta.tool_id: the operation this request runs
	// params are the query parameters the route takes, checked when
	// checkParams is set (the route is known).
	params      []string
	checkParams bool
	meta        wire.Meta // fields a handler or middleware set before writing
}

// withRequest attaches request state: the client's X-Request-ID when valid,
// else a generated one, echoed as a header.
func withRequest(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := wire.RequestID(r.Header.Get("X-Request-ID"))
		w.Header().Set("X-Request-ID", id)
		st := &requestState{id: id, start: time.Now()}
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestKey, st)))
	})
}

func stateOf(r *http.Request) *requestState {
	if st, ok := r.Context().Value(requestKey).(*requestState); ok {
		return st
	}
	return &requestState{id: wire.NewRequestID(), start: time.Now()}
}

// RequestID returns the request's id (for logs).
func RequestID(r *http.Request) string { return stateOf(r).id }

// metaOf returns the meta set so far, naming the route's operation when no
// handler named one.
func (st *requestState) metaOf() wire.Meta {
	m := st.meta
	if m.ToolID == "" {
		m.ToolID = st.tool
	}
	return m
}

// success writes a response-v2 success envelope with data.
func success(w http.ResponseWriter, r *http.Request, status int, data any) {
	st := stateOf(r)
	wire.Write(w, status, wire.Success(data, st.metaOf(), st.id, st.start))
}

// fail writes a response-v2 error envelope for err, classified by the error
// table. Internal causes are logged, never sent.
func (s *Server) fail(w http.ResponseWriter, r *http.Request, err error) {
	env, status := errorEnvelope(err, stateOf(r))
	code := env.Data.(wire.ErrorData).ErrorCode
	if status >= 500 {
		s.log().Error("request failed", "request_id", RequestID(r), "code", code, "err", err)
	} else {
		s.log().Info("request rejected", "request_id", RequestID(r), "code", code, "err", err)
	}
	if ra := env.Data.(wire.ErrorData).RetryAfter; ra != nil {
		w.Header().Set("Retry-After", strconv.Itoa(*ra))
	}
	wire.Write(w, status, env)
}

// errorEnvelope returns the error envelope of err for the request st and
// its HTTP status.
func errorEnvelope(err error, st *requestState) (wire.Envelope, int) {
	return wire.Failure(err, st.metaOf(), st.id, st.start)
}
