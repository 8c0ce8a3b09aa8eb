package api_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http/httptest"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
)

// changingStore damages a blob behind the store's back once it has been
// opened for reading once: the verification GET /v1/archive makes before
// it answers sees the blob whole, the reads that serve it do not.
type changingStore struct {
	*fsstore.Store
	gets   atomic.Int64
	damage func()
}

func (s *changingStore) Get(ctx context.Context, d archive.Hash) (io.ReadCloser, error) {
	if s.gets.Add(1) == 2 {
		s.damage()
	}
	return s.Store.Get(ctx, d)
}

// A blob that changes while a range of it is served is never answered as
// a whole 206 of wrong bytes: a range that fits one read is ARCHIVE_CORRUPT
// before anything is sent, and a longer one, or several, ends short of its
// Content-Length. Health counts the blob.
func TestRangeOfABlobChangedUnderTheRequest(t *testing.T) {
	blob := bytes.Repeat([]byte("Tides rise twice a day. The moon pulls the sea towards it. "), 4000) // 236 kB
	for _, tc := range []struct {
		name, rng string
		at        int // the byte damaged
	}{
		{"one short range, damaged inside", "bytes=0-99", 50},
		{"one short range, damaged past it", "bytes=0-99", 200_000},
		{"a long range", "bytes=0-149999", 100_000},
		{"two ranges", "bytes=0-9,100-199", 150},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fs, err := fsstore.Open(t.TempDir())
			if err != nil {
				t.Fatal(err)
			}
			d, err := archive.PutBytes(context.Background(), fs, blob)
			if err != nil {
				t.Fatal(err)
			}
			store := &changingStore{Store: fs, damage: func() {
				b := bytes.Clone(blob)
				b[tc.at] ^= 0x20
				path := fs.BlobPath(d)
				os.Chmod(path, 0o644)
				if err := os.WriteFile(path, b, 0o644); err != nil {
					t.Error(err)
				}
			}}
			pipe := &pipeline.Pipeline{Ingester: &ingest.Ingester{MaxTextChars: 200_000}, Store: store}
			h := api.New(pipe, api.Config{OpenAPI: digestd.OpenAPI, MaxBodyBytes: 1 << 20, Version: digestd.Version,
				Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}).Handler()
			req := httptest.NewRequest("GET", "/v1/archive/"+d.String(), nil)
			req.Header.Set("Range", tc.rng)
			resp, body := serve(h, req)
			if store.gets.Load() < 2 {
				t.Fatalf("the blob was read %d times; the test damages it at the second", store.gets.Load())
			}
			switch resp.StatusCode {
			case 500:
				var env struct {
					Data struct {
						ErrorCode string `json:"error_code"`
					} `json:"data"`
				}
				if json.Unmarshal(body, &env); env.Data.ErrorCode != "ARCHIVE_CORRUPT" || resp.Header.Get("ETag") != "" || resp.Header.Get("Content-Range") != "" {
					t.Errorf("500 %v %.300s, want an ARCHIVE_CORRUPT envelope", resp.Header, body)
				}
			case 206:
				n, err := strconv.Atoi(resp.Header.Get("Content-Length"))
				if err != nil || len(body) >= n {
					t.Errorf("206 of %d bytes, Content-Length %q: the range of a changed blob was served whole", len(body), resp.Header.Get("Content-Length"))
				}
				if strings.HasPrefix(tc.name, "one short range") {
					t.Errorf("a range that fits one read was answered 206 instead of ARCHIVE_CORRUPT")
				}
			default:
				t.Errorf("status %d %.300s", resp.StatusCode, body)
			}
			if n := pipe.Stats().CorruptNow; n != 1 {
				t.Errorf("health counts %d corrupt blobs, want 1", n)
			}
		})
	}
}
