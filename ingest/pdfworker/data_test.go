package pdfworker

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/pdftext/textmetric"
	"github.com/digestd/digestd/internal/shareddata"
	"github.com/digestd/digestd/normalize"
)

// sharedData returns an evaluation set's folder (see shareddata.Set).
func sharedData(t *testing.T, set string) string { return shareddata.Set(t, set) }

type dataCase struct {
	ID            string `json:"id"`
	File          string `json:"file"`
	ReferenceFile string `json:"reference_file"`
	Encrypted     bool   `json:"encrypted"`
}

func readDataCases(t *testing.T, dir string) []dataCase {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []dataCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c dataCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		out = append(out, c)
	}
	return out
}

// rssBytes is this process's resident set size.
func rssBytes(t *testing.T) int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc")
	}
	for _, l := range strings.Split(string(b), "\n") {
		if strings.HasPrefix(l, "VmRSS:") {
			kb, _ := strconv.ParseInt(strings.Fields(l)[1], 10, 64)
			return kb << 10
		}
	}
	return 0
}

// TestHostileSamples runs every hostile sample through the pool, several
// at once and twice over: each must give text or a typed error within the
// deadline plus startSlack, and this process must stay small.
func TestHostileSamples(t *testing.T) {
	dir := sharedData(t, "hostile-pdf-samples")
	files, _ := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if len(files) == 0 {
		t.Fatal("no samples")
	}
	const deadline = 5 * time.Second
	// startSlack covers starting the worker process, which the deadline
	// does not count: about a second on a machine busy with other tests
	// (the race detector's), and a hang would run past it by far.
	const startSlack = 3 * time.Second
	p := testPool(t, PoolConfig{Workers: 4, Deadline: deadline, QueueWait: time.Minute})
	jobs := make(chan string)
	var mu sync.Mutex
	outcome := map[string][]string{}
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for path := range jobs {
				raw, err := os.ReadFile(path)
				if err != nil {
					t.Error(err)
					continue
				}
				start := time.Now()
				res, err := p.Extract(context.Background(), raw)
				el := time.Since(start)
				name := filepath.Base(path)
				code := fault.Code("OK")
				if err != nil {
					code = codeOf(err)
					if !slices.Contains(pdfJob.known, code) {
						t.Errorf("%s: untyped error %v", name, err)
					}
				} else if len(res.Pages) == 0 {
					t.Errorf("%s: text without pages", name)
				}
				if el > deadline+startSlack {
					t.Errorf("%s: took %v", name, el)
				}
				mu.Lock()
				outcome[name] = append(outcome[name], string(code))
				mu.Unlock()
				t.Logf("%-30s %-16s %v", name, code, el.Round(time.Millisecond))
			}
		}()
	}
	for range 2 {
		for _, f := range files {
			jobs <- f
		}
	}
	close(jobs)
	wg.Wait()
	if got := outcome["valid_simple.pdf"]; len(got) != 2 || got[0] != "OK" || got[1] != "OK" {
		t.Errorf("valid_simple.pdf outcomes %v, want text", got)
	}
	runtime.GC()
	if rss := rssBytes(t); rss > 512<<20 {
		t.Errorf("test process RSS %d MiB", rss>>20)
	}
	t.Logf("stats: %+v", p.Stats())
}

// TestRobustnessSet: every file gives text or a typed error; the encrypted
// one is PDF_ENCRYPTED.
func TestRobustnessSet(t *testing.T) {
	dir := sharedData(t, "extract-pdf-robustness")
	p := testPool(t, PoolConfig{Workers: 2, Deadline: 20 * time.Second, QueueWait: time.Minute})
	texts := 0
	for _, c := range readDataCases(t, dir) {
		raw, err := os.ReadFile(filepath.Join(dir, c.File))
		if err != nil {
			t.Fatal(err)
		}
		res, err := p.Extract(context.Background(), raw)
		code := fault.Code("OK")
		if err != nil {
			code = codeOf(err)
			if !slices.Contains(pdfJob.known, code) {
				t.Errorf("%s: untyped error %v", c.ID, err)
			}
		} else {
			texts++
		}
		if c.Encrypted && code != CodeEncrypted {
			t.Errorf("%s: encrypted file gave %s", c.ID, code)
		}
		t.Logf("%-55s %s", c.ID, code)
		_ = res
	}
	t.Logf("text from %d files", texts)
}

// TestPDFBoxQuality measures mean word F1 (and per-document shingle F1) on
// the pdfbox set through the worker pool.
func TestPDFBoxQuality(t *testing.T) {
	dir := sharedData(t, "extract-pdf-pdfbox")
	p := testPool(t, PoolConfig{Workers: 2, Deadline: 20 * time.Second, QueueWait: time.Minute})
	cases := readDataCases(t, dir)
	var sumW, sumS float64
	for _, c := range cases {
		raw, err := os.ReadFile(filepath.Join(dir, c.File))
		if err != nil {
			t.Fatal(err)
		}
		ref, err := os.ReadFile(filepath.Join(dir, c.ReferenceFile))
		if err != nil {
			t.Fatal(err)
		}
		text := ""
		res, err := p.Extract(context.Background(), raw)
		if err == nil {
			text = normalize.Pages(res.Pages)
		}
		w, s := textmetric.WordF1(text, string(ref)), textmetric.ShingleF1(text, string(ref))
		sumW += w
		sumS += s
		t.Logf("%-60s word %.3f shingle %.3f err=%v", c.ID, w, s, err)
	}
	n := float64(len(cases))
	t.Logf("mean word F1 %.4f, mean shingle F1 %.4f over %d documents", sumW/n, sumS/n, len(cases))
	if sumW/n < 0.90 {
		t.Errorf("mean word F1 %.4f < 0.90", sumW/n)
	}
}
