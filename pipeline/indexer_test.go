package pipeline

import (
	"context"
	"fmt"
	"io/fs"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/search"
)

// heldIndex is a search.Index whose Put waits until held is closed and
// records what it is given; it holds nothing.
type heldIndex struct {
	search.Index
	held chan struct{}
	mu   sync.Mutex
	puts [][]archive.Hash
}

func (x *heldIndex) Source(context.Context, archive.Hash) (search.Source, error) {
	return search.Source{}, fs.ErrNotExist
}

func (x *heldIndex) Put(_ context.Context, docs ...search.Document) error {
	<-x.held
	var hs []archive.Hash
	for _, d := range docs {
		hs = append(hs, d.Source.Hash)
	}
	x.mu.Lock()
	x.puts = append(x.puts, hs)
	x.mu.Unlock()
	return nil
}

// The indexing queue holds at most maxQueuedTexts texts: one more waits for
// room, and one whose context ends first is left to the reconcile, counted
// as a failure; what was queued is put once each, in order, at most
// putTexts to a call, and WaitIndexed returns once it is.
func TestIndexQueueBounds(t *testing.T) {
	ctx := context.Background()
	idx := &heldIndex{held: make(chan struct{})}
	p := &Pipeline{Index: idx}
	var want []archive.Hash
	for i := range maxQueuedTexts {
		text := fmt.Sprintf("Text %d.", i)
		want = append(want, archive.SumString(text))
		p.queueIndex(ctx, want[i], text, "text", nil, time.Now())
	}
	gone, cancel := context.WithCancel(ctx)
	cancel()
	p.queueIndex(gone, archive.SumString("one more"), "One more.", "text", nil, time.Now())
	if n := p.indexFailures.Load(); n != 1 {
		t.Errorf("a text that found the queue full until its context ended: %d failures, want 1", n)
	}
	if err := p.WaitIndexed(gone); err == nil {
		t.Error("WaitIndexed with texts held and its context ended returned nil")
	}
	close(idx.held)
	if err := p.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	var got []archive.Hash
	for _, put := range idx.puts {
		if len(put) > putTexts {
			t.Errorf("a Put of %d texts, more than %d", len(put), putTexts)
		}
		got = append(got, put...)
	}
	if len(got) != len(want) {
		t.Fatalf("%d texts put, want %d", len(got), len(want))
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("text %d put out of order", i)
		}
	}
	// A text larger than the byte bound goes in alone when the queue is
	// empty.
	big := strings.Repeat("Words and more words. ", maxQueuedBytes/20)
	p.queueIndex(ctx, archive.SumString(big), big, "text", nil, time.Now())
	if err := p.WaitIndexed(ctx); err != nil {
		t.Fatal(err)
	}
	if last := idx.puts[len(idx.puts)-1]; len(last) != 1 || last[0] != archive.SumString(big) {
		t.Errorf("the large text: last Put %v", last)
	}
	if err := (&Pipeline{}).WaitIndexed(gone); err != nil {
		t.Errorf("WaitIndexed without an index: %v", err)
	}
}
