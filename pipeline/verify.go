package pipeline

import (
	"context"
	"errors"
	"io"
	"io/fs"

	"github.com/digestd/digestd/archive"
)

// ArchiveCheck is what VerifyArchive found: every blob listed, and those
// whose bytes no longer hash to their name. A blob that went between the
// listing and its read counts as neither corrupt nor checked.
type ArchiveCheck struct {
	Blobs        int            `json:"blobs"`
	CheckedBytes int64          `json:"checked_bytes"`
	Corrupt      []archive.Hash `json:"corrupt"`
}

// VerifyArchive reads every blob of the archive to its end through the
// archive's verifying reader, holding none of it, and reports the blobs
// that are corrupt (noting them for health and repair). An error that is
// not corruption (the store unreachable, ctx done) stops the walk.
func (p *Pipeline) VerifyArchive(ctx context.Context) (ArchiveCheck, error) {
	rep := ArchiveCheck{Corrupt: []archive.Hash{}}
	var blobs []archive.Hash
	err := p.Store.List(ctx, func(bi archive.BlobInfo) error {
		blobs = append(blobs, bi.Hash)
		return nil
	})
	if err != nil {
		return rep, archiveFault("list the archive", err)
	}
	for _, d := range blobs {
		n, err := p.checkBlob(ctx, d)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			continue
		case errors.Is(err, archive.ErrCorrupt):
			p.noteCorrupt(d)
			rep.Corrupt = append(rep.Corrupt, d)
		case err != nil:
			return rep, archiveFault("read the archive", err)
		}
		rep.Blobs++
		rep.CheckedBytes += n
	}
	return rep, nil
}

// checkBlob reads blob d to its end through the verifying reader and
// returns how many bytes it read.
func (p *Pipeline) checkBlob(ctx context.Context, d archive.Hash) (int64, error) {
	rc, err := p.Store.Get(ctx, d)
	if err != nil {
		return 0, err
	}
	defer rc.Close()
	return io.Copy(io.Discard, rc)
}
