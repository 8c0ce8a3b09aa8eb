// Package archive is digestd's content-addressed store: immutable blobs keyed
// by the sha256 of their bytes (canonical texts, source records, digests),
// plus a small mutable namespace of references (such as a digest-cache key
// naming a digest blob). Backends live in their own packages (fsstore,
// s3store) and all pass the conformance suite in archivetest.
//
// Contract shared by every backend: a missing blob or reference is
// fs.ErrNotExist (test with errors.Is); every write and every read passes
// the bytes through HashingReader, the one place they are checked, and a
// mismatch is ErrCorrupt, never stored or served; a store that cannot be reached is
// ErrUnavailable. Callers close the readers they are given.
//
// Content is hashed once: a Blob carries the hash it was made with (or
// verified against, when read), and a HashingReader over a Blob's reader
// takes that hash instead of computing it again, so a text is hashed once
// on its way in however many stages store, digest and verify it. Reads from
// storage are always hashed: the stored bytes are what can change.
package archive

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"io"
	"strings"
	"sync/atomic"
	"time"
)

// Hash is a sha256 content address. The zero value is invalid.
type Hash [sha256.Size]byte

// ErrInvalidHash is wrapped by ParseHash errors.
var ErrInvalidHash = errors.New("invalid content hash")

// ParseHash accepts "sha256:<64 lowercase or uppercase hex>" or the bare hex,
// and rejects anything else.
func ParseHash(s string) (Hash, error) {
	h := strings.TrimPrefix(s, "sha256:")
	var d Hash
	if len(h) != hex.EncodedLen(len(d)) {
		return Hash{}, fmt.Errorf("%w: want sha256:<64 hex digits>", ErrInvalidHash)
	}
	if _, err := hex.Decode(d[:], []byte(h)); err != nil {
		return Hash{}, fmt.Errorf("%w: want sha256:<64 hex digits>", ErrInvalidHash)
	}
	return d, nil
}

// MustParseHash is ParseHash for constants in tests; it panics on error.
func MustParseHash(s string) Hash {
	d, err := ParseHash(s)
	if err != nil {
		panic(err)
	}
	return d
}

// Sum returns the Hash of b.
func Sum(b []byte) Hash {
	h := sha256.New()
	h.Write(b)
	return finish(h)
}

// SumString returns the Hash of s's bytes, hashed through a small buffer so
// that a long text is not copied whole.
func SumString(s string) Hash {
	h := sha256.New()
	var buf [4096]byte
	for len(s) > 0 {
		n := copy(buf[:], s)
		h.Write(buf[:n])
		s = s[n:]
	}
	return finish(h)
}

// finish ends every hash the archive computes (Sum, SumString, a
// HashingReader at EOF): the one place a content address is made from
// bytes, and where an observer (ObserveHashes) sees it.
func finish(h hash.Hash) Hash {
	var d Hash
	h.Sum(d[:0])
	if fn := hashObserver.Load(); fn != nil {
		(*fn)(d)
	}
	return d
}

var hashObserver atomic.Pointer[func(Hash)]

// ObserveHashes calls fn with every content address the archive computes
// from bytes from now until stop is called, so that a test or a profile can
// count how often the same content is hashed. fn may be called from several
// goroutines at once. One observer at a time: a second replaces the first.
func ObserveHashes(fn func(Hash)) (stop func()) {
	hashObserver.Store(&fn)
	return func() { hashObserver.CompareAndSwap(&fn, nil) }
}

// String returns "sha256:<hex>", the one spelling of a content address in
// JSON, references and messages. Nothing else builds it.
func (d Hash) String() string { return "sha256:" + d.Hex() }

// Hex returns the 64 lowercase hex digits.
func (d Hash) Hex() string { return hex.EncodeToString(d[:]) }

// Valid reports whether d is not the zero value.
func (d Hash) Valid() bool { return d != Hash{} }

// MarshalText implements encoding.TextMarshaler ("sha256:<hex>").
func (d Hash) MarshalText() ([]byte, error) { return []byte(d.String()), nil }

// UnmarshalText implements encoding.TextUnmarshaler.
func (d *Hash) UnmarshalText(b []byte) error {
	v, err := ParseHash(string(b))
	if err != nil {
		return err
	}
	*d = v
	return nil
}

// Errors every backend reports in these terms (wrapped, test with errors.Is).
var (
	// ErrCorrupt means stored bytes no longer hash to their key.
	ErrCorrupt = errors.New("archive: stored blob is corrupt")
	// ErrUnavailable means the store could not be reached or written
	// (network down, disk full); retrying later may succeed.
	ErrUnavailable = errors.New("archive: store unavailable")
	// ErrTooLarge means a blob exceeds the store's size limit.
	ErrTooLarge = errors.New("archive: blob too large")
)

// BlobInfo describes a stored blob.
type BlobInfo struct {
	Hash    Hash
	Size    int64
	ModTime time.Time
}

// Putter stores blobs.
type Putter interface {
	// Put stores the bytes read from r under their sha256 and returns it. If
	// want is valid, the bytes must hash to it or nothing is stored and the
	// error wraps ErrCorrupt. Put is idempotent: storing an existing blob
	// again succeeds. A blob is visible to readers only once wholly stored.
	Put(ctx context.Context, want Hash, r io.Reader) (Hash, error)
}

// Getter reads blobs.
type Getter interface {
	// Get returns the blob's bytes. A missing blob is fs.ErrNotExist. The
	// reader verifies the hash as it is read and returns an error wrapping
	// ErrCorrupt at EOF if it does not match, so a caller that reads to EOF
	// never accepts corrupt bytes. The caller closes the reader.
	Get(ctx context.Context, d Hash) (io.ReadCloser, error)
}

// Statter reports blob metadata without reading the blob.
type Statter interface {
	// Stat returns the blob's info; a missing blob is fs.ErrNotExist.
	Stat(ctx context.Context, d Hash) (BlobInfo, error)
}

// Lister enumerates blobs.
type Lister interface {
	// List calls fn for every stored blob, in no particular order, until fn
	// returns an error (which List returns) or every blob was visited.
	List(ctx context.Context, fn func(BlobInfo) error) error
}

// Deleter removes blobs (for garbage collection only; blobs are otherwise
// immutable).
type Deleter interface {
	// Delete removes the blob; deleting a missing blob is not an error.
	Delete(ctx context.Context, d Hash) error
}

// Refs is the small mutable namespace of named references to blobs. Names
// are slash-separated paths of [A-Za-z0-9._-] segments.
type Refs interface {
	// SetRef points name at d, replacing any previous value.
	SetRef(ctx context.Context, name string, d Hash) error
	// Ref returns what name points at; a missing name is fs.ErrNotExist.
	Ref(ctx context.Context, name string) (Hash, error)
	// ListRefs calls fn for every name under prefix with its target.
	ListRefs(ctx context.Context, prefix string, fn func(name string, d Hash) error) error
}

// RefNamer is implemented by backends that can list reference names without
// reading each reference, so that a listing page reads only its own
// references.
type RefNamer interface {
	// ListRefNames calls fn for every name under prefix, in no particular
	// order.
	ListRefNames(ctx context.Context, prefix string, fn func(name string) error) error
}

// RefPager is implemented by backends that list reference names in order
// from a position, so that a listing page costs the page, not the namespace.
type RefPager interface {
	// ListRefNamesAfter calls fn for the names under prefix that sort after
	// after, in ascending order, until fn returns an error (which it returns
	// as it is) or the names run out. Names are ordered segment by segment
	// (segments compared as bytes), which is byte order when the segments at
	// each depth under prefix have one length; a directory of names must
	// not also be a name. A caller stops early by returning its own error
	// from fn.
	ListRefNamesAfter(ctx context.Context, prefix, after string, fn func(name string) error) error
}

// Store is everything a backend provides.
type Store interface {
	Putter
	Getter
	Statter
	Lister
	Deleter
	Refs
}

// ValidRefName reports whether name is an acceptable reference name.
func ValidRefName(name string) bool {
	if name == "" || len(name) > 512 || strings.HasPrefix(name, "/") || strings.HasSuffix(name, "/") {
		return false
	}
	for _, seg := range strings.Split(name, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return false
		}
		for i := 0; i < len(seg); i++ {
			c := seg[i]
			if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
				return false
			}
		}
	}
	return true
}

// The storage layout every backend shares, below its own root: blobs under
// BlobsRoot, references under RefsRoot, writes in progress (for backends
// that stage them) under TmpRoot. The "v1" is the layout's format version.
// BlobKey, RefKey and RefBody write it; ParseBlobKey, ParseRefKey and
// ParseRefBody read it back, and no backend spells it otherwise.
const (
	BlobsRoot = "v1/blobs/"
	RefsRoot  = "v1/refs/"
	TmpRoot   = "v1/tmp/"
)

// BlobKey is the storage key of a blob: "v1/blobs/ab/abcdef…".
func BlobKey(d Hash) string {
	h := d.Hex()
	return BlobsRoot + h[:2] + "/" + h
}

// ParseBlobKey is BlobKey's inverse: the hash key names, and false when key
// is not a blob key exactly as BlobKey writes it.
func ParseBlobKey(key string) (Hash, bool) {
	rest, ok := strings.CutPrefix(key, BlobsRoot)
	if !ok {
		return Hash{}, false
	}
	fan, h, ok := strings.Cut(rest, "/")
	if !ok || len(fan) != 2 || len(h) != 64 || !strings.HasPrefix(h, fan) {
		return Hash{}, false
	}
	d, err := ParseHash(h)
	if err != nil || d.Hex() != h {
		return Hash{}, false
	}
	return d, true
}

// RefKey is the storage key of a reference: "v1/refs/<name>".
func RefKey(name string) string { return RefsRoot + name }

// ParseRefKey is RefKey's inverse: the reference name key holds, and false
// when key is not the key of a valid name.
func ParseRefKey(key string) (string, bool) {
	name, ok := strings.CutPrefix(key, RefsRoot)
	if !ok || !ValidRefName(name) {
		return "", false
	}
	return name, true
}

// RefBody is what a reference's file or object holds: "sha256:<hex>\n".
func RefBody(d Hash) []byte { return []byte(d.String() + "\n") }

// ParseRefBody is RefBody's inverse, ignoring surrounding white space; a
// body that names no hash is an error wrapping ErrCorrupt.
func ParseRefBody(b []byte) (Hash, error) {
	d, err := ParseHash(strings.TrimSpace(string(b)))
	if err != nil {
		return Hash{}, fmt.Errorf("%w: %v", ErrCorrupt, err)
	}
	return d, nil
}

// HashingReader is the one check of a blob's bytes, on the way in and on
// the way out: it hashes what is read through it, and at EOF, when it was
// given a valid hash to expect and the bytes hash to another, it returns an
// error wrapping ErrCorrupt instead of io.EOF. Every backend's Put reads its
// input through it and commits only after a clean EOF, then names the blob
// by Sum; every Get's reader is one (VerifyingReader).
type HashingReader struct {
	r    io.Reader
	want Hash
	h    hash.Hash
	// sealed is the Blob r reads, when r is a Blob's Reader: its bytes
	// are known to hash to its Hash, and are not hashed again; read counts
	// them, so that at EOF all of them are known to have passed.
	sealed *Blob
	read   int
	sum    Hash
	err    error // sticky: the EOF or error Read returned
}

// NewHashingReader returns a HashingReader over r expecting want; a zero
// want expects nothing (the bytes name themselves). When r is a Blob's
// Reader not yet read from, the bytes are not hashed again: the Blob's hash,
// made from those same immutable bytes, is their sum once every one of them
// has been read through the HashingReader (any other count at EOF is
// ErrCorrupt).
func NewHashingReader(r io.Reader, want Hash) *HashingReader {
	if br, ok := r.(*blobReader); ok && br.blob.h.Valid() && br.r.Len() == len(br.blob.s) {
		return &HashingReader{r: r, want: want, sealed: &br.blob}
	}
	return &HashingReader{r: r, want: want, h: sha256.New()}
}

// Read implements io.Reader.
func (v *HashingReader) Read(p []byte) (int, error) {
	if v.err != nil {
		return 0, v.err
	}
	n, err := v.r.Read(p)
	if v.sealed != nil {
		v.read += n
	} else {
		v.h.Write(p[:n])
	}
	if err == io.EOF {
		switch {
		case v.sealed == nil:
			v.sum = finish(v.h)
		case v.read != len(v.sealed.s):
			err = fmt.Errorf("%w: %d of the blob's %d bytes were read", ErrCorrupt, v.read, len(v.sealed.s))
		default:
			v.sum = v.sealed.h
		}
		if err == io.EOF && v.want.Valid() && v.sum != v.want {
			err = fmt.Errorf("%w: the bytes hash to %s, not %s", ErrCorrupt, v.sum, v.want)
		}
	}
	if err != nil {
		v.err = err
	}
	return n, err
}

// Sum returns the hash of the bytes read; it is the zero Hash until Read
// has returned io.EOF.
func (v *HashingReader) Sum() Hash {
	if v.err != io.EOF {
		return Hash{}
	}
	return v.sum
}

// VerifyingReader wraps a blob's reader r in a HashingReader expecting
// want, so that its bytes are verified as they are read: at EOF a mismatch
// is an error wrapping ErrCorrupt. Every backend's Get returns one.
func VerifyingReader(r io.ReadCloser, want Hash) io.ReadCloser {
	return &verifyingReader{HashingReader: NewHashingReader(r, want), c: r}
}

type verifyingReader struct {
	*HashingReader
	c io.Closer
}

func (v *verifyingReader) Close() error { return v.c.Close() }

// ReadAll reads a whole blob, verified, with a size cap (ErrTooLarge beyond it).
func ReadAll(ctx context.Context, g Getter, d Hash, max int64) ([]byte, error) {
	rc, err := g.Get(ctx, d)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > max {
		return nil, fmt.Errorf("%w: %s exceeds %d bytes", ErrTooLarge, d, max)
	}
	return b, nil
}

// Blob is immutable content with its content address, hashed once: when it
// is made from bytes (NewBlob) or as it is read from a store and verified
// (ReadBlob). The hash travels with the bytes, so no later stage hashes them
// again: a Putter given its Reader takes the hash as it is (see
// NewHashingReader), and a digest names its text by Hash. The zero Blob is
// the empty content with no hash; make Blobs with NewBlob or ReadBlob.
type Blob struct {
	s string
	h Hash
}

// NewBlob returns s as a Blob, hashing it.
func NewBlob(s string) Blob { return Blob{s: s, h: SumString(s)} }

// Hash returns the blob's content address.
func (b Blob) Hash() Hash { return b.h }

// String returns the blob's bytes.
func (b Blob) String() string { return b.s }

// Len returns the blob's size in bytes.
func (b Blob) Len() int { return len(b.s) }

// Reader returns a reader of the blob's bytes that a HashingReader
// recognizes, so that storing it does not hash it again.
func (b Blob) Reader() io.Reader { return &blobReader{blob: b, r: strings.NewReader(b.s)} }

type blobReader struct {
	blob Blob
	r    *strings.Reader
}

func (br *blobReader) Read(p []byte) (int, error) { return br.r.Read(p) }

// PutBlob stores b and returns its hash, which the store does not compute
// again.
func PutBlob(ctx context.Context, p Putter, b Blob) (Hash, error) {
	return p.Put(ctx, b.h, b.Reader())
}

// ReadBlob reads a whole blob as ReadAll does, verified against d as it is
// read, and returns it as a Blob named by d.
func ReadBlob(ctx context.Context, g Getter, d Hash, max int64) (Blob, error) {
	b, err := ReadAll(ctx, g, d, max)
	if err != nil {
		return Blob{}, err
	}
	return Blob{s: string(b), h: d}, nil
}

// PutBytes stores b and returns its digest.
func PutBytes(ctx context.Context, p Putter, b []byte) (Hash, error) {
	return p.Put(ctx, Sum(b), bytes.NewReader(b))
}
