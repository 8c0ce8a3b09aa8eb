package s3store

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
)

// envRequireS3 turns a missing versitygw into a test failure (set in CI).
const envRequireS3 = "DIGESTD_REQUIRE_S3"

// gateway is a versitygw process serving the posix directory dir on
// 127.0.0.1, with random root credentials.
type gateway struct {
	bin, dir, addr string
	access, secret string
	cmd            *exec.Cmd
	exited         chan error // receives cmd.Wait's result
	log            *os.File
}

// findVersitygw returns the versitygw binary, from PATH or GOPATH/bin; it
// skips the test without one unless DIGESTD_REQUIRE_S3=1, where it fails.
func findVersitygw(tb testing.TB) string {
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
	if os.Getenv(envRequireS3) == "1" {
		tb.Fatal(msg + "; " + envRequireS3 + "=1 forbids skipping")
	}
	tb.Skip(msg)
	return ""
}

func randomHex(tb testing.TB, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		tb.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// startGateway starts versitygw on a free loopback port over a new
// directory; it is stopped when tb ends.
func startGateway(tb testing.TB) *gateway {
	tb.Helper()
	bin := findVersitygw(tb)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		tb.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	g := &gateway{
		bin:    bin,
		dir:    filepath.Join(tb.TempDir(), "posix"),
		addr:   addr,
		access: "test" + randomHex(tb, 8),
		secret: randomHex(tb, 20),
	}
	if err := os.MkdirAll(g.dir, 0o755); err != nil {
		tb.Fatal(err)
	}
	log, err := os.CreateTemp(tb.TempDir(), "versitygw-*.log")
	if err != nil {
		tb.Fatal(err)
	}
	g.log = log
	tb.Cleanup(func() { g.stop(tb); log.Close() })
	g.start(tb)
	return g
}

// start runs the gateway and waits until it accepts connections.
func (g *gateway) start(tb testing.TB) {
	tb.Helper()
	cmd := exec.Command(g.bin, "--port", g.addr, "--quiet", "posix", g.dir)
	cmd.Env = append(os.Environ(), "ROOT_ACCESS_KEY_ID="+g.access, "ROOT_SECRET_ACCESS_KEY="+g.secret)
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
		c, err := net.DialTimeout("tcp", g.addr, 200*time.Millisecond)
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
			tb.Fatalf("versitygw did not listen on %s within 15s", g.addr)
		}
	}
}

// stop kills the gateway at once (SIGKILL), as a crash or power cut would.
func (g *gateway) stop(tb testing.TB) {
	if g.cmd == nil {
		return
	}
	g.cmd.Process.Kill()
	<-g.exited
	g.cmd = nil
}

// config is a Config reaching the gateway with its credentials.
func (g *gateway) config(bucket, prefix string) Config {
	return Config{
		Endpoint:   "http://" + g.addr,
		AccessKey:  g.access,
		SecretKey:  g.secret,
		Bucket:     bucket,
		Prefix:     prefix,
		PathStyle:  true,
		MaxRetries: 1,
	}
}

// makeBucket creates bucket on the gateway.
func (g *gateway) makeBucket(tb testing.TB, bucket string) {
	tb.Helper()
	c, err := minio.New(g.addr, &minio.Options{
		Creds:        credentials.NewStaticV4(g.access, g.secret, ""),
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

// objectPath is where the posix backend keeps bucket/key.
func (g *gateway) objectPath(bucket, key string) string {
	return filepath.Join(g.dir, bucket, filepath.FromSlash(key))
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

func bucketName(tb testing.TB, n int) string {
	return fmt.Sprintf("b%d-%s", n, strings.ToLower(randomHex(tb, 4)))
}
