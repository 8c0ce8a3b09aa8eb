package api

import (
	"net/http"
	"strconv"
	"time"

	"github.com/digestd/digestd/wire"
	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// metrics are the server's Prometheus collectors, on a registry of its own.
type metrics struct {
	registry *prometheus.Registry
	// serve answers /metrics from registry.
	serve    http.Handler
	requests *prometheus.CounterVec
	latency  *prometheus.HistogramVec
	digests  *prometheus.CounterVec
}

func newMetrics(extra []prometheus.Collector) *metrics {
	m := &metrics{
		registry: prometheus.NewRegistry(),
		requests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "digestd_http_requests_total", Help: "HTTP requests by route, method and status.",
		}, []string{"route", "method", "status"}),
		latency: prometheus.NewHistogramVec(prometheus.HistogramOpts{
			Name: "digestd_http_request_duration_seconds", Help: "HTTP request latency by route.",
			Buckets: prometheus.ExponentialBuckets(0.001, 2.5, 12),
		}, []string{"route"}),
		digests: prometheus.NewCounterVec(prometheus.CounterOpts{
			Name: "digestd_digests_total", Help: "Digests by outcome: built, cached, or the error code.",
		}, []string{"outcome"}),
	}
	m.registry.MustRegister(m.requests, m.latency, m.digests,
		collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	for _, c := range extra {
		m.registry.MustRegister(c)
	}
	m.serve = promhttp.HandlerFor(m.registry, promhttp.HandlerOpts{})
	return m
}

// statusRecorder remembers the status a handler wrote.
type statusRecorder struct {
	http.ResponseWriter
	status int
}

func (s *statusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *statusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	return s.ResponseWriter.Write(b)
}

func (s *statusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// observe records every request in the metrics and the access log (never
// with source content).
func (s *Server) observe(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &statusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		route := chi.RouteContext(r.Context()).RoutePattern()
		if route == "" {
			route = "unmatched"
		}
		status := rec.status
		if status == 0 {
			status = http.StatusOK
		}
		d := time.Since(start)
		s.metrics.requests.WithLabelValues(route, r.Method, strconv.Itoa(status)).Inc()
		s.metrics.latency.WithLabelValues(route).Observe(d.Seconds())
		s.log().Info("request", "request_id", RequestID(r), "method", r.Method, "route", route,
			"status", status, "duration_ms", float64(d.Microseconds())/1000)
	})
}

// serveMetrics answers /metrics in Prometheus's text format.
func (s *Server) serveMetrics(w http.ResponseWriter, r *http.Request) {
	s.metrics.serve.ServeHTTP(w, r)
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	data := s.monitor.Health(r.Context())
	if data.Status == "unhealthy" {
		env, status := errorEnvelope(s.monitor.HealthError(data), stateOf(r))
		env.Data = wire.UnhealthyData{ErrorData: env.Data.(wire.ErrorData), HealthData: data}
		w.Header().Set("Retry-After", "5")
		wire.Write(w, status, env)
		return
	}
	success(w, r, http.StatusOK, data)
}

// StatsData is data of GET /v1/stats: the cache counters (as the MCP tool
// get_cache_stats gives them), then the archive's size and the server's use.
type StatsData struct {
	wire.CacheStats
	DigestCache struct {
		Hits    int64   `json:"hits"`
		Misses  int64   `json:"misses"`
		HitRate float64 `json:"hit_rate"`
	} `json:"digest_cache"`
	Archive struct {
		Blobs int64 `json:"blobs"`
		Bytes int64 `json:"bytes"`
		// CountedAt is when the archive was last counted in full (empty
		// before the first count); since then the server's own writes and
		// collections keep the figures.
		CountedAt string `json:"counted_at,omitempty"`
	} `json:"archive"`
	InFlight struct {
		InUse    int `json:"in_use"`
		Capacity int `json:"capacity"`
	} `json:"in_flight"`
	Components map[string]map[string]any `json:"components,omitempty"`
}

func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	ps := s.pipe.Stats()
	data := StatsData{CacheStats: wire.CacheStatsOf(ps)}
	data.DigestCache.Hits, data.DigestCache.Misses, data.DigestCache.HitRate = data.CacheHits, data.CacheMisses, data.HitRate
	data.Archive.Blobs, data.Archive.Bytes = ps.ArchiveBlobs, ps.ArchiveBytes
	if !ps.ArchiveCountedAt.IsZero() {
		data.Archive.CountedAt = ps.ArchiveCountedAt.UTC().Format(time.RFC3339)
	}
	st := s.adm.state()
	data.InFlight.InUse, data.InFlight.Capacity = st.InUse, st.Capacity
	for _, p := range s.cfg.Probes {
		_, details := p.Check(r.Context())
		if details != nil {
			if data.Components == nil {
				data.Components = map[string]map[string]any{}
			}
			data.Components[p.Name] = details
		}
	}
	success(w, r, http.StatusOK, data)
}
