// Package archivetest is the conformance suite every archive backend passes:
// the on-disk store, the S3 store against a real S3 server, and any cache or
// wrapper. A backend's test calls Test with a constructor for empty stores.
package archivetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/normalize"
)

// Options tunes the suite for one backend. The zero value runs every test
// that needs nothing from the backend beyond archive.Store.
type Options struct {
	// Rewrite, if set, replaces the stored bytes of blob d in s with b behind
	// the store's back (by rewriting the file or object directly, not through
	// Put). The suite damages blobs with it the ways a disk or a bucket does
	// (emptied, cut short, extended, a byte changed) and checks that reading
	// the blob never succeeds with the damaged bytes. Rewrite fails t itself
	// if it cannot do its work.
	Rewrite func(t *testing.T, s archive.Store, d archive.Hash, b []byte)
	// Remove, if set, removes blob d from s behind the store's back; the
	// suite checks that the blob then reads as missing.
	Remove func(t *testing.T, s archive.Store, d archive.Hash)
}

// Test runs the conformance suite. newStore must return a new, empty store
// each time it is called; it registers its own cleanup with t. At most one
// Options value is used.
func Test(t *testing.T, newStore func(t *testing.T) archive.Store, opts ...Options) {
	t.Helper()
	var o Options
	if len(opts) > 0 {
		o = opts[0]
	}
	t.Run("RoundTrip", func(t *testing.T) { testRoundTrip(t, newStore(t)) })
	t.Run("PutWithoutWant", func(t *testing.T) { testPutWithoutWant(t, newStore(t)) })
	t.Run("PutWrongDigest", func(t *testing.T) { testPutWrongDigest(t, newStore(t)) })
	t.Run("PutIdempotent", func(t *testing.T) { testPutIdempotent(t, newStore(t)) })
	t.Run("PutReaderError", func(t *testing.T) { testPutReaderError(t, newStore(t)) })
	t.Run("PutBlob", func(t *testing.T) { testPutBlob(t, newStore(t)) })
	t.Run("Missing", func(t *testing.T) { testMissing(t, newStore(t)) })
	t.Run("List", func(t *testing.T) { testList(t, newStore(t)) })
	t.Run("Delete", func(t *testing.T) { testDelete(t, newStore(t)) })
	t.Run("Refs", func(t *testing.T) { testRefs(t, newStore(t)) })
	t.Run("RefNames", func(t *testing.T) { testRefNames(t, newStore(t)) })
	t.Run("RefPages", func(t *testing.T) {
		s := newStore(t)
		if _, ok := s.(archive.RefPager); !ok {
			t.Skip("backend does not list names in order")
		}
		testRefPages(t, s)
	})
	t.Run("ConcurrentPuts", func(t *testing.T) { testConcurrentPuts(t, newStore(t)) })
	t.Run("ConcurrentSetRef", func(t *testing.T) { testConcurrentSetRef(t, newStore(t)) })
	t.Run("RecordsPerText", func(t *testing.T) { testRecordsPerText(t, newStore(t)) })
	t.Run("CanceledContext", func(t *testing.T) { testCanceledContext(t, newStore(t)) })
	t.Run("CancelDuringPut", func(t *testing.T) { testCancelDuringPut(t, newStore(t)) })
	t.Run("Damage", func(t *testing.T) {
		if o.Rewrite == nil || o.Remove == nil {
			t.Skip("backend gave no Rewrite and Remove hooks")
		}
		testDamage(t, newStore, o)
	})
}

// Blob returns n deterministic pseudo-random bytes for seed, for tests and
// benchmarks that need distinct blobs.
func Blob(seed uint64, n int) []byte {
	r := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	b := make([]byte, n)
	for i := 0; i < n; i += 8 {
		v := r.Uint64()
		for j := 0; j < 8 && i+j < n; j++ {
			b[i+j] = byte(v >> (8 * j))
		}
	}
	return b
}

func ctxFor(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}

func mustPut(t *testing.T, s archive.Store, b []byte) archive.Hash {
	t.Helper()
	d, err := archive.PutBytes(ctxFor(t), s, b)
	if err != nil {
		t.Fatalf("Put(%d bytes): %v", len(b), err)
	}
	if want := archive.Sum(b); d != want {
		t.Fatalf("Put returned %s, want %s", d, want)
	}
	return d
}

// readBlob reads d to EOF and returns the bytes and the first error.
func readBlob(t *testing.T, s archive.Store, d archive.Hash) ([]byte, error) {
	t.Helper()
	rc, err := s.Get(ctxFor(t), d)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	return io.ReadAll(rc)
}

func mustRead(t *testing.T, s archive.Store, d archive.Hash) []byte {
	t.Helper()
	b, err := readBlob(t, s, d)
	if err != nil {
		t.Fatalf("Get(%s): %v", d, err)
	}
	return b
}

func listAll(t *testing.T, s archive.Store) map[archive.Hash]archive.BlobInfo {
	t.Helper()
	seen := map[archive.Hash]archive.BlobInfo{}
	err := s.List(ctxFor(t), func(bi archive.BlobInfo) error {
		if _, dup := seen[bi.Hash]; dup {
			t.Errorf("List reported %s twice", bi.Hash)
		}
		seen[bi.Hash] = bi
		return nil
	})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	return seen
}

func testRoundTrip(t *testing.T, s archive.Store) {
	cases := []struct {
		name string
		data []byte
	}{
		{"empty", []byte{}},
		{"one byte", []byte{'x'}},
		{"text", []byte("canonical text\nwith two blocks")},
		{"not UTF-8", []byte{0xff, 0xfe, 0x00, 0x80, 0xc3, 0x28, '\n', normalize.PageSeparator}},
		{"1 MiB", Blob(1, 1<<20)},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := mustPut(t, s, tc.data)
			got := mustRead(t, s, d)
			if !bytes.Equal(got, tc.data) {
				t.Fatalf("Get returned %d bytes that differ from the %d put", len(got), len(tc.data))
			}
			info, err := s.Stat(ctxFor(t), d)
			if err != nil {
				t.Fatalf("Stat: %v", err)
			}
			if info.Hash != d || info.Size != int64(len(tc.data)) {
				t.Errorf("Stat = {%s, %d}, want {%s, %d}", info.Hash, info.Size, d, len(tc.data))
			}
			if info.ModTime.IsZero() {
				t.Errorf("Stat ModTime is zero")
			}
			all, err := archive.ReadAll(ctxFor(t), s, d, int64(len(tc.data)))
			if err != nil || !bytes.Equal(all, tc.data) {
				t.Errorf("ReadAll with an exact cap: %d bytes, %v", len(all), err)
			}
		})
	}
}

func testPutWithoutWant(t *testing.T, s archive.Store) {
	data := []byte("stored without an expected digest")
	d, err := s.Put(ctxFor(t), archive.Hash{}, bytes.NewReader(data))
	if err != nil {
		t.Fatalf("Put: %v", err)
	}
	if d != archive.Sum(data) {
		t.Fatalf("Put returned %s, want %s", d, archive.Sum(data))
	}
	if got := mustRead(t, s, d); !bytes.Equal(got, data) {
		t.Fatalf("Get = %q, want %q", got, data)
	}
	// A reader that yields little at a time must be read to EOF.
	big := Blob(2, 300_000)
	d, err = s.Put(ctxFor(t), archive.Hash{}, &trickleReader{b: big, max: 7919})
	if err != nil {
		t.Fatalf("Put of a trickling reader: %v", err)
	}
	if d != archive.Sum(big) {
		t.Fatalf("Put of a trickling reader returned %s, want %s", d, archive.Sum(big))
	}
}

func testPutWrongDigest(t *testing.T, s archive.Store) {
	cases := []struct {
		name string
		data []byte
		want archive.Hash
	}{
		{"other bytes", []byte("the bytes sent"), archive.SumString("the bytes promised")},
		{"empty body", []byte{}, archive.SumString("something")},
		{"one bit off", []byte("abc"), func() archive.Hash { d := archive.SumString("abc"); d[31] ^= 1; return d }()},
		{"large", Blob(3, 200_000), archive.Sum(Blob(4, 200_000))},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := s.Put(ctxFor(t), tc.want, bytes.NewReader(tc.data))
			if !errors.Is(err, archive.ErrCorrupt) {
				t.Fatalf("Put with a wrong digest: err = %v, want ErrCorrupt", err)
			}
			for _, d := range []archive.Hash{tc.want, archive.Sum(tc.data)} {
				if _, err := s.Stat(ctxFor(t), d); !errors.Is(err, fs.ErrNotExist) {
					t.Errorf("Stat(%s) after a rejected Put: err = %v, want fs.ErrNotExist", d, err)
				}
			}
		})
	}
	if n := len(listAll(t, s)); n != 0 {
		t.Errorf("List after rejected Puts saw %d blobs, want 0", n)
	}
}

// A Blob carries its hash: storing it hashes nothing again, and what it
// stores reads back verified. A Blob's reader read partway before Put, or
// read around the store's back, is refused: the store cannot have seen all of
// the bytes the hash names.
func testPutBlob(t *testing.T, s archive.Store) {
	b := archive.NewBlob(string(Blob(11, 300_000)))
	var mu sync.Mutex
	again := 0
	stop := archive.ObserveHashes(func(d archive.Hash) {
		if d == b.Hash() {
			mu.Lock()
			again++
			mu.Unlock()
		}
	})
	d, err := archive.PutBlob(ctxFor(t), s, b)
	stop()
	if err != nil || d != b.Hash() {
		t.Fatalf("PutBlob = %s, %v; want %s", d, err, b.Hash())
	}
	if again != 0 {
		t.Errorf("storing a Blob hashed its bytes %d more times", again)
	}
	if got, err := archive.ReadBlob(ctxFor(t), s, d, 1<<20); err != nil || got != b {
		t.Fatalf("ReadBlob after PutBlob: %v (same blob: %t)", err, got == b)
	}

	short := archive.NewBlob(string(Blob(12, 50_000)))
	for _, tc := range []struct {
		name string
		put  func(r io.Reader) error
	}{
		{"read partway before", func(r io.Reader) error {
			if _, err := io.ReadFull(r, make([]byte, 10)); err != nil {
				return err
			}
			_, err := s.Put(ctxFor(t), short.Hash(), r)
			return err
		}},
		{"read around the store", func(r io.Reader) error {
			_, err := s.Put(ctxFor(t), short.Hash(), &stealing{r: r})
			return err
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if err := tc.put(short.Reader()); !errors.Is(err, archive.ErrCorrupt) {
				t.Errorf("Put of a Blob not wholly read through the store: err = %v, want ErrCorrupt", err)
			}
		})
	}
	if _, err := s.Stat(ctxFor(t), short.Hash()); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat after refused Puts: err = %v, want fs.ErrNotExist", err)
	}
	if n := len(listAll(t, s)); n != 1 {
		t.Errorf("List after one Put and refused ones saw %d blobs, want 1", n)
	}
}

// stealing reads a byte of r for itself before each read it passes on, as
// a caller reading a Blob's reader behind the store's back would.
type stealing struct{ r io.Reader }

func (s *stealing) Read(p []byte) (int, error) {
	var one [1]byte
	if _, err := s.r.Read(one[:]); err != nil {
		return 0, err
	}
	return s.r.Read(p)
}

func testPutIdempotent(t *testing.T, s archive.Store) {
	data := []byte("put twice")
	d1 := mustPut(t, s, data)
	d2 := mustPut(t, s, data)
	if d1 != d2 {
		t.Fatalf("second Put returned %s, first %s", d2, d1)
	}
	if got := mustRead(t, s, d1); !bytes.Equal(got, data) {
		t.Fatalf("Get after two Puts = %q", got)
	}
	if n := len(listAll(t, s)); n != 1 {
		t.Fatalf("List saw %d blobs after putting one blob twice", n)
	}
}

func testPutReaderError(t *testing.T, s archive.Store) {
	boom := errors.New("source read failed")
	data := Blob(5, 100_000)
	r := io.MultiReader(bytes.NewReader(data[:50_000]), &errReader{err: boom})
	_, err := s.Put(ctxFor(t), archive.Sum(data), r)
	if !errors.Is(err, boom) {
		t.Fatalf("Put with a failing reader: err = %v, want it to wrap the reader's error", err)
	}
	for _, d := range []archive.Hash{archive.Sum(data), archive.Sum(data[:50_000])} {
		if _, err := s.Stat(ctxFor(t), d); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Stat after a failed Put: err = %v, want fs.ErrNotExist", err)
		}
	}
}

func testMissing(t *testing.T, s archive.Store) {
	d := archive.SumString("never stored")
	if _, err := s.Get(ctxFor(t), d); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Get of a missing blob: err = %v, want fs.ErrNotExist", err)
	}
	if _, err := s.Stat(ctxFor(t), d); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat of a missing blob: err = %v, want fs.ErrNotExist", err)
	}
	if _, err := archive.ReadAll(ctxFor(t), s, d, 10); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ReadAll of a missing blob: err = %v, want fs.ErrNotExist", err)
	}
	if err := s.Delete(ctxFor(t), d); err != nil {
		t.Errorf("Delete of a missing blob: %v", err)
	}
}

func testList(t *testing.T, s archive.Store) {
	if n := len(listAll(t, s)); n != 0 {
		t.Fatalf("new store lists %d blobs", n)
	}
	want := map[archive.Hash]int64{}
	for i := range 40 {
		b := Blob(uint64(100+i), i*37)
		want[mustPut(t, s, b)] = int64(len(b))
	}
	// Refs are not blobs.
	if err := s.SetRef(ctxFor(t), "list/ref", archive.SumString("x")); err != nil {
		t.Fatalf("SetRef: %v", err)
	}
	got := listAll(t, s)
	if len(got) != len(want) {
		t.Errorf("List saw %d blobs, want %d", len(got), len(want))
	}
	for d, size := range want {
		bi, ok := got[d]
		if !ok {
			t.Errorf("List missed %s", d)
			continue
		}
		if bi.Size != size {
			t.Errorf("List size of %s = %d, want %d", d, bi.Size, size)
		}
		if bi.ModTime.IsZero() {
			t.Errorf("List ModTime of %s is zero", d)
		}
	}

	stop := errors.New("stop here")
	calls := 0
	err := s.List(ctxFor(t), func(archive.BlobInfo) error {
		calls++
		if calls == 3 {
			return stop
		}
		return nil
	})
	if !errors.Is(err, stop) {
		t.Errorf("List returned %v, want the callback's error", err)
	}
	if calls != 3 {
		t.Errorf("List called fn %d times after it failed on the 3rd", calls)
	}
}

func testDelete(t *testing.T, s archive.Store) {
	keep := mustPut(t, s, []byte("keep"))
	gone := mustPut(t, s, []byte("gone"))
	if err := s.Delete(ctxFor(t), gone); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := s.Stat(ctxFor(t), gone); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Stat after Delete: err = %v, want fs.ErrNotExist", err)
	}
	if _, err := s.Get(ctxFor(t), gone); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Get after Delete: err = %v, want fs.ErrNotExist", err)
	}
	if err := s.Delete(ctxFor(t), gone); err != nil {
		t.Errorf("second Delete: %v", err)
	}
	got := listAll(t, s)
	if _, ok := got[gone]; ok || len(got) != 1 {
		t.Errorf("List after Delete = %v, want only %s", keys(got), keep)
	}
	if b := mustRead(t, s, keep); string(b) != "keep" {
		t.Errorf("other blob after Delete = %q", b)
	}
	// A deleted blob can be stored again.
	mustPut(t, s, []byte("gone"))
	if b := mustRead(t, s, gone); string(b) != "gone" {
		t.Errorf("re-put blob = %q", b)
	}
}

func testRefs(t *testing.T, s archive.Store) {
	ctx := ctxFor(t)
	a, b, c := archive.SumString("a"), archive.SumString("b"), archive.SumString("c")
	if _, err := s.Ref(ctx, "cache/missing"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Ref of a missing name: err = %v, want fs.ErrNotExist", err)
	}
	set := map[string]archive.Hash{
		"cache/q1":          a,
		"cache/q2":          b,
		"cache/deep/er/q3":  c,
		"cachex/q1":         a,
		"other":             b,
		"v.1/x_y-z/A.b-C_d": c,
	}
	for name, d := range set {
		if err := s.SetRef(ctx, name, d); err != nil {
			t.Fatalf("SetRef(%q): %v", name, err)
		}
	}
	for name, d := range set {
		got, err := s.Ref(ctx, name)
		if err != nil || got != d {
			t.Errorf("Ref(%q) = %s, %v; want %s", name, got, err, d)
		}
	}
	// Overwrite.
	if err := s.SetRef(ctx, "cache/q1", c); err != nil {
		t.Fatalf("overwrite SetRef: %v", err)
	}
	set["cache/q1"] = c
	if got, err := s.Ref(ctx, "cache/q1"); err != nil || got != c {
		t.Errorf("Ref after overwrite = %s, %v; want %s", got, err, c)
	}

	prefixes := []struct {
		prefix string
		want   []string
	}{
		{"", []string{"cache/deep/er/q3", "cache/q1", "cache/q2", "cachex/q1", "other", "v.1/x_y-z/A.b-C_d"}},
		{"cache/", []string{"cache/deep/er/q3", "cache/q1", "cache/q2"}},
		{"cache/deep/", []string{"cache/deep/er/q3"}},
		{"cachex/", []string{"cachex/q1"}},
		{"nothing/", nil},
	}
	for _, p := range prefixes {
		var got []string
		err := s.ListRefs(ctx, p.prefix, func(name string, d archive.Hash) error {
			got = append(got, name)
			if d != set[name] {
				t.Errorf("ListRefs(%q) gave %s -> %s, want %s", p.prefix, name, d, set[name])
			}
			return nil
		})
		if err != nil {
			t.Errorf("ListRefs(%q): %v", p.prefix, err)
			continue
		}
		sort.Strings(got)
		if fmt.Sprint(got) != fmt.Sprint(p.want) {
			t.Errorf("ListRefs(%q) = %v, want %v", p.prefix, got, p.want)
		}
	}

	stop := errors.New("stop")
	if err := s.ListRefs(ctx, "", func(string, archive.Hash) error { return stop }); !errors.Is(err, stop) {
		t.Errorf("ListRefs returned %v, want the callback's error", err)
	}
	// Refs are not blobs and blobs are not refs.
	mustPut(t, s, []byte("a blob"))
	n := 0
	if err := s.ListRefs(ctx, "", func(string, archive.Hash) error { n++; return nil }); err != nil || n != len(set) {
		t.Errorf("ListRefs after a Put saw %d refs (%v), want %d", n, err, len(set))
	}
}

func testRefNames(t *testing.T, s archive.Store) {
	ctx := ctxFor(t)
	d := archive.SumString("target")
	cases := []struct {
		name  string
		valid bool
	}{
		{"a", true},
		{"digest-cache/0123abcd/x.json", true},
		{"", false},
		{"/abs", false},
		{"trailing/", false},
		{"a//b", false},
		{"../escape", false},
		{"a/../b", false},
		{"a/./b", false},
		{".", false},
		{"space here", false},
		{"back\\slash", false},
		{"nul\x00byte", false},
		{"ünïcode", false},
		{"v1/blobs/../../x", false},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprintf("%q", tc.name), func(t *testing.T) {
			if archive.ValidRefName(tc.name) != tc.valid {
				t.Fatalf("archive.ValidRefName(%q) = %v, table says %v", tc.name, !tc.valid, tc.valid)
			}
			err := s.SetRef(ctx, tc.name, d)
			if tc.valid != (err == nil) {
				t.Fatalf("SetRef(%q): err = %v, want valid=%v", tc.name, err, tc.valid)
			}
			got, err := s.Ref(ctx, tc.name)
			if tc.valid && (err != nil || got != d) {
				t.Errorf("Ref(%q) = %s, %v", tc.name, got, err)
			}
			if !tc.valid && err == nil {
				t.Errorf("Ref(%q) of an invalid name succeeded", tc.name)
			}
		})
	}
}

func testConcurrentPuts(t *testing.T, s archive.Store) {
	const workers = 8
	same := Blob(7, 64<<10)
	var wg sync.WaitGroup
	errs := make(chan error, 2*workers)
	for i := range workers {
		wg.Add(2)
		go func() {
			defer wg.Done()
			d, err := archive.PutBytes(ctxFor(t), s, same)
			if err == nil && d != archive.Sum(same) {
				err = fmt.Errorf("got digest %s", d)
			}
			if err != nil {
				errs <- fmt.Errorf("put of the shared blob: %w", err)
			}
		}()
		go func() {
			defer wg.Done()
			if _, err := archive.PutBytes(ctxFor(t), s, Blob(uint64(1000+i), 10_000+i)); err != nil {
				errs <- fmt.Errorf("put of blob %d: %w", i, err)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	got := listAll(t, s)
	if len(got) != workers+1 {
		t.Errorf("List saw %d blobs, want %d", len(got), workers+1)
	}
	if b := mustRead(t, s, archive.Sum(same)); !bytes.Equal(b, same) {
		t.Errorf("shared blob reads back as %d different bytes", len(b))
	}
	for i := range workers {
		b := Blob(uint64(1000+i), 10_000+i)
		if got := mustRead(t, s, archive.Sum(b)); !bytes.Equal(got, b) {
			t.Errorf("blob %d reads back wrong", i)
		}
	}
}

func testConcurrentSetRef(t *testing.T, s archive.Store) {
	const workers = 8
	var wg sync.WaitGroup
	targets := map[archive.Hash]bool{}
	for i := range workers {
		d := archive.SumString(fmt.Sprint(i))
		targets[d] = true
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.SetRef(ctxFor(t), "race/name", d); err != nil {
				t.Errorf("SetRef %d: %v", i, err)
			}
		}()
	}
	wg.Wait()
	got, err := s.Ref(ctxFor(t), "race/name")
	if err != nil || !targets[got] {
		t.Fatalf("Ref after racing SetRefs = %s, %v; want one of the written values", got, err)
	}
}

// testRecordsPerText writes the references the pipeline keeps for the
// records of one canonical text, one for each raw input
// ("records/<text hex>/<raw hex>", and "-<URL hex>" after it for a fetched
// source), as concurrent uploads of several inputs of a few texts do: each
// is kept, read back, and listed under its own text's prefix and no other,
// and writing one again (the same input uploaded again) adds none.
func testRecordsPerText(t *testing.T, s archive.Store) {
	ctx := ctxFor(t)
	const texts, inputs = 3, 12
	want := map[string]archive.Hash{}
	prefix := func(text int) string { return "records/" + archive.SumString(fmt.Sprint("text ", text)).Hex() + "/" }
	for text := range texts {
		for i := range inputs {
			name := prefix(text) + archive.SumString(fmt.Sprint("raw ", i%4)).Hex()
			if i >= 4 {
				name += "-" + archive.SumString(fmt.Sprint("https://example.org/", i)).Hex()
			}
			want[name] = archive.SumString(fmt.Sprint("record ", text, " ", i))
		}
		// The source's own reference, beside its records.
		want["sources/"+archive.SumString(fmt.Sprint("text ", text)).Hex()] = archive.SumString(fmt.Sprint("record ", text, " 0"))
	}
	var wg sync.WaitGroup
	for name, d := range want {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := s.SetRef(ctx, name, d); err != nil {
				t.Errorf("SetRef(%q): %v", name, err)
			}
		}()
	}
	wg.Wait()
	for name, d := range want {
		if got, err := s.Ref(ctx, name); err != nil || got != d {
			t.Errorf("Ref(%q) = %s, %v; want %s", name, got, err, d)
		}
	}
	// The same input again: its reference is written anew, and counts once.
	again := prefix(1) + archive.SumString("raw 2").Hex()
	if err := s.SetRef(ctx, again, want[again]); err != nil {
		t.Fatal(err)
	}
	for text := range texts {
		var got []string
		err := s.ListRefs(ctx, prefix(text), func(name string, d archive.Hash) error {
			got = append(got, name)
			if d != want[name] {
				t.Errorf("ListRefs gave %s -> %s, want %s", name, d, want[name])
			}
			return nil
		})
		if err != nil || len(got) != inputs {
			t.Errorf("ListRefs(%q) = %d names (%v), want %d", prefix(text), len(got), err, inputs)
		}
		for _, name := range got {
			if !strings.HasPrefix(name, prefix(text)) {
				t.Errorf("ListRefs(%q) gave %q", prefix(text), name)
			}
		}
		var named []string
		collect := func(name string) error { named = append(named, name); return nil }
		switch l := s.(type) {
		case archive.RefNamer:
			err = l.ListRefNames(ctx, prefix(text), collect)
		case archive.RefPager:
			err = l.ListRefNamesAfter(ctx, prefix(text), "", collect)
		default:
			continue
		}
		sort.Strings(got)
		sort.Strings(named)
		if err != nil || fmt.Sprint(named) != fmt.Sprint(got) {
			t.Errorf("names under %q = %v (%v), want %v", prefix(text), named, err, got)
		}
	}
}

func testCanceledContext(t *testing.T, s archive.Store) {
	stored := mustPut(t, s, []byte("stored before cancel"))
	if err := s.SetRef(ctxFor(t), "cancel/ref", stored); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	data := []byte("put with a canceled context")

	calls := []struct {
		op string
		fn func() error
	}{
		{"Put", func() error { _, err := archive.PutBytes(ctx, s, data); return err }},
		{"Get", func() error {
			rc, err := s.Get(ctx, stored)
			if err == nil {
				_, err = io.ReadAll(rc)
				rc.Close()
			}
			return err
		}},
		{"Stat", func() error { _, err := s.Stat(ctx, stored); return err }},
		{"List", func() error { return s.List(ctx, func(archive.BlobInfo) error { return nil }) }},
		{"Delete", func() error { return s.Delete(ctx, stored) }},
		{"SetRef", func() error { return s.SetRef(ctx, "cancel/other", stored) }},
		{"Ref", func() error { _, err := s.Ref(ctx, "cancel/ref"); return err }},
		{"ListRefs", func() error { return s.ListRefs(ctx, "", func(string, archive.Hash) error { return nil }) }},
	}
	for _, c := range calls {
		if err := c.fn(); !errors.Is(err, context.Canceled) {
			t.Errorf("%s with a canceled context: err = %v, want context.Canceled", c.op, err)
		}
	}
	if _, err := s.Stat(ctxFor(t), archive.Sum(data)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("blob put with a canceled context is visible: %v", err)
	}
	if _, err := s.Stat(ctxFor(t), stored); err != nil {
		t.Errorf("blob deleted with a canceled context is gone: %v", err)
	}
	if _, err := s.Ref(ctxFor(t), "cancel/other"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("ref set with a canceled context is visible: %v", err)
	}
}

// testCancelDuringPut cancels the context while Put is reading its input:
// the Put must fail and leave nothing visible.
func testCancelDuringPut(t *testing.T, s archive.Store) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	data := Blob(8, 2<<20)
	r := &cancelingReader{r: bytes.NewReader(data), after: 256 << 10, cancel: cancel}
	_, err := s.Put(ctx, archive.Sum(data), r)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Put canceled mid-read: err = %v, want context.Canceled", err)
	}
	if _, err := s.Stat(ctxFor(t), archive.Sum(data)); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("blob whose Put was canceled is visible: %v", err)
	}
	if n := len(listAll(t, s)); n != 0 {
		t.Errorf("List after a canceled Put saw %d blobs", n)
	}
}

// damages are the ways stored bytes go wrong behind a store's back; each
// returns the bytes the blob is left holding.
var damages = []struct {
	name string
	fn   func(b []byte) []byte
}{
	{"empty", func([]byte) []byte { return []byte{} }},
	{"truncated", func(b []byte) []byte { return b[:len(b)/2] }},
	{"last byte cut", func(b []byte) []byte { return b[:len(b)-1] }},
	{"extended", func(b []byte) []byte { return append(b, 0) }},
	{"flipped", func(b []byte) []byte { b[len(b)/2] ^= 0x40; return b }},
}

// testDamage damages a small and a large blob each way (and removes them)
// behind the store's back, and checks that a read to the end fails with
// ErrCorrupt (fs.ErrNotExist when removed) and ReadAll returns nothing, and
// that a Put of the same content then repairs the blob. Stat says nothing
// of the bytes and is not checked.
func testDamage(t *testing.T, newStore func(t *testing.T) archive.Store, o Options) {
	blobs := []struct {
		name string
		data []byte
	}{
		{"small", []byte("a blob that will rot on disk")},
		{"large", Blob(9, 300_000)},
	}
	for _, bl := range blobs {
		for _, dm := range damages {
			t.Run(bl.name+"/"+dm.name, func(t *testing.T) {
				s := newStore(t)
				d := mustPut(t, s, bl.data)
				o.Rewrite(t, s, d, dm.fn(bytes.Clone(bl.data)))
				checkUnreadable(t, s, d, archive.ErrCorrupt)
				checkRepaired(t, s, d, bl.data)
			})
		}
		t.Run(bl.name+"/missing", func(t *testing.T) {
			s := newStore(t)
			d := mustPut(t, s, bl.data)
			o.Remove(t, s, d)
			checkUnreadable(t, s, d, fs.ErrNotExist)
			checkRepaired(t, s, d, bl.data)
		})
	}
	// The empty blob is no damage under its own hash.
	t.Run("empty under its own hash", func(t *testing.T) {
		s := newStore(t)
		d := mustPut(t, s, []byte("x"))
		empty := archive.Sum(nil)
		o.Rewrite(t, s, d, []byte{})
		checkUnreadable(t, s, d, archive.ErrCorrupt)
		if got := mustRead(t, s, mustPut(t, s, nil)); len(got) != 0 {
			t.Errorf("the empty blob %s read back %d bytes", empty, len(got))
		}
	})
}

// checkRepaired puts data, the content of the damaged or removed blob d,
// again and checks that d then reads back whole: re-posting repairs on
// every backend.
func checkRepaired(t *testing.T, s archive.Store, d archive.Hash, data []byte) {
	t.Helper()
	if got, err := s.Put(ctxFor(t), d, bytes.NewReader(data)); err != nil || got != d {
		t.Fatalf("Put of the content of a damaged blob: %s, %v", got, err)
	}
	if got, err := readBlob(t, s, d); err != nil || !bytes.Equal(got, data) {
		t.Errorf("after a Put of its content, the damaged blob reads %d bytes, err = %v; want its %d bytes", len(got), err, len(data))
	}
}

// checkUnreadable checks that every way of reading d fails with want.
func checkUnreadable(t *testing.T, s archive.Store, d archive.Hash, want error) {
	t.Helper()
	got, err := readBlob(t, s, d)
	if err == nil {
		t.Fatalf("reading a damaged blob succeeded with %d bytes", len(got))
	}
	if !errors.Is(err, want) {
		t.Errorf("reading a damaged blob: err = %v, want %v", err, want)
	}
	if b, err := archive.ReadAll(ctxFor(t), s, d, 1<<30); !errors.Is(err, want) || b != nil {
		t.Errorf("ReadAll of a damaged blob: %d bytes, err = %v, want %v", len(b), err, want)
	}
}

func keys(m map[archive.Hash]archive.BlobInfo) []archive.Hash {
	var out []archive.Hash
	for d := range m {
		out = append(out, d)
	}
	return out
}

type trickleReader struct {
	b   []byte
	max int
}

func (r *trickleReader) Read(p []byte) (int, error) {
	if len(r.b) == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.max, len(r.b))
	copy(p, r.b[:n])
	r.b = r.b[n:]
	return n, nil
}

type errReader struct{ err error }

func (r *errReader) Read([]byte) (int, error) { return 0, r.err }

// cancelingReader calls cancel once more than after bytes were read, then
// keeps serving data as if nothing happened.
type cancelingReader struct {
	r      io.Reader
	after  int
	n      int
	cancel context.CancelFunc
}

func (r *cancelingReader) Read(p []byte) (int, error) {
	if len(p) > 32<<10 {
		p = p[:32<<10]
	}
	n, err := r.r.Read(p)
	r.n += n
	if r.n > r.after {
		r.cancel()
	}
	return n, err
}

// errStop ends a listing early in testRefPages.
var errStop = errors.New("stop")

// testRefPages lists sharded names in order from a position, as a listing
// page does.
func testRefPages(t *testing.T, s archive.Store) {
	ctx := ctxFor(t)
	d := archive.SumString("target")
	var all []string
	for i := range 6 {
		for j := range 6 {
			all = append(all, fmt.Sprintf("pg/%02d/%02d", i, j))
		}
	}
	// Written out of order, beside names outside the prefix.
	for _, i := range rand.New(rand.NewPCG(1, 2)).Perm(len(all)) {
		if err := s.SetRef(ctx, all[i], d); err != nil {
			t.Fatal(err)
		}
	}
	for _, name := range []string{"pf/99/99", "ph/00/00", "pgx"} {
		if err := s.SetRef(ctx, name, d); err != nil {
			t.Fatal(err)
		}
	}
	pager := s.(archive.RefPager)
	list := func(prefix, after string, n int) ([]string, error) {
		var got []string
		err := pager.ListRefNamesAfter(ctx, prefix, after, func(name string) error {
			got = append(got, name)
			if len(got) == n {
				return errStop
			}
			return nil
		})
		if errors.Is(err, errStop) {
			err = nil
		}
		return got, err
	}
	cases := []struct {
		prefix, after string
		n             int
		want          []string
	}{
		{"pg/", "", 1000, all},
		{"pg/", "pg/02/03", 3, all[16:19]},
		{"pg/", "pg/03", 2, all[18:20]},    // a directory's name: its names follow
		{"pg/", "pg/03/99", 2, all[24:26]}, // past a directory's last name
		{"pg/", "pg/05/05", 10, nil},       // past the last name
		{"pg/04/", "", 1000, all[24:30]},   // a narrower prefix
		{"pg/04/", "pg/04/03", 1000, all[28:30]},
		{"pg/", "a", 1, all[:1]}, // before the prefix
	}
	for _, tc := range cases {
		got, err := list(tc.prefix, tc.after, tc.n)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("ListRefNamesAfter(%q, %q) first %d = %v, %v; want %v", tc.prefix, tc.after, tc.n, got, err, tc.want)
		}
	}
	calls := 0
	err := pager.ListRefNamesAfter(ctx, "pg/", "", func(string) error {
		calls++
		return errStop
	})
	if !errors.Is(err, errStop) || calls != 1 {
		t.Errorf("fn's error: got %v after %d calls, want it returned after 1", err, calls)
	}
}
