package main

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"regexp"
	"strings"
	"testing"
)

// --fetch-allow-loopback lets URL sources reach exactly the loopback
// addresses it names, refuses anything else at start-up, and says so in
// the log; without it a loopback URL is FETCH_BLOCKED.
func TestFetchAllowLoopback(t *testing.T) {
	page := `<!doctype html><html><head><title>Tides</title></head><body><article><h1>Tides</h1>
<p>Tides rise and fall twice a day because the Moon's gravity pulls the oceans toward it.</p>
<p>Spring tides, the largest, come when the Sun and the Moon line up at new and full moon.</p></article></body></html>`
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Write([]byte(page))
	}))
	defer srv.Close()
	addr := srv.Listener.Addr().String()
	archive := t.TempDir()
	code := func(out string) string {
		var env cliEnvelope
		json.Unmarshal([]byte(out), &env)
		if env.Success {
			return "OK"
		}
		return env.Data.ErrorCode
	}

	out, _, exit := runCLI(t, "", "digest", "--archive", archive, "--query", "why do tides rise", srv.URL+"/tides")
	if exit != 2 || code(out) != "FETCH_BLOCKED" {
		t.Errorf("without the flag: exit %d, %s", exit, code(out))
	}
	out, stderr, exit := runCLI(t, "", "digest", "--archive", archive, "--fetch-allow-loopback", addr, "--query", "why do tides rise", srv.URL+"/tides")
	if exit != 0 || code(out) != "OK" || !strings.Contains(out, "Spring tides") {
		t.Errorf("with --fetch-allow-loopback %s: exit %d, %s %s", addr, exit, out, stderr)
	}
	if !strings.Contains(stderr, `"level":"WARN"`) || !strings.Contains(stderr, addr) {
		t.Errorf("no warning naming %s in the log: %s", addr, stderr)
	}
	// The environment variable is the same setting; another port of the
	// same IP stays blocked.
	t.Setenv("DIGESTD_FETCH_ALLOW_LOOPBACK", "127.0.0.1:1")
	out, _, exit = runCLI(t, "", "digest", "--archive", archive, "--query", "tides", srv.URL+"/tides")
	if exit != 2 || code(out) != "FETCH_BLOCKED" {
		t.Errorf("another port allowed: exit %d, %s", exit, code(out))
	}
	t.Setenv("DIGESTD_FETCH_ALLOW_LOOPBACK", addr)
	if out, _, exit = runCLI(t, "", "digest", "--archive", archive, "--query", "tides", srv.URL+"/tides"); exit != 0 {
		t.Errorf("DIGESTD_FETCH_ALLOW_LOOPBACK=%s: exit %d, %s", addr, exit, code(out))
	}
	t.Setenv("DIGESTD_FETCH_ALLOW_LOOPBACK", "")

	for _, bad := range []string{"10.0.0.1:80", "localhost:80", "127.0.0.1", addr + ",169.254.169.254:80"} {
		var stderr bytes.Buffer
		err := run(context.Background(), []string{"serve", "--addr", "127.0.0.1:0", "--archive", archive, "--fetch-allow-loopback", bad}, strings.NewReader(""), io.Discard, &stderr)
		if exit := exitCode(err, &stderr); exit != 1 || !strings.Contains(stderr.String(), "--fetch-allow-loopback") {
			t.Errorf("serve --fetch-allow-loopback %s: exit %d, %s", bad, exit, stderr.String())
		}
	}

	// The docs state the same: --help and the README's configuration table.
	defaults, usage := helpDefaults(t, "serve")
	if defaults["fetch-allow-loopback"] != "" || !strings.Contains(usage["fetch-allow-loopback"], "loopback") || !strings.Contains(usage["fetch-allow-loopback"], "refused at start-up") {
		t.Errorf("serve --help: -fetch-allow-loopback %q (default %q)", usage["fetch-allow-loopback"], defaults["fetch-allow-loopback"])
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("(?m)^\\| `--fetch-allow-loopback` \\| none \\| (.*)$").FindStringSubmatch(string(readme))
	if row == nil || !strings.Contains(row[1], "DIGESTD_FETCH_ALLOW_LOOPBACK") || !strings.Contains(row[1], "refused at start-up") || !strings.Contains(row[1], "warning") {
		t.Errorf("README: no configuration row for --fetch-allow-loopback stating the variable, the refusal and the warning: %q", row)
	}
}
