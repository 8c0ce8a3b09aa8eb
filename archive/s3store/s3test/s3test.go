// Package s3test runs a real S3-compatible server (versitygw) on 127.0.0.1
// for tests, with random credentials over a temporary directory. Without the
// versitygw binary a test skips, except under CI=true, where it fails
// (testenv decides).
package s3test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"go/build"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/minio/minio-go/v7"
	"github.com/minio/minio-go/v7/pkg/credentials"

	"github.com/digestd/digestd/internal/testenv"
)

// Gateway is a versitygw process serving the posix directory Dir on
// Addr (127.0.0.1), with random root credentials.
type Gateway struct {
	bin            string
	Dir, Addr      string
	Access, Secret string
	cmd            *exec.Cmd
	exited         chan error // receives cmd.Wait's result
	log            *os.File
}

// FindVersitygw returns the versitygw binary, from PATH or GOPATH/bin; it
// skips the test without one, or fails it in CI (testenv.Missing).
func FindVersitygw(tb testing.TB) string {
	tb.Helper()
	if p, err := exec.LookPath("versitygw"); err == nil {
		return p
	}
	for _, gopath := range filepath.SplitList(build.Default.GOPATH) {
		p := filepath.Join(gopath, "bin", "versitygw")
		if fi, err := os.Stat(p); err == nil && !fi.IsDir() {
			return p
		}
	}
	msg := "versitygw not found on PATH or in GOPATH/bin (run scripts/install-versitygw.sh)"
	testenv.Missing(tb, "%s", msg)
	return ""
}

// RandomHex returns n random bytes in hex.
func RandomHex(tb testing.TB, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		tb.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// Start starts versitygw on a free loopback port over a new directory; it
// is stopped when tb ends.
func Start(tb testing.TB) *Gateway {
	tb.Helper()
	testenv.FullSuite(tb, "runs an S3 server")
	bin := FindVersitygw(tb)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	g := &Gateway{
		bin:    bin,
		Dir:    filepath.Join(tb.TempDir(), "posix"),
		Addr:   addr,
		Access: "test" + RandomHex(tb, 8),
		Secret: RandomHex(tb, 20),
	}
	if err := os.MkdirAll(g.Dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	log, err := os.CreateTemp(tb.TempDir(), "versitygw-*.log")
	if err != nil {
		tb.Fatal(err)
	}
	g.log = log
	tb.Cleanup(func() { g.Stop(tb); log.Close() })
	g.Start(tb)
	return g
}

// Start runs the gateway (again, after Stop) and waits until it accepts
// connections.
func (g *Gateway) Start(tb testing.TB) {
	tb.Helper()
	cmd := exec.Command(g.bin, "--port", g.Addr, "--quiet", "posix", g.Dir)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY_ID="+g.Access, "ROOT_SECRET_ACCESS_KEY="+g.Secret)
	cmd.Stdout, cmd.Stderr = g.log, g.log
	if err := cmd.Start(); err != nil {
		tb.Fatalf("start versitygw: %v", err)
	}
	g.cmd = cmd
	exited := make(chan error, 1)
	g.exited = exited
	go func() { exited <- cmd.Wait() }()
	deadline := time.Now().Add(15 * time.Second)
	for {
		c, err := net.DialTimeout("tcp", g.Addr, 200*time.Millisecond)
		if err == nil {
			c.Close()
			return
		}
		select {
		case err := <-exited:
			g.cmd = nil
			log, _ := os.ReadFile(g.log.Name())
			tb.Fatalf("versitygw exited before serving (%v): %s", err, log)
		case <-time.After(50 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			tb.Fatalf("versitygw did not listen on %s within 15s", g.Addr)
		}
	}
}

// Stop kills the gateway at once (SIGKILL), as a crash or power cut would.
func (g *Gateway) Stop(tb testing.TB) {
	if g.cmd == nil {
		return
	}
	g.cmd.Process.Kill()
	<-g.exited
	g.cmd = nil
}

// Endpoint is the gateway's URL.
func (g *Gateway) Endpoint() string { return "http://" + g.Addr }

// MakeBucket creates bucket on the gateway.
func (g *Gateway) MakeBucket(tb testing.TB, bucket string) {
	tb.Helper()
	c, err := minio.New(g.Addr, &minio.Options{
		Creds:        credentials.NewStaticV4(g.Access, g.Secret, ""),
		BucketLookup: minio.BucketLookupPath,
		Region:       "us-east-1",
	})
	if err != nil {
		tb.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.MakeBucket(ctx, bucket, minio.MakeBucketOptions{}); err != nil {
		tb.Fatalf("make bucket %s: %v", bucket, err)
	}
}

// ObjectPath is where the posix backend keeps bucket/key.
func (g *Gateway) ObjectPath(bucket, key string) string {
	return filepath.Join(g.Dir, bucket, filepath.FromSlash(key))
}

// BucketName returns a fresh, valid bucket name.
func BucketName(tb testing.TB, n int) string {
	return fmt.Sprintf("b%d-%s", n, strings.ToLower(RandomHex(tb, 4)))
}
