package wire

import (
	"context"
	"time"

	"github.com/digestd/digestd/pipeline"
)

// HealthData is data of GET /v1/health and of the MCP tool
// get_service_health: the pipeline's Health with the server's version and
// uptime.
type HealthData struct {
	Status          string                     `json:"status"`
	Version         string                     `json:"version"`
	UptimeSeconds   float64                    `json:"uptime_seconds"`
	HealthyServices int                        `json:"healthy_services"`
	TotalServices   int                        `json:"total_services"`
	Components      map[string]ComponentHealth `json:"components"`
}

// ComponentHealth is one component's state.
type ComponentHealth = pipeline.ComponentHealth

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
	Probes  []pipeline.Probe
	Started time.Time
}

// Health probes every component (see pipeline.Pipeline.Health).
func (m *Monitor) Health(ctx context.Context) HealthData {
	h := m.Pipe.Health(ctx, m.Probes)
	return HealthData{Status: h.Status, Version: m.Version, UptimeSeconds: time.Since(m.Started).Seconds(),
		HealthyServices: h.HealthyServices, TotalServices: h.TotalServices, Components: h.Components}
}

// HealthError is the error an unhealthy health answer carries.
func (m *Monitor) HealthError(h HealthData) error {
	return pipeline.Health{Status: pipeline.Unhealthy, Components: h.Components}.Err()
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
	return CacheStatsOf(m.Pipe.Stats())
}

// CacheStatsOf returns the cache counters of a pipeline's Stats.
func CacheStatsOf(ps pipeline.Stats) CacheStats {
	c := CacheStats{CacheHits: ps.CacheHits, CacheMisses: ps.CacheMisses, TotalRequests: ps.CacheHits + ps.CacheMisses}
	if c.TotalRequests > 0 {
		c.HitRate = float64(c.CacheHits) / float64(c.TotalRequests)
	}
	return c
}
