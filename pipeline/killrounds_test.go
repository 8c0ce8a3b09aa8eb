package pipeline_test

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/internal/testenv"
	"github.com/digestd/digestd/pipeline"
)

const envKillDir, envKillRound = "DIGESTD_PIPELINE_KILL_DIR", "DIGESTD_PIPELINE_KILL_ROUND"

// TestKillRoundsHelper is not a test: run with envKillDir set (by
// TestAcknowledgedSourcesSurviveKills), it digests new texts into the
// archive (from a pool shared by the rounds) until it is killed, printing "ack <archive hash>" after each
// digest returns.
func TestKillRoundsHelper(t *testing.T) {
	dir := os.Getenv(envKillDir)
	if dir == "" {
		t.Skip("helper process for TestAcknowledgedSourcesSurviveKills")
	}
	store, err := fsstore.Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(2)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	// Rounds share texts, so that a text whose archiving a kill cut
	// short is acknowledged by a later round.
	digestAndAck(p, 40)
}

// digestAndAck digests texts drawn from a pool of texts (their number)
// through p until the process is killed, printing "ack <archive hash>"
// after each digest returns. The round (envKillRound) picks where in the
// pool it starts.
func digestAndAck(p *pipeline.Pipeline, texts int) {
	round, _ := strconv.Atoi(os.Getenv(envKillRound))
	out := bufio.NewWriter(os.Stdout)
	for i := 0; ; i++ {
		text := fmt.Sprintf("Source %d says the tide rises twice a day.", (round*3+i)%texts)
		res, err := p.Digest(context.Background(), pipeline.Request{Source: ingest.Source{Text: text}, Query: "tides"})
		if err != nil {
			continue
		}
		fmt.Fprintf(out, "ack %s\n", res.Source.ArchiveHash)
		out.Flush()
	}
}

// killAfterAcks runs cmd (a helper that prints "ack <archive hash>" lines),
// notes every hash it acknowledges in acked, and kills it delay after its
// want-th acknowledgement.
func killAfterAcks(t *testing.T, cmd *exec.Cmd, want int, delay time.Duration, acked map[string]bool) {
	t.Helper()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	lines := make(chan string)
	go func() {
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
		close(lines)
	}()
	n := 0
	for line := range lines {
		if h, ok := strings.CutPrefix(line, "ack "); ok {
			acked[h] = true
			n++
		}
		if n == want {
			time.Sleep(delay)
			cmd.Process.Kill()
		}
	}
	cmd.Wait()
}

// TestAcknowledgedSourcesSurviveKills kills a process that archives
// sources through the pipeline at varying moments, round after round, and
// checks that every source it acknowledged is listed. A kill rarely lands
// between two reference writes; TestAcknowledgedSourceIsListed interrupts
// each of them deterministically.
func TestAcknowledgedSourcesSurviveKills(t *testing.T) {
	testenv.FullSuite(t, "crash rounds (TestAcknowledgedSourceIsListed interrupts each write in the quick tier)")
	rounds := 100
	dir := t.TempDir()
	acked := map[string]bool{}
	for r := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestKillRoundsHelper$")
		cmd.Env = append(os.Environ(), envKillDir+"="+dir, envKillRound+"="+strconv.Itoa(r))
		// Kill after a few acknowledgements, at a moment that varies.
		killAfterAcks(t, cmd, 3+r%5, time.Duration(r%4)*time.Millisecond, acked)
	}
	store, err := fsstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	listed := map[string]bool{}
	after := ""
	for {
		page, err := p.ListSources(context.Background(), after, 100)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Sources {
			if listed[e.ArchiveHash.String()] {
				t.Errorf("%s is listed twice", e.ArchiveHash)
			}
			listed[e.ArchiveHash.String()] = true
		}
		if !page.More {
			break
		}
		after = page.Next
	}
	missing := 0
	for h := range acked {
		if !listed[h] {
			missing++
		}
	}
	t.Logf("%d rounds: %d acknowledged, %d listed", rounds, len(acked), len(listed))
	if len(acked) == 0 || missing > 0 {
		t.Errorf("%d of %d acknowledged sources are not listed", missing, len(acked))
	}
}
