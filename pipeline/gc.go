package pipeline

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
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
	// Corrupt lists the referenced records and digests found corrupt while
	// marking (a full check is digestd verify); they are kept, and so is
	// the text a source's reference names.
	Corrupt []archive.Hash `json:"corrupt"`
}

// MinGCGrace is the shortest grace CollectGarbage accepts. A blob the
// pipeline reuses is rewritten when it is older than half of it, so a
// collection never takes a blob that is being referenced again.
const MinGCGrace = 10 * time.Minute

// CollectGarbage removes blobs that no reference reaches and that are older
// than grace (so a blob being written now, whose reference is not yet set,
// is never taken). References reach the blobs they name; a source record
// reaches its canonical text and its structure's sidecar, and a digest its
// source text. With dryRun
// nothing is removed. Removal needs a store that can list and delete (the
// disk store); object stores use lifecycle rules instead.
func (p *Pipeline) CollectGarbage(ctx context.Context, grace time.Duration, dryRun bool) (GCReport, error) {
	rep := GCReport{Corrupt: []archive.Hash{}}
	if grace < MinGCGrace {
		return rep, fmt.Errorf("gc: the grace period %s is shorter than %s", grace, MinGCGrace)
	}
	live := map[archive.Hash]bool{}
	corrupt := map[archive.Hash]bool{}
	if err := p.markLive(ctx, live, corrupt); err != nil {
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
	if err := p.markLive(ctx, live, corrupt); err != nil {
		return rep, err
	}
	for d := range corrupt {
		rep.Corrupt = append(rep.Corrupt, d)
	}
	slices.SortFunc(rep.Corrupt, func(a, b archive.Hash) int { return bytes.Compare(a[:], b[:]) })
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
			if p.Index != nil {
				// A text that was indexed leaves the index with it.
				if err := p.Index.Remove(ctx, bi.Hash); err != nil {
					return rep, indexFault("remove a collected text from the search index", err)
				}
				p.forgetIndexed(bi.Hash)
			}
		}
		rep.Removed++
		rep.FreedBytes += bi.Size
	}
	return rep, nil
}

// markLive adds to live every blob that a reference reaches, and to
// corrupt the reached records and digests found corrupt. A source's
// reference and the references of its records name its text too
// ("sources/<hex>", "records/<hex>/<key>"), so the text stays live when a
// record cannot be read.
func (p *Pipeline) markLive(ctx context.Context, live, corrupt map[archive.Hash]bool) error {
	var roots []archive.Hash
	err := p.Store.ListRefs(ctx, "", func(name string, d archive.Hash) error {
		roots = append(roots, d)
		if text, ok := sourceOfRef(name); ok {
			live[text] = true
		}
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
		children, err := p.children(ctx, d)
		if errors.Is(err, archive.ErrCorrupt) {
			p.noteCorrupt(d)
			corrupt[d] = true
		}
		for _, child := range children {
			live[child] = true
		}
	}
	return nil
}

// children returns the blobs a record or digest blob names, and the error
// that kept it from reading the blob.
func (p *Pipeline) children(ctx context.Context, d archive.Hash) ([]archive.Hash, error) {
	b, err := archive.ReadAll(ctx, p.Store, d, 1<<20)
	if err != nil || len(b) == 0 || b[0] != '{' {
		return nil, err
	}
	// The hashes are read as strings and parsed one by one (not as
	// archive.Hash), so that one malformed field cannot hide the other
	// child from the collector.
	var v struct {
		TextHash         string `json:"text_hash"`
		StructureHash    string `json:"structure_hash"`
		OutsideLinksHash string `json:"outside_links_hash"`
		Payload          *struct {
			SourceTextHash string `json:"source_text_hash"`
		} `json:"payload"`
	}
	if json.Unmarshal(b, &v) != nil {
		return nil, nil
	}
	var out []archive.Hash
	for _, h := range []string{v.TextHash, v.StructureHash, v.OutsideLinksHash, func() string {
		if v.Payload != nil {
			return v.Payload.SourceTextHash
		}
		return ""
	}()} {
		if c, err := archive.ParseHash(h); err == nil {
			out = append(out, c)
		}
	}
	return out, nil
}
