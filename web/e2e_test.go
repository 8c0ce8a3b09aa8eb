package web_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/internal/shareddata"
	"github.com/digestd/digestd/internal/testenv"
)

// chromiumPath is Debian's Chromium, which the browser test drives.
const chromiumPath = "/usr/bin/chromium"

// screenshots are the views the browser test saves, one PNG each.
var screenshots = []string{"digest-view", "digest-pdf-view", "digest-docx-view", "multi-view", "archive-view", "error-view"}

// TestBrowser builds digestd, serves it on a free port with a fresh archive,
// and runs e2e/ui/ui.test.mjs, which drives headless Chromium through the
// page: a text digest with a highlighted snippet, a PDF's pages, a DOCX
// upload, several sources within a budget, the archive view and a hostile
// PDF's error. Screenshots go to
// $DIGESTD_ARTIFACTS, else to a temporary folder. Without Chromium, node or
// e2e/ui/node_modules the test skips, except under CI=true, where it fails.
func TestBrowser(t *testing.T) {
	testenv.FullSuite(t, "drives a browser")
	repoRoot, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	uiDir := filepath.Join(repoRoot, "e2e", "ui")
	node, err := exec.LookPath("node")
	need(t, err == nil, "node is not installed")
	_, err = os.Stat(chromiumPath)
	need(t, err == nil, chromiumPath+" is missing (apt-get install -y chromium)")
	_, err = os.Stat(filepath.Join(uiDir, "node_modules", "playwright-core", "package.json"))
	need(t, err == nil, "e2e/ui/node_modules is missing (npm ci --prefix e2e/ui)")
	goTool, err := exec.LookPath("go")
	need(t, err == nil, "the go command is not on PATH")

	artifacts := os.Getenv("DIGESTD_ARTIFACTS")
	if artifacts == "" {
		artifacts = t.TempDir()
	} else if artifacts, err = filepath.Abs(artifacts); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(artifacts, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Logf("artifacts in %s", artifacts)

	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	tmp := t.TempDir()
	bin := filepath.Join(tmp, "digestd")
	build := exec.CommandContext(ctx, goTool, "build", "-o", bin, "./cmd/digestd")
	build.Dir = repoRoot
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/digestd: %v\n%s", err, out)
	}

	base := startServer(t, ctx, bin, filepath.Join(tmp, "archive"), filepath.Join(artifacts, "digestd.log"))
	hostile := hostileFile(t, tmp)
	code := refusalCode(t, base, hostile)
	t.Logf("the API refuses %s with %s", filepath.Base(hostile), code)

	for _, name := range screenshots {
		os.Remove(filepath.Join(artifacts, name+".png"))
	}
	run := exec.CommandContext(ctx, node, "ui.test.mjs")
	run.Dir = uiDir
	run.Env = append(os.Environ(),
		"DIGESTD_URL="+base,
		"DIGESTD_ARTIFACTS="+artifacts,
		"DIGESTD_HOSTILE_FILE="+hostile,
		"DIGESTD_HOSTILE_ERROR_CODE="+code,
		"CHROMIUM="+chromiumPath,
	)
	out, err := run.CombinedOutput()
	t.Logf("ui.test.mjs:\n%s", out)
	if err != nil {
		t.Fatalf("the browser test failed: %v", err)
	}
	for _, name := range screenshots {
		b, err := os.ReadFile(filepath.Join(artifacts, name+".png"))
		if err != nil {
			t.Errorf("screenshot %s: %v", name, err)
			continue
		}
		if !bytes.HasPrefix(b, []byte("\x89PNG\r\n\x1a\n")) || len(b) < 10_000 {
			t.Errorf("screenshot %s is not a plausible PNG (%d bytes)", name, len(b))
		}
	}
}

// need skips the test with why when ok is false, or fails it under CI=true.
func need(t *testing.T, ok bool, why string) {
	t.Helper()
	testenv.Need(t, ok, "browser test: %s", why)
}

// startServer runs digestd serve on a free port and returns its base URL
// once /healthz answers. The server is stopped when the test ends.
func startServer(t *testing.T, ctx context.Context, bin, archiveDir, logPath string) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	logFile, err := os.Create(logPath)
	if err != nil {
		t.Fatal(err)
	}
	srv := exec.Command(bin, "serve", "--addr", addr, "--archive", archiveDir)
	srv.Stdout, srv.Stderr = logFile, logFile
	if err := srv.Start(); err != nil {
		t.Fatalf("start digestd: %v", err)
	}
	exited := make(chan error, 1)
	go func() { exited <- srv.Wait() }()
	t.Cleanup(func() {
		srv.Process.Signal(os.Interrupt)
		select {
		case <-exited:
		case <-time.After(10 * time.Second):
			srv.Process.Kill()
			<-exited
		}
		logFile.Close()
	})
	base := "http://" + addr
	for {
		select {
		case err := <-exited:
			exited <- err
			t.Fatalf("digestd exited before serving: %v (log: %s)", err, logPath)
		case <-ctx.Done():
			t.Fatalf("digestd did not answer /healthz (log: %s)", logPath)
		case <-time.After(100 * time.Millisecond):
		}
		res, err := http.Get(base + "/healthz")
		if err == nil {
			res.Body.Close()
			if res.StatusCode == http.StatusOK {
				return base
			}
		}
	}
}

// hostileFile is a PDF the service must refuse: a sample from the shared
// hostile set, or, when the shared data is absent (outside CI), random bytes.
func hostileFile(t *testing.T, tmp string) string {
	t.Helper()
	sample := filepath.Join(shareddata.Root(), "hostile-pdf-samples", "xrefstream_size_1e9.pdf")
	if _, err := os.Stat(sample); err == nil {
		return sample
	}
	if testenv.InCI() {
		t.Fatalf("shared data is missing: %s", sample)
	}
	t.Logf("shared data is missing (%s): uploading random bytes instead", sample)
	garbage := make([]byte, 4096)
	rand.Read(garbage)
	path := filepath.Join(tmp, "garbage.pdf")
	if err := os.WriteFile(path, garbage, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// refusalCode uploads file to POST /v1/digest as the page does and returns
// the error_code of the refusal; the page must show the same code.
func refusalCode(t *testing.T, base, file string) string {
	t.Helper()
	pdf, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	mw.WriteField("query", "what does it say?")
	h := make(map[string][]string)
	h["Content-Disposition"] = []string{fmt.Sprintf(`form-data; name="file"; filename=%q`, filepath.Base(file))}
	h["Content-Type"] = []string{"application/pdf"}
	part, err := mw.CreatePart(h)
	if err != nil {
		t.Fatal(err)
	}
	part.Write(pdf)
	mw.Close()
	res, err := http.Post(base+"/v1/digest", mw.FormDataContentType(), &body)
	if err != nil {
		t.Fatal(err)
	}
	defer res.Body.Close()
	var env struct {
		Success bool `json:"success"`
		Data    struct {
			ErrorCode string `json:"error_code"`
		} `json:"data"`
	}
	if err := json.NewDecoder(res.Body).Decode(&env); err != nil {
		t.Fatalf("decode the refusal: %v", err)
	}
	if env.Success || res.StatusCode < 400 || res.StatusCode >= 500 || strings.TrimSpace(env.Data.ErrorCode) == "" {
		t.Fatalf("the API accepted or mishandled %s: HTTP %d, success %v, code %q", filepath.Base(file), res.StatusCode, env.Success, env.Data.ErrorCode)
	}
	return env.Data.ErrorCode
}
