package digest

import (
	"bytes"
	"compress/gzip"
	"testing"
)

func TestWordVectorsLoad(t *testing.T) {
	tab, err := loadedWordVectors()
	if err != nil {
		t.Fatal(err)
	}
	if tab.dims != 100 || len(tab.index) < 10000 || len(tab.vecs) != len(tab.index)*tab.dims {
		t.Fatalf("table of %d stems × %d dimensions, %d values", len(tab.index), tab.dims, len(tab.vecs))
	}
	row := func(w string) int32 {
		r, ok := tab.index[stem(w)]
		if !ok {
			t.Fatalf("no vector for %q", w)
		}
		return r
	}
	// Words of one meaning lie closer than unrelated words, and a word
	// is its own closest.
	if near, far := tab.cos(row("vehicles"), row("cars")), tab.cos(row("vehicles"), row("river")); near <= far || near < 0.7 {
		t.Errorf("cos(vehicles, cars) = %.3f, cos(vehicles, river) = %.3f", near, far)
	}
	if c := tab.cos(row("ship"), row("ship")); c < 0.999 || c > 1.001 {
		t.Errorf("cos(ship, ship) = %.4f, want 1", c)
	}
}

func TestDecodeWordVectorsRejectsBadData(t *testing.T) {
	for _, data := range [][]byte{nil, []byte("not gzip"), gzipped(t, "wordvec 1 2 3\nab\n"), gzipped(t, "wordvec 1 1 3\na\n\x01\x02")} {
		if _, err := decodeWordVectors(data); err == nil {
			t.Errorf("%q: decoded, want an error", data)
		}
	}
	tab, err := decodeWordVectors(gzipped(t, "wordvec 1 2 2\na\nb\n\x03\x04\x04\xfd"))
	if err != nil {
		t.Fatal(err)
	}
	if c := tab.cos(tab.index["a"], tab.index["b"]); c > 1e-9 || c < -1e-9 {
		t.Errorf("cos of orthogonal rows = %v", c)
	}
}

// gzipped returns s compressed with gzip.
func gzipped(t *testing.T, s string) []byte {
	t.Helper()
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	if _, err := zw.Write([]byte(s)); err != nil {
		t.Fatal(err)
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
