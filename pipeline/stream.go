package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"

	"github.com/digestd/digestd/archive"
)

// BlobReader reads an archived blob without holding it in memory: a
// ReadSeeker (for http.ServeContent, ranges included) over a blob that
// OpenBlob has verified whole. It opens the blob again when asked to go
// back, skips forward by reading, and reads through the verifying reader
// again, so that damage done after the open is still caught at the end (an
// error wrapping archive.ErrCorrupt, after the bytes), and at the end of
// each range CheckAt names. The caller closes it.
type BlobReader struct {
	ctx  context.Context
	p    *Pipeline
	d    archive.Hash
	size int64
	// checks are where reads end that must be verified first (CheckAt);
	// corrupt reports that a read found the blob damaged.
	checks  []int64
	corrupt bool

	pos   int64 // the reader's position
	rc    io.ReadCloser
	rcPos int64 // rc's position in the blob
}

// OpenBlob reads the blob d once through the archive's verifying reader,
// holding none of it, and returns a reader over it whose size is the count
// of bytes that hashed to d, not what the store says of its size. Nothing
// is answered about a blob before its bytes are checked: a missing blob is
// NOT_FOUND, and a blob that does not hash to d (emptied, cut short,
// extended, changed) is ARCHIVE_CORRUPT and noted for health and repair.
func (p *Pipeline) OpenBlob(ctx context.Context, d archive.Hash) (*BlobReader, error) {
	rc, err := p.Store.Get(ctx, d)
	if err != nil {
		return nil, archiveFault("read the archive", err)
	}
	defer rc.Close()
	n, err := io.Copy(io.Discard, rc)
	if err != nil {
		if errors.Is(err, archive.ErrCorrupt) {
			p.noteCorrupt(d)
		}
		return nil, archiveFault("read the archive", err)
	}
	return &BlobReader{ctx: ctx, p: p, d: d, size: n}, nil
}

// Size is the blob's length in bytes.
func (b *BlobReader) Size() int64 { return b.size }

// CheckAt asks the reader to verify the whole blob again before it gives
// the bytes of any read that ends at one of ends: the ends of the byte
// ranges a client asked for. A range short of the blob's end is then
// checked as a read to the end is: the read that ends it reads on to the
// blob's end through the verifying reader, and returns no bytes and an
// error wrapping archive.ErrCorrupt when the blob changed since OpenBlob.
func (b *BlobReader) CheckAt(ends ...int64) {
	for _, e := range ends {
		if e > 0 && e < b.size {
			b.checks = append(b.checks, e)
		}
	}
}

// Corrupt reports whether a read found the blob damaged.
func (b *BlobReader) Corrupt() bool { return b.corrupt }

// Seek implements io.Seeker.
func (b *BlobReader) Seek(off int64, whence int) (int64, error) {
	switch whence {
	case io.SeekCurrent:
		off += b.pos
	case io.SeekEnd:
		off += b.size
	}
	if off < 0 {
		return 0, errors.New("blob reader: negative position")
	}
	b.pos = off
	return off, nil
}

// Read implements io.Reader.
func (b *BlobReader) Read(p []byte) (int, error) {
	if b.pos >= b.size {
		return 0, io.EOF
	}
	if b.rc == nil || b.rcPos != b.pos {
		if err := b.reopen(); err != nil {
			return 0, err
		}
	}
	n, err := b.rc.Read(p[:min(int64(len(p)), b.size-b.pos)])
	b.pos += int64(n)
	b.rcPos += int64(n)
	if err == nil && b.rcPos == b.size {
		// The last byte: read on to EOF, where the hash is checked.
		var one [1]byte
		m, e := b.rc.Read(one[:])
		for m == 0 && e == nil {
			m, e = b.rc.Read(one[:])
		}
		switch {
		case m > 0:
			err = fmt.Errorf("%w: %s is longer than its size", archive.ErrCorrupt, b.d)
		case e != io.EOF:
			err = e
		}
	} else if err == nil && n > 0 && slices.Contains(b.checks, b.pos) {
		// A range ends here, short of the blob's end: read on to the end,
		// where the hash is checked, before its last bytes are given.
		_, e := io.Copy(io.Discard, b.rc)
		b.rc.Close()
		b.rc = nil
		if e != nil && !errors.Is(e, archive.ErrCorrupt) {
			return 0, e // not verified: give nothing
		}
		err = e
	}
	if err == io.EOF && b.pos < b.size {
		err = io.ErrUnexpectedEOF
	}
	if errors.Is(err, archive.ErrCorrupt) {
		b.corrupt = true
		// Hold back the last bytes read, so that a reader copying to a
		// client ends short of the length it announced.
		b.p.noteCorrupt(b.d)
		return 0, err
	}
	return n, err
}

// reopen opens the blob again and skips to the reader's position.
func (b *BlobReader) reopen() error {
	if b.rc != nil {
		b.rc.Close()
		b.rc = nil
	}
	rc, err := b.p.Store.Get(b.ctx, b.d)
	if err != nil {
		return archiveFault("read the archive", err)
	}
	if _, err := io.CopyN(io.Discard, rc, b.pos); err != nil {
		rc.Close()
		return err
	}
	b.rc, b.rcPos = rc, b.pos
	return nil
}

// Close releases the open file, if any.
func (b *BlobReader) Close() error {
	if b.rc != nil {
		return b.rc.Close()
	}
	return nil
}

// noteCorrupt records a blob found corrupt, for health and repair.
func (p *Pipeline) noteCorrupt(d archive.Hash) {
	if _, known := p.corrupt.LoadOrStore(d, struct{}{}); !known {
		p.corruptSeen.Add(1)
	}
}
