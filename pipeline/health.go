package pipeline

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"strings"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
)

// Component and service states in a health answer.
const (
	Healthy   = "healthy"
	Degraded  = "degraded"
	Unhealthy = "unhealthy"
)

// Probe reports the state of one component beside the archive (PDF
// workers, fetcher, admission, …) for Health.
type Probe struct {
	Name string
	// Check returns Healthy, Degraded or Unhealthy and details.
	Check func(ctx context.Context) (string, map[string]any)
}

// Health is the state of the archive and of the probed components.
// Status is Healthy when every component is, Unhealthy when the archive
// is, Degraded otherwise.
type Health struct {
	Status          string
	HealthyServices int
	TotalServices   int
	Components      map[string]ComponentHealth
}

// ComponentHealth is one component's state.
type ComponentHealth struct {
	Status  string         `json:"status"`
	Details map[string]any `json:"details,omitempty"`
}

// HealthTimeout bounds one health check: a component that has not
// answered by then is degraded.
const HealthTimeout = 2 * time.Second

// Health probes the archive, then each of probes, within HealthTimeout.
func (p *Pipeline) Health(ctx context.Context, probes []Probe) Health {
	ctx, cancel := context.WithTimeout(ctx, HealthTimeout)
	defer cancel()
	h := Health{Status: Healthy, Components: map[string]ComponentHealth{}}
	all := append([]Probe{{Name: "archive", Check: p.archiveProbe}}, probes...)
	for _, pr := range all {
		st, details := pr.Check(ctx)
		h.Components[pr.Name] = ComponentHealth{Status: st, Details: details}
		h.TotalServices++
		switch {
		case st == Healthy:
			h.HealthyServices++
		case st == Unhealthy && pr.Name == "archive":
			h.Status = Unhealthy
		case h.Status == Healthy:
			h.Status = Degraded
		}
	}
	return h
}

// Err is the error an unhealthy answer carries: UNAVAILABLE naming the
// components that are down, nil when h is not Unhealthy.
func (h Health) Err() error {
	if h.Status != Unhealthy {
		return nil
	}
	var down []string
	for name, c := range h.Components {
		if c.Status == Unhealthy {
			down = append(down, name)
		}
	}
	slices.Sort(down)
	return fault.E(fault.Unavailable, "the service is unhealthy: "+strings.Join(down, ", ")+" down").With("unhealthy", down).With("retry_after", 5)
}

// archiveProbe stats a blob that need not exist: a "not found" answer
// proves the store is reachable. Then it probes a write (see ProbeWrite).
// Corrupt blobs found since start make the archive degraded until they are
// repaired.
func (p *Pipeline) archiveProbe(ctx context.Context) (string, map[string]any) {
	slow := map[string]any{"error": "the archive did not answer within the health check's time (overloaded?)"}
	_, err := p.Store.Stat(ctx, archive.SumString("digestd health probe"))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		if ctx.Err() != nil {
			return Degraded, slow
		}
		return Unhealthy, map[string]any{"error": "the archive did not answer or its directory is missing"}
	}
	if err := p.ProbeWrite(ctx); err != nil {
		if ctx.Err() != nil {
			return Degraded, slow
		}
		return Unhealthy, map[string]any{"error": "the archive does not accept writes (full, read-only, or out of files)"}
	}
	ps := p.Stats()
	details := map[string]any{"corrupt_blobs_seen": ps.CorruptSeen, "corrupt_blobs_unrepaired": ps.CorruptNow}
	if ps.CorruptNow > 0 {
		return Degraded, details
	}
	return Healthy, details
}
