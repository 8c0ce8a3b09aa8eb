package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

func TestParseMix(t *testing.T) {
	cases := []struct {
		in      string
		want    Mix
		wantErr bool
	}{
		{DefaultMix, Mix{"cached": 40, "archive": 20, "html": 20, "pdf": 10, "hostile": 10}, false},
		{" pdf = 3 , hostile=0", Mix{"pdf": 3, "hostile": 0}, false},
		{"cached=1,", Mix{"cached": 1}, false},
		{"", nil, true},
		{"cached=0", nil, true},
		{"cached", nil, true},
		{"video=3", nil, true},
		{"cached=-1", nil, true},
		{"cached=x", nil, true},
		{"cached=1,cached=2", nil, true},
		{"cached=99999999999", nil, true},
	}
	for _, c := range cases {
		got, err := ParseMix(c.in)
		if (err != nil) != c.wantErr {
			t.Errorf("ParseMix(%q): err = %v, want error %v", c.in, err, c.wantErr)
			continue
		}
		if !c.wantErr && fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("ParseMix(%q) = %v, want %v", c.in, got, c.want)
		}
	}
}

func TestMixPickFollowsWeights(t *testing.T) {
	m, err := ParseMix("cached=40,archive=20,html=20,pdf=10,hostile=10")
	if err != nil {
		t.Fatal(err)
	}
	const n = 10_000
	got := map[string]int{}
	for i := range n {
		got[m.pick((float64(i)+0.5)/n)]++
	}
	for k, w := range m {
		if want := n * w / 100; got[k] != want {
			t.Errorf("%s picked %d times, want %d", k, got[k], want)
		}
	}
	if only := (Mix{"pdf": 1}); only.pick(0) != "pdf" || only.pick(0.999) != "pdf" {
		t.Errorf("a one-kind mix picked another kind")
	}
}

func TestCheckLoopback(t *testing.T) {
	for _, u := range []string{"http://127.0.0.1:8080", "http://localhost:1", "http://[::1]:8080/", "http://127.9.9.9:80"} {
		if _, err := checkLoopback(u); err != nil {
			t.Errorf("checkLoopback(%q): %v", u, err)
		}
	}
	for _, u := range []string{"http://10.0.0.1:8080", "http://example.org", "https://127.0.0.1", "http://0.0.0.0:80",
		"http://[::ffff:8.8.8.8]/", "http://user@127.0.0.1/", "ftp://127.0.0.1", "127.0.0.1:8080", "http://localhost.example.org/", "http://2130706433/"} {
		if _, err := checkLoopback(u); err == nil {
			t.Errorf("checkLoopback(%q) accepted a non-loopback target", u)
		}
	}
}

func TestQuantile(t *testing.T) {
	var ds []time.Duration
	for i := 1; i <= 100; i++ {
		ds = append(ds, time.Duration(i)*time.Millisecond)
	}
	for q, want := range map[float64]time.Duration{0.5: 50 * time.Millisecond, 0.95: 95 * time.Millisecond, 0.99: 99 * time.Millisecond, 1: 100 * time.Millisecond, 0: time.Millisecond} {
		if got := quantile(ds, q); got != want {
			t.Errorf("quantile(%v) = %v, want %v", q, got, want)
		}
	}
	if got := quantile(ds[:1], 0.99); got != time.Millisecond {
		t.Errorf("quantile of one = %v", got)
	}
}

func TestRunRefusesBadConfig(t *testing.T) {
	base := Config{URL: "http://127.0.0.1:1", Rate: 10, Duration: time.Second, Mix: Mix{"cached": 1}, MaxInFlight: 1, Timeout: time.Second}
	for name, mut := range map[string]func(*Config){
		"remote":    func(c *Config) { c.URL = "http://192.0.2.1:80" },
		"zero rate": func(c *Config) { c.Rate = 0 },
		"NaN rate":  func(c *Config) { c.Rate = math.NaN() },
		"unbounded": func(c *Config) { c.Rate, c.Duration = 10_000, 24*time.Hour },
		"no slots":  func(c *Config) { c.MaxInFlight = 0 },
	} {
		c := base
		mut(&c)
		if _, err := Run(context.Background(), c); err == nil {
			t.Errorf("%s: Run accepted the config", name)
		}
	}
}

// fakeServer answers like digestd: digests (with an archive hash) for
// JSON text sources and supported uploads, 400 for anything malformed.
func fakeServer(t *testing.T, delay time.Duration) *httptest.Server {
	srv := httptest.NewServer(fakeHandler(delay, 0))
	t.Cleanup(srv.Close)
	return srv
}

// fakeHandler is fakeServer's handler; /healthz answers 200 after
// healthDelay.
func fakeHandler(delay, healthDelay time.Duration) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/healthz" {
			time.Sleep(healthDelay)
			w.Write([]byte("ok"))
			return
		}
		body, _ := io.ReadAll(r.Body)
		time.Sleep(delay)
		switch {
		case r.Method == "GET" && r.URL.Path == "/v1/archive/sha256:"+strings.Repeat("1", 64):
			w.Write([]byte("text"))
		case r.Method == "POST" && r.Header.Get("Content-Type") == "application/json" && bytes.Contains(body, []byte(`"text":"Report`)):
			w.Write([]byte(`{"success":true,"data":{"source":{"archive_hash":"sha256:` + strings.Repeat("1", 64) + `"}}}`))
		case r.Method == "POST" && strings.HasPrefix(r.Header.Get("Content-Type"), "text/html") && bytes.Contains(body, []byte("Report")),
			r.Method == "POST" && r.Header.Get("Content-Type") == "application/pdf" && bytes.HasSuffix(body, []byte("%%EOF\n")),
			r.Method == "POST" && r.URL.Path == "/mcp" && bytes.Contains(body, []byte(`"tools/call"`)):
			w.Write([]byte(`{"success":true}`))
		default:
			w.WriteHeader(http.StatusBadRequest)
		}
	})
}

func TestRunAgainstFakeServer(t *testing.T) {
	srv := fakeServer(t, 0)
	rep, err := Run(context.Background(), Config{URL: srv.URL, Rate: 100, Duration: 500 * time.Millisecond,
		Mix: Mix{"cached": 2, "archive": 1, "html": 1, "pdf": 1, "hostile": 1, "mcp": 1}, MaxInFlight: 64, Timeout: 5 * time.Second, Seed: 3,
		PID: os.Getpid(), Query: "q", Probes: Probes{SlowBodies: 3, SlowEvery: 10 * time.Millisecond, SlowReaders: 2, IdleConns: 5, Health: true}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Scheduled != 50 || rep.Sent != 50 || rep.Completed != 50 || rep.TransportErrors != 0 {
		t.Fatalf("scheduled %d sent %d completed %d errors %d, want 50 each and no errors", rep.Scheduled, rep.Sent, rep.Completed, rep.TransportErrors)
	}
	for kind, k := range rep.Kinds {
		wantStatus := "200"
		if kind == KindHostile {
			wantStatus = "400"
		}
		if k.StatusCounts[wantStatus] != k.Requests {
			t.Errorf("%s: statuses %v, want all %s", kind, k.StatusCounts, wantStatus)
		}
		if k.P50MS > k.P95MS || k.P95MS > k.P99MS || k.P99MS > k.MaxMS {
			t.Errorf("%s: percentiles out of order: %+v", kind, k)
		}
	}
	if len(rep.Kinds) != len(Kinds) {
		t.Errorf("kinds sent: %v, want all of %v", rep.Kinds, Kinds)
	}
	if p := rep.Probes; p == nil || p.SlowBodiesOpened != 3 || p.SlowReadersOpened != 2 || p.IdleOpened != 5 {
		t.Errorf("probes: %+v", rep.Probes)
	}
	if rep.PeakRSSBytes <= 0 || rep.RSSSamples == 0 {
		t.Errorf("RSS of our own pid not measured: %+v", rep)
	}
	// The elapsed time follows the schedule, not the server.
	if rep.ElapsedSeconds < 0.45 || rep.ElapsedSeconds > 5 {
		t.Errorf("elapsed %.2fs for a 0.5s run", rep.ElapsedSeconds)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	for _, want := range []string{"throughput", "p99 ms", "cached", "hostile", "peak RSS"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
}

// TestSlowBodiesAtLimit runs the scenario against a server that closes a
// stalled body at its read timeout and answers health, then against one
// that never closes it and answers health late: the verdicts follow.
// Health's latency is asserted only where the server is made slow.
func TestSlowBodiesAtLimit(t *testing.T) {
	closing := httptest.NewUnstartedServer(fakeHandler(0, 0))
	closing.Config.ReadTimeout = 300 * time.Millisecond
	closing.Start()
	defer closing.Close()
	rep, err := Run(context.Background(), Config{URL: closing.URL, Rate: 10, Duration: 200 * time.Millisecond, Mix: Mix{"cached": 1},
		MaxInFlight: 4, Timeout: 5 * time.Second, Query: "q", Probes: Probes{LimitBodies: 4, ReadTimeout: time.Minute}})
	if err != nil {
		t.Fatal(err)
	}
	a := rep.Probes.AtLimit
	if a == nil || a.Opened != 4 || a.Failed != 0 || a.ClosedInTime != 4 || a.Answered != 4 || !a.AllClosed ||
		a.HealthSamples == 0 || a.HealthStatuses["200"] != a.HealthSamples {
		t.Errorf("a server that closes stalled bodies: %+v", a)
	}
	var text bytes.Buffer
	rep.WriteText(&text)
	if !strings.Contains(text.String(), "slow bodies at the limit: 4 opened (0 failed), 4 closed within the read timeout 60000 ms") {
		t.Errorf("text report:\n%s", text.String())
	}

	holding := httptest.NewServer(fakeHandler(0, 1500*time.Millisecond))
	defer holding.Close()
	rep, err = Run(context.Background(), Config{URL: holding.URL, Rate: 10, Duration: 200 * time.Millisecond, Mix: Mix{"cached": 1},
		MaxInFlight: 4, Timeout: 5 * time.Second, Query: "q", Probes: Probes{LimitBodies: 2, ReadTimeout: 300 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	if a := rep.Probes.AtLimit; a == nil || a.Opened != 2 || a.ClosedInTime != 0 || a.AllClosed || a.HealthInTime != 0 || a.HealthWithinBar {
		t.Errorf("a server that holds stalled bodies and answers health late: %+v", a)
	}
	holding.CloseClientConnections()
}

// TestRunIsOpenLoop checks that a slow server does not slow the sending
// down: requests are due on schedule, and those due while every slot is
// busy are skipped, not queued.
func TestRunIsOpenLoop(t *testing.T) {
	srv := fakeServer(t, 300*time.Millisecond)
	start := time.Now()
	rep, err := Run(context.Background(), Config{URL: srv.URL, Rate: 50, Duration: 400 * time.Millisecond,
		Mix: Mix{"archive": 1}, MaxInFlight: 5, Timeout: 5 * time.Second, Seed: 1, Query: "q"})
	if err != nil {
		t.Fatal(err)
	}
	// Warm-up is 8 sequential slow digests; the run itself is 0.4 s of
	// sending plus one 0.3 s answer.
	if el := time.Since(start); el > 8*300*time.Millisecond+3*time.Second {
		t.Errorf("run took %v", el)
	}
	if rep.Skipped == 0 || rep.Sent+rep.Skipped != rep.Scheduled {
		t.Errorf("sent %d skipped %d scheduled %d: want skips when all 5 slots are busy", rep.Sent, rep.Skipped, rep.Scheduled)
	}
	if k := rep.Kinds[KindArchive]; k == nil || k.P50MS < 300 {
		t.Errorf("latency should include the 300 ms server delay: %+v", k)
	}
}

func TestRunMain(t *testing.T) {
	var out, errb bytes.Buffer
	err := run(context.Background(), []string{"--url", "http://10.1.2.3:80", "--duration", "1s"}, &out, &errb)
	var ue *usageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "loopback") {
		t.Errorf("remote URL: err = %v, want a usage error about loopback", err)
	}
	srv := fakeServer(t, 0)
	out.Reset()
	if err := run(context.Background(), []string{"--url", srv.URL, "--rate", "20", "--duration", "200ms", "--json"}, &out, &errb); err != nil {
		t.Fatalf("run: %v %s", err, errb.String())
	}
	var rep Report
	if err := json.Unmarshal(out.Bytes(), &rep); err != nil || rep.Scheduled != 4 {
		t.Errorf("JSON report: %v, scheduled %d, want 4", err, rep.Scheduled)
	}
}

func TestGeneratedInputsDiffer(t *testing.T) {
	if htmlPage(1, 1) == htmlPage(1, 2) || bytes.Equal(pdfDocument(1, 1), pdfDocument(1, 2)) || document(1, 1, 100) == document(1, 2, 100) {
		t.Error("generated documents repeat: the html and pdf kinds would be cache hits")
	}
	page1, page2 := htmlPage(1, 1), htmlPage(1, 1)
	if page1 != page2 || !bytes.Equal(pdfDocument(5, 9), pdfDocument(5, 9)) {
		t.Error("generated documents are not deterministic")
	}
	if !bytes.HasPrefix(pdfDocument(1, 1), []byte("%PDF-")) || len(htmlPage(1, 1)) < 20_000 {
		t.Error("generated documents have the wrong shape")
	}
}
