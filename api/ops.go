package api

import (
	"context"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/pipeline"
)

// Probe reports the state of one component for GET /v1/health.
type Probe struct {
	Name string
	// Check returns "healthy", "degraded" or "unhealthy" and details.
	Check func(ctx context.Context) (string, map[string]any)
}

// metrics are the server's Prometheus collectors, on a registry of its own.
type metrics struct {
	registry *prometheus.Registry
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

func (s *Server) metricsHandler() http.Handler {
	return promhttp.HandlerFor(s.metrics.registry, promhttp.HandlerOpts{})
}

// HealthData is data of GET /v1/health and of the MCP tool
// get_service_health. Status is healthy when every component is,
// unhealthy when the archive is, degraded otherwise.
type HealthData struct {
	Status          string                     `json:"status"`
	Version         string                     `json:"version"`
	UptimeSeconds   float64                    `json:"uptime_seconds"`
	HealthyServices int                        `json:"healthy_services"`
	TotalServices   int                        `json:"total_services"`
	Components      map[string]ComponentHealth `json:"components"`
}

// ComponentHealth is one component's state.
type ComponentHealth struct {
	Status  string         `json:"status"`
	Details map[string]any `json:"details,omitempty"`
}

// UnhealthyData is data of an unhealthy health answer (503): the error
// fields of every failure, and the component statuses.
type UnhealthyData struct {
	ErrorData
	HealthData
}

// Monitor reports the health and the cache counters of a pipeline, for the
// HTTP API and the MCP tools alike.
type Monitor struct {
	Pipe    *pipeline.Pipeline
	Version string
	// Probes report the components beside the archive (PDF workers,
	// fetcher, …).
	Probes  []Probe
	Started time.Time
}

// Health probes every component.
func (m *Monitor) Health(ctx context.Context) HealthData {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Second)
	defer cancel()
	data := HealthData{Status: "healthy", Version: m.Version, UptimeSeconds: time.Since(m.Started).Seconds(), Components: map[string]ComponentHealth{}}
	probes := append([]Probe{{Name: "archive", Check: m.archiveProbe}}, m.Probes...)
	for _, p := range probes {
		st, details := p.Check(ctx)
		data.Components[p.Name] = ComponentHealth{Status: st, Details: details}
		data.TotalServices++
		switch {
		case st == "healthy":
			data.HealthyServices++
		case st == "unhealthy" && p.Name == "archive":
			data.Status = "unhealthy"
		case data.Status == "healthy":
			data.Status = "degraded"
		}
	}
	return data
}

// HealthError is the error an unhealthy health answer carries.
func (m *Monitor) HealthError(h HealthData) error {
	var down []string
	for name, c := range h.Components {
		if c.Status == "unhealthy" {
			down = append(down, name)
		}
	}
	slices.Sort(down)
	return fault.E(fault.Unavailable, "the service is unhealthy: "+strings.Join(down, ", ")+" down").With("unhealthy", down).With("retry_after", 5)
}

// archiveProbe stats a blob that need not exist: a "not found" answer
// proves the store is reachable. Corrupt blobs found since start make the
// archive degraded until they are repaired.
func (m *Monitor) archiveProbe(ctx context.Context) (string, map[string]any) {
	slow := map[string]any{"error": "the archive did not answer within the health check's time (overloaded?)"}
	_, err := m.Pipe.Store.Stat(ctx, archive.SumString("digestd health probe"))
	if err != nil && !isNotExist(err) {
		if ctx.Err() != nil {
			return "degraded", slow
		}
		return "unhealthy", map[string]any{"error": "the archive did not answer or its directory is missing"}
	}
	if err := m.Pipe.ProbeWrite(ctx); err != nil {
		if ctx.Err() != nil {
			return "degraded", slow
		}
		return "unhealthy", map[string]any{"error": "the archive does not accept writes (full, read-only, or out of files)"}
	}
	ps := m.Pipe.Stats()
	details := map[string]any{"corrupt_blobs_seen": ps.CorruptSeen, "corrupt_blobs_unrepaired": ps.CorruptNow}
	if ps.CorruptNow > 0 {
		return "degraded", details
	}
	return "healthy", details
}

// CacheStats are the digest cache's counters since start: total_requests
// digest lookups, of which cache_hits were served from the cache.
type CacheStats struct {
	TotalRequests int64   `json:"total_requests"`
	CacheHits     int64   `json:"cache_hits"`
	CacheMisses   int64   `json:"cache_misses"`
	HitRate       float64 `json:"hit_rate"`
}

// CacheStats returns the digest cache's counters.
func (m *Monitor) CacheStats() CacheStats {
	ps := m.Pipe.Stats()
	c := CacheStats{CacheHits: ps.CacheHits, CacheMisses: ps.CacheMisses, TotalRequests: ps.CacheHits + ps.CacheMisses}
	if c.TotalRequests > 0 {
		c.HitRate = float64(c.CacheHits) / float64(c.TotalRequests)
	}
	return c
}

func (s *Server) health(w http.ResponseWriter, r *http.Request) {
	data := s.monitor.Health(r.Context())
	if data.Status == "unhealthy" {
		env, status := errorEnvelope(s.monitor.HealthError(data), stateOf(r))
		env.Data = UnhealthyData{ErrorData: env.Data.(ErrorData), HealthData: data}
		w.Header().Set("Retry-After", "5")
		writeJSON(w, status, env)
		return
	}
	success(w, r, http.StatusOK, data)
}

// StatsData is data of GET /v1/stats: the cache counters (as the MCP tool
// get_cache_stats gives them), then the archive's size and the server's use.
type StatsData struct {
	CacheStats
	DigestCache struct {
		Hits    int64   `json:"hits"`
		Misses  int64   `json:"misses"`
		HitRate float64 `json:"hit_rate"`
	} `json:"digest_cache"`
	Archive struct {
		Blobs     int64  `json:"blobs"`
		Bytes     int64  `json:"bytes"`
		CountedAt string `json:"counted_at"`
	} `json:"archive"`
	InFlight struct {
		InUse    int `json:"in_use"`
		Capacity int `json:"capacity"`
	} `json:"in_flight"`
	Components map[string]map[string]any `json:"components,omitempty"`
}

// archiveCount caches the archive's blob count, which needs a full listing.
type archiveCount struct {
	mu    sync.Mutex
	at    time.Time
	blobs int64
	bytes int64
}

func (s *Server) stats(w http.ResponseWriter, r *http.Request) {
	data := StatsData{CacheStats: s.monitor.CacheStats()}
	data.DigestCache.Hits, data.DigestCache.Misses, data.DigestCache.HitRate = data.CacheHits, data.CacheMisses, data.HitRate
	c := &s.count
	c.mu.Lock()
	if time.Since(c.at) > 30*time.Second {
		var blobs, bytes int64
		err := s.pipe.Store.List(r.Context(), func(bi archive.BlobInfo) error {
			blobs++
			bytes += bi.Size
			return nil
		})
		if err == nil {
			c.blobs, c.bytes, c.at = blobs, bytes, time.Now()
		}
	}
	data.Archive.Blobs, data.Archive.Bytes = c.blobs, c.bytes
	data.Archive.CountedAt = c.at.UTC().Format(time.RFC3339)
	c.mu.Unlock()
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
