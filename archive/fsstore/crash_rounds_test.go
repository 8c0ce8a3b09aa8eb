package fsstore

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/archivetest"
	"github.com/digestd/digestd/internal/testenv"
)

// Environment of the concurrent crash writer (see
// TestCrashRoundsWriterProcess).
const (
	envRoundsDir    = "DIGESTD_FSSTORE_ROUNDS_DIR"
	envRoundsSeed   = "DIGESTD_FSSTORE_ROUNDS_SEED"
	roundsWriters   = 4  // goroutines per writer process
	roundsProcesses = 2  // writer processes per round
	roundsRefs      = 5  // ref names shared by every writer
	roundsShared    = 16 // blobs every writer puts, so that puts of one blob race
)

// TestCrashRoundsWriterProcess is not a test: run with envRoundsDir set
// (by TestCrashRoundsConcurrent), it becomes a writer that puts blobs and
// sets refs into the store from several goroutines until it is killed,
// printing "ack <digest>" after each Put returns and "ref <name> <digest>"
// after each SetRef returns.
func TestCrashRoundsWriterProcess(t *testing.T) {
	dir := os.Getenv(envRoundsDir)
	if dir == "" {
		t.Skip("helper process for TestCrashRoundsConcurrent")
	}
	seed, _ := strconv.ParseUint(os.Getenv(envRoundsSeed), 10, 64)
	s, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(2)
	}
	var mu sync.Mutex
	out := bufio.NewWriter(os.Stdout)
	say := func(format string, args ...any) {
		mu.Lock()
		defer mu.Unlock()
		fmt.Fprintf(out, format+"\n", args...)
		out.Flush()
	}
	ctx := context.Background()
	for w := range roundsWriters {
		go func() {
			r := rand.New(rand.NewPCG(seed, uint64(w)))
			for i := 0; ; i++ {
				// A quarter of the puts are of the shared blobs.
				blobSeed := seed<<20 | uint64(w)<<16 | uint64(i)
				if r.IntN(4) == 0 {
					blobSeed = uint64(r.IntN(roundsShared))
				}
				size := int(blobSeed*2654435761%(128<<10)) + 1
				d, err := archive.PutBytes(ctx, s, archivetest.Blob(blobSeed, size))
				if err != nil {
					fmt.Fprintln(os.Stderr, "put:", err)
					os.Exit(2)
				}
				say("ack %s", d)
				if r.IntN(3) == 0 {
					name := fmt.Sprintf("rounds/r%d", r.IntN(roundsRefs))
					if err := s.SetRef(ctx, name, d); err != nil {
						fmt.Fprintln(os.Stderr, "setref:", err)
						os.Exit(2)
					}
					say("ref %s %s", name, d)
				}
			}
		}()
	}
	select {} // until killed
}

// TestCrashRoundsConcurrent runs many rounds in which two writer
// processes, each with four goroutines, put blobs (a quarter of them the
// same few blobs, so puts of one blob race each other across processes)
// and set shared refs in one store, while this process reopens the store
// (and so sweeps it) under them; then both writers are SIGKILLed at a
// random moment. After every round, reopening the store leaves no
// temporary file; every listed blob reads back verified with its listed
// size; every acknowledged blob is present; every ref reads cleanly and
// points at a stored blob that was put; and a live writer never had a
// temporary file swept from under it (it would exit on its own).
func TestCrashRoundsConcurrent(t *testing.T) {
	testenv.FullSuite(t, "crash rounds: re-executes the test binary")
	if os.Getenv(envRoundsDir) != "" {
		t.Skip("inside a writer process")
	}
	dir := t.TempDir()
	ctx := context.Background()
	acked := map[archive.Hash]bool{}
	rng := rand.New(rand.NewPCG(42, 1))
	const rounds = 20
	tempsSeen := 0
	for round := range rounds {
		type writer struct {
			cmd    *exec.Cmd
			stderr *strings.Builder
			lines  chan string
		}
		var writers []writer
		for p := range roundsProcesses {
			cmd := exec.Command(os.Args[0], "-test.run=^TestCrashRoundsWriterProcess$")
			cmd.Env = append(os.Environ(), envRoundsDir+"="+dir, envRoundsSeed+"="+strconv.Itoa(round*roundsProcesses+p+1))
			stdout, err := cmd.StdoutPipe()
			if err != nil {
				t.Fatal(err)
			}
			w := writer{cmd: cmd, stderr: &strings.Builder{}, lines: make(chan string, 1024)}
			cmd.Stderr = w.stderr
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			go func() {
				defer close(w.lines)
				r := bufio.NewReader(stdout)
				for {
					line, err := r.ReadString('\n')
					if err != nil {
						return // a line cut by the kill is not an acknowledgement
					}
					w.lines <- strings.TrimSuffix(line, "\n")
				}
			}()
			writers = append(writers, w)
		}
		take := func(line string) {
			f := strings.Fields(line)
			switch {
			case len(f) == 2 && f[0] == "ack":
				d, err := archive.ParseHash(f[1])
				if err != nil {
					t.Fatalf("writer printed %q", line)
				}
				acked[d] = true
			case len(f) == 3 && f[0] == "ref":
				if _, err := archive.ParseHash(f[2]); err != nil {
					t.Fatalf("writer printed %q", line)
				}
			default:
				t.Fatalf("writer printed %q", line)
			}
		}
		// Each writer is writing once it has acknowledged a blob.
		for _, w := range writers {
			select {
			case line, ok := <-w.lines:
				if !ok {
					t.Fatalf("round %d: a writer ended at start: %s", round, w.stderr.String())
				}
				take(line)
			case <-time.After(30 * time.Second):
				t.Fatalf("round %d: a writer acknowledged nothing in 30s", round)
			}
		}
		// Let them write for a random while, sweeping under them.
		until := time.Now().Add(time.Duration(rng.IntN(150)) * time.Millisecond)
		for time.Now().Before(until) {
			if _, err := Open(dir); err != nil {
				t.Fatalf("round %d: Open while writers run: %v", round, err)
			}
			time.Sleep(10 * time.Millisecond)
		}
		for _, w := range writers {
			w.cmd.Process.Signal(syscall.SIGKILL)
		}
		for _, w := range writers {
			for line := range w.lines {
				take(line)
			}
			w.cmd.Wait() // reap it, so its pid reads as gone
			if ws, ok := w.cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
				t.Fatalf("round %d: a writer ended by itself before it was killed: %s", round, w.stderr.String())
			}
		}
		tempsSeen += countTemps(t, dir)
		checkStoreAfterCrash(t, ctx, dir, acked, round)
	}
	t.Logf("%d rounds × %d processes × %d goroutines: %d blobs acknowledged, %d temporary files found right after kills",
		rounds, roundsProcesses, roundsWriters, len(acked), tempsSeen)
}

// checkStoreAfterCrash reopens the store at dir and checks it whole.
func checkStoreAfterCrash(t *testing.T, ctx context.Context, dir string, acked map[archive.Hash]bool, round int) {
	t.Helper()
	s, err := Open(dir)
	if err != nil {
		t.Fatalf("round %d: reopen: %v", round, err)
	}
	if n := countTemps(t, dir); n != 0 {
		t.Errorf("round %d: %d temporary files survive Open's sweep", round, n)
	}
	present := map[archive.Hash]bool{}
	err = s.List(ctx, func(bi archive.BlobInfo) error {
		present[bi.Hash] = true
		rc, err := s.Get(ctx, bi.Hash)
		if err != nil {
			return fmt.Errorf("get %s: %w", bi.Hash, err)
		}
		defer rc.Close()
		n, err := io.Copy(io.Discard, rc)
		if err != nil {
			t.Errorf("round %d: blob %s does not verify: %v", round, bi.Hash, err)
		}
		if n != bi.Size {
			t.Errorf("round %d: blob %s read %d bytes, listed %d", round, bi.Hash, n, bi.Size)
		}
		return nil
	})
	if err != nil {
		t.Fatalf("round %d: list: %v", round, err)
	}
	for d := range acked {
		if !present[d] {
			t.Errorf("round %d: acknowledged blob %s is missing", round, d)
		}
	}
	for i := range roundsRefs {
		name := fmt.Sprintf("rounds/r%d", i)
		d, err := s.Ref(ctx, name)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			t.Errorf("round %d: ref %s unreadable after a crash: %v", round, name, err)
		case !present[d]:
			t.Errorf("round %d: ref %s points at %s, which is not stored", round, name, d)
		}
	}
}
