package fetch

import (
	"bufio"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// The proxy passes requests and tunnels to allowed addresses and refuses
// every other one, by URL and at connect time, without a byte reaching
// the refused address; past its byte cap it refuses everything.
func TestProxyGuards(t *testing.T) {
	var canaryConns atomic.Int64
	canary, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer canary.Close()
	go func() {
		for {
			c, err := canary.Accept()
			if err != nil {
				return
			}
			canaryConns.Add(1)
			c.Close()
		}
	}()
	body := strings.Repeat("tides ", 1000)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, body) }))
	defer srv.Close()
	dns := &fakeDNS{answers: map[string]netip.Addr{"canary.test.": netip.MustParseAddr("127.0.0.1")}}
	c := newClient(Config{AllowLoopback: []string{srv.Listener.Addr().String()}}, dns.resolver())
	p, err := c.Proxy(ProxyLimits{MaxBytes: 20000})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	proxyURL, _ := url.Parse("http://" + p.Addr())
	hc := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL)}}

	resp, err := hc.Get(srv.URL + "/ok")
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(got) != body {
		t.Errorf("allowed request: %d bytes, want %d", len(got), len(body))
	}
	_, port, _ := net.SplitHostPort(canary.Addr().String())
	for _, u := range []string{
		"http://" + canary.Addr().String() + "/",
		"http://localhost:" + port + "/",
		"http://canary.test:" + port + "/", // a name that resolves to loopback: refused at connect time
		"http://169.254.169.254/latest/meta-data/",
		"http://[::1]:" + port + "/",
	} {
		if resp, err := hc.Get(u); err == nil {
			resp.Body.Close()
			t.Errorf("%s: answered %d through the proxy", u, resp.StatusCode)
		}
	}
	for _, target := range []string{canary.Addr().String(), "canary.test:" + port, "169.254.169.254:443"} {
		conn, err := net.Dial("tcp", p.Addr())
		if err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(conn, "CONNECT %s HTTP/1.1\r\nHost: %s\r\n\r\n", target, target)
		resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
		if err != nil || resp.StatusCode != http.StatusForbidden {
			t.Errorf("CONNECT %s: %v %v, want 403", target, resp, err)
		}
		conn.Close()
	}
	if n := canaryConns.Load(); n != 0 {
		t.Errorf("the canary saw %d connections", n)
	}
	if p.Refused() < 8 {
		t.Errorf("refused %d, want every one of the 8", p.Refused())
	}
	// 6000 bytes passed; three more answers pass the 20000-byte cap.
	for i := 0; i < 3; i++ {
		if resp, err := hc.Get(srv.URL + "/more"); err == nil {
			io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	if !p.OverLimit() {
		t.Error("not over the limit after 24000 bytes")
	}
	if resp, err := hc.Get(srv.URL + "/after"); err == nil {
		resp.Body.Close()
		if resp.StatusCode != http.StatusForbidden {
			t.Errorf("after the cap: %d, want 403", resp.StatusCode)
		}
	}
}
