// Package adversarial builds the real digestd binary, runs it as a server on
// a loopback port and attacks it through HTTP with every class of hostile
// input the service is expected to survive: hostile PDFs, pathological
// HTML, malformed and oversized JSON, traversal in hash paths, SSRF URLs,
// slowloris connections and oversize headers. Every test asserts a stable
// 4xx with the documented error code (or a clean close), zero 5xx, a server
// process that never restarts, and a bounded peak resident set.
package adversarial

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/digestd/digestd/internal/procstat"
	"github.com/digestd/digestd/internal/shareddata"
	"github.com/digestd/digestd/internal/testenv"
)

// rssBound is the most resident memory the server process may ever hold
// (its VmHWM) while it is being attacked. PDF parsing happens in child
// processes with their own limit, so the server itself stays far below.
const rssBound = 1 << 30

// binaries holds the paths of the binaries TestMain builds once for every
// test of the package.
type binaries struct {
	digestd    string
	digestload string
}

// bins is set by TestMain before any test runs and never changed after.
var bins binaries

func TestMain(m *testing.M) {
	flag.Parse()
	if testing.Short() {
		// Every attack runs the real binary (startServer): the full suite
		// only, and nothing to build for the quick tier.
		os.Exit(m.Run())
	}
	dir, err := os.MkdirTemp("", "digestd-adversarial-")
	if err != nil {
		fmt.Fprintln(os.Stderr, "adversarial:", err)
		os.Exit(1)
	}
	b, err := buildBinaries(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "adversarial:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	bins = b
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// repoRoot is the module root, two levels above this package.
func repoRoot() string {
	abs, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		return filepath.Join("..", "..")
	}
	return abs
}

// goTool finds the go command that runs these tests.
func goTool() string {
	// go test runs with the go tool on PATH.
	return "go"
}

// buildBinaries builds digestd and digestload into dir.
func buildBinaries(dir string) (binaries, error) {
	b := binaries{digestd: filepath.Join(dir, "digestd"), digestload: filepath.Join(dir, "digestload")}
	for pkg, out := range map[string]string{"./cmd/digestd": b.digestd, "./cmd/digestload": b.digestload} {
		cmd := exec.Command(goTool(), "build", "-o", out, pkg)
		cmd.Dir = repoRoot()
		if msg, err := cmd.CombinedOutput(); err != nil {
			return b, fmt.Errorf("go build %s: %w\n%s", pkg, err, msg)
		}
	}
	return b, nil
}

// sharedData returns an evaluation set's folder (see shareddata.Set).
func sharedData(t *testing.T, set string) string { return shareddata.Set(t, set) }

// Limits the test server runs with; the tests size their inputs from them.
const (
	maxBodyBytes = 8 << 20
	pdfDeadline  = 5 * time.Second
)

// server is a running digestd serve process.
type server struct {
	cmd     *exec.Cmd
	pid     int
	addr    string // host:port
	base    string // http://host:port
	archive string
	stderr  *cappedBuffer
	exited  chan struct{}
	client  *http.Client
	started float64 // process_start_time_seconds from /metrics

	mu      sync.Mutex
	fiveXX  []string // requests that got a 5xx
	reqs    int
	maxRSS  int64
	samples int
}

// cappedBuffer keeps the first 1 MiB written to it.
type cappedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (c *cappedBuffer) Write(p []byte) (int, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if room := 1<<20 - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

func (c *cappedBuffer) String() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.buf.String()
}

// startServer runs digestd serve on a free loopback port with a fresh
// archive and the suite's limits; extra flags are appended (and win). The
// process is stopped when the test ends.
func startServer(t testing.TB, extra ...string) *server {
	t.Helper()
	testenv.FullSuite(t, "attacks the real digestd binary")
	s := &server{archive: filepath.Join(t.TempDir(), "archive"), stderr: &cappedBuffer{}, exited: make(chan struct{})}
	args := []string{"serve",
		"--addr", "127.0.0.1:0",
		"--archive", s.archive,
		"--pdf-deadline", pdfDeadline.String(),
		"--pdf-workers", "4",
		"--read-header-timeout", "1s",
		"--rate-limit", "0",
		"--max-in-flight", "64",
		"--queue-wait", "30s",
		"--max-body-bytes", strconv.Itoa(maxBodyBytes),
	}
	args = append(args, extra...)
	s.cmd = exec.Command(bins.digestd, args...)
	// Only the variables a Go program needs: no DIGESTD_* from the caller.
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DIGESTD_") {
			s.cmd.Env = append(s.cmd.Env, kv)
		}
	}
	s.cmd.Stderr = s.stderr
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatalf("start digestd: %v", err)
	}
	s.pid = s.cmd.Process.Pid
	go func() {
		s.cmd.Wait()
		close(s.exited)
	}()
	t.Cleanup(func() { s.stop(t) })

	lines := make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			select {
			case lines <- sc.Text():
			default:
			}
		}
	}()
	select {
	case line := <-lines:
		addr, ok := strings.CutPrefix(line, "digestd listening on ")
		if !ok {
			t.Fatalf("digestd printed %q, want \"digestd listening on ADDR\"", line)
		}
		s.addr = addr
	case <-s.exited:
		t.Fatalf("digestd exited at start: %s", s.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatalf("digestd did not report its address: %s", s.stderr.String())
	}
	s.base = "http://" + s.addr
	s.client = &http.Client{
		Timeout: 60 * time.Second,
		Transport: &http.Transport{
			Proxy:               nil,
			MaxIdleConnsPerHost: 16,
			DialContext:         (&net.Dialer{Timeout: 5 * time.Second}).DialContext,
		},
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}
	s.started = s.metric(t, "process_start_time_seconds", nil)
	if s.started == 0 {
		t.Fatalf("/metrics has no process_start_time_seconds")
	}
	return s
}

// stop ends the server with SIGTERM (SIGKILL after 10 s).
func (s *server) stop(t testing.TB) {
	select {
	case <-s.exited:
		return
	default:
	}
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.exited:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.exited
		t.Errorf("digestd did not stop within 10s of SIGTERM")
	}
}

// result is one response, reduced to what the tests compare.
type result struct {
	Status int
	Code   string // data.error_code of an error envelope, else ""
	Body   []byte
}

// outcome is the comparable form of a result.
func (r result) outcome() string {
	if r.Code != "" {
		return fmt.Sprintf("%d %s", r.Status, r.Code)
	}
	return strconv.Itoa(r.Status)
}

// envelope is the part of a response-v2 envelope the tests read.
type envelope struct {
	Success bool            `json:"success"`
	Data    json.RawMessage `json:"data"`
	Meta    struct {
		Version string `json:"version"`
	} `json:"meta"`
}

// parseResult reads status, body and error code, noting 5xx responses.
func (s *server) parseResult(label string, resp *http.Response) (result, error) {
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 64<<20))
	if err != nil {
		return result{}, fmt.Errorf("%s: read body: %w", label, err)
	}
	r := result{Status: resp.StatusCode, Body: body}
	var env envelope
	if json.Unmarshal(body, &env) == nil && !env.Success {
		var ed struct {
			ErrorCode string `json:"error_code"`
		}
		json.Unmarshal(env.Data, &ed)
		r.Code = ed.ErrorCode
	}
	s.mu.Lock()
	s.reqs++
	if r.Status >= 500 {
		s.fiveXX = append(s.fiveXX, fmt.Sprintf("%s: %s", label, r.outcome()))
	}
	s.mu.Unlock()
	return r, nil
}

// do sends one request and returns its result. A transport error is a
// test error: the server must answer every request that reaches it.
func (s *server) do(t testing.TB, method, path, contentType string, body []byte) result {
	t.Helper()
	r, err := s.try(method, path, contentType, body)
	if err != nil {
		t.Errorf("%s %s: %v", method, trunc(path), err)
	}
	return r
}

// try is do without a test.
func (s *server) try(method, path, contentType string, body []byte) (result, error) {
	req, err := http.NewRequest(method, s.base+path, bytes.NewReader(body))
	if err != nil {
		return result{}, err
	}
	if contentType != "" {
		req.Header.Set("Content-Type", contentType)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		return result{}, err
	}
	return s.parseResult(method+" "+trunc(path), resp)
}

// raw sends path exactly as given (no client-side cleaning or escaping)
// in a hand-written HTTP/1.1 request and returns the result.
func (s *server) raw(t testing.TB, method, path string) result {
	t.Helper()
	conn, err := net.DialTimeout("tcp", s.addr, 5*time.Second)
	if err != nil {
		t.Fatalf("dial: %v", err)
	}
	defer conn.Close()
	conn.SetDeadline(time.Now().Add(30 * time.Second))
	fmt.Fprintf(conn, "%s %s HTTP/1.1\r\nHost: %s\r\nConnection: close\r\n\r\n", method, path, s.addr)
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		t.Errorf("%s %q: no response: %v", method, path, err)
		return result{}
	}
	r, err := s.parseResult(method+" "+trunc(path), resp)
	if err != nil {
		t.Error(err)
	}
	return r
}

// postJSON posts v (or raw bytes) as application/json to path.
func (s *server) postJSON(t testing.TB, path string, v any) result {
	t.Helper()
	b, ok := v.([]byte)
	if !ok {
		var err error
		if b, err = json.Marshal(v); err != nil {
			t.Fatal(err)
		}
	}
	return s.do(t, "POST", path, "application/json", b)
}

// rss returns the server's VmRSS and VmHWM (peak) in bytes.
func (s *server) rss() (cur, peak int64, err error) { return procstat.Memory(s.pid) }

// sampleRSS records the server's resident set every 50 ms until ctx ends.
func (s *server) sampleRSS(ctx context.Context) {
	tick := time.NewTicker(50 * time.Millisecond)
	defer tick.Stop()
	for {
		if cur, _, err := s.rss(); err == nil {
			s.mu.Lock()
			s.maxRSS = max(s.maxRSS, cur)
			s.samples++
			s.mu.Unlock()
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

// metric returns the sum of the /metrics samples of name whose labels
// satisfy keep (nil: all).
func (s *server) metric(t testing.TB, name string, keep func(labels string) bool) float64 {
	t.Helper()
	resp, err := s.client.Get(s.base + "/metrics")
	if err != nil {
		t.Fatalf("GET /metrics: %v", err)
	}
	defer resp.Body.Close()
	sum := 0.0
	sc := bufio.NewScanner(resp.Body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, name) {
			continue
		}
		rest := line[len(name):]
		labels := ""
		if strings.HasPrefix(rest, "{") {
			end := strings.Index(rest, "}")
			if end < 0 {
				continue
			}
			labels, rest = rest[1:end], rest[end+1:]
		} else if !strings.HasPrefix(rest, " ") {
			continue // a longer metric name
		}
		if keep != nil && !keep(labels) {
			continue
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rest), 64)
		if err == nil {
			sum += v
		}
	}
	return sum
}

// checkHealthy asserts what must hold after any attack: the process that
// started is still running and answering /healthz (the same process: its
// start time is unchanged), no request got a 5xx (neither as the tests saw
// it nor as the server counted it), and its peak resident set stayed under
// rssBound.
func (s *server) checkHealthy(t testing.TB) {
	t.Helper()
	select {
	case <-s.exited:
		t.Fatalf("digestd (pid %d) exited: %v\n%s", s.pid, s.cmd.ProcessState, tail(s.stderr.String(), 4000))
	default:
	}
	r, err := s.try("GET", "/healthz", "", nil)
	if err != nil || r.Status != http.StatusOK {
		t.Fatalf("/healthz after the attack: %v %v", r.outcome(), err)
	}
	if started := s.metric(t, "process_start_time_seconds", nil); started != s.started {
		t.Errorf("the server process restarted: start time %v, then %v", s.started, started)
	}
	fiveXX := s.metric(t, "digestd_http_requests_total", func(l string) bool { return strings.Contains(l, `status="5`) })
	if fiveXX != 0 {
		t.Errorf("the server counted %v responses with a 5xx status", fiveXX)
	}
	s.mu.Lock()
	if len(s.fiveXX) > 0 {
		t.Errorf("%d of %d requests got a 5xx: %v", len(s.fiveXX), s.reqs, s.fiveXX[:min(len(s.fiveXX), 10)])
	}
	s.mu.Unlock()
	cur, peak, err := s.rss()
	if err != nil {
		t.Logf("no /proc: memory not measured: %v", err)
		return
	}
	if peak > rssBound {
		t.Errorf("server peak RSS (VmHWM) %d MiB exceeds the bound of %d MiB", peak>>20, rssBound>>20)
	}
	t.Logf("server pid %d: %d requests, RSS now %d MiB, peak %d MiB (bound %d MiB)", s.pid, s.reqs, cur>>20, peak>>20, rssBound>>20)
	if strings.Contains(s.stderr.String(), "panic:") {
		t.Errorf("server log holds a panic:\n%s", tail(s.stderr.String(), 4000))
	}
}

// trunc shortens s for messages.
func trunc(s string) string {
	if len(s) > 120 {
		return s[:120] + "…"
	}
	return s
}

// tail is the last n bytes of s.
func tail(s string, n int) string {
	if len(s) > n {
		return s[len(s)-n:]
	}
	return s
}

// want is the set of outcomes ("STATUS CODE" or "STATUS") a case accepts.
type want []string

func (w want) has(o string) bool {
	for _, x := range w {
		if x == o {
			return true
		}
	}
	return false
}

// attackCase is one hostile request and the outcomes it may get.
type attackCase struct {
	name        string
	method      string
	path        string
	contentType string
	body        []byte
	want        want
	// check, when set, inspects a 2xx result further.
	check func(t *testing.T, s *server, r result)
}

// runStable sends every case repeat times, workers at once in varying
// order. Each must get an accepted outcome, and the same one every time.
func runStable(t *testing.T, s *server, cases []attackCase, repeat, workers int) {
	t.Helper()
	jobs := make(chan int)
	var mu sync.Mutex
	seen := make([]map[string]int, len(cases))
	for i := range seen {
		seen[i] = map[string]int{}
	}
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range jobs {
				c := cases[i]
				method := c.method
				if method == "" {
					method = "POST"
				}
				r, err := s.try(method, c.path, c.contentType, c.body)
				o := "transport error: " + fmt.Sprint(err)
				if err == nil {
					o = r.outcome()
					if c.check != nil && r.Status/100 == 2 {
						c.check(t, s, r)
					}
				}
				mu.Lock()
				seen[i][o]++
				mu.Unlock()
			}
		}()
	}
	for round := range repeat {
		for k := range cases {
			// Rotate the order each round so different cases overlap.
			jobs <- (k + round*(len(cases)/max(repeat, 1)+1)) % len(cases)
		}
	}
	close(jobs)
	wg.Wait()
	for i, c := range cases {
		if len(seen[i]) != 1 {
			t.Errorf("%s: unstable outcomes %v", c.name, seen[i])
		}
		for o := range seen[i] {
			if !c.want.has(o) {
				t.Errorf("%s: got %q, want one of %q", c.name, o, c.want)
			}
		}
	}
}
