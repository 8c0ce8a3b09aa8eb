package adversarial

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// canary is a loopback listener that counts the connections it accepts.
// It answers each with a redirect to the metadata address, so that a
// server that did connect would also be tempted to follow.
type canary struct {
	ln       net.Listener
	accepted atomic.Int64
	wg       sync.WaitGroup
}

func newCanary(t *testing.T, addr string) *canary {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil
	}
	c := &canary{ln: ln}
	c.wg.Add(1)
	go func() {
		defer c.wg.Done()
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.accepted.Add(1)
			conn.SetDeadline(time.Now().Add(2 * time.Second))
			io.WriteString(conn, "HTTP/1.1 302 Found\r\nLocation: http://169.254.169.254/latest/meta-data/\r\nContent-Length: 0\r\n\r\n")
			conn.Close()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		c.wg.Wait()
	})
	return c
}

func (c *canary) port() int { return c.ln.Addr().(*net.TCPAddr).Port }

// TestSSRF asks the server to fetch every form of a loopback, private,
// link-local or metadata address, and a non-http scheme. Each must be
// refused before connecting (FETCH_BLOCKED or INVALID_URL), and the canary
// listeners on 127.0.0.1 (and ::1) must accept no connection at all. No
// URL here needs DNS, and none leads off the machine: the server refuses
// them before any packet is sent, which is what is tested.
func TestSSRF(t *testing.T) {
	s := startServer(t)
	c4 := newCanary(t, "127.0.0.1:0")
	if c4 == nil {
		t.Fatal("cannot listen on 127.0.0.1")
	}
	p := c4.port()
	c6 := newCanary(t, fmt.Sprintf("[::1]:%d", p))
	if c6 == nil {
		t.Logf("no IPv6 loopback canary on port %d; [::1] forms are still sent", p)
	}
	// Forms of 127.0.0.1:p and other internal addresses. Octal, hex and
	// decimal IPv4 forms are what inet_aton would turn into 127.0.0.1.
	urls := []string{
		"http://127.0.0.1:%d/",
		"https://127.0.0.1:%d/",
		"http://127.0.0.1:%d/?q=1#frag",
		"http://127.1:%d/",
		"http://127.0.1:%d/",
		"http://127.255.255.254:%d/",
		"http://2130706433:%d/",
		"http://0177.0.0.1:%d/",
		"http://0177.0000.0000.0001:%d/",
		"http://0x7f.0.0.1:%d/",
		"http://0x7f000001:%d/",
		"http://0x7f.0x0.0x0.0x1:%d/",
		"http://017700000001:%d/",
		"http://127.0.0.1.:%d/",
		"http://%%31%%32%%37.0.0.1:%d/",
		"http://１２７.０.０.１:%d/",
		"http://127。0。0。1:%d/",
		"http://localhost:%d/",
		"http://LOCALHOST:%d/",
		"http://localhost.:%d/",
		"http://foo.localhost:%d/",
		"http://[::1]:%d/",
		"http://[0:0:0:0:0:0:0:1]:%d/",
		"http://[::ffff:127.0.0.1]:%d/",
		"http://[::ffff:7f00:1]:%d/",
		"http://[0:0:0:0:0:ffff:127.0.0.1]:%d/",
		"http://[::127.0.0.1]:%d/",
		"http://[64:ff9b::127.0.0.1]:%d/",
		"http://[2002:7f00:1::]:%d/",
		"http://[::1%%25lo]:%d/",
		"http://[fe80::1%%25lo]:%d/",
		"http://0.0.0.0:%d/",
		"http://0:%d/",
		"http://[::]:%d/",
		"http://user:pass@127.0.0.1:%d/",
		"http://127.0.0.1:%d@127.0.0.1/",
		"ftp://127.0.0.1:%d/",
		"gopher://127.0.0.1:%d/_GET",
		"file://127.0.0.1:%d/etc/passwd",
	}
	fixed := []string{
		"http://169.254.169.254/latest/meta-data/",
		"http://[::ffff:169.254.169.254]/latest/meta-data/",
		"http://[::ffff:a9fe:a9fe]/",
		"http://2852039166/",
		"http://0xa9fea9fe/",
		"http://0251.0376.0251.0376/",
		"http://169.254.170.2/v2/credentials",
		"http://[fd00:ec2::254]/",
		"http://100.100.100.200/",
		"http://10.0.0.1/",
		"http://172.16.0.1/",
		"http://192.168.0.1/",
		"http://100.64.0.1/",
		"http://198.18.0.1/",
		"http://224.0.0.1/",
		"http://255.255.255.255/",
		"http://[fc00::1]/",
		"http://[fe80::1]/",
		"http://[ff02::1]/",
		"file:///etc/passwd",
		"javascript:alert(1)",
		"data:text/html,<p>x</p>",
		"//127.0.0.1/",
		"http:///",
		"http://" + strings.Repeat("a", 9000) + "/",
		"http://127.0.0.1:99999/",
		"http://127.0.0.1:0/",
		"http://127.0.0.1:-1/",
	}
	var all []string
	for _, u := range urls {
		all = append(all, fmt.Sprintf(u, p))
	}
	all = append(all, fixed...)

	type answer struct {
		url string
		r   result
	}
	var mu sync.Mutex
	var answers []answer
	var wg sync.WaitGroup
	work := make(chan string)
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for u := range work {
				r := s.postJSON(t, "/v1/digest", map[string]any{"query": "q", "source": map[string]string{"url": u}})
				mu.Lock()
				answers = append(answers, answer{u, r})
				mu.Unlock()
			}
		}()
	}
	for range 2 {
		for _, u := range all {
			work <- u
		}
	}
	close(work)
	wg.Wait()
	for _, a := range answers {
		if o := a.r.outcome(); o != "422 FETCH_BLOCKED" && o != "400 INVALID_URL" {
			t.Errorf("url %q: got %q, want 422 FETCH_BLOCKED or 400 INVALID_URL", trunc(a.url), o)
		}
	}

	// Many at once through the multi-source route: each fails alone with
	// a blocked or invalid code, and the request as a whole is refused.
	var specs []map[string]string
	for i, u := range all[:min(len(all), 50)] {
		specs = append(specs, map[string]string{"id": "u" + strconv.Itoa(i), "url": u})
	}
	r := s.postJSON(t, "/v1/digests", map[string]any{"query": "q", "sources": specs})
	if r.Status/100 != 4 {
		t.Errorf("/v1/digests with only internal URLs: got %q, want a 4xx", r.outcome())
	}
	var env struct {
		Data struct {
			Details struct {
				Failed []struct {
					ID        string `json:"id"`
					ErrorCode string `json:"error_code"`
				} `json:"failed"`
			} `json:"details"`
		} `json:"data"`
	}
	if err := json.Unmarshal(r.Body, &env); err != nil {
		t.Errorf("/v1/digests: %v", err)
	}
	if len(env.Data.Details.Failed) != len(specs) {
		t.Errorf("/v1/digests: %d failures listed, want %d", len(env.Data.Details.Failed), len(specs))
	}
	for _, f := range env.Data.Details.Failed {
		if f.ErrorCode != "FETCH_BLOCKED" && f.ErrorCode != "INVALID_URL" {
			t.Errorf("/v1/digests source %s: %s, want FETCH_BLOCKED or INVALID_URL", f.ID, f.ErrorCode)
		}
	}

	// A redirect to the metadata address cannot be reached from the real
	// binary: the redirecting server itself listens on loopback, so the
	// first hop is refused. The canary (which answers with exactly that
	// redirect) must never see a connection.
	if n := c4.accepted.Load(); n != 0 {
		t.Errorf("the 127.0.0.1 canary accepted %d connections: the server connected to a loopback address", n)
	}
	if c6 != nil {
		if n := c6.accepted.Load(); n != 0 {
			t.Errorf("the ::1 canary accepted %d connections", n)
		}
	}
	s.checkHealthy(t)
}

// TestSlowloris opens many connections that send their headers a byte at a
// time, slower than --read-header-timeout (1s) allows. The server must
// close each within a few seconds without answering it with a 5xx, and
// keep answering other clients meanwhile.
func TestSlowloris(t *testing.T) {
	s := startServer(t)
	const conns = 64
	type closed struct {
		after time.Duration
		resp  string
		err   error
	}
	results := make(chan closed, conns)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	for i := range conns {
		go func() {
			start := time.Now()
			conn, err := net.DialTimeout("tcp", s.addr, 5*time.Second)
			if err != nil {
				results <- closed{err: err}
				return
			}
			defer conn.Close()
			// The reader notices the close (EOF or reset) or an answer.
			readDone := make(chan string, 1)
			go func() {
				b, _ := io.ReadAll(io.LimitReader(conn, 4096))
				readDone <- string(b)
			}()
			line := fmt.Sprintf("GET /healthz?c=%d HTTP/1.1\r\nHost: x\r\nX-Slow: ", i)
			if _, err := io.WriteString(conn, line); err != nil {
				results <- closed{after: time.Since(start), err: err}
				return
			}
			tick := time.NewTicker(200 * time.Millisecond)
			defer tick.Stop()
			for {
				select {
				case resp := <-readDone:
					results <- closed{after: time.Since(start), resp: resp}
					return
				case <-tick.C:
					if _, err := conn.Write([]byte("a")); err != nil {
						resp := ""
						select {
						case resp = <-readDone:
						case <-time.After(time.Second):
						}
						results <- closed{after: time.Since(start), resp: resp, err: err}
						return
					}
				case <-ctx.Done():
					results <- closed{after: time.Since(start), err: errors.New("still open after 20s")}
					return
				}
			}
		}()
	}
	// Meanwhile, a normal client is served.
	time.Sleep(300 * time.Millisecond)
	for range 5 {
		start := time.Now()
		r, err := s.try("GET", "/healthz", "", nil)
		if err != nil || r.Status != http.StatusOK {
			t.Errorf("/healthz during slowloris: %v %v", r.outcome(), err)
		}
		if el := time.Since(start); el > 2*time.Second {
			t.Errorf("/healthz during slowloris took %v", el)
		}
		time.Sleep(100 * time.Millisecond)
	}
	var slowest time.Duration
	closedOK := 0
	for range conns {
		c := <-results
		if c.err != nil && c.after == 0 {
			t.Errorf("slow connection: %v", c.err)
			continue
		}
		if c.err != nil && strings.Contains(c.err.Error(), "still open") {
			t.Errorf("slow connection not closed: %v", c.err)
			continue
		}
		if c.after > 5*time.Second {
			t.Errorf("slow connection closed after %v, want within ~1s read-header timeout", c.after)
		}
		if c.resp != "" {
			if st := statusOfRaw(c.resp); st == 0 || st >= 500 || st < 400 {
				t.Errorf("slow connection was answered with %q, want a clean close or a 4xx", trunc(c.resp))
			}
		}
		slowest = max(slowest, c.after)
		closedOK++
	}
	t.Logf("%d of %d slow connections closed, the last after %v", closedOK, conns, slowest)
	s.checkHealthy(t)
}

// statusOfRaw reads the status code of a raw HTTP/1.1 response.
func statusOfRaw(resp string) int {
	r, err := http.ReadResponse(bufio.NewReader(strings.NewReader(resp)), nil)
	if err != nil {
		return 0
	}
	return r.StatusCode
}

// TestOversizeHeaders sends header blocks over --max-header-bytes (64 KiB):
// one huge header, thousands of small ones, and a huge request line. Each
// gets 431 (or 414 for the URI) and the server stays up.
func TestOversizeHeaders(t *testing.T) {
	s := startServer(t)
	send := func(name, head string) int {
		conn, err := net.DialTimeout("tcp", s.addr, 5*time.Second)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close()
		conn.SetDeadline(time.Now().Add(20 * time.Second))
		go io.WriteString(conn, head)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil {
			t.Errorf("%s: no response: %v", name, err)
			return 0
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	var many strings.Builder
	for i := range 5000 {
		fmt.Fprintf(&many, "X-H%d: %s\r\n", i, strings.Repeat("a", 40))
	}
	cases := []struct {
		name, head string
		want       []int
	}{
		{"one 200 KB header", "GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", 200<<10) + "\r\n\r\n", []int{431}},
		{"5000 headers", "GET /healthz HTTP/1.1\r\nHost: x\r\n" + many.String() + "\r\n", []int{431}},
		{"200 KB cookie", "GET /healthz HTTP/1.1\r\nHost: x\r\nCookie: " + strings.Repeat("a=b; ", 40<<10) + "\r\n\r\n", []int{431}},
		{"200 KB request line", "GET /healthz?" + strings.Repeat("a", 200<<10) + " HTTP/1.1\r\nHost: x\r\n\r\n", []int{414, 431}},
		{"1 MB header on a digest", "POST /v1/digest HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nX-Big: " + strings.Repeat("a", 1<<20) + "\r\nContent-Length: 2\r\n\r\n{}", []int{431}},
	}
	for _, c := range cases {
		for range 3 {
			st := send(c.name, c.head)
			ok := false
			for _, w := range c.want {
				ok = ok || st == w
			}
			if !ok {
				t.Errorf("%s: status %d, want %v", c.name, st, c.want)
			}
		}
	}
	// Malformed request heads get a 4xx, never a 5xx (a Transfer-Encoding
	// other than chunked was net/http's 501).
	for _, head := range []string{
		"POST /v1/digest HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n",
		"GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header\r\n\r\n",
		"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n",
		"GET /healthz HTTP/1.1\r\nHost: x\r\nContent-Length: 1\r\nContent-Length: 2\r\n\r\n",
		"POST /v1/digest HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\n0\r\n\r\n",
		"GET /v1/archive/a\x00b HTTP/1.1\r\nHost: x\r\n\r\n",
	} {
		if st := send(trunc(head), head); st < 400 || st >= 500 {
			t.Errorf("%q: status %d, want a 4xx", trunc(head), st)
		}
	}
	s.checkHealthy(t)
}
