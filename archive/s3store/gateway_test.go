package s3store

import (
	"context"
	"testing"
	"time"

	"github.com/digestd/digestd/archive/s3store/s3test"
)

// gateway wraps the shared test server with this package's helpers.
type gateway struct{ *s3test.Gateway }

func startGateway(tb testing.TB) *gateway { return &gateway{s3test.Start(tb)} }

func (g *gateway) start(tb testing.TB)                     { g.Gateway.Start(tb) }
func (g *gateway) stop(tb testing.TB)                      { g.Gateway.Stop(tb) }
func (g *gateway) makeBucket(tb testing.TB, bucket string) { g.MakeBucket(tb, bucket) }
func (g *gateway) objectPath(bucket, key string) string    { return g.ObjectPath(bucket, key) }
func randomHex(tb testing.TB, n int) string                { return s3test.RandomHex(tb, n) }
func bucketName(tb testing.TB, n int) string               { return s3test.BucketName(tb, n) }

// config is a Config reaching the gateway with its credentials.
func (g *gateway) config(bucket, prefix string) Config {
	return Config{
		Endpoint:   g.Endpoint(),
		AccessKey:  g.Access,
		SecretKey:  g.Secret,
		Bucket:     bucket,
		Prefix:     prefix,
		PathStyle:  true,
		MaxRetries: 1,
	}
}

func (g *gateway) open(tb testing.TB, bucket, prefix string) *Store {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	s, err := Open(ctx, g.config(bucket, prefix))
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	return s
}
