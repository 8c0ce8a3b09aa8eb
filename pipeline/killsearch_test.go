package pipeline_test

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/internal/testenv"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/search"
	"github.com/digestd/digestd/search/bleveindex"
)

const envSearchKillDir = "DIGESTD_PIPELINE_SEARCH_KILL_DIR"

// openIndexed opens the archive and the embedded index under dir.
func openIndexed(dir string) (*pipeline.Pipeline, error) {
	store, err := fsstore.Open(filepath.Join(dir, "archive"))
	if err != nil {
		return nil, err
	}
	idx, err := bleveindex.Open(filepath.Join(dir, "index"))
	if err != nil {
		return nil, err
	}
	return &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store, Index: idx}, nil
}

// TestSearchKillRoundsHelper is not a test: run with envSearchKillDir set
// (by TestAcknowledgedSourcesSearchableAfterKills), it reconciles the
// index as the service does at start, then digests texts with indexing on
// until it is killed, printing "ack <archive hash>" after each digest
// returns.
func TestSearchKillRoundsHelper(t *testing.T) {
	dir := os.Getenv(envSearchKillDir)
	if dir == "" {
		t.Skip("helper process for TestAcknowledgedSourcesSearchableAfterKills")
	}
	p, err := openIndexed(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "open:", err)
		os.Exit(2)
	}
	if _, err := p.Reindex(context.Background(), false); err != nil {
		fmt.Fprintln(os.Stderr, "reconcile:", err)
		os.Exit(2)
	}
	digestAndAck(p, 120)
}

// TestAcknowledgedSourcesSearchableAfterKills kills a process that digests
// with indexing on, at varying moments, round after round; after the
// reconcile that a start runs, every acknowledged source is in the index
// and searchable, and no passage is indexed twice.
func TestAcknowledgedSourcesSearchableAfterKills(t *testing.T) {
	testenv.FullSuite(t, "crash rounds with the search index")
	rounds := 100
	dir := t.TempDir()
	acked := map[string]bool{}
	for r := range rounds {
		cmd := exec.Command(os.Args[0], "-test.run=^TestSearchKillRoundsHelper$")
		cmd.Env = append(os.Environ(), envSearchKillDir+"="+dir, envKillRound+"="+strconv.Itoa(r))
		cmd.Stderr = os.Stderr
		killAfterAcks(t, cmd, 2+r%4, time.Duration(r%3)*time.Millisecond, acked)
	}
	p, err := openIndexed(dir)
	if err != nil {
		t.Fatalf("the index does not open after the kills: %v", err)
	}
	defer p.Index.Close()
	ctx := context.Background()
	if _, err := p.Reindex(ctx, false); err != nil {
		t.Fatal(err)
	}
	cands, _, err := p.Index.Candidates(ctx, "tide", search.Filter{}, 500)
	if err != nil {
		t.Fatal(err)
	}
	passages := map[string]int{}
	for _, c := range cands {
		passages[c.Source.String()]++
	}
	missing := 0
	for h := range acked {
		if _, err := p.Index.Source(ctx, archive.MustParseHash(h)); err != nil || passages[h] == 0 {
			missing++
		}
	}
	for h, n := range passages {
		if n != 1 {
			t.Errorf("%s has %d passages indexed, want 1", h, n)
		}
	}
	t.Logf("%d rounds: %d acknowledged, %d searchable", rounds, len(acked), len(passages))
	if len(acked) == 0 || missing > 0 {
		t.Errorf("%d of %d acknowledged sources are not searchable", missing, len(acked))
	}
}
