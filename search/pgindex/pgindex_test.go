package pgindex_test

import (
	"context"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"reflect"
	"strconv"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/internal/testenv"
	"github.com/digestd/digestd/search"
	"github.com/digestd/digestd/search/bleveindex"
	"github.com/digestd/digestd/search/pgindex"
	"github.com/digestd/digestd/search/searchtest"
)

// postgresBin finds a PostgreSQL server program: on PATH, or in Debian's
// versioned directory.
func postgresBin(name string) string {
	if p, err := exec.LookPath(name); err == nil {
		return p
	}
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/" + name)
	if len(matches) > 0 {
		return matches[len(matches)-1]
	}
	return ""
}

// startPostgres starts a throwaway PostgreSQL server on 127.0.0.1 with a
// data directory of its own, and returns the URL of its postgres database;
// the server stops at cleanup. As root it runs as the postgres user, as
// the server refuses to run as root.
func startPostgres(t testing.TB) string {
	t.Helper()
	initdb, server := postgresBin("initdb"), postgresBin("postgres")
	testenv.Need(t, initdb != "" && server != "", "PostgreSQL (Debian's postgresql package) is not installed")
	dir, err := os.MkdirTemp("", "pgindex-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	var cred *syscall.Credential
	if os.Getuid() == 0 {
		u, err := user.Lookup("postgres")
		testenv.Need(t, err == nil, "running as root, and there is no postgres user to run the server as")
		uid, _ := strconv.Atoi(u.Uid)
		gid, _ := strconv.Atoi(u.Gid)
		cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
		os.Chmod(dir, 0o755)
		os.Chown(dir, uid, gid)
	}
	run := func(name string, args ...string) *exec.Cmd {
		cmd := exec.Command(name, args...)
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: cred}
		return cmd
	}
	data := filepath.Join(dir, "data")
	if out, err := run(initdb, "-D", data, "-U", "digestd", "--auth=trust", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		t.Fatalf("initdb: %v\n%s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	srv := run(server, "-D", data, "-h", "127.0.0.1", "-p", strconv.Itoa(port), "-k", dir, "-c", "fsync=off")
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		srv.Process.Signal(syscall.SIGINT)
		srv.Wait()
	})
	url := fmt.Sprintf("postgres://digestd@127.0.0.1:%d/postgres?sslmode=disable", port)
	deadline := time.Now().Add(30 * time.Second)
	for {
		conn, err := pgx.Connect(context.Background(), url)
		if err == nil {
			conn.Close(context.Background())
			return url
		}
		if time.Now().After(deadline) {
			t.Fatalf("PostgreSQL did not start: %v", err)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// The server engine passes the suite the embedded one passes, each case on
// a database of its own.
func TestConformance(t *testing.T) {
	url := startPostgres(t)
	ctx := context.Background()
	admin, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer admin.Close(ctx)
	var n atomic.Int64
	searchtest.Test(t, func(t *testing.T) search.Index {
		name := fmt.Sprintf("digestd_test_%d", n.Add(1))
		if _, err := admin.Exec(ctx, "CREATE DATABASE "+name); err != nil {
			t.Fatal(err)
		}
		x, err := pgindex.Open(ctx, fmt.Sprintf("%s/%s?sslmode=disable", url[:len(url)-len("/postgres?sslmode=disable")], name))
		if err != nil {
			t.Fatal(err)
		}
		return x
	})
}

// Re-ranked by the digester, the server engine answers what the embedded
// one answers: the same passages, scores and order, in Thai too.
func TestSameAnswersAsEmbedded(t *testing.T) {
	url := startPostgres(t)
	ctx := context.Background()
	pg, err := pgindex.Open(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer pg.Close()
	bl, err := bleveindex.Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer bl.Close()
	texts := map[archive.Hash]string{}
	for i, text := range []string{
		"Mother-to-child transmission (MTCT) is the main cause of HIV-1 infection in children. Placental DC-SIGNR plays a crucial role in MTCT.\nBreastfeeding adds to the risk of MTCT after birth.",
		"Antiretroviral therapy in pregnancy lowers the risk of transmission to the child. The study enrolled 197 mother-child pairs.",
		"Glaciers in the Alps have lost half their volume since 1900. Warmer summers melt the ice faster.",
		"เมื่อ ประมาณหนึ่งพันล้านปีก่อน ไซยาโนแบคทีเรียที่ใช้ชีวิตอิสระเข้าสู่ ยูคาริโอติก เซลล์",
	} {
		h := archive.SumString(text)
		texts[h] = text
		src := search.Source{Hash: h, Kind: "text", Added: time.Unix(int64(i), 0)}
		for _, x := range []search.Index{pg, bl} {
			if err := x.Put(ctx, search.Document{Source: src, Passages: search.PassagesOf(text)}); err != nil {
				t.Fatal(err)
			}
		}
	}
	textOf := func(_ context.Context, h archive.Hash) (string, error) { return texts[h], nil }
	for _, q := range []string{"what causes MTCT?", "risk of transmission to the child", "ice in the Alps", "เซลล์ประเภทใดที่ไซยาโนแบคทีเรียเข้าเมื่อนานมาแล้ว?"} {
		a, err := search.Search(ctx, pg, textOf, search.Request{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		b, err := search.Search(ctx, bl, textOf, search.Request{Query: q})
		if err != nil {
			t.Fatal(err)
		}
		if len(a.Hits) == 0 || !reflect.DeepEqual(a.Hits, b.Hits) {
			t.Errorf("%q: PostgreSQL %+v, bleve %+v", q, a.Hits, b.Hits)
		}
	}
}

// BenchmarkSearch is searchtest.Benchmark on the server engine, a
// PostgreSQL server the benchmark starts.
func BenchmarkSearch(b *testing.B) {
	url := startPostgres(b)
	idx, err := pgindex.Open(context.Background(), url)
	if err != nil {
		b.Fatal(err)
	}
	defer idx.Close()
	data := searchtest.SharedData(filepath.Join("..", ".."))
	texts, questions, err := evaluate.SearchCorpus(data, searchtest.HTMLText)
	if err != nil {
		b.Skipf("evaluation data not found at %s (set DIGESTD_SHARED_DATA): %v", data, err)
	}
	searchtest.Benchmark(b, searchtest.Corpus{Texts: texts, Questions: questions}, idx, func() int64 { return -1 })
}
