package batch

import (
	"context"
	"net/url"
	"strings"
	"sync"

	"golang.org/x/time/rate"
)

// HostPolicy is the politeness owed to each remote host of URL sources.
type HostPolicy struct {
	// Rate is the most requests a second started against one host
	// (0: no limit). Requests are spaced evenly (a burst of 1).
	Rate float64
	// Concurrency is the most requests in flight to one host at once
	// (0: no limit).
	Concurrency int
}

// hostGate enforces a HostPolicy per host name.
type hostGate struct {
	policy HostPolicy
	mu     sync.Mutex
	hosts  map[string]*hostState
}

type hostState struct {
	slots   chan struct{} // nil: no concurrency cap
	limiter *rate.Limiter // nil: no rate limit
}

func newHostGate(p HostPolicy) *hostGate {
	return &hostGate{policy: p, hosts: map[string]*hostState{}}
}

// hostKey is the politeness key of a URL source: its lower-cased host name,
// or "" when the URL has none (the pipeline then rejects it).
func hostKey(rawURL string) string {
	u, err := url.Parse(rawURL)
	if err != nil {
		return ""
	}
	return strings.ToLower(u.Hostname())
}

func (g *hostGate) state(host string) *hostState {
	g.mu.Lock()
	defer g.mu.Unlock()
	st, ok := g.hosts[host]
	if !ok {
		st = &hostState{}
		if g.policy.Concurrency > 0 {
			st.slots = make(chan struct{}, g.policy.Concurrency)
		}
		if g.policy.Rate > 0 {
			st.limiter = rate.NewLimiter(rate.Limit(g.policy.Rate), 1)
		}
		g.hosts[host] = st
	}
	return st
}

// acquire waits for a slot and a rate token for the URL's host and returns
// the function that frees the slot. It fails only when ctx ends.
func (g *hostGate) acquire(ctx context.Context, rawURL string) (release func(), err error) {
	host := hostKey(rawURL)
	if host == "" {
		return func() {}, nil
	}
	st := g.state(host)
	release = func() {}
	if st.slots != nil {
		select {
		case st.slots <- struct{}{}:
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		release = func() { <-st.slots }
	}
	if st.limiter != nil {
		if err := st.limiter.Wait(ctx); err != nil {
			release()
			return nil, err
		}
	}
	return release, nil
}

// interleaveByHost reorders entries so that URL sources of different hosts
// alternate (round robin over hosts, non-URL sources as one more group),
// keeping each group's order; workers then rarely all wait on one host.
func interleaveByHost(entries []Entry) []Entry {
	groups := map[string][]Entry{}
	var order []string
	for _, e := range entries {
		k := "file:"
		if e.URL != "" {
			k = "url:" + hostKey(e.URL)
		}
		if _, ok := groups[k]; !ok {
			order = append(order, k)
		}
		groups[k] = append(groups[k], e)
	}
	if len(order) <= 1 {
		return entries
	}
	out := make([]Entry, 0, len(entries))
	for len(out) < len(entries) {
		for _, k := range order {
			if g := groups[k]; len(g) > 0 {
				out = append(out, g[0])
				groups[k] = g[1:]
			}
		}
	}
	return out
}
