package s3store

import (
	"bytes"
	"context"
	"errors"
	"io"
	"io/fs"
	"net/http"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/archivetest"
)

func TestConformance(t *testing.T) {
	g := startGateway(t)
	shared := bucketName(t, 0)
	g.makeBucket(t, shared)
	n := 0
	// Even stores get a bucket of their own and no prefix; odd ones share a
	// bucket under distinct prefixes, so a prefix must isolate them.
	newStore := func(t *testing.T) archive.Store {
		n++
		if n%2 == 0 {
			b := bucketName(t, n)
			g.makeBucket(t, b)
			return g.open(t, b, "")
		}
		return g.open(t, shared, "tenant"+strings.Repeat("x", n%5)+randomHex(t, 3)+"/archive")
	}
	// The gateway keeps each object as a file: damage is done to the file.
	rewrite := func(t *testing.T, st archive.Store, d archive.Hash, b []byte) {
		s := st.(*Store)
		if err := os.WriteFile(g.objectPath(s.bucket, s.blobKey(d)), b, 0o644); err != nil {
			t.Fatalf("rewrite object file: %v", err)
		}
	}
	remove := func(t *testing.T, st archive.Store, d archive.Hash) {
		s := st.(*Store)
		if err := os.Remove(g.objectPath(s.bucket, s.blobKey(d))); err != nil {
			t.Fatalf("remove object file: %v", err)
		}
	}
	archivetest.Test(t, newStore, archivetest.Options{Rewrite: rewrite, Remove: remove})
}

// TestMultipart stores blobs larger than the part size, which go up as
// multipart uploads, and reads them back; a second Put of a blob damaged
// in between repairs it.
func TestMultipart(t *testing.T) {
	g := startGateway(t)
	b := bucketName(t, 1)
	g.makeBucket(t, b)
	cfg := g.config(b, "mp")
	cfg.PartSize = MinPartSize
	cfg.TempDir = t.TempDir()
	ctx := context.Background()
	s, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{MinPartSize + 1, 2*MinPartSize + 12345} {
		data := archivetest.Blob(uint64(size), size)
		d, err := archive.PutBytes(ctx, s, data)
		if err != nil {
			t.Fatalf("Put %d bytes: %v", size, err)
		}
		got, err := archive.ReadAll(ctx, s, d, int64(size))
		if err != nil || !bytes.Equal(got, data) {
			t.Fatalf("read back %d of %d bytes: %v", len(got), size, err)
		}
		// A second Put of a large blob is a no-op that succeeds.
		if _, err := archive.PutBytes(ctx, s, data); err != nil {
			t.Fatalf("second Put %d bytes: %v", size, err)
		}
		if _, err := s.Put(ctx, archive.SumString("other"), bytes.NewReader(data)); !errors.Is(err, archive.ErrCorrupt) {
			t.Fatalf("large Put with a wrong digest: err = %v, want ErrCorrupt", err)
		}
		damaged := bytes.Clone(data)
		damaged[len(damaged)/2] ^= 0x40
		if err := os.WriteFile(g.objectPath(b, s.blobKey(d)), damaged, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := archive.PutBytes(ctx, s, data); err != nil {
			t.Fatalf("Put %d bytes over a damaged blob: %v", size, err)
		}
		if got, err := archive.ReadAll(ctx, s, d, int64(size)); err != nil || !bytes.Equal(got, data) {
			t.Errorf("after a Put of its content, the damaged blob of %d bytes reads %d bytes: %v", size, len(got), err)
		}
	}
	if ents, _ := os.ReadDir(cfg.TempDir); len(ents) != 0 {
		t.Errorf("%d spool files left in the temp dir", len(ents))
	}
}

// faultTransport passes requests to http.DefaultTransport and lets a test
// act on the body of uploads (PUTs with a body).
type faultTransport struct {
	mu     sync.Mutex
	onBody func(r *http.Request, body io.ReadCloser) io.ReadCloser
}

func (f *faultTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	f.mu.Lock()
	on := f.onBody
	f.mu.Unlock()
	if on != nil && r.Method == http.MethodPut && r.Body != nil && r.ContentLength > 0 {
		r = r.Clone(r.Context())
		r.Body = on(r, r.Body)
	}
	return http.DefaultTransport.RoundTrip(r)
}

func (f *faultTransport) set(fn func(r *http.Request, body io.ReadCloser) io.ReadCloser) {
	f.mu.Lock()
	f.onBody = fn
	f.mu.Unlock()
}

// hookBody calls hook once after more than after bytes were read.
type hookBody struct {
	io.ReadCloser
	n, after int
	once     *sync.Once
	hook     func()
}

func (h *hookBody) Read(p []byte) (int, error) {
	n, err := h.ReadCloser.Read(p)
	h.n += n
	if h.n > h.after {
		h.once.Do(h.hook)
	}
	return n, err
}

// flipBody flips one byte at offset at in the body as it is sent.
type flipBody struct {
	io.ReadCloser
	n, at int
}

func (f *flipBody) Read(p []byte) (int, error) {
	n, err := f.ReadCloser.Read(p)
	if f.at >= f.n && f.at < f.n+n {
		p[f.at-f.n] ^= 0x01
	}
	f.n += n
	return n, err
}

// TestServerStopped kills the gateway while blobs are being uploaded and
// while idle: every call fails with archive.ErrUnavailable, and after a
// restart nothing half-uploaded is visible while earlier blobs are intact.
func TestServerStopped(t *testing.T) {
	g := startGateway(t)
	b := bucketName(t, 2)
	g.makeBucket(t, b)
	ft := &faultTransport{}
	cfg := g.config(b, "")
	cfg.Transport = ft
	cfg.PartSize = MinPartSize
	cfg.TempDir = t.TempDir()
	ctx := context.Background()
	s, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	kept := []byte("stored before the outage")
	keptD, err := archive.PutBytes(ctx, s, kept)
	if err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name string
		size int
	}{
		{"single PUT", 3 << 20},
		{"multipart", 2*MinPartSize + 100},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := archivetest.Blob(uint64(tc.size)+7, tc.size)
			var once sync.Once
			var killed atomic.Bool
			uploaded := 0
			ft.set(func(r *http.Request, body io.ReadCloser) io.ReadCloser {
				uploaded++
				if tc.size > MinPartSize && uploaded < 2 {
					return body // let the first part through
				}
				return &hookBody{ReadCloser: body, after: 1 << 20, once: &once, hook: func() {
					g.stop(t)
					killed.Store(true)
				}}
			})
			start := time.Now()
			_, err := archive.PutBytes(ctx, s, data)
			ft.set(nil)
			if !killed.Load() {
				t.Fatalf("the gateway was not stopped during the upload (err %v)", err)
			}
			if !errors.Is(err, archive.ErrUnavailable) {
				t.Fatalf("Put while the server died: err = %v, want ErrUnavailable", err)
			}
			if d := time.Since(start); d > 10*time.Second {
				t.Errorf("Put took %v to give up", d)
			}
			// Idle calls against a stopped server.
			if _, err := s.Stat(ctx, keptD); !errors.Is(err, archive.ErrUnavailable) {
				t.Errorf("Stat while down: err = %v, want ErrUnavailable", err)
			}
			if _, err := s.Get(ctx, keptD); !errors.Is(err, archive.ErrUnavailable) {
				t.Errorf("Get while down: err = %v, want ErrUnavailable", err)
			}
			if err := s.List(ctx, func(archive.BlobInfo) error { return nil }); !errors.Is(err, archive.ErrUnavailable) {
				t.Errorf("List while down: err = %v, want ErrUnavailable", err)
			}
			if err := s.SetRef(ctx, "x", keptD); !errors.Is(err, archive.ErrUnavailable) {
				t.Errorf("SetRef while down: err = %v, want ErrUnavailable", err)
			}
			if _, err := Open(ctx, cfg); !errors.Is(err, archive.ErrUnavailable) {
				t.Errorf("Open while down: err = %v, want ErrUnavailable", err)
			}

			g.start(t)
			if _, err := s.Stat(ctx, archive.Sum(data)); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("half-uploaded blob after restart: Stat err = %v, want fs.ErrNotExist", err)
			}
			seen := 0
			if err := s.List(ctx, func(bi archive.BlobInfo) error {
				seen++
				if bi.Hash != keptD {
					t.Errorf("List after restart shows %s", bi.Hash)
				}
				return nil
			}); err != nil || seen != 1 {
				t.Errorf("List after restart: %d blobs, %v", seen, err)
			}
			if got, err := archive.ReadAll(ctx, s, keptD, 100); err != nil || !bytes.Equal(got, kept) {
				t.Errorf("earlier blob after restart: %q, %v", got, err)
			}
			// The same Put succeeds once the server is back.
			if _, err := archive.PutBytes(ctx, s, data); err != nil {
				t.Errorf("Put after restart: %v", err)
			}
			if err := s.Delete(ctx, archive.Sum(data)); err != nil {
				t.Fatal(err)
			}
		})
	}
}

// TestCorruptedInTransit flips a byte of the upload on the wire; the server
// must reject it (the signed sha256 no longer matches) and store nothing.
func TestCorruptedInTransit(t *testing.T) {
	g := startGateway(t)
	b := bucketName(t, 3)
	g.makeBucket(t, b)
	ft := &faultTransport{}
	cfg := g.config(b, "")
	cfg.Transport = ft
	cfg.PartSize = MinPartSize
	ctx := context.Background()
	s, err := Open(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, size := range []int{1, 1000, MinPartSize + 10} {
		data := archivetest.Blob(uint64(size)+99, size)
		ft.set(func(r *http.Request, body io.ReadCloser) io.ReadCloser {
			return &flipBody{ReadCloser: body, at: int(r.ContentLength) / 2}
		})
		_, err := archive.PutBytes(ctx, s, data)
		ft.set(nil)
		if !errors.Is(err, archive.ErrCorrupt) {
			t.Errorf("%d bytes damaged in transit: err = %v, want ErrCorrupt", size, err)
		}
		if _, err := s.Stat(ctx, archive.Sum(data)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%d bytes damaged in transit are stored: Stat err = %v", size, err)
		}
	}
}

func TestOpenErrors(t *testing.T) {
	g := startGateway(t)
	b := bucketName(t, 4)
	g.makeBucket(t, b)
	ctx := context.Background()

	wrongSecret := g.config(b, "")
	wrongSecret.SecretKey = randomHex(t, 20)
	wrongKey := g.config(b, "")
	wrongKey.AccessKey = "nobody" + randomHex(t, 4)
	noBucket := g.config("missing-"+randomHex(t, 4), "")
	noCreds := g.config(b, "")
	noCreds.AccessKey, noCreds.SecretKey = "", ""

	cases := []struct {
		name string
		cfg  Config
		want error
	}{
		{"wrong secret", wrongSecret, ErrAccessDenied},
		{"unknown access key", wrongKey, ErrAccessDenied},
		{"missing bucket", noBucket, ErrNoSuchBucket},
		{"no credentials", noCreds, nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Open(ctx, tc.cfg)
			if err == nil {
				t.Fatal("Open succeeded")
			}
			if tc.want != nil && !errors.Is(err, tc.want) {
				t.Fatalf("err = %v, want %v", err, tc.want)
			}
			if errors.Is(err, archive.ErrUnavailable) {
				t.Errorf("a configuration error is reported as transient: %v", err)
			}
			if strings.Contains(err.Error(), tc.cfg.SecretKey) && tc.cfg.SecretKey != "" {
				t.Errorf("error contains the secret key")
			}
		})
	}

}

func TestConfigFromURL(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	keys := []string{"AWS_ACCESS_KEY_ID", "AK", "AWS_SECRET_ACCESS_KEY", "SK"}
	cases := []struct {
		name    string
		url     string
		env     func(string) string
		want    Config
		wantErr bool
	}{
		{"aws default", "s3://bucket/some/prefix", env(append(keys, "AWS_REGION", "eu-west-1")...),
			Config{Bucket: "bucket", Prefix: "some/prefix", Region: "eu-west-1", AccessKey: "AK", SecretKey: "SK", Secure: true}, false},
		{"no prefix", "s3://bucket", env(keys...),
			Config{Bucket: "bucket", AccessKey: "AK", SecretKey: "SK", Secure: true}, false},
		{"custom endpoint", "s3://b/p/", env(append(keys, "AWS_ENDPOINT_URL", "http://127.0.0.1:7070")...),
			Config{Bucket: "b", Prefix: "p/", Endpoint: "127.0.0.1:7070", PathStyle: true, AccessKey: "AK", SecretKey: "SK"}, false},
		{"s3-specific endpoint wins", "s3://b", env(append(keys, "AWS_ENDPOINT_URL", "http://a:1", "AWS_ENDPOINT_URL_S3", "https://s3.example:9000")...),
			Config{Bucket: "b", Endpoint: "s3.example:9000", Secure: true, PathStyle: true, AccessKey: "AK", SecretKey: "SK"}, false},
		{"default region variable", "s3://b", env("AWS_DEFAULT_REGION", "ap-south-1", "AWS_SESSION_TOKEN", "T"),
			Config{Bucket: "b", Region: "ap-south-1", SessionToken: "T", Secure: true}, false},
		{"wrong scheme", "https://bucket/x", env(), Config{}, true},
		{"no bucket", "s3:///prefix", env(), Config{}, true},
		{"credentials in URL", "s3://user:pass@bucket/x", env(), Config{}, true},
		{"query", "s3://bucket/x?region=y", env(), Config{}, true},
		{"bad endpoint", "s3://b", env("AWS_ENDPOINT_URL", "ftp://host"), Config{}, true},
		{"endpoint with path", "s3://b", env("AWS_ENDPOINT_URL", "http://host/path"), Config{}, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := ConfigFromURL(tc.url, tc.env)
			if (err != nil) != tc.wantErr {
				t.Fatalf("err = %v, wantErr %v", err, tc.wantErr)
			}
			if err == nil && got != tc.want {
				t.Errorf("got  %+v\nwant %+v", got, tc.want)
			}
		})
	}
}

func TestOpenUnreachable(t *testing.T) {
	cfg := Config{Endpoint: "http://127.0.0.1:1", AccessKey: "a", SecretKey: "b", Bucket: "xyz", MaxRetries: 1}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if _, err := Open(ctx, cfg); !errors.Is(err, archive.ErrUnavailable) {
		t.Fatalf("Open of a closed port: err = %v, want ErrUnavailable", err)
	}
}

func BenchmarkStore(b *testing.B) {
	g := startGateway(b)
	bucket := bucketName(b, 5)
	g.makeBucket(b, bucket)
	archivetest.Bench(b, g.open(b, bucket, "bench"))
}
