package main

import (
	"io"
	"net"
	"net/http"
	"testing"
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
