package adversarial

import (
	"bytes"
	"encoding/json"
	"os/exec"
	"strconv"
	"strings"
	"testing"
)

// loadReport is the part of digestload's JSON report the test reads.
type loadReport struct {
	Scheduled       int            `json:"scheduled"`
	Sent            int            `json:"sent"`
	Completed       int            `json:"completed"`
	TransportErrors int            `json:"transport_errors"`
	ErrorSamples    []string       `json:"error_samples"`
	Count5xx        int            `json:"count_5xx"`
	StatusCounts    map[string]int `json:"status_counts"`
	Kinds           map[string]struct {
		Requests     int            `json:"requests"`
		StatusCounts map[string]int `json:"status_counts"`
		P99MS        float64        `json:"p99_ms"`
	} `json:"kinds"`
	PeakRSSBytes int64 `json:"server_peak_rss_bytes"`
	VmHWMBytes   int64 `json:"server_vmhwm_bytes"`
	RSSSamples   int   `json:"rss_samples"`
}

// TestLoad runs digestload against the built server for a few seconds
// with the default mix and asserts zero 5xx, zero transport errors, every
// kind exercised, cache hits and archive reads all 200, hostile inputs all
// refused with a 4xx, and the server's peak RSS under rssBound. Latencies
// are reported, not asserted: the machine is shared.
func TestLoad(t *testing.T) {
	s := startServer(t)
	const rate, seconds = 25, 4
	rep := runLoad(t, s, "--rate", strconv.Itoa(rate), "--duration", strconv.Itoa(seconds)+"s",
		"--mix", "cached=40,archive=20,html=20,pdf=10,hostile=10")
	t.Logf("digestload: %d scheduled, %d completed, statuses %v, peak RSS %d MiB (VmHWM %d MiB, %d samples)",
		rep.Scheduled, rep.Completed, rep.StatusCounts, rep.PeakRSSBytes>>20, rep.VmHWMBytes>>20, rep.RSSSamples)
	if rep.Scheduled != rate*seconds {
		t.Errorf("scheduled %d requests, want %d", rep.Scheduled, rate*seconds)
	}
	if rep.Completed != rep.Sent || rep.TransportErrors != 0 {
		t.Errorf("%d sent, %d completed, %d transport errors", rep.Sent, rep.Completed, rep.TransportErrors)
	}
	if rep.Count5xx != 0 {
		t.Errorf("%d responses with a 5xx: %v", rep.Count5xx, rep.StatusCounts)
	}
	for _, kind := range []string{"cached", "archive", "html", "pdf", "hostile"} {
		k, ok := rep.Kinds[kind]
		if !ok || k.Requests == 0 {
			t.Errorf("kind %s was never sent", kind)
			continue
		}
		t.Logf("%-8s %3d requests, p99 %.1f ms, %v", kind, k.Requests, k.P99MS, k.StatusCounts)
		for st, n := range k.StatusCounts {
			switch {
			case kind == "hostile" && !strings.HasPrefix(st, "4"):
				t.Errorf("hostile inputs got %d × %s, want only 4xx", n, st)
			case (kind == "cached" || kind == "archive") && st != "200":
				t.Errorf("%s requests got %d × %s, want only 200", kind, n, st)
			}
		}
	}
	if rep.RSSSamples == 0 || rep.PeakRSSBytes == 0 {
		t.Errorf("digestload measured no RSS of pid %d", s.pid)
	}
	if rep.PeakRSSBytes > rssBound || rep.VmHWMBytes > rssBound {
		t.Errorf("server peak RSS %d MiB (VmHWM %d MiB) over the bound of %d MiB", rep.PeakRSSBytes>>20, rep.VmHWMBytes>>20, rssBound>>20)
	}

	// Every built-in hostile input once (there are fewer than 25), each
	// refused with a 4xx.
	hostile := runLoad(t, s, "--rate", "25", "--duration", "1s", "--mix", "hostile=1")
	if k := hostile.Kinds["hostile"]; k.Requests != 25 || k.StatusCounts["200"] != 0 || hostile.Count5xx != 0 || hostile.TransportErrors != 0 {
		t.Errorf("hostile-only run: %d requests, statuses %v, %d transport errors; want 25 refused with a 4xx", k.Requests, k.StatusCounts, hostile.TransportErrors)
	}
	s.checkHealthy(t)
}

// runLoad runs digestload against s with args and returns its report.
func runLoad(t *testing.T, s *server, args ...string) loadReport {
	t.Helper()
	rep, _ := runLoadProbes(t, s, args...)
	return rep
}

// runLoadProbes is runLoad that also returns the probes' report.
func runLoadProbes(t *testing.T, s *server, args ...string) (loadReport, probeReport) {
	t.Helper()
	args = append([]string{"--url", s.base, "--pid", strconv.Itoa(s.pid), "--json", "--timeout", "30s"}, args...)
	cmd := exec.Command(bins.digestload, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("digestload %v: %v\n%s", args, err, stderr.String())
	}
	var rep loadReport
	var pr probeReport
	if err := json.Unmarshal(stdout.Bytes(), &rep); err != nil {
		t.Fatalf("digestload report: %v\n%s", err, stdout.String())
	}
	json.Unmarshal(stdout.Bytes(), &pr)
	return rep, pr
}
