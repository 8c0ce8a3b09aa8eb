package pdfworker

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
)

const workerEnv = "DIGESTD_TEST_PDF_WORKER"

// TestMain makes the test binary its own PDF worker.
func TestMain(m *testing.M) {
	if os.Getenv(workerEnv) == "1" {
		os.Exit(Main(os.Stdin, os.Stdout))
	}
	os.Exit(m.Run())
}

func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// testPool returns a pool whose workers are this test binary.
func testPool(t testing.TB, cfg PoolConfig) *Pool {
	t.Helper()
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cfg.Command = []string{exe}
	cfg.Env = []string{workerEnv + "=1"}
	if cfg.Logger == nil {
		cfg.Logger = quietLogger()
	}
	p, err := NewPool(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// shellPool returns a pool whose "worker" is a shell script, to exercise
// timeouts, crashes and the queue without a PDF.
func shellPool(t *testing.T, script string, cfg PoolConfig) *Pool {
	t.Helper()
	cfg.Command = []string{"/bin/sh", "-c", script}
	cfg.Logger = quietLogger()
	p, err := NewPool(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var minimalPDF = []byte("%PDF-1.4\n%%EOF\n")

func codeOf(err error) fault.Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return ""
}

func TestPoolExtractsText(t *testing.T) {
	p := testPool(t, PoolConfig{Workers: 2, Deadline: 10 * time.Second})
	raw := pdfgen.Build("A title", []pdfgen.Page{
		{Texts: pdfgen.Paragraph(72, 700, 10, 12, "Hello from the worker.")},
		{},
	})
	res, err := p.Extract(context.Background(), raw)
	if err != nil {
		t.Fatalf("Extract: %v", err)
	}
	if len(res.Pages) != 2 || res.Pages[0] != "Hello from the worker." || res.Title != "A title" {
		t.Fatalf("result = %+v", res)
	}
	if len(res.EmptyPages) != 1 || res.EmptyPages[0] != 2 {
		t.Errorf("EmptyPages = %v", res.EmptyPages)
	}
	if s := p.Stats(); s.Outcomes[OutcomeOK] != 1 || s.InUse != 0 || s.Capacity != 2 {
		t.Errorf("stats = %+v", s)
	}
}

func TestPoolTypedErrors(t *testing.T) {
	p := testPool(t, PoolConfig{Workers: 2, Deadline: 10 * time.Second, MaxInputBytes: 1 << 20, MaxPages: 2})
	threePages := pdfgen.Build("", []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 700, 10, 12, "x")}, {}, {}})
	tests := []struct {
		name string
		in   []byte
		code fault.Code
	}{
		{"not a pdf", []byte("<html>nope</html>"), CodeInvalidFormat},
		{"too large input", append([]byte("%PDF-1.4\n"), make([]byte, 2<<20)...), CodeTooLarge},
		{"too many pages", threePages, CodeTooLarge},
		{"no text", pdfgen.Build("", []pdfgen.Page{{}}), CodeNoText},
		{"garbage", append([]byte("%PDF-1.7\n"), []byte(strings.Repeat("garbage ", 100))...), CodeUnreadable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := p.Extract(context.Background(), tt.in)
			if got := codeOf(err); got != tt.code {
				t.Fatalf("err = %v, want code %s", err, tt.code)
			}
		})
	}
}

func TestPoolProcessFailures(t *testing.T) {
	tests := []struct {
		name     string
		script   string
		deadline time.Duration
		code     fault.Code
	}{
		{"crash", "exit 3", time.Second, CodeUnreadable},
		{"killed by signal", "kill -9 $$", time.Second, CodeUnreadable},
		{"garbage answer", "echo '{not json'", time.Second, CodeUnreadable},
		{"unknown code", `echo '{"error":{"code":"SOMETHING","msg":"/etc/secret"}}'`, time.Second, CodeUnreadable},
		// A worker that outlives the deadline, or leaves a child holding its
		// output open, would hang Extract for a day: the deadline and the
		// group kill must end it, so no clock needs reading.
		{"timeout", "sleep 86400", 300 * time.Millisecond, CodeTimeout},
		{"timeout with grandchild", "sleep 86400 & sleep 86400", 300 * time.Millisecond, CodeTimeout},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := shellPool(t, tt.script, PoolConfig{Deadline: tt.deadline})
			_, err := p.Extract(context.Background(), minimalPDF)
			if got := codeOf(err); got != tt.code {
				t.Fatalf("err = %v, want code %s", err, tt.code)
			}
			if strings.Contains(err.Error(), "secret") {
				t.Errorf("worker output leaked into the error: %v", err)
			}
		})
	}
}

func TestPoolBusy(t *testing.T) {
	p := shellPool(t, "sleep 2", PoolConfig{Workers: 1, QueueWait: 100 * time.Millisecond, Deadline: 5 * time.Second})
	done := make(chan struct{})
	go func() {
		defer close(done)
		p.Extract(context.Background(), minimalPDF)
	}()
	deadline := time.Now().Add(2 * time.Second)
	for p.Stats().InUse == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	_, err := p.Extract(context.Background(), minimalPDF)
	if !errors.Is(err, ErrBusy) {
		t.Fatalf("err = %v, want ErrBusy", err)
	}
	var e *Error
	if !errors.As(err, &e) || e.RetryAfter <= 0 {
		t.Errorf("busy error without retry hint: %#v", err)
	}
	<-done
	if got := p.Stats().Outcomes[string(CodeUnavailable)]; got != 1 {
		t.Errorf("unavailable outcomes = %d", got)
	}
}

func TestPoolCancel(t *testing.T) {
	// Had the cancel not ended the worker, the pool's own deadline would,
	// with PDF_TIMEOUT rather than the caller's error: no clock is read.
	p := shellPool(t, "sleep 86400", PoolConfig{Deadline: 20 * time.Second})
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	_, err := p.Extract(ctx, minimalPDF)
	if !errors.Is(err, context.DeadlineExceeded) || codeOf(err) == CodeTimeout {
		t.Fatalf("err = %v, want the caller's deadline", err)
	}
}

func TestNewPoolNeedsCommand(t *testing.T) {
	if _, err := NewPool(PoolConfig{}); err == nil {
		t.Fatal("NewPool without a command succeeded")
	}
}

// FuzzWorker feeds mutated PDF bytes to real workers through a Pool: every
// input must give text or a typed error within the deadline.
func FuzzWorker(f *testing.F) {
	seeds, _ := filepath.Glob(filepath.Join("..", "pdftext", "testdata", "*.pdf"))
	for _, s := range seeds {
		if b, err := os.ReadFile(s); err == nil {
			f.Add(b)
		}
	}
	f.Add(minimalPDF)
	p := testPool(f, PoolConfig{Workers: 2, Deadline: 3 * time.Second, MaxInputBytes: 1 << 20})
	f.Fuzz(func(t *testing.T, data []byte) {
		start := time.Now()
		res, err := p.Extract(context.Background(), data)
		if el := time.Since(start); el > 4*time.Second {
			t.Fatalf("took %v", el)
		}
		if err != nil {
			if !slices.Contains(pdfJob.known, codeOf(err)) {
				t.Fatalf("untyped error %v", err)
			}
			return
		}
		if len(res.Pages) == 0 {
			t.Fatal("text result without pages")
		}
	})
}

// A PDF cut short is said to be incomplete, not "a scan".
func TestPoolTruncatedPDF(t *testing.T) {
	p := testPool(t, PoolConfig{Workers: 1, Deadline: 10 * time.Second})
	raw := pdfgen.Build("A title", []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 700, 10, 12, "Hello from the worker.")}})
	_, err := p.Extract(context.Background(), raw[:len(raw)*2/3])
	if codeOf(err) != CodeUnreadable || !strings.Contains(err.Error(), "incomplete") || strings.Contains(err.Error(), "scan") {
		t.Fatalf("a truncated PDF: %v", err)
	}
}
