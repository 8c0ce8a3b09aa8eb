package fsstore

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/archivetest"
)

func newStore(t *testing.T) archive.Store {
	s, err := Open(t.TempDir())
	if err != nil {
		t.Fatalf("Open: %v", err)
	}
	return s
}

// rewriteFile replaces the blob's file with b in place, as damage on disk
// does.
func rewriteFile(t *testing.T, st archive.Store, d archive.Hash, b []byte) {
	p := st.(*Store).BlobPath(d)
	if err := os.Chmod(p, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatalf("rewrite blob file: %v", err)
	}
}

// removeFile removes the blob's file.
func removeFile(t *testing.T, st archive.Store, d archive.Hash) {
	if err := os.Remove(st.(*Store).BlobPath(d)); err != nil {
		t.Fatalf("remove blob file: %v", err)
	}
}

func TestConformance(t *testing.T) {
	archivetest.Test(t, newStore, archivetest.Options{Rewrite: rewriteFile, Remove: removeFile})
}

func TestLayout(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	d, err := archive.PutBytes(ctx, s, []byte("hello"))
	if err != nil {
		t.Fatal(err)
	}
	h := d.Hex()
	blob := filepath.Join(dir, "v1", "blobs", h[:2], h)
	if b, err := os.ReadFile(blob); err != nil || string(b) != "hello" {
		t.Errorf("blob file %s: %q, %v", blob, b, err)
	}
	if err := s.SetRef(ctx, "cache/q", d); err != nil {
		t.Fatal(err)
	}
	ref := filepath.Join(dir, "v1", "refs", "cache", "q")
	if b, err := os.ReadFile(ref); err != nil || string(b) != d.String()+"\n" {
		t.Errorf("ref file %s: %q, %v", ref, b, err)
	}
	if n := countTemps(t, dir); n != 0 {
		t.Errorf("%d temporary files left after successful writes", n)
	}
}

func TestRefFileCorrupt(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "v1", "refs", "bad")
	if err := os.WriteFile(p, []byte("not a digest\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Ref(context.Background(), "bad"); !errors.Is(err, archive.ErrCorrupt) {
		t.Errorf("Ref of a garbled file: err = %v, want ErrCorrupt", err)
	}
}

func TestRefPrefixConflict(t *testing.T) {
	s := newStore(t)
	ctx := context.Background()
	d := archive.SumString("x")
	if err := s.SetRef(ctx, "a", d); err != nil {
		t.Fatal(err)
	}
	if err := s.SetRef(ctx, "a/b", d); err == nil {
		t.Errorf("SetRef(a/b) with a file at a succeeded")
	}
	if _, err := s.Ref(ctx, "a/b"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Ref(a/b): err = %v, want fs.ErrNotExist", err)
	}
}

func TestListRefsRejectsEscapingPrefix(t *testing.T) {
	s := newStore(t)
	for _, p := range []string{"../", "../../etc/", "/abs/", "a//"} {
		err := s.ListRefs(context.Background(), p, func(string, archive.Hash) error {
			t.Errorf("ListRefs(%q) visited a name", p)
			return nil
		})
		if err == nil {
			t.Errorf("ListRefs(%q) succeeded", p)
		}
	}
}

func TestListIgnoresStrayFiles(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	d, err := archive.PutBytes(context.Background(), s, []byte("real"))
	if err != nil {
		t.Fatal(err)
	}
	fan := filepath.Join(dir, "v1", "blobs", d.Hex()[:2])
	other := archive.SumString("misplaced").Hex()
	for _, name := range []string{"README", ".tmp-1-x", other, strings.ToUpper(d.Hex())} {
		if err := os.WriteFile(filepath.Join(fan, name), []byte("junk"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var got []archive.Hash
	if err := s.List(context.Background(), func(bi archive.BlobInfo) error { got = append(got, bi.Hash); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0] != d {
		t.Errorf("List = %v, want only %s", got, d)
	}
}

func TestSweep(t *testing.T) {
	dir := t.TempDir()
	if _, err := Open(dir); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "v1", "tmp")
	deadPID := deadProcessID(t)
	old := time.Now().Add(-2 * StaleTempAge)
	cases := []struct {
		name    string
		old     bool
		removed bool
	}{
		{fmt.Sprintf(".tmp-%d-123", deadPID), false, true},
		{fmt.Sprintf(".tmp-%d-456", os.Getpid()), false, false},
		{fmt.Sprintf(".tmp-%d-789", os.Getpid()), true, true},
		{fmt.Sprintf(".tmp-%d-1", os.Getppid()), false, false},
		{".tmp-garbage", false, true},
		{"not-a-temp", false, false},
	}
	for _, c := range cases {
		p := filepath.Join(tmp, c.name)
		if err := os.WriteFile(p, []byte("partial"), 0o600); err != nil {
			t.Fatal(err)
		}
		if c.old {
			if err := os.Chtimes(p, old, old); err != nil {
				t.Fatal(err)
			}
		}
	}
	if _, err := Open(dir); err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		_, err := os.Stat(filepath.Join(tmp, c.name))
		if gone := errors.Is(err, fs.ErrNotExist); gone != c.removed {
			t.Errorf("%s: removed = %v, want %v", c.name, gone, c.removed)
		}
	}
}

// deadProcessID returns the id of a process that has exited.
func deadProcessID(t *testing.T) int {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	if err := cmd.Run(); err != nil {
		t.Fatalf("run a short child: %v", err)
	}
	pid := cmd.Process.Pid
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Skipf("process id %d was reused already", pid)
	}
	return pid
}

// fullDisk writes up to room bytes, then fails as a full disk does.
type fullDisk struct {
	w     io.Writer
	room  int
	errno syscall.Errno
}

func (f *fullDisk) Write(p []byte) (int, error) {
	if len(p) > f.room {
		n, _ := f.w.Write(p[:f.room])
		f.room = 0
		return n, &fs.PathError{Op: "write", Path: "/hidden/path", Err: f.errno}
	}
	f.room -= len(p)
	return f.w.Write(p)
}

func TestFullDiskInjected(t *testing.T) {
	for _, errno := range []syscall.Errno{syscall.ENOSPC, syscall.EDQUOT} {
		t.Run(errno.Error(), func(t *testing.T) {
			dir := t.TempDir()
			s, err := Open(dir)
			if err != nil {
				t.Fatal(err)
			}
			s.wrapTemp = func(w io.Writer) io.Writer { return &fullDisk{w: w, room: 100_000, errno: errno} }
			ctx := context.Background()
			data := archivetest.Blob(1, 1<<20)
			_, err = archive.PutBytes(ctx, s, data)
			if !errors.Is(err, archive.ErrUnavailable) || !errors.Is(err, errno) {
				t.Fatalf("Put on a full disk: err = %v, want ErrUnavailable wrapping %v", err, errno)
			}
			if strings.Contains(err.Error(), "/hidden/path") || strings.Contains(err.Error(), dir) {
				t.Errorf("error leaks a path: %v", err)
			}
			if _, err := s.Stat(ctx, archive.Sum(data)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("partial blob visible: %v", err)
			}
			if err := s.SetRef(ctx, "r", archive.Sum(data)); err != nil {
				// 100 kB of room is enough for a reference.
				t.Errorf("SetRef with room to spare: %v", err)
			}
			s.wrapTemp = func(w io.Writer) io.Writer { return &fullDisk{w: w, room: 10, errno: errno} }
			if err := s.SetRef(ctx, "r", archive.SumString("other")); !errors.Is(err, archive.ErrUnavailable) {
				t.Errorf("SetRef on a full disk: err = %v, want ErrUnavailable", err)
			}
			if d, err := s.Ref(ctx, "r"); err != nil || d != archive.Sum(data) {
				t.Errorf("ref after a failed SetRef = %s, %v; want the old value", d, err)
			}
			if n := countTemps(t, dir); n != 0 {
				t.Errorf("%d temporary files left after failed writes", n)
			}
		})
	}
}

// TestFullDiskTmpfs fills a real 1 MiB tmpfs. It needs permission to mount
// and skips without it.
func TestFullDiskTmpfs(t *testing.T) {
	dir := t.TempDir()
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size=1m"); err != nil {
		t.Skipf("cannot mount a tmpfs here: %v", err)
	}
	t.Cleanup(func() { syscall.Unmount(dir, 0) })
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	small, err := archive.PutBytes(ctx, s, []byte("fits"))
	if err != nil {
		t.Fatal(err)
	}
	data := archivetest.Blob(2, 2<<20)
	_, err = archive.PutBytes(ctx, s, data)
	if !errors.Is(err, archive.ErrUnavailable) || !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("Put of 2 MiB into 1 MiB: err = %v, want ErrUnavailable wrapping ENOSPC", err)
	}
	if _, err := s.Stat(ctx, archive.Sum(data)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("partial blob visible: %v", err)
	}
	if n := countTemps(t, dir); n != 0 {
		t.Errorf("%d temporary files left", n)
	}
	// The space came back: a blob that fits still goes in.
	if _, err := archive.PutBytes(ctx, s, archivetest.Blob(3, 500_000)); err != nil {
		t.Errorf("Put after a full-disk failure: %v", err)
	}
	if b, err := archive.ReadAll(ctx, s, small, 100); err != nil || string(b) != "fits" {
		t.Errorf("earlier blob: %q, %v", b, err)
	}
}

func countTemps(t *testing.T, dir string) int {
	t.Helper()
	n := 0
	err := filepath.WalkDir(dir, func(p string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(e.Name(), tmpPrefix) {
			n++
		}
		return nil
	})
	if err != nil {
		t.Fatalf("walk %s: %v", dir, err)
	}
	return n
}

func TestOpenErrors(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"", file, filepath.Join(file, "sub")} {
		if _, err := Open(dir); err == nil {
			t.Errorf("Open(%q) succeeded", dir)
		}
	}
}

func BenchmarkStore(b *testing.B) {
	s, err := Open(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	archivetest.Bench(b, s)
}

func TestGetReadsVerified(t *testing.T) {
	// A truncated file must not read back as a shorter, successful blob.
	s := newStore(t).(*Store)
	ctx := context.Background()
	data := bytes.Repeat([]byte("x"), 1000)
	d, err := archive.PutBytes(ctx, s, data)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(s.BlobPath(d), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(s.BlobPath(d), 500); err != nil {
		t.Fatal(err)
	}
	if _, err := archive.ReadAll(ctx, s, d, 1<<20); !errors.Is(err, archive.ErrCorrupt) {
		t.Errorf("ReadAll of a truncated blob: err = %v, want ErrCorrupt", err)
	}
	// Put repairs it.
	if _, err := archive.PutBytes(ctx, s, data); err != nil {
		t.Fatal(err)
	}
	if b, err := archive.ReadAll(ctx, s, d, 1<<20); err != nil || !bytes.Equal(b, data) {
		t.Errorf("after re-Put: %d bytes, %v", len(b), err)
	}
}

// Put and SetRef commit through one sequence with one classification: when
// the archive's directory is gone (deleted, or a volume unmounted), both are
// archive.ErrUnavailable, not a missing blob or name, and neither leaves a
// file behind.
func TestWritesClassifyALostArchiveAlike(t *testing.T) {
	dir := t.TempDir()
	s, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(filepath.Join(dir, "v1")); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	_, perr := archive.PutBytes(ctx, s, []byte("a blob"))
	rerr := s.SetRef(ctx, "r", archive.SumString("a blob"))
	for op, err := range map[string]error{"Put": perr, "SetRef": rerr} {
		if !errors.Is(err, archive.ErrUnavailable) || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s into a lost archive: err = %v, want ErrUnavailable", op, err)
		}
		if err != nil && strings.Contains(err.Error(), dir) {
			t.Errorf("%s: error leaks a path: %v", op, err)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "v1")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a failed write recreated the archive's directories: %v", err)
	}
}
