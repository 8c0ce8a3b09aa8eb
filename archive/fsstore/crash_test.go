package fsstore

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/archivetest"
	"github.com/digestd/digestd/internal/testenv"
)

// Environment variables that turn the test binary into a crash-test writer.
const (
	envCrashDir   = "DIGESTD_FSSTORE_CRASH_DIR"
	envCrashRound = "DIGESTD_FSSTORE_CRASH_ROUND"
)

func TestMain(m *testing.M) {
	if dir := os.Getenv(envCrashDir); dir != "" {
		round, _ := strconv.Atoi(os.Getenv(envCrashRound))
		if err := crashWriter(dir, round); err != nil {
			fmt.Fprintln(os.Stderr, "crash writer:", err)
			os.Exit(2)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// crashWriter puts blobs into the store at dir until it is killed, printing
// "ack <digest>" after each Put returns. Sizes vary up to 256 KiB so a kill
// often lands inside a write.
func crashWriter(dir string, round int) error {
	s, err := Open(dir)
	if err != nil {
		return err
	}
	out := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		seed := uint64(round)<<32 | uint64(i)
		size := int(seed*2654435761%(256<<10)) + 1
		d, err := archive.PutBytes(context.Background(), s, archivetest.Blob(seed, size))
		if err != nil {
			return err
		}
		if i%5 == 0 {
			if err := s.SetRef(context.Background(), fmt.Sprintf("crash/r%d", i%7), d); err != nil {
				return err
			}
		}
		fmt.Fprintf(out, "ack %s\n", d)
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// TestCrashSafety kills a writer process part-way several times, then
// reopens the store: no temporary file survives the sweep, every blob present
// reads back verified, and every blob the writer acknowledged is present.
func TestCrashSafety(t *testing.T) {
	testenv.FullSuite(t, "crash rounds: re-executes the test binary")
	dir := t.TempDir()
	acked := map[archive.Hash]bool{}
	tempsSeen := 0
	const rounds = 6
	for round := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^$")
		cmd.Env = append(os.Environ(), envCrashDir+"="+dir, envCrashRound+"="+strconv.Itoa(round))
		stdout, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		var stderr strings.Builder
		cmd.Stderr = &stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		lines := make(chan string)
		go func() {
			defer close(lines)
			r := bufio.NewReader(stdout)
			for {
				line, err := r.ReadString('\n')
				if err != nil {
					return // a line cut by the kill has no newline and is not an ack
				}
				lines <- strings.TrimSuffix(line, "\n")
			}
		}()
		// Kill after a varying number of acknowledged writes, so the kill
		// lands at different points of a write.
		killAfter := 5 + round*7
		deadline := time.After(3 * time.Second)
		n := 0
	wait:
		for n < killAfter {
			select {
			case line, ok := <-lines:
				if !ok {
					break wait
				}
				d, err := archive.ParseHash(strings.TrimPrefix(line, "ack "))
				if err != nil {
					t.Fatalf("writer printed %q", line)
				}
				acked[d] = true
				n++
			case <-deadline:
				break wait
			}
		}
		// Let the writer get into its next write, then kill it.
		time.Sleep(time.Duration(round%3) * time.Millisecond)
		if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
			t.Fatalf("kill writer: %v", err)
		}
		for line := range lines {
			if d, err := archive.ParseHash(strings.TrimPrefix(line, "ack ")); err == nil {
				acked[d] = true
			}
		}
		err = cmd.Wait()
		if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() {
			t.Fatalf("writer round %d ended by itself (%v) before it was killed: %s", round, err, stderr.String())
		}
		if n == 0 {
			t.Fatalf("writer round %d acknowledged nothing: %s", round, stderr.String())
		}
		tempsSeen += countTemps(t, dir)
	}
	t.Logf("%d rounds, %d blobs acknowledged, %d temporary files found after kills", rounds, len(acked), tempsSeen)

	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if n := countTemps(t, dir); n != 0 {
		t.Errorf("%d temporary files survive Open's sweep", n)
	}
	ctx := context.Background()
	present := map[archive.Hash]bool{}
	err = s.List(ctx, func(bi archive.BlobInfo) error {
		present[bi.Hash] = true
		rc, err := s.Get(ctx, bi.Hash)
		if err != nil {
			return err
		}
		defer rc.Close()
		n, err := io.Copy(io.Discard, rc)
		if err != nil {
			t.Errorf("blob %s does not verify after crashes: %v", bi.Hash, err)
		}
		if n != bi.Size {
			t.Errorf("blob %s: read %d bytes, listed %d", bi.Hash, n, bi.Size)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for d := range acked {
		if !present[d] {
			t.Errorf("acknowledged blob %s is missing", d)
		}
	}
	if len(present) < len(acked) {
		t.Errorf("%d blobs present, fewer than the %d acknowledged", len(present), len(acked))
	}
	err = s.ListRefs(ctx, "crash/", func(name string, d archive.Hash) error {
		if !present[d] {
			t.Errorf("ref %s points at %s, which is not stored", name, d)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
