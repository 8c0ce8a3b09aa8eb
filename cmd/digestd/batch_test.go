package main

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/batch"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/internal/shareddata"
	"github.com/digestd/digestd/internal/testenv"
)

// sharedData returns the evaluation data's folder (see shareddata.Set).
func sharedData(t testing.TB) string { return shareddata.Set(t, "") }

func TestBatchFatalProblems(t *testing.T) {
	dir := t.TempDir()
	write := func(name, content string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	good := write("good.jsonl", `{"id":"a","text":"Some text."}`+"\n")
	bad := write("bad.jsonl", `{"id":"a","text":"Some text."}`+"\n"+`{"id":"b","text":"x","url":"https://example.org/"}`+"\n")
	dup := write("dup.jsonl", `{"id":"a","text":"x"}`+"\n"+`{"id":"b","text":"y"}`+"\n"+`{"id":"a","text":"z"}`+"\n")
	out := filepath.Join(dir, "out.jsonl")
	arch := filepath.Join(dir, "archive")
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"bad line", []string{"--manifest", bad, "--out", out}, "line 2"},
		{"duplicate ids", []string{"--manifest", dup, "--out", out}, `"a" on lines 1, 3`},
		{"missing manifest", []string{"--manifest", filepath.Join(dir, "nope.jsonl"), "--out", out}, "open manifest"},
		{"no output", []string{"--manifest", good}, "--out is required"},
		{"manifest and dir", []string{"--manifest", good, "--dir", dir, "--out", out}, "exactly one of --manifest and --dir"},
		{"bad shard", []string{"--manifest", good, "--out", out, "--shard", "2/2"}, "out of range"},
		{"auto shard without index", []string{"--manifest", good, "--out", out, "--shard", "auto", "--shards", "3"}, "JOB_COMPLETION_INDEX"},
		{"failed status 1", []string{"--manifest", good, "--out", out, "--failed-status", "1"}, "--failed-status"},
		{"unwritable output", []string{"--manifest", good, "--out", filepath.Join(dir, "no-dir", "out.jsonl")}, "open output"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("JOB_COMPLETION_INDEX", "")
			os.Unsetenv("JOB_COMPLETION_INDEX")
			var stderr bytes.Buffer
			args := append([]string{"batch", "--archive", arch}, tc.args...)
			err := run(context.Background(), args, strings.NewReader(""), io.Discard, &stderr)
			var ee *exitError
			if !errors.As(err, &ee) || ee.code != 1 || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %v, want exit status 1 with %q", err, tc.want)
			}
		})
	}
}

func TestParseShardFlags(t *testing.T) {
	tests := []struct {
		shard, index string
		shards       int
		want         batch.Shard
		wantErr      bool
	}{
		{"", "", 0, batch.Shard{}, false},
		{"1/3", "", 0, batch.Shard{Index: 1, Count: 3}, false},
		{"auto", "2", 4, batch.Shard{Index: 2, Count: 4}, false},
		{"auto", "4", 4, batch.Shard{}, true},
		{"auto", "x", 4, batch.Shard{}, true},
		{"auto", "1", 0, batch.Shard{}, true},
		{"1/3", "", 3, batch.Shard{}, true},
		{"", "", 3, batch.Shard{}, true},
	}
	for _, tc := range tests {
		t.Setenv("JOB_COMPLETION_INDEX", tc.index)
		got, err := parseShardFlags(tc.shard, tc.shards)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("--shard %q --shards %d (index %q) = %v, %v; want %v, error %v", tc.shard, tc.shards, tc.index, got, err, tc.want, tc.wantErr)
		}
	}
}

// buildDigestd builds the digestd binary into a temporary directory.
func buildDigestd(t *testing.T) string {
	t.Helper()
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go tool is not on PATH: %v", err)
	}
	bin := filepath.Join(t.TempDir(), "digestd")
	cmd := exec.Command(goTool, "build", "-o", bin, ".")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// expectation is what a source of the crash test must end as.
type expectation int

const (
	mustSucceed  expectation = iota // a success line whose locators verify
	mayFail                         // success (verified) or a client-class error
	mustFailWith                    // an error line with a given code
)

type expected struct {
	kind expectation
	code string
}

// TestBatchCrashResume is the batch job's end-to-end test: a few hundred
// sources, some of them poison, killed with SIGKILL part-way, a torn line
// appended as a crash mid-write would leave, then the same command again.
// Every id must end up exactly once, every success must verify against the
// archive, every poison source must be an error line with a stable code,
// and the exit status must be 2.
func TestBatchCrashResume(t *testing.T) {
	testenv.FullSuite(t, "builds and kills the digestd binary")
	bin := buildDigestd(t)
	work := t.TempDir()
	srcDir := filepath.Join(work, "sources")
	if err := os.MkdirAll(srcDir, 0o755); err != nil {
		t.Fatal(err)
	}
	type line struct {
		ID    string `json:"id"`
		File  string `json:"file,omitempty"`
		Text  string `json:"text,omitempty"`
		Query string `json:"query,omitempty"`
	}
	var manifest []line
	want := map[string]expected{}

	rng := rand.New(rand.NewPCG(1, 2))
	for i := range 260 {
		name := fmt.Sprintf("text-%03d.txt", i)
		if err := os.WriteFile(filepath.Join(srcDir, name), []byte(generatedText(rng, i)), 0o644); err != nil {
			t.Fatal(err)
		}
		manifest = append(manifest, line{ID: name, File: "sources/" + name})
		want[name] = expected{kind: mustSucceed}
	}
	for i := range 10 {
		id := fmt.Sprintf("missing-%d", i)
		manifest = append(manifest, line{ID: id, File: fmt.Sprintf("sources/missing-%d.txt", i)})
		want[id] = expected{kind: mustFailWith, code: "NOT_FOUND"}
	}
	if err := os.Mkdir(filepath.Join(srcDir, "a-directory.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	manifest = append(manifest, line{ID: "unreadable", File: "sources/a-directory.txt"})
	want["unreadable"] = expected{kind: mustFailWith, code: "INVALID_FORMAT"}
	manifest = append(manifest, line{ID: "inline", Text: "Inline sources are text. They are digested like files.", Query: "inline sources"})
	want["inline"] = expected{kind: mustSucceed}

	if data := sharedDataOrSkip(t); data != "" {
		pages, err := filepath.Glob(filepath.Join(data, "extract-html-trafilatura", "html", "*.html.gz"))
		if err != nil || len(pages) == 0 {
			t.Fatalf("no trafilatura pages in %s: %v", data, err)
		}
		sort.Strings(pages)
		for _, p := range pages[:min(60, len(pages))] {
			name := strings.TrimSuffix(filepath.Base(p), ".gz")
			gunzipTo(t, p, filepath.Join(srcDir, name))
			manifest = append(manifest, line{ID: name, File: "sources/" + name})
			want[name] = expected{kind: mayFail}
		}
		pdfs, err := filepath.Glob(filepath.Join(data, "hostile-pdf-samples", "*.pdf"))
		if err != nil || len(pdfs) == 0 {
			t.Fatalf("no hostile PDFs in %s: %v", data, err)
		}
		for _, p := range pdfs {
			// Whether a hostile PDF yields text depends on how much the
			// reader repairs; what must hold is that each ends as a
			// verified digest or a clean client-class error line, and
			// that the run survives them all.
			id := "hostile/" + filepath.Base(p)
			manifest = append(manifest, line{ID: id, File: p})
			want[id] = expected{kind: mayFail}
		}
	}
	rng.Shuffle(len(manifest), func(i, j int) { manifest[i], manifest[j] = manifest[j], manifest[i] })
	var mb bytes.Buffer
	for _, l := range manifest {
		b, _ := json.Marshal(l)
		mb.Write(append(b, '\n'))
	}
	manifestPath := filepath.Join(work, "sources.jsonl")
	if err := os.WriteFile(manifestPath, mb.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(work, "digests.jsonl")
	arch := filepath.Join(work, "archive")
	args := []string{"batch", "--manifest", manifestPath, "--query", "what causes transmission of the infection?",
		"--out", out, "--archive", arch, "-j", "2", "--fsync-interval", "20ms",
		"--pdf-deadline", "5s", "--pdf-memory-bytes", "536870912", "--progress-interval", "1s"}
	command := func() *exec.Cmd {
		cmd := exec.Command(bin, args...)
		cmd.Env = cleanEnv()
		return cmd
	}

	// First run: killed once some lines exist.
	first := command()
	var firstErr bytes.Buffer
	first.Stderr = &firstErr
	if err := first.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- first.Wait() }()
	deadline := time.After(40 * time.Second)
wait:
	for {
		select {
		case err := <-exited:
			t.Fatalf("the first run ended (%v) before it was killed; make the batch bigger\n%s", err, firstErr.String())
		case <-deadline:
			first.Process.Kill()
			t.Fatalf("the first run wrote fewer than 25 lines in 40s\n%s", firstErr.String())
		case <-time.After(10 * time.Millisecond):
			if countLines(t, out) >= 25 {
				break wait
			}
		}
	}
	if err := first.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	<-exited
	killedAt := countLines(t, out)
	if killedAt >= len(manifest) {
		t.Fatalf("all %d lines were written before the kill", killedAt)
	}
	// A crash in the middle of a write leaves a torn last line.
	f, err := os.OpenFile(out, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"id":"text-000.txt","status":200,"envelope":{"success":tr`)
	f.Close()

	// Second run: the same command finishes the rest.
	second := command()
	var secondErr bytes.Buffer
	second.Stderr = &secondErr
	err = second.Run()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 2 {
		t.Fatalf("resumed run: %v, want exit status 2\n%s", err, secondErr.String())
	}
	t.Logf("killed after %d lines; resumed run:\n%s", killedAt, lastLines(secondErr.String(), 4))
	if !strings.Contains(secondErr.String(), "repaired the output") {
		t.Errorf("the resumed run did not report repairing the torn line:\n%s", secondErr.String())
	}

	checkOutput(t, out, arch, want)

	// Third run: nothing left to do; the output is unchanged.
	before, _ := os.ReadFile(out)
	third := command()
	var thirdErr bytes.Buffer
	third.Stderr = &thirdErr
	err = third.Run()
	if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(thirdErr.String(), " 0 digested now") {
		t.Fatalf("third run: %v, want exit status 2 with nothing digested\n%s", err, thirdErr.String())
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
		t.Error("a run with nothing to do changed the output")
	}
}

// sharedDataOrSkip returns the shared data directory, or "" when it is
// absent outside CI (the shared-data sources are then left out, and the rest
// of the test still runs).
func sharedDataOrSkip(t *testing.T) string {
	dir := ""
	t.Run("shared-data", func(t *testing.T) { dir = sharedData(t) })
	return dir
}

// checkOutput checks every id once, every success verified, every error as
// expected.
func checkOutput(t *testing.T, out, arch string, want map[string]expected) {
	t.Helper()
	store, err := openStore(context.Background(), arch)
	if err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	codePattern := regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
	seen := map[string]bool{}
	outcomes := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l struct {
			ID       string `json:"id"`
			Status   int    `json:"status"`
			Envelope struct {
				Success bool            `json:"success"`
				Data    json.RawMessage `json:"data"`
				Meta    struct {
					Version string `json:"version"`
				} `json:"meta"`
			} `json:"envelope"`
		}
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("output line is not JSON: %v", err)
		}
		if seen[l.ID] {
			t.Errorf("%s appears more than once", l.ID)
		}
		seen[l.ID] = true
		exp, ok := want[l.ID]
		if !ok {
			t.Errorf("output has a line for %q, which is not in the manifest", l.ID)
			continue
		}
		if l.Envelope.Meta.Version != "response-v2" {
			t.Errorf("%s: meta.version %q", l.ID, l.Envelope.Meta.Version)
		}
		if l.Envelope.Success {
			outcomes["ok"]++
			if exp.kind == mustFailWith {
				t.Errorf("%s: poison source succeeded", l.ID)
				continue
			}
			var d struct {
				Digest *digest.Payload `json:"digest"`
				Source struct {
					ArchiveHash string `json:"archive_hash"`
				} `json:"source"`
			}
			if err := json.Unmarshal(l.Envelope.Data, &d); err != nil || d.Digest == nil {
				t.Errorf("%s: success without a digest: %v", l.ID, err)
				continue
			}
			if err := digest.Validate(d.Digest); err != nil {
				t.Errorf("%s: payload does not validate: %v", l.ID, err)
			}
			h, err := archive.ParseHash(d.Source.ArchiveHash)
			if err != nil || d.Digest.SourceTextHash != d.Source.ArchiveHash {
				t.Errorf("%s: archive hash %q, source_text_hash %q", l.ID, d.Source.ArchiveHash, d.Digest.SourceTextHash)
				continue
			}
			text, err := archive.ReadAll(context.Background(), store, h, 64<<20)
			if err != nil {
				t.Errorf("%s: archived text: %v", l.ID, err)
				continue
			}
			if _, err := digest.Verify(d.Digest, archive.NewBlob(string(text))); err != nil {
				t.Errorf("%s: locators do not verify against the archived text: %v", l.ID, err)
			}
			continue
		}
		var e struct {
			ErrorCode string `json:"error_code"`
		}
		json.Unmarshal(l.Envelope.Data, &e)
		outcomes[e.ErrorCode]++
		clientClass := (l.Status >= 400 && l.Status < 500) || e.ErrorCode == "FEATURE_DISABLED"
		switch {
		case !codePattern.MatchString(e.ErrorCode):
			t.Errorf("%s: error line without a stable error_code (%q)", l.ID, e.ErrorCode)
		case e.ErrorCode == "INTERNAL_ERROR":
			t.Errorf("%s: INTERNAL_ERROR", l.ID)
		case exp.kind == mustSucceed:
			t.Errorf("%s: failed with %s, want success", l.ID, e.ErrorCode)
		case exp.kind == mustFailWith && e.ErrorCode != exp.code:
			t.Errorf("%s: error %s, want %s", l.ID, e.ErrorCode, exp.code)
		case !clientClass:
			t.Errorf("%s: error %s with status %d, want a client-class error", l.ID, e.ErrorCode, l.Status)
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	for id := range want {
		if !seen[id] {
			t.Errorf("%s has no output line", id)
		}
	}
	t.Logf("outcomes: %v", outcomes)
}

func countLines(t *testing.T, path string) int {
	b, err := os.ReadFile(path)
	if errors.Is(err, os.ErrNotExist) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return bytes.Count(b, []byte("\n"))
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}

// cleanEnv is the environment without DIGESTD_* variables, which would
// change the command's flags.
func cleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DIGESTD_") {
			env = append(env, kv)
		}
	}
	return env
}

func gunzipTo(t *testing.T, src, dst string) {
	t.Helper()
	in, err := os.Open(src)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Close()
	zr, err := gzip.NewReader(in)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	b, err := io.ReadAll(zr)
	if err != nil {
		t.Fatalf("%s: %v", src, err)
	}
	if err := os.WriteFile(dst, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// generatedText is a deterministic document of a few dozen paragraphs.
func generatedText(rng *rand.Rand, n int) string {
	subjects := []string{"The cohort", "Placental DC-SIGNR", "Transmission at birth", "The infection", "Breastfeeding", "Viral load", "The study", "Antiretroviral therapy"}
	verbs := []string{"reduces", "explains", "is associated with", "predicts", "does not change", "doubles", "accounts for"}
	objects := []string{"the risk of transmission", "infection in children", "maternal viral load", "outcomes at six months", "the main cause of infection", "the observed cases"}
	var b strings.Builder
	fmt.Fprintf(&b, "Report %d\n", n)
	for p := range 40 {
		for s := range 6 {
			fmt.Fprintf(&b, "%s %s %s in group %d. ", subjects[rng.IntN(len(subjects))], verbs[rng.IntN(len(verbs))], objects[rng.IntN(len(objects))], p*6+s)
		}
		b.WriteString("\n")
	}
	return b.String()
}
