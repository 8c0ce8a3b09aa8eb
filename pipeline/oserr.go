package pipeline

import (
	"context"
	"errors"
	"sync"
	"syscall"
	"time"

	"github.com/digestd/digestd/archive"
)

// resourceErrors are the operating system's answers that mean the machine,
// not the request, is at fault for now: out of file descriptors, a disk
// that is full, read-only or not ours to write. They are UNAVAILABLE
// (retry later), never INTERNAL_ERROR.
var resourceErrors = []error{syscall.EMFILE, syscall.ENFILE, syscall.EACCES, syscall.EPERM,
	syscall.ENOSPC, syscall.EDQUOT, syscall.EROFS, syscall.ENOMEM}

// resourceExhausted reports whether err is one of resourceErrors.
func resourceExhausted(err error) bool {
	for _, e := range resourceErrors {
		if errors.Is(err, e) {
			return true
		}
	}
	return false
}

// probeRef is the reference the write probe rewrites.
const probeRef = "health/write-probe"

// writeProbe remembers the last write probe, so that frequent health checks
// cost one write every probeEvery.
type writeProbe struct {
	mu  sync.Mutex
	at  time.Time
	err error
}

const probeEvery = 5 * time.Second

// ProbeWrite writes a reference to the archive, as a digest does, and
// reports the error (classified like any archive error): a full, read-only
// or unwritable archive answers reads and fails writes. Within probeEvery
// of the last probe it reports that probe's outcome.
func (p *Pipeline) ProbeWrite(ctx context.Context) error {
	p.probe.mu.Lock()
	defer p.probe.mu.Unlock()
	if !p.probe.at.IsZero() && time.Since(p.probe.at) < probeEvery {
		return p.probe.err
	}
	p.probe.err = nil
	if err := p.Store.SetRef(ctx, probeRef, archive.SumString("digestd health probe")); err != nil {
		if ctx.Err() != nil {
			return err // not an answer about the archive: not remembered
		}
		p.probe.err = archiveFault("write the health probe", err)
	}
	p.probe.at = time.Now()
	return p.probe.err
}
