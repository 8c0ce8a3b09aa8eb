// Package fsstore is the archive backend on local disk, digestd's embedded
// default.
//
// Layout under the store's directory: blob d at archive.BlobKey(d)
// ("v1/blobs/ab/abcdef…"), reference name at archive.RefKey(name)
// ("v1/refs/<name>", holding "sha256:<hex>\n"), and writes in progress in
// "v1/tmp/.tmp-<pid>-*". Every write goes to a temporary file, read through
// archive.HashingReader (which fails at EOF on a mismatch), fsynced, renamed into place and followed by an fsync of the
// destination directory, so a blob or reference is either wholly present or
// absent after a crash. Several processes may share one directory.
package fsstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/digestd/digestd/archive"
)

// StaleTempAge is how old a temporary file must be before Open removes it
// even though the process that created it still seems to be alive (its
// process id may have been reused).
const StaleTempAge = time.Hour

const (
	tmpPrefix  = ".tmp-"
	copyBuffer = 256 << 10
)

// Store is a directory-backed archive.Store. It is safe for concurrent use.
type Store struct {
	dir string
	// wrapTemp, if set, wraps every temporary file's writer; tests use it to
	// inject write failures such as a full disk.
	wrapTemp func(io.Writer) io.Writer
}

var _ archive.Store = (*Store)(nil)

// Open opens (creating if needed) the store rooted at dir and removes the
// temporary files that crashed writers left behind: those whose creating
// process is gone, or that are older than StaleTempAge.
func Open(dir string) (*Store, error) {
	if dir == "" {
		return nil, errors.New("fsstore: empty directory")
	}
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("fsstore: open: %w", err)
	}
	s := &Store{dir: abs}
	for _, sub := range []string{archive.BlobsRoot, archive.RefsRoot, archive.TmpRoot} {
		if err := mkdirAllSync(filepath.Join(abs, filepath.FromSlash(sub))); err != nil {
			return nil, fmt.Errorf("fsstore: open: %w", classify(err))
		}
	}
	if err := s.sweep(time.Now()); err != nil {
		return nil, fmt.Errorf("fsstore: open: sweep temporary files: %w", err)
	}
	return s, nil
}

// Dir returns the store's root directory.
func (s *Store) Dir() string { return s.dir }

// BlobPath returns the file that holds blob d (which may not exist).
func (s *Store) BlobPath(d archive.Hash) string {
	return filepath.Join(s.dir, filepath.FromSlash(archive.BlobKey(d)))
}

func (s *Store) refPath(name string) string {
	return filepath.Join(s.dir, filepath.FromSlash(archive.RefKey(name)))
}

func (s *Store) blobsDir() string { return filepath.Join(s.dir, filepath.FromSlash(archive.BlobsRoot)) }
func (s *Store) refsDir() string  { return filepath.Join(s.dir, filepath.FromSlash(archive.RefsRoot)) }
func (s *Store) tmpDir() string   { return filepath.Join(s.dir, filepath.FromSlash(archive.TmpRoot)) }

// sweep removes temporary files left by writers that died.
func (s *Store) sweep(now time.Time) error {
	entries, err := os.ReadDir(s.tmpDir())
	if err != nil {
		return err
	}
	removed := false
	for _, e := range entries {
		name := e.Name()
		if !strings.HasPrefix(name, tmpPrefix) {
			continue
		}
		if !tempAbandoned(name, e, now) {
			continue
		}
		if err := os.Remove(filepath.Join(s.tmpDir(), name)); err != nil && !errors.Is(err, fs.ErrNotExist) {
			if notWritable(err) {
				// A read-only archive still serves reads: its leftovers
				// stay until it is writable again.
				continue
			}
			return err
		}
		removed = true
	}
	if removed {
		if err := syncDir(s.tmpDir()); err != nil && !notWritable(err) {
			return err
		}
	}
	return nil
}

// notWritable reports whether err means the archive may not be written
// here: a read-only file system, or no permission.
func notWritable(err error) bool {
	return errors.Is(err, syscall.EROFS) || errors.Is(err, syscall.EACCES) || errors.Is(err, syscall.EPERM)
}

// tempAbandoned reports whether the temporary file name (".tmp-<pid>-…") was
// left by a process that no longer runs, or is older than StaleTempAge.
func tempAbandoned(name string, e fs.DirEntry, now time.Time) bool {
	if info, err := e.Info(); err == nil && now.Sub(info.ModTime()) > StaleTempAge {
		return true
	}
	rest := strings.TrimPrefix(name, tmpPrefix)
	pidText, _, ok := strings.Cut(rest, "-")
	if !ok {
		return true
	}
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 {
		return true
	}
	if pid == os.Getpid() {
		return false
	}
	// Signal 0 checks existence; EPERM means it exists under another user.
	err = syscall.Kill(pid, 0)
	return errors.Is(err, syscall.ESRCH)
}

// createTemp makes a temporary file in the store's tmp directory whose name
// records this process's id, so a later Open can tell whether its writer is
// gone.
func (s *Store) createTemp() (*os.File, error) {
	return os.CreateTemp(s.tmpDir(), fmt.Sprintf("%s%d-*", tmpPrefix, os.Getpid()))
}

// Put implements archive.Putter. Storing a blob that exists replaces the
// file with the new, verified copy (repairing a corrupted one) and refreshes
// its modification time. A full disk (ENOSPC, EDQUOT) is archive.ErrUnavailable.
func (s *Store) Put(ctx context.Context, want archive.Hash, r io.Reader) (archive.Hash, error) {
	// The input is checked on the way in by the archive's one hashing
	// reader: a mismatch fails the copy at EOF, before anything commits.
	hr := archive.NewHashingReader(r, want)
	err := s.write(ctx, hr, blobMode, func() string { return s.BlobPath(hr.Sum()) })
	got := hr.Sum()
	switch {
	case err != nil && got.Valid():
		return archive.Hash{}, fmt.Errorf("fsstore: put %s: %w", got, err)
	case err != nil:
		return archive.Hash{}, fmt.Errorf("fsstore: put: %w", err)
	}
	return got, nil
}

// The permissions of committed files: blobs are immutable, references are
// replaced by renaming a new file over them.
const (
	blobMode fs.FileMode = 0o444
	refMode  fs.FileMode = 0o600
)

// write is the one commit sequence of every Put and SetRef: the bytes of r
// go to a temporary file, which is given mode, fsynced, closed, renamed to
// the path dst returns (asked once r is read to EOF, so a blob can be named
// by its hash) and followed by an fsync of that directory, so the file is
// wholly present or absent after a crash. Nothing commits when r fails, the
// write fails or ctx is done; the temporary file is then removed. Errors of
// the file system are classified (see Store.classify); r's are returned
// wrapped as they are.
func (s *Store) write(ctx context.Context, r io.Reader, mode fs.FileMode, dst func() string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	f, err := s.createTemp()
	if err != nil {
		return fmt.Errorf("create temporary file: %w", s.classify(err))
	}
	tmp := f.Name()
	committed := false
	defer func() {
		if !committed {
			f.Close()
			os.Remove(tmp)
		}
	}()
	var w io.Writer = f
	if s.wrapTemp != nil {
		w = s.wrapTemp(f)
	}
	if err := copyCtx(ctx, w, r); err != nil {
		return err
	}
	if err := f.Chmod(mode); err != nil {
		return s.classify(err)
	}
	if err := f.Sync(); err != nil {
		return fmt.Errorf("sync: %w", s.classify(err))
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("close: %w", s.classify(err))
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := s.commit(tmp, dst()); err != nil {
		return err
	}
	committed = true
	return nil
}

// commit renames the synced temporary file tmp to dst and makes the rename
// durable. On error tmp is left for the caller to remove.
func (s *Store) commit(tmp, dst string) error {
	dir := filepath.Dir(dst)
	if err := mkdirAllSync(dir); err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return errors.New("a parent of the name is a file (a reference cannot also be a prefix of another)")
		}
		return s.classify(err)
	}
	if err := os.Rename(tmp, dst); err != nil {
		return s.classify(err)
	}
	if err := syncDir(dir); err != nil {
		return fmt.Errorf("sync directory: %w", s.classify(err))
	}
	return nil
}

// copyCtx copies r to w, stopping with ctx's error once it is done. Errors
// from w are classified; errors from r are returned wrapped as they are.
func copyCtx(ctx context.Context, w io.Writer, r io.Reader) error {
	buf := make([]byte, copyBuffer)
	for {
		if err := ctx.Err(); err != nil {
			return err
		}
		n, rerr := r.Read(buf)
		if n > 0 {
			if _, err := w.Write(buf[:n]); err != nil {
				return fmt.Errorf("write: %w", classify(err))
			}
		}
		if rerr == io.EOF {
			return ctx.Err()
		}
		if rerr != nil {
			return fmt.Errorf("read source: %w", rerr)
		}
	}
}

// Get implements archive.Getter; the reader stops with ctx's error once ctx
// is done.
func (s *Store) Get(ctx context.Context, d archive.Hash) (io.ReadCloser, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("fsstore: get %s: %w", d, err)
	}
	f, err := os.Open(s.BlobPath(d))
	if err != nil {
		return nil, fmt.Errorf("fsstore: get %s: %w", d, s.classify(err))
	}
	return archive.VerifyingReader(&ctxFile{ctx: ctx, f: f}, d), nil
}

type ctxFile struct {
	ctx context.Context
	f   *os.File
}

func (c *ctxFile) Read(p []byte) (int, error) {
	if err := c.ctx.Err(); err != nil {
		return 0, err
	}
	return c.f.Read(p)
}

func (c *ctxFile) Close() error { return c.f.Close() }

// Stat implements archive.Statter from the file's size and modification time.
func (s *Store) Stat(ctx context.Context, d archive.Hash) (archive.BlobInfo, error) {
	if err := ctx.Err(); err != nil {
		return archive.BlobInfo{}, fmt.Errorf("fsstore: stat %s: %w", d, err)
	}
	fi, err := os.Stat(s.BlobPath(d))
	if err != nil {
		return archive.BlobInfo{}, fmt.Errorf("fsstore: stat %s: %w", d, s.classify(err))
	}
	if !fi.Mode().IsRegular() {
		return archive.BlobInfo{}, fmt.Errorf("fsstore: stat %s: not a regular file", d)
	}
	return archive.BlobInfo{Hash: d, Size: fi.Size(), ModTime: fi.ModTime()}, nil
}

// List implements archive.Lister by walking the fan-out directories. Files
// whose names are not a blob key are ignored.
func (s *Store) List(ctx context.Context, fn func(archive.BlobInfo) error) error {
	root := s.blobsDir()
	fanouts, err := os.ReadDir(root)
	if err != nil {
		return fmt.Errorf("fsstore: list: %w", s.classify(err))
	}
	for _, fo := range fanouts {
		if err := ctx.Err(); err != nil {
			return fmt.Errorf("fsstore: list: %w", err)
		}
		if !fo.IsDir() || len(fo.Name()) != 2 {
			continue
		}
		entries, err := os.ReadDir(filepath.Join(root, fo.Name()))
		if err != nil {
			return fmt.Errorf("fsstore: list: %w", classify(err))
		}
		for _, e := range entries {
			d, ok := archive.ParseBlobKey(archive.BlobsRoot + fo.Name() + "/" + e.Name())
			if !ok || !e.Type().IsRegular() {
				continue
			}
			fi, err := e.Info()
			if errors.Is(err, fs.ErrNotExist) {
				continue // deleted while listing
			}
			if err != nil {
				return fmt.Errorf("fsstore: list: %w", classify(err))
			}
			if err := fn(archive.BlobInfo{Hash: d, Size: fi.Size(), ModTime: fi.ModTime()}); err != nil {
				return err
			}
		}
	}
	return nil
}

// Delete implements archive.Deleter.
func (s *Store) Delete(ctx context.Context, d archive.Hash) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("fsstore: delete %s: %w", d, err)
	}
	p := s.BlobPath(d)
	if err := os.Remove(p); err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("fsstore: delete %s: %w", d, classify(err))
	}
	if err := syncDir(filepath.Dir(p)); err != nil {
		return fmt.Errorf("fsstore: delete %s: sync directory: %w", d, classify(err))
	}
	return nil
}

// SetRef implements archive.Refs with the same atomic write as Put. Because
// names map to paths, a name cannot be both a reference and a prefix of
// another ("a" and "a/b"); SetRef reports an error for the second of them.
func (s *Store) SetRef(ctx context.Context, name string, d archive.Hash) error {
	if !archive.ValidRefName(name) {
		return fmt.Errorf("fsstore: set ref: invalid name %q", name)
	}
	path := s.refPath(name)
	if err := s.write(ctx, bytes.NewReader(archive.RefBody(d)), refMode, func() string { return path }); err != nil {
		return fmt.Errorf("fsstore: set ref %s: %w", name, err)
	}
	return nil
}

// Ref implements archive.Refs. A reference file that does not hold a digest
// is archive.ErrCorrupt.
func (s *Store) Ref(ctx context.Context, name string) (archive.Hash, error) {
	if !archive.ValidRefName(name) {
		return archive.Hash{}, fmt.Errorf("fsstore: ref: invalid name %q", name)
	}
	if err := ctx.Err(); err != nil {
		return archive.Hash{}, fmt.Errorf("fsstore: ref %s: %w", name, err)
	}
	return s.readRef(name, s.refPath(name))
}

func (s *Store) readRef(name, path string) (archive.Hash, error) {
	var buf [refReadSize]byte
	b, err := readSmallFile(path, buf[:])
	if err != nil {
		if errors.Is(err, syscall.EISDIR) || errors.Is(err, syscall.ENOTDIR) {
			// "a" when only "a/b" exists, or "a/b" when only "a" does.
			return archive.Hash{}, fmt.Errorf("fsstore: ref %s: %w", name, fs.ErrNotExist)
		}
		return archive.Hash{}, fmt.Errorf("fsstore: ref %s: %w", name, s.classify(err))
	}
	d, err := archive.ParseRefBody(b)
	if err != nil {
		return archive.Hash{}, fmt.Errorf("fsstore: ref %s: %w", name, err)
	}
	return d, nil
}

// refReadSize holds a reference's body ("sha256:" and 64 hex digits, and
// a newline) with room to spare.
const refReadSize = 128

// readSmallFile returns the contents of the file at path, read into buf
// when it fits, else read as os.ReadFile does. A reference is read on every
// request that finds its answer archived: open, one read and close are
// half the system calls of os.ReadFile.
func readSmallFile(path string, buf []byte) ([]byte, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	defer syscall.Close(fd)
	n := 0
	for n < len(buf) {
		m, err := syscall.Read(fd, buf[n:])
		switch {
		case err == syscall.EINTR:
			continue
		case err != nil:
			return nil, &fs.PathError{Op: "read", Path: path, Err: err}
		case m == 0:
			return buf[:n], nil
		}
		n += m
	}
	return os.ReadFile(path) // larger than buf
}

// ListRefs implements archive.Refs. prefix is a plain string prefix of the
// names ("cache/" lists "cache/x" and "cache/y/z"); its directory part must
// itself be a valid name.
func (s *Store) ListRefs(ctx context.Context, prefix string, fn func(name string, d archive.Hash) error) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("fsstore: list refs: %w", err)
	}
	return s.walkRefs(ctx, "list refs", prefix, "", func(name, path string) error {
		d, err := s.readRef(name, path)
		if errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("fsstore: list refs: %w", err) // as walkRefs wraps its own
		}
		return fn(name, d)
	})
}

// walkRefs calls fn with the name and file of every valid reference under
// prefix that sorts after after ("" for all), in the directory's order. A
// directory is read only when some name in it may be under prefix and sort
// after after, so a walk from a position in fixed-width sharded names costs
// the directories on its path. A missing directory lists nothing; fn's
// error is returned as it is, any other error wrapped with op.
func (s *Store) walkRefs(ctx context.Context, op, prefix, after string, fn func(name, path string) error) error {
	root := s.refsDir()
	start := root
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dirPart := prefix[:i]
		if !archive.ValidRefName(dirPart) {
			return fmt.Errorf("fsstore: %s: invalid prefix %q", op, prefix)
		}
		start = filepath.Join(root, filepath.FromSlash(dirPart))
	}
	// WalkDir visits each directory's entries sorted by name, which is the
	// segment-by-segment order of the names.
	err := filepath.WalkDir(start, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // no such directory, or removed while walking
			}
			return classify(err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if path == start {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		if e.IsDir() {
			// Every name below sorts before name+"0" ('/' < '0'), so a
			// directory whose bound is not after after holds nothing to
			// list; nor does one outside prefix.
			name := filepath.ToSlash(rel)
			dir := name + "/"
			if name+"0" <= after || !strings.HasPrefix(dir, prefix) && !strings.HasPrefix(prefix, dir) {
				return fs.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() {
			return nil
		}
		name, ok := archive.ParseRefKey(archive.RefsRoot + filepath.ToSlash(rel))
		if !ok || name <= after || !strings.HasPrefix(name, prefix) {
			return nil
		}
		if err := fn(name, path); err != nil {
			return &callbackError{err}
		}
		return nil
	})
	var ce *callbackError
	if errors.As(err, &ce) {
		return ce.err
	}
	if err != nil {
		return fmt.Errorf("fsstore: %s: %w", op, err)
	}
	return nil
}

// callbackError carries fn's error out of WalkDir so ListRefs returns it
// unwrapped.
type callbackError struct{ err error }

func (c *callbackError) Error() string { return fmt.Sprint(c.err) }

// classify maps a file system error to the archive's terms: a missing file
// wraps fs.ErrNotExist, a full disk or quota wraps archive.ErrUnavailable.
// Paths are dropped so the error can be shown without leaking them.
func classify(err error) error {
	if err == nil {
		return nil
	}
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return err
	}
	switch {
	case errors.Is(errno, syscall.ENOENT):
		return fmt.Errorf("%w (%v)", fs.ErrNotExist, errno)
	case errors.Is(errno, syscall.ENOSPC), errors.Is(errno, syscall.EDQUOT):
		return fmt.Errorf("%w: %w", archive.ErrUnavailable, errno)
	case errors.Is(errno, syscall.EROFS), errors.Is(errno, syscall.EIO):
		return fmt.Errorf("%w: %w", archive.ErrUnavailable, errno)
	}
	return fmt.Errorf("%w", errno)
}

// mkdirAllSync creates dir and any missing parents, fsyncing each parent
// that gained an entry so the new directories survive a crash.
func mkdirAllSync(dir string) error {
	if fi, err := os.Stat(dir); err == nil {
		if !fi.IsDir() {
			return &fs.PathError{Op: "mkdir", Path: dir, Err: syscall.ENOTDIR}
		}
		return nil
	}
	parent := filepath.Dir(dir)
	if parent != dir {
		if err := mkdirAllSync(parent); err != nil {
			return err
		}
	}
	if err := os.Mkdir(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return nil // made by a concurrent writer
		}
		return err
	}
	return syncDir(parent)
}

func syncDir(dir string) error {
	f, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = f.Sync()
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// classify is the package's classify, except that a missing file under a
// store whose root directory has gone (deleted, or a volume unmounted) is
// archive.ErrUnavailable: the store is lost, not the one blob.
func (s *Store) classify(err error) error {
	err = classify(err)
	if errors.Is(err, fs.ErrNotExist) {
		if _, serr := os.Stat(s.blobsDir()); serr != nil {
			return fmt.Errorf("%w: the archive directory is missing", archive.ErrUnavailable)
		}
	}
	return err
}
