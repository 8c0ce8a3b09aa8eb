package pdfworker

import (
	"bytes"
	"log/slog"
	"strings"
	"testing"
	"time"
)

// TestWorkerStderrIsSummarised logs a failure whose stderr holds PDF bytes
// and a build path: the log line names the cause and never the bytes.
func TestWorkerStderrIsSummarised(t *testing.T) {
	var logs bytes.Buffer
	p := &Pool{cfg: PoolConfig{Logger: slog.New(slog.NewTextHandler(&logs, nil))}}
	stderr := &cappedBuffer{max: maxStderr}
	stderr.WriteString("panic: bad token \"SECRET-PDF-CONTENT (Tj)\"\n\ngoroutine 1:\n/home/builder/src/digestd/ingest/pdftext/lex.go:42\n")
	p.logFailure(pdfJob, CodeUnreadable, time.Now(), stderr, nil)
	out := logs.String()
	if strings.Contains(out, "SECRET-PDF-CONTENT") || strings.Contains(out, "/home/builder") || !strings.Contains(out, "cause=panic") {
		t.Errorf("log line: %s", out)
	}
	for in, want := range map[string]string{
		"fatal error: runtime: out of memory":                    "memory limit",
		"runtime: goroutine stack exceeds 1000000000-byte limit": "stack limit",
		"nothing known": "other",
	} {
		if got := stderrCause([]byte(in)); got != want {
			t.Errorf("%q: %s, want %s", in, got, want)
		}
	}
}
