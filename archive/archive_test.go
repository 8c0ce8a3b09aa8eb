package archive_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"strings"
	"sync/atomic"
	"testing"
	"testing/iotest"

	"github.com/digestd/digestd/archive"
)

const helloHex = "2cf24dba5fb0a30e26e83b2ac5b9e29e1b161e5c1fa7425e73043362938b9824" // sha256("hello")

func TestParseHash(t *testing.T) {
	cases := []struct {
		in   string
		ok   bool
		want string
	}{
		{"sha256:" + helloHex, true, helloHex},
		{helloHex, true, helloHex},
		{"sha256:" + strings.ToUpper(helloHex), true, helloHex},
		{"", false, ""},
		{"sha256:", false, ""},
		{"sha256:" + helloHex[:63], false, ""},
		{"sha256:" + helloHex + "0", false, ""},
		{"sha256:" + helloHex[:63] + "g", false, ""},
		{"sha512:" + helloHex, false, ""},
		{"SHA256:" + helloHex, false, ""},
		{" sha256:" + helloHex, false, ""},
	}
	for _, tc := range cases {
		d, err := archive.ParseHash(tc.in)
		if tc.ok != (err == nil) {
			t.Errorf("ParseHash(%q): err = %v, want ok=%v", tc.in, err, tc.ok)
			continue
		}
		if !tc.ok {
			if !errors.Is(err, archive.ErrInvalidHash) {
				t.Errorf("ParseHash(%q): err = %v, want ErrInvalidHash", tc.in, err)
			}
			continue
		}
		if d.Hex() != tc.want || d.String() != "sha256:"+tc.want {
			t.Errorf("ParseHash(%q) = %s", tc.in, d)
		}
	}
}

func TestDigestValues(t *testing.T) {
	d := archive.SumString("hello")
	if d.Hex() != helloHex || d != archive.Sum([]byte("hello")) || !d.Valid() {
		t.Fatalf("SumString(hello) = %s", d)
	}
	if (archive.Hash{}).Valid() {
		t.Error("zero Hash is valid")
	}
	if archive.BlobKey(d) != "v1/blobs/2c/"+helloHex {
		t.Errorf("BlobKey = %s", archive.BlobKey(d))
	}
	if archive.RefKey("cache/q") != "v1/refs/cache/q" {
		t.Errorf("RefKey = %s", archive.RefKey("cache/q"))
	}
	b, err := json.Marshal(map[string]archive.Hash{"h": d})
	if err != nil || string(b) != `{"h":"sha256:`+helloHex+`"}` {
		t.Fatalf("json = %s, %v", b, err)
	}
	var back map[string]archive.Hash
	if err := json.Unmarshal(b, &back); err != nil || back["h"] != d {
		t.Fatalf("json round trip = %v, %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"h":"sha256:zz"}`), &back); !errors.Is(err, archive.ErrInvalidHash) {
		t.Errorf("unmarshal of a bad digest: %v", err)
	}
}

func TestValidRefName(t *testing.T) {
	cases := []struct {
		name string
		ok   bool
	}{
		{"a", true},
		{"digest-cache/v1/abc_DEF.0-9", true},
		{"..a", true},
		{strings.Repeat("a", 512), true},
		{strings.Repeat("a", 513), false},
		{"", false},
		{"/a", false},
		{"a/", false},
		{"a//b", false},
		{"..", false},
		{"a/../b", false},
		{"a/.", false},
		{"a b", false},
		{"a\\b", false},
		{"a\nb", false},
		{"é", false},
	}
	for _, tc := range cases {
		if got := archive.ValidRefName(tc.name); got != tc.ok {
			t.Errorf("ValidRefName(%q) = %v, want %v", tc.name, got, tc.ok)
		}
	}
}

func TestVerifyingReader(t *testing.T) {
	data := []byte("some canonical text that is read in small pieces")
	cases := []struct {
		name    string
		stored  []byte
		corrupt bool
	}{
		{"intact", data, false},
		{"empty intact", []byte{}, false},
		{"flipped byte", append(append([]byte{}, data[:5]...), append([]byte{data[5] ^ 1}, data[6:]...)...), true},
		{"truncated", data[:10], true},
		{"extended", append(append([]byte{}, data...), 'x'), true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			want := archive.Sum(data)
			if len(tc.stored) == 0 {
				want = archive.Sum(nil)
			}
			r := archive.VerifyingReader(io.NopCloser(iotest.OneByteReader(bytes.NewReader(tc.stored))), want)
			got, err := io.ReadAll(r)
			if tc.corrupt {
				if !errors.Is(err, archive.ErrCorrupt) {
					t.Fatalf("err = %v, want ErrCorrupt", err)
				}
				// The error sticks.
				if _, err := r.Read(make([]byte, 1)); !errors.Is(err, archive.ErrCorrupt) {
					t.Errorf("read after the error: %v", err)
				}
				return
			}
			if err != nil || !bytes.Equal(got, tc.stored) {
				t.Fatalf("ReadAll = %q, %v", got, err)
			}
		})
	}
	// A reader that fails passes its error on, not ErrCorrupt.
	boom := errors.New("boom")
	r := archive.VerifyingReader(io.NopCloser(iotest.ErrReader(boom)), archive.Sum(data))
	if _, err := io.ReadAll(r); !errors.Is(err, boom) || errors.Is(err, archive.ErrCorrupt) {
		t.Errorf("failing reader: err = %v", err)
	}
}

// mapStore is the smallest Getter/Putter, for ReadAll and PutBytes.
type mapStore map[archive.Hash][]byte

func (m mapStore) Get(_ context.Context, d archive.Hash) (io.ReadCloser, error) {
	return archive.VerifyingReader(io.NopCloser(bytes.NewReader(m[d])), d), nil
}

func (m mapStore) Put(_ context.Context, want archive.Hash, r io.Reader) (archive.Hash, error) {
	b, err := io.ReadAll(r)
	if err != nil {
		return archive.Hash{}, err
	}
	if d := archive.Sum(b); want.Valid() && d != want {
		return archive.Hash{}, archive.ErrCorrupt
	}
	m[archive.Sum(b)] = b
	return archive.Sum(b), nil
}

func TestReadAllAndPutBytes(t *testing.T) {
	ctx := context.Background()
	m := mapStore{}
	d, err := archive.PutBytes(ctx, m, []byte("0123456789"))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := archive.ReadAll(ctx, m, d, 10); err != nil || string(b) != "0123456789" {
		t.Errorf("ReadAll with an exact cap = %q, %v", b, err)
	}
	if _, err := archive.ReadAll(ctx, m, d, 9); !errors.Is(err, archive.ErrTooLarge) {
		t.Errorf("ReadAll over the cap: err = %v, want ErrTooLarge", err)
	}
}

func FuzzParseHash(f *testing.F) {
	f.Add("sha256:" + helloHex)
	f.Add(helloHex)
	f.Add("sha256:xyz")
	f.Fuzz(func(t *testing.T, s string) {
		d, err := archive.ParseHash(s)
		if err != nil {
			return
		}
		again, err := archive.ParseHash(d.String())
		if err != nil || again != d {
			t.Fatalf("%q parsed to %s, which does not round-trip: %v", s, d, err)
		}
		if !strings.EqualFold(strings.TrimPrefix(s, "sha256:"), d.Hex()) {
			t.Fatalf("%q parsed to %s", s, d)
		}
	})
}

func FuzzValidRefName(f *testing.F) {
	for _, s := range []string{"a", "a/b", "../x", "a//b", "cache/q.json"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, name string) {
		if !archive.ValidRefName(name) {
			return
		}
		// A valid name stays inside the refs namespace whatever joins it.
		key := archive.RefKey(name)
		for _, seg := range strings.Split(key, "/") {
			if seg == ".." || seg == "." || seg == "" {
				t.Fatalf("valid name %q gives key %q", name, key)
			}
		}
		if strings.ContainsAny(name, "\\\x00 \n") {
			t.Fatalf("valid name %q holds a separator or control character", name)
		}
	})
}

// TestHashingReader checks the one check on the way in: a clean EOF names
// the bytes, a mismatch with the expected hash fails at EOF with
// ErrCorrupt, and Sum is zero until EOF.
func TestHashingReader(t *testing.T) {
	hello := archive.MustParseHash(helloHex)
	tests := []struct {
		name    string
		data    string
		want    archive.Hash
		corrupt bool
	}{
		{"expected", "hello", hello, false},
		{"nothing expected", "hello", archive.Hash{}, false},
		{"other bytes", "hellp", hello, true},
		{"empty", "", hello, true},
		{"empty, nothing expected", "", archive.Hash{}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			hr := archive.NewHashingReader(iotest.OneByteReader(strings.NewReader(tt.data)), tt.want)
			if hr.Sum().Valid() {
				t.Error("Sum is valid before EOF")
			}
			b, err := io.ReadAll(hr)
			if string(b) != tt.data {
				t.Errorf("read %q, want %q", b, tt.data)
			}
			if errors.Is(err, archive.ErrCorrupt) != tt.corrupt || (err != nil && !tt.corrupt) {
				t.Fatalf("err = %v, corrupt %v", err, tt.corrupt)
			}
			if _, again := hr.Read(make([]byte, 1)); (again == io.EOF) == tt.corrupt {
				t.Errorf("a second read at the end answered %v", again)
			}
			if got := hr.Sum(); !tt.corrupt && got != archive.SumString(tt.data) || tt.corrupt && got.Valid() {
				t.Errorf("Sum = %s", got)
			}
		})
	}
}

// TestKeyLayout checks that the layout's parsers invert its writers and
// refuse every other key.
func TestKeyLayout(t *testing.T) {
	d := archive.MustParseHash(helloHex)
	if got, ok := archive.ParseBlobKey(archive.BlobKey(d)); !ok || got != d {
		t.Errorf("ParseBlobKey(BlobKey) = %s, %v", got, ok)
	}
	for _, key := range []string{
		"v1/blobs/2c/" + strings.ToUpper(helloHex),
		"v1/blobs/2d/" + helloHex,
		"v1/blobs/" + helloHex,
		"v1/blobs/2c/" + helloHex + ".tmp",
		"v2/blobs/2c/" + helloHex,
		"v1/refs/2c/" + helloHex,
	} {
		if _, ok := archive.ParseBlobKey(key); ok {
			t.Errorf("ParseBlobKey(%q) accepted it", key)
		}
	}
	for _, name := range []string{"cache/ab/x", "a", "sources/2026/11/x.y-z_1"} {
		if got, ok := archive.ParseRefKey(archive.RefKey(name)); !ok || got != name {
			t.Errorf("ParseRefKey(RefKey(%q)) = %q, %v", name, got, ok)
		}
	}
	for _, key := range []string{"v1/refs/", "v1/refs/a//b", "v1/refs/../x", "v1/blobs/a", "refs/a"} {
		if _, ok := archive.ParseRefKey(key); ok {
			t.Errorf("ParseRefKey(%q) accepted it", key)
		}
	}
	if got, err := archive.ParseRefBody(archive.RefBody(d)); err != nil || got != d {
		t.Errorf("ParseRefBody(RefBody) = %s, %v", got, err)
	}
	if _, err := archive.ParseRefBody([]byte("not a hash\n")); !errors.Is(err, archive.ErrCorrupt) {
		t.Errorf("ParseRefBody of junk: %v, want ErrCorrupt", err)
	}
}

// A HashingReader over a Blob's reader takes the Blob's hash without
// hashing, but only for all of the Blob's bytes read through it: a byte read
// behind its back is ErrCorrupt at EOF, whatever hash was expected.
func TestHashingReaderOverABlob(t *testing.T) {
	b := archive.NewBlob(strings.Repeat("canonical text\n", 1000))
	other := archive.SumString("other")
	var hashed atomic.Int64
	stop := archive.ObserveHashes(func(archive.Hash) { hashed.Add(1) })
	defer stop()

	hr := archive.NewHashingReader(b.Reader(), b.Hash())
	got, err := io.ReadAll(hr)
	if err != nil || string(got) != b.String() || hr.Sum() != b.Hash() {
		t.Fatalf("reading a Blob through a HashingReader: %v, sum %s, want %s", err, hr.Sum(), b.Hash())
	}
	if n := hashed.Load(); n != 0 {
		t.Errorf("the Blob was hashed %d times again", n)
	}
	if _, err := io.ReadAll(archive.NewHashingReader(b.Reader(), other)); !errors.Is(err, archive.ErrCorrupt) {
		t.Errorf("a Blob read against another hash: err = %v, want ErrCorrupt", err)
	}

	for _, want := range []archive.Hash{b.Hash(), {}} {
		r := b.Reader()
		hr = archive.NewHashingReader(r, want)
		buf := make([]byte, 100)
		if _, err := hr.Read(buf); err != nil {
			t.Fatal(err)
		}
		if _, err := r.Read(buf); err != nil { // behind its back
			t.Fatal(err)
		}
		if _, err := io.ReadAll(hr); !errors.Is(err, archive.ErrCorrupt) || hr.Sum().Valid() {
			t.Errorf("a Blob read partly behind the HashingReader (want %s): err = %v, sum %s; want ErrCorrupt and no sum", want, err, hr.Sum())
		}
	}
	if n := hashed.Load(); n != 0 {
		t.Errorf("the Blob was hashed %d times again", n)
	}
	stop()
	if archive.NewBlob("x"); hashed.Load() != 0 {
		t.Errorf("a stopped observer saw %d hashes", hashed.Load())
	}
}

// Every hash the archive computes from bytes is observed, once.
func TestObserveHashes(t *testing.T) {
	var seen []archive.Hash
	stop := archive.ObserveHashes(func(d archive.Hash) { seen = append(seen, d) })
	a := archive.Sum([]byte("a"))
	b := archive.SumString("b")
	c := archive.NewBlob("c").Hash()
	hr := archive.NewHashingReader(strings.NewReader("d"), archive.Hash{})
	io.ReadAll(hr)
	stop()
	want := []archive.Hash{a, b, c, archive.SumString("d")}
	if len(seen) != 4 || seen[0] != want[0] || seen[1] != want[1] || seen[2] != want[2] || seen[3] != want[3] {
		t.Errorf("observed %v, want %v", seen, want)
	}
}
