package pipeline

import (
	"context"
	"encoding/json"
	"fmt"
	"time"

	"github.com/digestd/digestd/archive"
)

// GCReport counts what a garbage collection found and removed.
type GCReport struct {
	Blobs      int   `json:"blobs"`
	Referenced int   `json:"referenced"`
	Young      int   `json:"young"`
	Removed    int   `json:"removed"`
	FreedBytes int64 `json:"freed_bytes"`
}

// MinGCGrace is the shortest grace CollectGarbage accepts. A blob the
// pipeline reuses is rewritten when it is older than half of it, so a
// collection never takes a blob that is being referenced again.
const MinGCGrace = 10 * time.Minute

// CollectGarbage removes blobs that no reference reaches and that are older
// than grace (so a blob being written now, whose reference is not yet set,
// is never taken). References reach the blobs they name; a source record
// reaches its canonical text and a digest its source text. With dryRun
// nothing is removed. Removal needs a store that can list and delete (the
// disk store); object stores use lifecycle rules instead.
func (p *Pipeline) CollectGarbage(ctx context.Context, grace time.Duration, dryRun bool) (GCReport, error) {
	var rep GCReport
	if grace < MinGCGrace {
		return rep, fmt.Errorf("gc: the grace period %s is shorter than %s", grace, MinGCGrace)
	}
	live := map[archive.Hash]bool{}
	if err := p.markLive(ctx, live); err != nil {
		return rep, err
	}
	cutoff := p.now().Add(-grace)
	var doomed []archive.BlobInfo
	err := p.Store.List(ctx, func(bi archive.BlobInfo) error {
		rep.Blobs++
		switch {
		case live[bi.Hash]:
			rep.Referenced++
		case bi.ModTime.After(cutoff):
			rep.Young++
		default:
			doomed = append(doomed, bi)
		}
		return nil
	})
	if err != nil {
		return rep, err
	}
	// References set while the blobs were listed still count: mark again,
	// and re-read each blob's time just before removing it (a reused blob
	// has been written anew).
	if err := p.markLive(ctx, live); err != nil {
		return rep, err
	}
	for _, bi := range doomed {
		if live[bi.Hash] {
			rep.Referenced++
			continue
		}
		if !dryRun {
			if now, err := p.Store.Stat(ctx, bi.Hash); err != nil || now.ModTime.After(cutoff) {
				rep.Young++
				continue
			}
			if err := p.Store.Delete(ctx, bi.Hash); err != nil {
				return rep, err
			}
			p.size.add(-1, -bi.Size)
		}
		rep.Removed++
		rep.FreedBytes += bi.Size
	}
	return rep, nil
}

// markLive adds to live every blob that a reference reaches.
func (p *Pipeline) markLive(ctx context.Context, live map[archive.Hash]bool) error {
	var roots []archive.Hash
	err := p.Store.ListRefs(ctx, "", func(name string, d archive.Hash) error {
		roots = append(roots, d)
		return nil
	})
	if err != nil {
		return err
	}
	for _, d := range roots {
		if live[d] {
			continue
		}
		live[d] = true
		for _, child := range p.children(ctx, d) {
			live[child] = true
		}
	}
	return nil
}

// children returns the blobs a record or digest blob names.
func (p *Pipeline) children(ctx context.Context, d archive.Hash) []archive.Hash {
	b, err := archive.ReadAll(ctx, p.Store, d, 1<<20)
	if err != nil || len(b) == 0 || b[0] != '{' {
		return nil
	}
	// The hashes are read as strings and parsed one by one (not as
	// archive.Hash), so that one malformed field cannot hide the other
	// child from the collector.
	var v struct {
		TextHash string `json:"text_hash"`
		Payload  *struct {
			SourceTextHash string `json:"source_text_hash"`
		} `json:"payload"`
	}
	if json.Unmarshal(b, &v) != nil {
		return nil
	}
	var out []archive.Hash
	for _, h := range []string{v.TextHash, func() string {
		if v.Payload != nil {
			return v.Payload.SourceTextHash
		}
		return ""
	}()} {
		if c, err := archive.ParseHash(h); err == nil {
			out = append(out, c)
		}
	}
	return out
}
