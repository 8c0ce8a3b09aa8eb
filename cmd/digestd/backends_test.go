package main

import (
	"context"
	"errors"
	"io"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/archive/s3store"
	"github.com/digestd/digestd/archive/s3store/s3test"
)

// TestBackendsByScheme: a location opens the backend of its scheme (a
// directory the embedded one, with or without its scheme), what one
// backend stores the same location reads back, and a scheme no backend
// has is refused.
func TestBackendsByScheme(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	text := archive.NewBlob("Tides rise twice a day.")
	plain := filepath.Join(dir, "archive")
	for _, loc := range []string{plain, "file://" + plain} {
		st, err := openStore(ctx, loc)
		if err != nil {
			t.Fatalf("%s: %v", loc, err)
		}
		if _, ok := st.(*fsstore.Store); !ok {
			t.Errorf("%s opened a %T, want the directory store", loc, st)
		}
		if _, err := archive.PutBlob(ctx, st, text); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := openStore(ctx, "gs://bucket/prefix"); err == nil {
		t.Error("gs:// opened an archive")
	}

	at := filepath.Join(dir, "index")
	idx, lock, err := openIndexAt(ctx, at, "test")
	if err != nil || lock == nil {
		t.Fatalf("bleve index: %v, lock %v", err, lock)
	}
	var held *indexHeldError
	if _, _, err := openIndexAt(ctx, "bleve://"+at, "test"); !errors.As(err, &held) {
		t.Errorf("bleve://%s while the directory is open: %v, want it held", at, err)
	}
	b, err := indexBackendOf(at)
	if err != nil || b.scheme != "bleve" || b.shared {
		t.Fatalf("%s: backend %q (shared %v), %v", at, b.scheme, b.shared, err)
	}
	if n, err := b.size(at); err != nil || n <= 0 {
		t.Errorf("size %d, %v", n, err)
	}
	idx.Close()
	for loc, scheme := range map[string]string{"postgres://u@h/db": "postgres", "postgresql://u@h/db": "postgresql"} {
		if b, err := indexBackendOf(loc); err != nil || b.scheme != scheme || b.size != nil || !b.shared {
			t.Errorf("%s: backend %q (shared %v), %v", loc, b.scheme, b.shared, err)
		}
	}
	if _, err := indexBackendOf("s3://bucket/index"); err == nil {
		t.Error("s3:// has an index backend")
	}
}

// TestEvalIndexIsShared holds eval's --index to the registry's shared
// (server) engines: eval search empties the index per set, so an embedded
// one, a backend no scheme names or another kind of eval is refused.
func TestEvalIndexIsShared(t *testing.T) {
	dir := t.TempDir()
	for _, args := range [][]string{
		{"search", "--index", "bleve://" + filepath.Join(dir, "index"), dir},
		{"search", "--index", filepath.Join(dir, "index"), dir},
		{"search", "--index", "s3://bucket/index", dir},
		{"extract", "--index", "postgres://u@h/db", dir},
	} {
		var exit *exitError
		if err := runEval(context.Background(), args, io.Discard, io.Discard); !errors.As(err, &exit) || exit.code != 2 || !strings.Contains(err.Error(), "--index is for eval search") {
			t.Errorf("eval %v: %v, want exit 2 for --index", args, err)
		}
	}
}

// TestS3BackendByScheme opens s3://bucket/prefix, against a real S3 server,
// through the registry.
func TestS3BackendByScheme(t *testing.T) {
	gw := s3test.Start(t)
	bucket := s3test.BucketName(t, 1)
	gw.MakeBucket(t, bucket)
	t.Setenv("AWS_ENDPOINT_URL_S3", gw.Endpoint())
	t.Setenv("AWS_ACCESS_KEY_ID", gw.Access)
	t.Setenv("AWS_SECRET_ACCESS_KEY", gw.Secret)
	ctx := context.Background()
	st, err := openStore(ctx, "s3://"+bucket+"/registry")
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := st.(*s3store.Store); !ok {
		t.Errorf("s3:// opened a %T", st)
	}
	d, err := archive.PutBlob(ctx, st, archive.NewBlob("The moon pulls the sea."))
	if err != nil {
		t.Fatal(err)
	}
	if b, err := archive.ReadAll(ctx, st, d, 1<<10); err != nil || string(b) != "The moon pulls the sea." {
		t.Errorf("read back %q, %v", b, err)
	}
}
