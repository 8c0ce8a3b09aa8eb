package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"
)

// TestConnLimitServesNewClients holds many silent and keep-alive idle
// connections open against a server bounded to four: every new client is
// still served, and the open connections never pass the bound.
func TestConnLimitServesNewClients(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lim := newConnLimit(ln, 4, 2)
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") }), ConnState: lim.track}
	go hs.Serve(lim)
	defer hs.Close()
	for range 20 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	for i := range 10 {
		// A fresh transport each time: its connection stays idle, open.
		client := &http.Client{Transport: &http.Transport{}}
		resp, err := client.Get("http://" + ln.Addr().String() + "/")
		if err != nil {
			t.Fatalf("client %d: %v", i, err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if string(b) != "ok" {
			t.Fatalf("client %d: %q", i, b)
		}
		lim.mu.Lock()
		n := lim.count
		lim.mu.Unlock()
		if n > 4 {
			t.Fatalf("%d connections open, bound 4", n)
		}
	}
}

// TestSlowBodiesAtTheBound fills digestd serve's connection bound with
// requests that announce a body of 100 bytes and send one (issue 47): a
// health check is still answered, by closing the connection that has
// awaited its body the longest, and every slow connection is closed by the
// server, the others answered once their body timeout passes. No API key,
// as by default.
func TestSlowBodiesAtTheBound(t *testing.T) {
	const bound = 8
	srv := startServer(t, "--api-key-hashes", "", "--max-conns", strconv.Itoa(bound), "--max-idle-conns", "2",
		"--body-timeout", "1s", "--read-timeout", "2s")
	addr := strings.TrimPrefix(srv.base, "http://")
	type slowConn struct {
		net.Conn
		r *bufio.Reader
	}
	var slow []slowConn
	for i := range bound {
		c, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		// Expect: 100-continue makes the server say when its handler
		// starts reading the body: once all have heard it, every
		// connection of the bound is awaiting its body.
		fmt.Fprintf(c, "POST /v1/search HTTP/1.1\r\nHost: %s\r\nContent-Type: application/json\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n", addr)
		c.SetReadDeadline(time.Now().Add(20 * time.Second))
		sc := slowConn{c, bufio.NewReader(c)}
		resp, err := http.ReadResponse(sc.r, nil)
		if err != nil || resp.StatusCode != http.StatusContinue {
			t.Fatalf("slow body %d: %v %v, want 100 Continue", i, resp, err)
		}
		io.WriteString(c, "{")
		slow = append(slow, sc)
	}

	client := &http.Client{Timeout: 20 * time.Second, Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	resp, err := client.Get(srv.base + "/healthz")
	if err != nil {
		t.Fatalf("health with %d slow bodies at the bound: %v", bound, err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("health with %d slow bodies at the bound: %d", bound, resp.StatusCode)
	}

	// The deadline is generous: the server closes each connection after
	// 1 s; only one left without a deadline waits this long.
	answered, evicted := 0, 0
	deadline := time.Now().Add(20 * time.Second)
	for i, c := range slow {
		c.SetReadDeadline(deadline)
		var ne net.Error
		resp, err := http.ReadResponse(c.r, nil)
		if err == nil {
			body, _ := io.ReadAll(resp.Body)
			resp.Body.Close()
			if resp.StatusCode != http.StatusBadRequest || !bytes.Contains(body, []byte("INVALID_FORMAT")) {
				t.Errorf("slow body %d: answered %d %s", i, resp.StatusCode, body)
			}
			answered++
			_, err = c.r.ReadByte()
		} else if !errors.As(err, &ne) || !ne.Timeout() {
			evicted++ // closed to make room, with no answer
		}
		if errors.As(err, &ne) && ne.Timeout() {
			t.Errorf("slow body %d: not closed by the server", i)
		}
	}
	if evicted == 0 || answered+evicted != bound {
		t.Errorf("%d slow bodies answered, %d closed to make room for health; want at least one closed and the rest answered", answered, evicted)
	}
}
