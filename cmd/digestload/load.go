package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/rand/v2"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/digestd/digestd/internal/procstat"
)

// Request kinds, in report order.
const (
	KindCached  = "cached"
	KindArchive = "archive"
	KindHTML    = "html"
	KindPDF     = "pdf"
	KindHostile = "hostile"
	KindMCP     = "mcp"
)

// Kinds lists every request kind.
var Kinds = []string{KindCached, KindArchive, KindHTML, KindPDF, KindHostile, KindMCP}

// DefaultMix is the workload mix when --mix is not given.
const DefaultMix = "cached=40,archive=20,html=20,pdf=10,hostile=10"

// Mix is the relative weight of each request kind.
type Mix map[string]int

// ParseMix parses "kind=weight,…". Weights are non-negative integers, at
// least one positive; unknown kinds and repeated kinds are errors.
func ParseMix(s string) (Mix, error) {
	m := Mix{}
	total := 0
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		if part == "" {
			continue
		}
		name, w, ok := strings.Cut(part, "=")
		if !ok {
			return nil, fmt.Errorf("--mix: %q is not KIND=WEIGHT", part)
		}
		name = strings.TrimSpace(name)
		if !knownKind(name) {
			return nil, fmt.Errorf("--mix: unknown kind %q (want %s)", name, strings.Join(Kinds, ", "))
		}
		if _, dup := m[name]; dup {
			return nil, fmt.Errorf("--mix: kind %q given twice", name)
		}
		n, err := strconv.Atoi(strings.TrimSpace(w))
		if err != nil || n < 0 || n > 1_000_000 {
			return nil, fmt.Errorf("--mix: weight of %q must be an integer in 0..1000000", name)
		}
		m[name] = n
		total += n
	}
	if total == 0 {
		return nil, errors.New("--mix: no kind has a positive weight")
	}
	return m, nil
}

func knownKind(k string) bool {
	for _, x := range Kinds {
		if x == k {
			return true
		}
	}
	return false
}

// pick returns the kind whose cumulative weight range holds x in [0,1).
func (m Mix) pick(x float64) string {
	total := 0
	for _, k := range Kinds {
		total += m[k]
	}
	target := int(x * float64(total))
	for _, k := range Kinds {
		if target < m[k] {
			return k
		}
		target -= m[k]
	}
	return Kinds[len(Kinds)-1]
}

// String is the mix in --mix syntax, kinds in report order.
func (m Mix) String() string {
	var parts []string
	for _, k := range Kinds {
		if w, ok := m[k]; ok {
			parts = append(parts, fmt.Sprintf("%s=%d", k, w))
		}
	}
	return strings.Join(parts, ",")
}

// Config is one load run.
type Config struct {
	// URL is the server's base URL; it must be a loopback address.
	URL string
	// Rate is requests per second; Duration how long requests are sent.
	// At most ceil(Rate × Duration) requests are sent.
	Rate     float64
	Duration time.Duration
	Mix      Mix
	// PID, when positive, is the server process whose resident memory is
	// sampled from /proc/PID/status.
	PID int
	// MaxInFlight bounds outstanding requests; a request due while all
	// slots are busy is skipped and counted.
	MaxInFlight int
	// Timeout bounds one request.
	Timeout time.Duration
	// Seed fixes the kind sequence and the generated documents.
	Seed  uint64
	Query string
	// PDFs are sent by the pdf kind in turn; none: generated PDFs.
	PDFs [][]byte
	// HostileFiles are added to the built-in hostile inputs.
	HostileFiles [][]byte
	// Probes are held open beside the load (see Probes).
	Probes Probes
}

// maxRequests bounds one run whatever the flags say.
const maxRequests = 1_000_000

func (c *Config) validate() error {
	if _, err := checkLoopback(c.URL); err != nil {
		return err
	}
	switch {
	case c.Rate <= 0 || math.IsInf(c.Rate, 0) || math.IsNaN(c.Rate) || c.Rate > 10_000:
		return errors.New("--rate: must be in (0, 10000]")
	case c.Duration <= 0 || c.Duration > 24*time.Hour:
		return errors.New("--duration: must be in (0, 24h]")
	case c.Rate*c.Duration.Seconds() > maxRequests:
		return fmt.Errorf("--rate × --duration: more than %d requests", maxRequests)
	case c.MaxInFlight <= 0:
		return errors.New("--max-in-flight: must be positive")
	case c.Timeout <= 0:
		return errors.New("--timeout: must be positive")
	case len(c.Mix) == 0:
		return errors.New("--mix: empty")
	}
	return c.Probes.validate()
}

// KindReport is what one request kind got.
type KindReport struct {
	Requests     int            `json:"requests"`
	StatusCounts map[string]int `json:"status_counts"`
	Errors       int            `json:"transport_errors"`
	P50MS        float64        `json:"p50_ms"`
	P95MS        float64        `json:"p95_ms"`
	P99MS        float64        `json:"p99_ms"`
	MaxMS        float64        `json:"max_ms"`
	// P99OKMS is the p99 latency of the answers with a 2xx status: what
	// admitted requests waited when others were shed.
	P99OKMS float64 `json:"p99_2xx_ms"`
}

// Report is the result of a run. Latencies are measured from each
// request's due time to the end of its response body.
type Report struct {
	URL             string                 `json:"url"`
	Rate            float64                `json:"rate"`
	DurationSeconds float64                `json:"duration_seconds"`
	Mix             string                 `json:"mix"`
	Scheduled       int                    `json:"scheduled"`
	Sent            int                    `json:"sent"`
	Skipped         int                    `json:"skipped"`
	Completed       int                    `json:"completed"`
	TransportErrors int                    `json:"transport_errors"`
	ElapsedSeconds  float64                `json:"elapsed_seconds"`
	Throughput      float64                `json:"throughput_rps"`
	StatusCounts    map[string]int         `json:"status_counts"`
	Count5xx        int                    `json:"count_5xx"`
	Kinds           map[string]*KindReport `json:"kinds"`
	ServerPID       int                    `json:"server_pid,omitempty"`
	PeakRSSBytes    int64                  `json:"server_peak_rss_bytes,omitempty"`
	VmHWMBytes      int64                  `json:"server_vmhwm_bytes,omitempty"`
	RSSSamples      int                    `json:"rss_samples,omitempty"`
	ErrorSamples    []string               `json:"error_samples,omitempty"`
	// RetryAfter503 counts the 503 answers that carried Retry-After.
	RetryAfter503 int          `json:"retry_after_503"`
	Probes        *ProbeReport `json:"probes,omitempty"`
}

// sample is one finished request.
type sample struct {
	kind    string
	status  int
	latency time.Duration
	err     error
	// retryAfter: the answer carried a Retry-After header.
	retryAfter bool
}

// Run warms the server up, sends the load and returns the report.
func Run(ctx context.Context, cfg Config) (*Report, error) {
	if err := cfg.validate(); err != nil {
		return nil, err
	}
	base, _ := checkLoopback(cfg.URL)
	client := &http.Client{
		Timeout: cfg.Timeout,
		Transport: &http.Transport{
			Proxy:               nil,
			MaxIdleConns:        cfg.MaxInFlight,
			MaxIdleConnsPerHost: cfg.MaxInFlight,
			IdleConnTimeout:     30 * time.Second,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	defer client.CloseIdleConnections()
	w, err := newWorkload(ctx, client, strings.TrimRight(base.String(), "/"), cfg)
	if err != nil {
		return nil, err
	}

	rep := &Report{URL: cfg.URL, Rate: cfg.Rate, DurationSeconds: cfg.Duration.Seconds(), Mix: cfg.Mix.String(),
		StatusCounts: map[string]int{}, Kinds: map[string]*KindReport{}, ServerPID: cfg.PID}
	var rss rssSampler
	sampleCtx, stopSampling := context.WithCancel(context.Background())
	var sampling sync.WaitGroup
	if cfg.PID > 0 {
		sampling.Add(1)
		go func() {
			defer sampling.Done()
			rss.run(sampleCtx, cfg.PID)
		}()
	}

	stopProbes := runProbes(ctx, cfg.Probes, base.Host, w.archives[0], client, strings.TrimRight(base.String(), "/"))
	total := int(math.Ceil(cfg.Rate * cfg.Duration.Seconds()))
	interval := time.Duration(float64(time.Second) / cfg.Rate)
	rng := rand.New(rand.NewPCG(cfg.Seed, 0x6c6f6164))
	slots := make(chan struct{}, cfg.MaxInFlight)
	results := make(chan sample, 1024)
	var collected []sample
	collectDone := make(chan struct{})
	go func() {
		for s := range results {
			collected = append(collected, s)
		}
		close(collectDone)
	}()
	var inflight sync.WaitGroup
	start := time.Now()
	rep.Scheduled = total
send:
	for i := 0; i < total; i++ {
		due := start.Add(time.Duration(i) * interval)
		if d := time.Until(due); d > 0 {
			select {
			case <-ctx.Done():
				break send
			case <-time.After(d):
			}
		}
		kind := cfg.Mix.pick(rng.Float64())
		select {
		case slots <- struct{}{}:
		default:
			rep.Skipped++
			continue
		}
		rep.Sent++
		inflight.Add(1)
		go func(i int, kind string, due time.Time) {
			defer inflight.Done()
			defer func() { <-slots }()
			status, retryAfter, err := w.send(ctx, client, kind, i)
			results <- sample{kind: kind, status: status, latency: time.Since(due), err: err, retryAfter: retryAfter}
		}(i, kind, due)
	}
	inflight.Wait()
	elapsed := time.Since(start)
	if p := cfg.Probes; p.SlowBodies+p.SlowReaders+p.IdleConns+p.LimitBodies > 0 || p.Health {
		rep.Probes = &ProbeReport{}
		stopProbes(rep.Probes)
	} else {
		stopProbes(&ProbeReport{})
	}
	close(results)
	<-collectDone
	stopSampling()
	sampling.Wait()

	rep.ElapsedSeconds = elapsed.Seconds()
	lat := map[string][]time.Duration{}
	latOK := map[string][]time.Duration{}
	for _, s := range collected {
		k := rep.Kinds[s.kind]
		if k == nil {
			k = &KindReport{StatusCounts: map[string]int{}}
			rep.Kinds[s.kind] = k
		}
		k.Requests++
		if s.err != nil {
			k.Errors++
			rep.TransportErrors++
			if len(rep.ErrorSamples) < 10 {
				rep.ErrorSamples = append(rep.ErrorSamples, fmt.Sprintf("%s: %v", s.kind, s.err))
			}
			continue
		}
		rep.Completed++
		code := strconv.Itoa(s.status)
		k.StatusCounts[code]++
		rep.StatusCounts[code]++
		if s.status >= 500 {
			rep.Count5xx++
		}
		if s.status == http.StatusServiceUnavailable && s.retryAfter {
			rep.RetryAfter503++
		}
		lat[s.kind] = append(lat[s.kind], s.latency)
		if s.status/100 == 2 {
			latOK[s.kind] = append(latOK[s.kind], s.latency)
		}
	}
	for kind, ds := range latOK {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		rep.Kinds[kind].P99OKMS = ms(quantile(ds, 0.99))
	}
	for kind, ds := range lat {
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		k := rep.Kinds[kind]
		k.P50MS, k.P95MS, k.P99MS = ms(quantile(ds, 0.50)), ms(quantile(ds, 0.95)), ms(quantile(ds, 0.99))
		k.MaxMS = ms(ds[len(ds)-1])
	}
	if elapsed > 0 {
		rep.Throughput = float64(rep.Completed) / elapsed.Seconds()
	}
	if cfg.PID > 0 {
		rep.PeakRSSBytes, rep.VmHWMBytes, rep.RSSSamples = rss.peak, rss.hwm, rss.samples
		if rss.samples == 0 {
			return rep, fmt.Errorf("could not read /proc/%d/status: %w", cfg.PID, rss.err)
		}
	}
	return rep, ctx.Err()
}

// quantile is the nearest-rank q-quantile of sorted ds (non-empty).
func quantile(ds []time.Duration, q float64) time.Duration {
	i := int(math.Ceil(q*float64(len(ds)))) - 1
	return ds[min(max(i, 0), len(ds)-1)]
}

func ms(d time.Duration) float64 { return math.Round(float64(d.Microseconds())/10) / 100 }

// rssSampler keeps the largest VmRSS seen and the last VmHWM.
type rssSampler struct {
	peak, hwm int64
	samples   int
	err       error
}

// run samples /proc/pid/status every 20 ms until ctx ends (and once more).
func (r *rssSampler) run(ctx context.Context, pid int) {
	tick := time.NewTicker(20 * time.Millisecond)
	defer tick.Stop()
	for {
		rss, hwm, err := readRSS(pid)
		if err != nil {
			r.err = err
		} else {
			r.samples++
			r.peak = max(r.peak, rss)
			r.hwm = max(r.hwm, hwm)
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// readRSS returns a process's VmRSS and VmHWM in bytes.
func readRSS(pid int) (rss, hwm int64, err error) { return procstat.Memory(pid) }

// WriteText prints the report as a human-readable table.
func (r *Report) WriteText(w io.Writer) {
	fmt.Fprintf(w, "target %s  rate %.1f/s  duration %.1fs  mix %s\n", r.URL, r.Rate, r.DurationSeconds, r.Mix)
	fmt.Fprintf(w, "scheduled %d  sent %d  skipped %d  completed %d  transport errors %d  5xx %d\n",
		r.Scheduled, r.Sent, r.Skipped, r.Completed, r.TransportErrors, r.Count5xx)
	fmt.Fprintf(w, "elapsed %.2fs  throughput %.1f req/s\n", r.ElapsedSeconds, r.Throughput)
	fmt.Fprintf(w, "%-8s %8s %9s %9s %9s %9s %9s  %s\n", "kind", "requests", "p50 ms", "p95 ms", "p99 ms", "max ms", "p99 2xx", "statuses")
	for _, kind := range Kinds {
		k := r.Kinds[kind]
		if k == nil {
			continue
		}
		fmt.Fprintf(w, "%-8s %8d %9.2f %9.2f %9.2f %9.2f %9.2f  %s\n", kind, k.Requests, k.P50MS, k.P95MS, k.P99MS, k.MaxMS, k.P99OKMS, statusList(k.StatusCounts, k.Errors))
	}
	fmt.Fprintf(w, "statuses %s  (503 with Retry-After: %d)\n", statusList(r.StatusCounts, r.TransportErrors), r.RetryAfter503)
	if p := r.Probes; p != nil {
		fmt.Fprintf(w, "probes: slow bodies %d (closed by server %d)  slow readers %d  idle conns %d (failed %d)\n",
			p.SlowBodiesOpened, p.SlowBodiesClosed, p.SlowReadersOpened, p.IdleOpened, p.IdleFailed)
		if p.HealthSamples > 0 {
			fmt.Fprintf(w, "health: %d samples  p99 %.2f ms  max %.2f ms  %s\n", p.HealthSamples, p.HealthP99MS, p.HealthMaxMS, statusList(p.HealthStatuses, 0))
		}
		if a := p.AtLimit; a != nil {
			fmt.Fprintf(w, "slow bodies at the limit: %d opened (%d failed), %d closed within the read timeout %.0f ms (%d answered, max %.2f ms): %s\n",
				a.Opened, a.Failed, a.ClosedInTime, a.ReadTimeoutMS, a.Answered, a.MaxCloseMS, yesNo(a.AllClosed))
			fmt.Fprintf(w, "health beside them: %d of %d answered 200 within 1 s, max %.2f ms  %s: %s\n",
				a.HealthInTime, a.HealthSamples, a.HealthMaxMS, statusList(a.HealthStatuses, 0), yesNo(a.HealthWithinBar))
		}
	}
	if r.ServerPID > 0 {
		fmt.Fprintf(w, "server pid %d  peak RSS %.1f MiB (%d samples)  VmHWM %.1f MiB\n",
			r.ServerPID, float64(r.PeakRSSBytes)/(1<<20), r.RSSSamples, float64(r.VmHWMBytes)/(1<<20))
	}
	for _, e := range r.ErrorSamples {
		fmt.Fprintf(w, "error: %s\n", e)
	}
}

func yesNo(ok bool) string {
	if ok {
		return "yes"
	}
	return "NO"
}

func statusList(m map[string]int, errs int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var b strings.Builder
	for _, k := range keys {
		fmt.Fprintf(&b, "%s×%d ", k, m[k])
	}
	if errs > 0 {
		fmt.Fprintf(&b, "error×%d", errs)
	}
	return strings.TrimSpace(b.String())
}

// do sends one request and drains its response, returning the status.
func do(ctx context.Context, client *http.Client, method, url, contentType string, body []byte) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, method, url, bytes.NewReader(body))
	if err != nil {
		return 0, nil, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := client.Do(req)
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	return resp.StatusCode, b, err
}

// archiveHashOf reads data.source.archive_hash from a digest envelope.
func archiveHashOf(body []byte) string {
	var env struct {
		Data struct {
			Source struct {
				ArchiveHash string `json:"archive_hash"`
			} `json:"source"`
		} `json:"data"`
	}
	json.Unmarshal(body, &env)
	return env.Data.Source.ArchiveHash
}
