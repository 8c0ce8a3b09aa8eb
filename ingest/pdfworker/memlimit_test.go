package pdfworker

import (
	"bytes"
	"compress/zlib"
	"context"
	"fmt"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
	"github.com/digestd/digestd/internal/testenv"
)

// memoryHungryPDF is a small file (its one content stream is compressed)
// whose parse holds far more memory than its size: a page that shows a run
// of text hundreds of thousands of times.
func memoryHungryPDF(t *testing.T) []byte {
	t.Helper()
	var content bytes.Buffer
	zw := zlib.NewWriter(&content)
	line := []byte("BT /F1 10 Tf 72 700 Td (memory hungry text shown again and again) Tj ET\n")
	for range (30 << 20) / len(line) {
		zw.Write(line)
	}
	zw.Close()
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>",
		"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>",
		fmt.Sprintf("<< /Length %d /Filter /FlateDecode >>\nstream\n%s\nendstream", content.Len(), content.Bytes()),
	}
	return pdfgen.Assemble("1.4", objs, "/Root 1 0 R")
}

// TestMemoryLimit: a worker whose parse needs more memory than
// MemoryLimitBytes ends with the typed PDF_UNREADABLE, logged with the
// cause "memory limit", and the pool goes on serving. The address-space
// limit is not set in a worker built with the race detector, so under -race
// (as CI runs) the test builds a worker without it.
func TestMemoryLimit(t *testing.T) {
	worker, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	if raceEnabled {
		testenv.FullSuite(t, "builds a PDF worker without the race detector")
		worker = filepath.Join(t.TempDir(), "pdfworker.test")
		build := exec.Command("go", "test", "-c", "-o", worker, ".") // no -race: the limit applies
		if out, err := build.CombinedOutput(); err != nil {
			t.Fatalf("build the worker: %v\n%s", err, out)
		}
	}
	var logs bytes.Buffer
	p, err := NewPool(PoolConfig{
		Command: []string{worker}, Env: []string{workerEnv + "=1"},
		Workers: 1, Deadline: time.Minute, MemoryLimitBytes: 64 << 20,
		Logger: slog.New(slog.NewTextHandler(&logs, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	raw := memoryHungryPDF(t)
	_, err = p.Extract(context.Background(), raw)
	if code := codeOf(err); code != CodeUnreadable || !strings.Contains(logs.String(), `cause="memory limit"`) {
		t.Fatalf("a PDF over the memory limit: %v (code %s), log %q; want %s with cause memory limit", err, code, logs.String(), CodeUnreadable)
	}
	ok := pdfgen.Build("", []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 700, 10, 12, "A small page after the hungry one.")}})
	if res, err := p.Extract(context.Background(), ok); err != nil || len(res.Pages) != 1 {
		t.Errorf("the next PDF: %v %v", res, err)
	}
}
