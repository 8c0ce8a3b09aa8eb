package pipeline

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/search"
)

// Bounds of the indexing queue: a text archived while this much waits to be
// indexed waits, on the digest's path, for room (back-pressure); one text
// larger than the whole bound waits for an empty queue.
const (
	// maxQueuedTexts bounds the texts queued and being indexed.
	maxQueuedTexts = 256
	// maxQueuedBytes bounds their bytes: the index takes about 1 MB of
	// text a second on one core, so a search waits at most a few seconds
	// for what was archived before it (see Pipeline.WaitIndexed).
	maxQueuedBytes = 4 << 20
	// putTexts bounds the texts one Index.Put takes.
	putTexts = 64
	// indexTimeout bounds one call of the indexer to the index.
	indexTimeout = time.Minute
	// indexLinger is how long the indexer waits for more texts before it
	// puts fewer than putTexts, unless a search waits for them: each
	// Index.Put is a segment of the embedded engine, and merging many
	// small segments costs more than indexing them.
	indexLinger = 500 * time.Millisecond
	// maxKnownIndexed bounds the sources the indexer remembers as indexed
	// (about 100 bytes each); one it has forgotten costs one question to
	// the engine when it is archived again.
	maxKnownIndexed = 1 << 15
)

// indexJob is an archived text to put into the search index.
type indexJob struct {
	hash   archive.Hash
	text   string
	kind   string
	labels []string
	added  time.Time
}

// indexer feeds the search index off the digest's path: the archive queues
// each text it acknowledges (its source reference written), and one
// goroutine, started when the queue fills and ending when it empties, puts
// what waits into the index several texts to an Index.Put. What a crash
// loses of the queue, the reconcile at start indexes (Reindex): it indexes
// every source whose reference exists and the index lacks.
type indexer struct {
	mu      sync.Mutex
	queue   []indexJob
	texts   int   // queued and being indexed
	bytes   int64 // their text bytes
	running bool
	// queued counts the jobs ever queued, done those indexed (or failed),
	// in queue order.
	queued, done uint64
	// waiters counts the calls of WaitIndexed waiting: the indexer does not
	// linger while one does.
	waiters int
	// changed is closed, and replaced, whenever room frees or done grows.
	changed chan struct{}
	// indexed holds sources this process put into the index or found
	// there, with the labels they carry there: a text archived again
	// with the same labels (a repeated digest) is not queued, so the
	// cached path asks the engine nothing. At most maxKnownIndexed.
	indexed map[archive.Hash][]string
	// listing counts the reconciles (Reindex) still listing the archive
	// and the index, when what the index lacks is not known yet; lagging
	// counts the archived sources that reconciles found the index lacking
	// and have not yet indexed: a search does not find them.
	listing, lagging int
}

// reconcileBegin notes a reconcile that starts listing.
func (ix *indexer) reconcileBegin() {
	ix.mu.Lock()
	ix.listing++
	ix.mu.Unlock()
}

// reconcileListed notes that a reconcile has listed what the index lacks:
// n archived sources, about to be indexed.
func (ix *indexer) reconcileListed(n int) {
	ix.mu.Lock()
	ix.listing--
	ix.lagging += n
	ix.mu.Unlock()
}

// reconcileIndexed notes that n of the sources a reconcile found lacking
// are indexed, or that it gave them up (counted as failures).
func (ix *indexer) reconcileIndexed(n int) {
	ix.mu.Lock()
	ix.lagging -= n
	ix.mu.Unlock()
}

// lag reports how far the index is behind the archive: whether a
// reconcile is still finding out, and how many archived sources reconciles
// found it lacking and have yet to index.
func (ix *indexer) lag() (listing bool, lagging int) {
	ix.mu.Lock()
	defer ix.mu.Unlock()
	return ix.listing > 0, ix.lagging
}

// knownIndexed reports whether text is indexed with labels, as far as this
// process knows; mu is held.
func (ix *indexer) knownIndexed(text archive.Hash, labels []string) bool {
	have, ok := ix.indexed[text]
	return ok && slices.Equal(have, labels)
}

// noteIndexed remembers that text is indexed with labels; mu is held. At
// the bound it forgets a quarter of what it knows, in no set order.
func (ix *indexer) noteIndexed(text archive.Hash, labels []string) {
	if ix.indexed == nil {
		ix.indexed = make(map[archive.Hash][]string)
	}
	if _, ok := ix.indexed[text]; !ok && len(ix.indexed) >= maxKnownIndexed {
		for h := range ix.indexed {
			delete(ix.indexed, h)
			if len(ix.indexed) <= maxKnownIndexed*3/4 {
				break
			}
		}
	}
	ix.indexed[text] = labels
}

// forgetIndexed forgets what is known of text in the index: the
// reconcile and garbage collection call it for a source they remove or
// relabel.
func (p *Pipeline) forgetIndexed(text archive.Hash) {
	ix := &p.indexer
	ix.mu.Lock()
	delete(ix.indexed, text)
	ix.mu.Unlock()
}

// notify wakes every waiter; mu is held.
func (ix *indexer) notify() {
	if ix.changed != nil {
		close(ix.changed)
	}
	ix.changed = make(chan struct{})
}

// wait returns a channel closed at the next change; mu is held.
func (ix *indexer) wait() <-chan struct{} {
	if ix.changed == nil {
		ix.changed = make(chan struct{})
	}
	return ix.changed
}

// queueIndex queues an archived text for the search index, if there is one,
// with its labels; added is when it was archived. A text this process
// knows to be indexed with the same labels is not queued. It waits while
// the queue is full; a context that ends first leaves the text out,
// counted as a failure that the next reconcile mends, as is a text the
// index fails to take: indexing never fails a digest.
func (p *Pipeline) queueIndex(ctx context.Context, text archive.Hash, body, kind string, labels []string, added time.Time) {
	if p.Index == nil {
		return
	}
	ix := &p.indexer
	ix.mu.Lock()
	if ix.knownIndexed(text, labels) {
		ix.mu.Unlock()
		return
	}
	for ix.texts > 0 && (ix.texts >= maxQueuedTexts || ix.bytes+int64(len(body)) > maxQueuedBytes) {
		ch := ix.wait()
		ix.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			p.indexFailed(1, text, ctx.Err())
			return
		}
		ix.mu.Lock()
	}
	ix.queue = append(ix.queue, indexJob{hash: text, text: body, kind: kind, labels: labels, added: added.UTC().Truncate(time.Second)})
	ix.texts++
	ix.bytes += int64(len(body))
	ix.queued++
	ix.notify()
	if !ix.running {
		ix.running = true
		go p.runIndexer()
	}
	ix.mu.Unlock()
}

// runIndexer indexes what is queued until the queue is empty.
func (p *Pipeline) runIndexer() {
	ix := &p.indexer
	for {
		ix.mu.Lock()
		if len(ix.queue) == 0 {
			ix.running = false
			ix.mu.Unlock()
			return
		}
		linger := time.NewTimer(indexLinger)
	wait:
		for len(ix.queue) < putTexts && ix.waiters == 0 {
			ch := ix.wait()
			ix.mu.Unlock()
			select {
			case <-ch:
				ix.mu.Lock()
			case <-linger.C:
				ix.mu.Lock()
				break wait
			}
		}
		linger.Stop()
		n := min(len(ix.queue), putTexts)
		jobs := slices.Clone(ix.queue[:n])
		ix.queue = slices.Delete(ix.queue, 0, n)
		ix.mu.Unlock()

		ctx, cancel := context.WithTimeout(context.Background(), indexTimeout)
		p.indexJobs(ctx, jobs)
		cancel()

		var bytes int64
		for _, j := range jobs {
			bytes += int64(len(j.text))
		}
		ix.mu.Lock()
		ix.texts -= len(jobs)
		ix.bytes -= bytes
		ix.done += uint64(len(jobs))
		ix.notify()
		ix.mu.Unlock()
	}
}

// indexJobs puts jobs into the index: a text the index holds keeps its time
// and has only its labels rewritten (nothing when they are the same); the
// others are put in one call. Each source the index then holds as its job
// asks is remembered (noteIndexed), in job order, so the last job of a
// source gives its labels.
func (p *Pipeline) indexJobs(ctx context.Context, jobs []indexJob) {
	var docs []search.Document
	// held[i] reports that jobs[i] is in the index as it asks, unless it
	// is put: then the Put decides.
	held := make([]bool, len(jobs))
	for i, j := range jobs {
		src := search.Source{Hash: j.hash, Kind: j.kind, Added: j.added, Labels: j.labels}
		if old, err := p.Index.Source(ctx, j.hash); err == nil && !slices.ContainsFunc(docs, func(d search.Document) bool { return d.Source.Hash == j.hash }) {
			if slices.Equal(old.Labels, j.labels) {
				held[i] = true
				continue
			}
			if err := p.Index.SetLabels(ctx, j.hash, j.labels); err == nil {
				held[i] = true
				continue
			}
		}
		docs = append(docs, search.Document{Source: src, Passages: search.PassagesOf(j.text)})
	}
	var putErr error
	if len(docs) > 0 {
		if putErr = p.Index.Put(ctx, docs...); putErr != nil {
			for _, d := range search.LastPerSource(docs) {
				p.indexFailed(1, d.Source.Hash, putErr)
			}
		}
	}
	ix := &p.indexer
	ix.mu.Lock()
	defer ix.mu.Unlock()
	for i, j := range jobs {
		if held[i] || putErr == nil {
			ix.noteIndexed(j.hash, j.labels)
		} else {
			delete(ix.indexed, j.hash)
		}
	}
}

// indexFailed counts n texts the index did not take and logs the first.
func (p *Pipeline) indexFailed(n int64, text archive.Hash, err error) {
	p.indexFailures.Add(n)
	if p.Log != nil {
		p.Log.Warn("search index: a source was not indexed; reconcile will", "archive_hash", text.String(), "err", err)
	}
}

// WaitIndexed waits until every text archived before the call is in the
// search index (or failed to enter it), or ctx ends: a search sees what
// was archived before it. Without an index it returns at once.
func (p *Pipeline) WaitIndexed(ctx context.Context) error {
	ix := &p.indexer
	ix.mu.Lock()
	defer ix.mu.Unlock()
	want := ix.queued
	if ix.done >= want {
		return nil
	}
	ix.waiters++
	ix.notify()
	defer func() { ix.waiters-- }()
	for ix.done < want {
		ch := ix.wait()
		ix.mu.Unlock()
		select {
		case <-ch:
		case <-ctx.Done():
			ix.mu.Lock()
			return ctx.Err()
		}
		ix.mu.Lock()
	}
	return nil
}
