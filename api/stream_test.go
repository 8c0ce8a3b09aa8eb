package api_test

import (
	"bytes"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/digestd/digestd/archive"
)

// TestArchiveStreams reads a blob larger than any one buffer whole, by
// ranges and by several ranges at once, from the verifying stream; a
// corrupt blob is cut short on a whole read and refused on a ranged one.
func TestArchiveStreams(t *testing.T) {
	store, srv := newDiskServer(t, t.TempDir())
	ts := httptest.NewServer(srv.Handler())
	defer ts.Close()
	var sb strings.Builder
	for i := 0; sb.Len() < 300_000; i++ {
		sb.WriteString("Tides rise and fall twice a day, sentence number ")
		sb.WriteString(strings.Repeat("é", i%7))
		sb.WriteString(". ")
	}
	text := []byte(sb.String())
	d, err := archive.PutBytes(t.Context(), store, text)
	if err != nil {
		t.Fatal(err)
	}
	get := func(rng string) (*http.Response, []byte, error) {
		req, _ := http.NewRequest("GET", ts.URL+"/v1/archive/"+d.String(), nil)
		if rng != "" {
			req.Header.Set("Range", rng)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, nil, err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		return resp, b, err
	}
	resp, b, err := get("")
	if err != nil || resp.StatusCode != 200 || !bytes.Equal(b, text) || resp.Header.Get("Content-Type") != "text/plain; charset=utf-8" {
		t.Fatalf("whole: %v %d, %d bytes of %d", err, resp.StatusCode, len(b), len(text))
	}
	resp, b, err = get("bytes=100000-100099")
	if err != nil || resp.StatusCode != 206 || !bytes.Equal(b, text[100000:100100]) {
		t.Errorf("range: %v %d %q", err, resp.StatusCode, b)
	}
	resp, b, err = get("bytes=200000-200009,10-19")
	if err != nil || resp.StatusCode != 206 || !bytes.Contains(b, text[200000:200010]) || !bytes.Contains(b, text[10:20]) {
		t.Errorf("two ranges: %v %d %q", err, resp.StatusCode, b)
	}
	resp, b, err = get("bytes=-10")
	if err != nil || resp.StatusCode != 206 || !bytes.Equal(b, text[len(text)-10:]) {
		t.Errorf("suffix range: %v %d %q", err, resp.StatusCode, b)
	}

	// Corrupt the blob in place, keeping its size.
	path := store.BlobPath(d)
	os.Chmod(path, 0o644)
	bad := bytes.Clone(text)
	bad[len(bad)/2] ^= 1
	if err := os.WriteFile(path, bad, 0o644); err != nil {
		t.Fatal(err)
	}
	resp, b, err = get("")
	if err == nil && bytes.Equal(b, bad) {
		t.Errorf("a corrupt blob was served whole: %d", resp.StatusCode)
	}
	resp, b, err = get("bytes=0-9")
	if err != nil || resp.StatusCode != 500 || !bytes.Contains(b, []byte("ARCHIVE_CORRUPT")) {
		t.Errorf("a range of a corrupt blob: %v %v %s", err, resp, b)
	}
}
