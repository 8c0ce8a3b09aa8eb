package pipeline

import (
	"context"
	"sync"
	"time"

	"github.com/digestd/digestd/archive"
)

// Stats counts what the pipeline has done since it started, and the size of
// the archive.
type Stats struct {
	CacheHits, CacheMisses int64
	// CorruptSeen counts the corrupt blobs found since start; CorruptNow
	// those of them not repaired yet.
	CorruptSeen, CorruptNow int64
	// ArchiveBlobs and ArchiveBytes are the archive's size: counted by a
	// full listing at ArchiveCountedAt (zero before the first count ends),
	// then kept up to date by the pipeline's own writes and collections.
	ArchiveBlobs, ArchiveBytes int64
	ArchiveCountedAt           time.Time
}

// ArchiveRecount is the age of the archive's count after which Stats starts
// a new one in the background: writes by other processes sharing the
// archive (another replica, a gc run) show only in a new count.
const ArchiveRecount = 10 * time.Minute

// Stats returns the pipeline's counters. It never lists the archive
// itself: when the archive's size was never counted, or was counted more
// than ArchiveRecount ago, it starts a count in the background (see
// CountArchive) and answers with what is known.
func (p *Pipeline) Stats() Stats {
	var now int64
	p.corrupt.Range(func(_, _ any) bool { now++; return true })
	s := Stats{CacheHits: p.cacheHits.Load(), CacheMisses: p.cacheMisses.Load(), CorruptSeen: p.corruptSeen.Load(), CorruptNow: now}
	a := &p.size
	a.mu.Lock()
	s.ArchiveBlobs, s.ArchiveBytes, s.ArchiveCountedAt = a.blobs, a.bytes, a.at
	stale := !a.pending && (a.at.IsZero() || time.Since(a.at) > ArchiveRecount)
	if stale {
		a.pending = true
	}
	a.mu.Unlock()
	if stale {
		go func() {
			ctx, cancel := context.WithTimeout(context.Background(), ArchiveRecount)
			defer cancel()
			_ = p.CountArchive(ctx) // on failure the old count stays; a later Stats retries
			a.mu.Lock()
			a.pending = false
			a.mu.Unlock()
		}()
	}
	return s
}

// CountArchive counts the archive's blobs and bytes with a full listing,
// the base that the pipeline's writes and collections keep up to date.
// Counts run one at a time. Writes that race the listing may be counted or
// not.
func (p *Pipeline) CountArchive(ctx context.Context) error {
	a := &p.size
	a.counting.Lock()
	defer a.counting.Unlock()
	var blobs, bytes int64
	err := p.Store.List(ctx, func(bi archive.BlobInfo) error {
		blobs++
		bytes += bi.Size
		return nil
	})
	if err != nil {
		return archiveFault("count the archive", err)
	}
	a.mu.Lock()
	a.blobs, a.bytes, a.at = blobs, bytes, time.Now()
	a.mu.Unlock()
	return nil
}

// archiveSize is the archive's counted size (see Stats).
type archiveSize struct {
	counting sync.Mutex // held by a count
	mu       sync.Mutex // guards the fields below
	blobs    int64
	bytes    int64
	at       time.Time
	pending  bool // a count started by Stats has not ended
}

// add notes blobs more blobs (fewer when negative) of bytes bytes in all.
func (a *archiveSize) add(blobs, bytes int64) {
	a.mu.Lock()
	a.blobs += blobs
	a.bytes += bytes
	a.mu.Unlock()
}
