package api

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/go-chi/httprate"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/wire"
)

// HashAPIKey returns the form in which API keys are configured: the hex
// sha256 of the key. Servers never hold keys in the clear.
func HashAPIKey(key string) string {
	sum := sha256.Sum256([]byte(key))
	return hex.EncodeToString(sum[:])
}

// openPath reports whether p is served without an API key: health,
// metrics, the API description, and the web page's static files (which hold
// no data; the page's own API calls need a key like any other).
func openPath(p string) bool {
	return p == "/healthz" || p == "/v1/health" || p == "/metrics" || p == "/openapi.yaml" ||
		p == "/" || p == "/ui" || strings.HasPrefix(p, "/ui/")
}

// authenticate requires a valid API key (Authorization: Bearer KEY or
// X-API-Key) on every route but the health endpoints, when keys are
// configured. Keys are compared by hash in constant time.
func (s *Server) authenticate(next http.Handler) http.Handler {
	hashes := make([][]byte, 0, len(s.cfg.APIKeyHashes))
	for _, h := range s.cfg.APIKeyHashes {
		if b, err := hex.DecodeString(strings.TrimSpace(h)); err == nil && len(b) == sha256.Size {
			hashes = append(hashes, b)
		}
	}
	refuse := s.refusals()
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if len(hashes) == 0 || openPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		key := r.Header.Get("X-API-Key")
		if a := r.Header.Get("Authorization"); key == "" && len(a) > 7 && strings.EqualFold(a[:7], "bearer ") {
			key = strings.TrimSpace(a[7:])
		}
		sum := sha256.Sum256([]byte(key))
		ok := 0
		for _, h := range hashes {
			ok |= subtle.ConstantTimeCompare(sum[:], h)
		}
		if key == "" || ok != 1 {
			refuse.ServeHTTP(w, r)
			return
		}
		st := stateOf(r)
		st.client = "key:" + hex.EncodeToString(sum[:8])
		next.ServeHTTP(w, r)
	})
}

// refusals answers requests without a valid API key: 401, and 429 with
// Retry-After once one IP address has been refused cfg.RateLimit times in a
// window, so that guessing keys is rate limited like any other request.
func (s *Server) refusals() http.Handler {
	refuse := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer realm="digestd"`)
		s.fail(w, r, fault.E(fault.Unauthorized, "a valid API key is required"))
	})
	if s.cfg.RateLimit <= 0 {
		return refuse
	}
	window := s.cfg.RateWindow
	if window <= 0 {
		window = time.Minute
	}
	return httprate.NewRateLimiter(s.cfg.RateLimit, window,
		httprate.WithKeyFuncs(peerOf),
		httprate.WithResponseHeaders(httprate.ResponseHeaders{RetryAfter: "Retry-After"}),
		httprate.WithLimitHandler(func(w http.ResponseWriter, r *http.Request) {
			ra, _ := strconv.Atoi(w.Header().Get("Retry-After"))
			s.fail(w, r, fault.E(fault.RateLimitExceeded, "too many requests without a valid API key").With("retry_after", max(ra, 1)))
		}),
	).Handler(refuse)
}

// clientOf names the caller for rate limiting: its API key's hash when it
// sent one, else its IP address.
func clientOf(r *http.Request) (string, error) {
	if c := stateOf(r).client; c != "" {
		return c, nil
	}
	return peerOf(r)
}

// peerOf names the caller by the address of the connection's peer (never by
// a header, which a client could forge).
func peerOf(r *http.Request) (string, error) {
	host, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		host = r.RemoteAddr
	}
	return "ip:" + httprate.CanonicalizeIP(host), nil
}

// rateLimit limits each client to cfg.RateLimit requests per
// cfg.RateWindow, answering 429 RATE_LIMIT_EXCEEDED with Retry-After and
// the RateLimit headers, and reporting meta.rate_limit on every response.
func (s *Server) rateLimit(next http.Handler) http.Handler {
	if s.cfg.RateLimit <= 0 {
		return next
	}
	window := s.cfg.RateWindow
	if window <= 0 {
		window = time.Minute
	}
	limiter := httprate.NewRateLimiter(s.cfg.RateLimit, window,
		httprate.WithKeyFuncs(clientOf),
		httprate.WithResponseHeaders(httprate.ResponseHeaders{
			Limit:      "RateLimit-Limit",
			Remaining:  "RateLimit-Remaining",
			Reset:      "RateLimit-Reset",
			RetryAfter: "Retry-After",
		}),
		httprate.WithLimitHandler(func(w http.ResponseWriter, r *http.Request) {
			s.noteRateLimit(w, r)
			ra, _ := strconv.Atoi(w.Header().Get("Retry-After"))
			s.fail(w, r, fault.E(fault.RateLimitExceeded, "too many requests").With("retry_after", max(ra, 1)))
		}),
	)
	inner := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.noteRateLimit(w, r)
		next.ServeHTTP(w, r)
	})
	limited := limiter.Handler(inner)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if openPath(r.URL.Path) {
			next.ServeHTTP(w, r)
			return
		}
		limited.ServeHTTP(w, r)
	})
}

// noteRateLimit copies the limiter's headers into meta.rate_limit and warns
// when few requests remain. The limiter gives the window's end as a Unix
// time; RateLimit-Reset is rewritten as the seconds until then, as the IETF
// RateLimit header fields define it (meta.rate_limit.reset_at keeps the
// time).
func (s *Server) noteRateLimit(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	limit, err1 := strconv.Atoi(h.Get("RateLimit-Limit"))
	remaining, err2 := strconv.Atoi(h.Get("RateLimit-Remaining"))
	reset, err3 := strconv.ParseInt(h.Get("RateLimit-Reset"), 10, 64)
	if err1 != nil || err2 != nil || err3 != nil {
		return
	}
	h.Set("RateLimit-Reset", strconv.FormatInt(max(0, reset-time.Now().Unix()), 10))
	st := stateOf(r)
	st.meta.RateLimit = &wire.RateLimitMeta{Limit: limit, Remaining: remaining, ResetAt: time.Unix(reset, 0).UTC().Format(time.RFC3339)}
	if remaining <= limit/10 {
		st.meta.AddWarning(fault.RateLimitApproaching, "fewer than 10% of this window's requests remain",
			map[string]any{"remaining": remaining, "limit": limit})
	}
}
