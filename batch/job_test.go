package batch

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

// countingDigester counts calls per id and can stop the run after some.
type countingDigester struct {
	next      Digester
	mu        sync.Mutex
	calls     map[string]int
	stopAfter int32 // cancel after this many calls (0: never)
	n         atomic.Int32
	cancel    context.CancelFunc
}

func (c *countingDigester) Digest(ctx context.Context, req pipeline.Request) (*pipeline.Result, error) {
	c.mu.Lock()
	c.calls[req.ID]++
	c.mu.Unlock()
	if c.stopAfter > 0 && c.n.Add(1) == c.stopAfter {
		c.cancel()
	}
	return c.next.Digest(ctx, req)
}

func newPipeline(t *testing.T) (*pipeline.Pipeline, *fsstore.Store) {
	t.Helper()
	store, err := fsstore.Open(filepath.Join(t.TempDir(), "archive"))
	if err != nil {
		t.Fatal(err)
	}
	return &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}, store
}

func textSource(raw []byte, name string) ingest.Source { return ingest.Source{Text: string(raw)} }

// fixture writes n text files and a missing-file entry and returns the
// entries: ids t000…, plus "missing" and "inline".
func fixture(t *testing.T, n int) []Entry {
	t.Helper()
	dir := t.TempDir()
	var entries []Entry
	for i := range n {
		p := filepath.Join(dir, fmt.Sprintf("t%03d.txt", i))
		text := fmt.Sprintf("Document %d. Placental DC-SIGNR plays a crucial role in mother-to-child transmission. Case %d was observed in a cohort study.\nA second paragraph about infection in children.", i, i)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		entries = append(entries, Entry{ID: fmt.Sprintf("t%03d", i), File: p, Line: i + 1})
	}
	entries = append(entries,
		Entry{ID: "missing", File: filepath.Join(dir, "no-such-file.txt"), Line: n + 1},
		Entry{ID: "inline", Text: "What causes MTCT? Mostly transmission at birth.", Query: "birth", Line: n + 2},
		Entry{ID: "empty-file", File: writeFile(t, dir, "empty.txt", ""), Line: n + 3},
		Entry{ID: "a-directory", File: dir, Line: n + 4},
	)
	return entries
}

func writeFile(t *testing.T, dir, name, content string) string {
	p := filepath.Join(dir, name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// readOutput returns the output's lines by id, failing on a repeated id.
func readOutput(t *testing.T, path string) map[string]map[string]any {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := map[string]map[string]any{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l struct {
			ID       string         `json:"id"`
			Status   int            `json:"status"`
			Envelope map[string]any `json:"envelope"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("output line %q: %v", sc.Text(), err)
		}
		if _, dup := lines[l.ID]; dup {
			t.Fatalf("id %q appears twice in the output", l.ID)
		}
		l.Envelope["_status"] = float64(l.Status)
		lines[l.ID] = l.Envelope
		// An error line carries every detail its remediation points to.
		if data, _ := l.Envelope["data"].(map[string]any); l.Envelope["success"] == false {
			rem, _ := data["remediation"].(string)
			details, _ := data["details"].(map[string]any)
			for _, name := range wire.NamedDetails(rem) {
				if _, ok := details[name]; !ok {
					t.Errorf("%s: %v's remediation points to details.%s, which the line does not carry", l.ID, data["error_code"], name)
				}
			}
		}
	}
	return lines
}

func errorCode(env map[string]any) string {
	data, _ := env["data"].(map[string]any)
	code, _ := data["error_code"].(string)
	return code
}

func TestJobRunAndResume(t *testing.T) {
	pipe, _ := newPipeline(t)
	entries := fixture(t, 40)
	out := filepath.Join(t.TempDir(), "out.jsonl")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	dg := &countingDigester{next: pipe, calls: map[string]int{}, stopAfter: 15, cancel: cancel}
	job := &Job{Digester: dg, Entries: entries, Query: "what causes MTCT", Output: out, Workers: 3,
		FileSource: textSource, SyncInterval: 10 * time.Millisecond}

	// The first run is stopped part-way.
	sum, err := job.Run(ctx)
	if !errors.Is(err, ErrInterrupted) {
		t.Fatalf("stopped run: error %v, want ErrInterrupted", err)
	}
	first := readOutput(t, out)
	if len(first) == 0 || len(first) >= len(entries) || sum.Ran != len(first) || sum.Remaining != len(entries)-len(first) {
		t.Fatalf("stopped run wrote %d of %d lines (summary: ran %d, remaining %d)", len(first), len(entries), sum.Ran, sum.Remaining)
	}

	// Tear the last line, as a crash in the middle of a write would.
	b, _ := os.ReadFile(out)
	lastStart := strings.LastIndexByte(strings.TrimSuffix(string(b), "\n"), '\n') + 1
	var torn struct{ ID string }
	json.Unmarshal(b[lastStart:], &torn)
	if err := os.WriteFile(out, b[:lastStart+(len(b)-lastStart)/2], 0o644); err != nil {
		t.Fatal(err)
	}

	// The second run repairs, skips what is done and finishes the rest.
	for id := range dg.calls {
		dg.calls[id] = 0
	}
	dg.stopAfter = 0
	sum, err = job.Run(context.Background())
	if err != nil {
		t.Fatalf("resumed run: %v", err)
	}
	if sum.RepairedBytes == 0 {
		t.Error("the torn line was not reported as repaired")
	}
	lines := readOutput(t, out)
	if len(lines) != len(entries) {
		t.Fatalf("output holds %d ids, want %d", len(lines), len(entries))
	}
	for id := range first {
		if id != torn.ID && dg.calls[id] != 0 {
			t.Errorf("%s was digested again though its line was kept", id)
		}
	}
	if dg.calls[torn.ID] != 1 {
		t.Errorf("the torn line's id %s was digested %d times on resume, want 1", torn.ID, dg.calls[torn.ID])
	}

	wantCodes := map[string]string{"missing": string(fault.NotFound), "empty-file": string(fault.NoExtractableText), "a-directory": string(fault.InvalidFormat)}
	for _, e := range entries {
		env := lines[e.ID]
		if code, bad := wantCodes[e.ID]; bad {
			if env["success"] != false || errorCode(env) != code {
				t.Errorf("%s: success %v code %q, want an error line with %s", e.ID, env["success"], errorCode(env), code)
			}
			// A missing file is no archive hash: its remediation speaks of
			// the manifest's file paths too, not only of how hashes are written.
			if rem, _ := env["data"].(map[string]any)["remediation"].(string); e.ID == "missing" && !strings.Contains(rem, "manifest") {
				t.Errorf("%s: remediation %q does not speak of the manifest's file paths", e.ID, rem)
			}
			continue
		}
		if env["success"] != true || env["_status"] != float64(200) {
			t.Errorf("%s: not a success line: %v", e.ID, env)
			continue
		}
		raw, _ := json.Marshal(env["data"].(map[string]any)["digest"])
		var p digest.Payload
		if err := json.Unmarshal(raw, &p); err != nil {
			t.Fatal(err)
		}
		if err := digest.Validate(&p); err != nil {
			t.Errorf("%s: payload does not validate: %v", e.ID, err)
		}
		wantQuery := "what causes MTCT"
		if e.Query != "" {
			wantQuery = e.Query
		}
		if p.QueryHash != digest.QueryHash(wantQuery) {
			t.Errorf("%s: digested for the wrong query", e.ID)
		}
	}
	if sum.Succeeded != len(entries)-3 || sum.Failed != 3 || sum.Codes[string(fault.NotFound)] != 1 {
		t.Errorf("summary: %d ok, %d failed, codes %v", sum.Succeeded, sum.Failed, sum.Codes)
	}

	// A third run has nothing to do.
	sum, err = job.Run(context.Background())
	if err != nil || sum.Ran != 0 || sum.AlreadyDone != len(entries) || sum.Failed != 3 {
		t.Fatalf("third run: %v, ran %d, already %d, failed %d", err, sum.Ran, sum.AlreadyDone, sum.Failed)
	}
}

func TestJobDuplicateIDs(t *testing.T) {
	pipe, _ := newPipeline(t)
	out := filepath.Join(t.TempDir(), "out.jsonl")
	entries := []Entry{{ID: "a", Text: "x", Line: 1}, {ID: "b", Text: "y", Line: 2}, {ID: "a", Text: "z", Line: 3}}
	_, err := (&Job{Digester: pipe, Entries: entries, Output: out}).Run(context.Background())
	var de *DuplicateError
	if !errors.As(err, &de) || len(de.Duplicates) != 1 || !strings.Contains(err.Error(), `"a" on lines 1, 3`) {
		t.Fatalf("error %v, want a DuplicateError listing a on lines 1, 3", err)
	}
	if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
		t.Error("the output was created though the manifest is refused")
	}
}

func TestJobShardsCoverManifest(t *testing.T) {
	pipe, _ := newPipeline(t)
	var entries []Entry
	for i := range 30 {
		entries = append(entries, Entry{ID: fmt.Sprintf("s%02d", i), Text: fmt.Sprintf("Text number %d about transmission.", i), Line: i + 1})
	}
	dir := t.TempDir()
	all := map[string]int{}
	for i := range 2 {
		out := filepath.Join(dir, fmt.Sprintf("out-%d.jsonl", i))
		sum, err := (&Job{Digester: pipe, Entries: entries, Shard: Shard{Index: i, Count: 2}, Query: "transmission", Output: out, Workers: 2}).Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		lines := readOutput(t, out)
		if len(lines) != sum.Selected || sum.Selected == 0 || sum.Selected == len(entries) {
			t.Fatalf("shard %d: %d lines, %d selected of %d", i, len(lines), sum.Selected, len(entries))
		}
		for id := range lines {
			all[id]++
		}
	}
	for _, e := range entries {
		if all[e.ID] != 1 {
			t.Errorf("%s is in %d shard outputs, want 1", e.ID, all[e.ID])
		}
	}
}

// hostProbe records the most concurrent calls per host.
type hostProbe struct {
	mu       sync.Mutex
	inflight map[string]int
	peak     map[string]int
	started  []time.Time
}

func (h *hostProbe) Digest(ctx context.Context, req pipeline.Request) (*pipeline.Result, error) {
	host := hostKey(req.Source.URL)
	h.mu.Lock()
	h.inflight[host]++
	h.peak[host] = max(h.peak[host], h.inflight[host])
	h.started = append(h.started, time.Now())
	h.mu.Unlock()
	time.Sleep(5 * time.Millisecond)
	h.mu.Lock()
	h.inflight[host]--
	h.mu.Unlock()
	return nil, fault.E(fault.FetchFailed, "no network in tests")
}

func TestJobHostPoliteness(t *testing.T) {
	var entries []Entry
	for i := range 12 {
		entries = append(entries, Entry{ID: fmt.Sprintf("a%d", i), URL: fmt.Sprintf("https://A.example/%d", i), Line: 2*i + 1})
		entries = append(entries, Entry{ID: fmt.Sprintf("b%d", i), URL: fmt.Sprintf("https://b.example:8443/%d", i), Line: 2*i + 2})
	}
	probe := &hostProbe{inflight: map[string]int{}, peak: map[string]int{}}
	start := time.Now()
	sum, err := (&Job{Digester: probe, Entries: entries, Output: filepath.Join(t.TempDir(), "out.jsonl"), Workers: 8,
		Hosts: HostPolicy{Rate: 100, Concurrency: 2}}).Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if sum.Failed != len(entries) || sum.Codes[string(fault.FetchFailed)] != len(entries) {
		t.Fatalf("summary: %+v", sum)
	}
	for host, p := range probe.peak {
		if p > 2 {
			t.Errorf("%s had %d requests in flight, cap 2", host, p)
		}
	}
	// 12 requests a host at 100/s with a burst of 1 take at least 110 ms.
	if el := time.Since(start); el < 110*time.Millisecond {
		t.Errorf("24 requests to two hosts at 100/s each took %s", el)
	}
}

func TestInterleaveByHost(t *testing.T) {
	in := []Entry{{ID: "a1", URL: "http://a/1"}, {ID: "a2", URL: "http://a/2"}, {ID: "a3", URL: "http://a/3"}, {ID: "f1", File: "x"}, {ID: "b1", URL: "http://B/1"}, {ID: "f2", Text: "t"}}
	var got []string
	for _, e := range interleaveByHost(in) {
		got = append(got, e.ID)
	}
	if want := "a1 f1 b1 a2 f2 a3"; strings.Join(got, " ") != want {
		t.Fatalf("order %q, want %q", strings.Join(got, " "), want)
	}
}

// flakyDigester fails each id with its code for the first fails[id] calls,
// then passes the request on.
type flakyDigester struct {
	next  Digester
	code  map[string]fault.Code
	fails map[string]int
	mu    sync.Mutex
	calls map[string]int
}

func (f *flakyDigester) Digest(ctx context.Context, req pipeline.Request) (*pipeline.Result, error) {
	f.mu.Lock()
	f.calls[req.ID]++
	n := f.calls[req.ID]
	f.mu.Unlock()
	if n <= f.fails[req.ID] {
		return nil, fault.E(f.code[req.ID], "flaky").With("retry_after", 0)
	}
	return f.next.Digest(ctx, req)
}

// TestJobRetries checks that retryable failures are tried again up to
// Retries times and non-retryable ones are not, and that the summary
// counts the retried sources.
func TestJobRetries(t *testing.T) {
	p, _ := newPipeline(t)
	text := "Placental DC-SIGNR plays a crucial role in mother-to-child transmission."
	entries := []Entry{
		{ID: "busy-once", Text: text, Line: 1},
		{ID: "timeout-always", Text: text, Line: 2},
		{ID: "invalid", Text: text, Line: 3},
		{ID: "fine", Text: text, Line: 4},
	}
	f := &flakyDigester{
		next:  p,
		code:  map[string]fault.Code{"busy-once": fault.Unavailable, "timeout-always": fault.FetchTimeout, "invalid": fault.InvalidFormat},
		fails: map[string]int{"busy-once": 1, "timeout-always": 100, "invalid": 100},
		calls: map[string]int{},
	}
	out := filepath.Join(t.TempDir(), "out.jsonl")
	job := &Job{Digester: f, Entries: entries, Query: "transmission", Output: out, Workers: 2, Retries: 2, RetryBackoff: time.Millisecond}
	sum, err := job.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"busy-once": 2, "timeout-always": 3, "invalid": 1, "fine": 1}
	for id, n := range want {
		if f.calls[id] != n {
			t.Errorf("%s: tried %d times, want %d", id, f.calls[id], n)
		}
	}
	lines := readOutput(t, out)
	if lines["busy-once"]["success"] != true {
		t.Errorf("busy-once: %v, want success after a retry", lines["busy-once"])
	}
	if got := errorCode(lines["timeout-always"]); got != string(fault.FetchTimeout) {
		t.Errorf("timeout-always: error_code %q, want %s", got, fault.FetchTimeout)
	}
	if sum.Retried != 2 || sum.RetriedSucceeded != 1 || sum.Failed != 2 {
		t.Errorf("summary: retried %d (%d then ok), failed %d; want 2 (1), 2", sum.Retried, sum.RetriedSucceeded, sum.Failed)
	}
}

func TestJobBackoff(t *testing.T) {
	j := &Job{RetryBackoff: 100 * time.Millisecond}
	for retry, want := range map[int]time.Duration{1: 100 * time.Millisecond, 2: 200 * time.Millisecond, 3: 400 * time.Millisecond, 40: maxBackoff} {
		for range 20 {
			if got := j.backoff(retry); got < want*3/4 || got > want*5/4 {
				t.Fatalf("backoff(%d) = %v, want within a quarter of %v", retry, got, want)
			}
		}
	}
}

// A gzip-compressed file is refused with a reason, not as an unknown type.
func TestGzipFileIsRefusedWithAReason(t *testing.T) {
	var j Job
	dir := t.TempDir()
	path := dir + "/page.html.gz"
	os.WriteFile(path, []byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3, 1, 2, 3}, 0o644)
	_, err := j.readFile(path)
	if fault.CodeOf(err) != fault.UnsupportedContentType || !strings.Contains(err.Error(), "gzip") {
		t.Fatalf("readFile(.html.gz) = %v", err)
	}
	entries, err := ScanDir(dir)
	if err != nil || len(entries) != 1 || entries[0].ID != "page.html.gz" {
		t.Errorf("ScanDir lists %v (%v), want the compressed page", entries, err)
	}
}
