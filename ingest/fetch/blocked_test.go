package fetch

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"golang.org/x/net/dns/dnsmessage"
)

// canary is a loopback listener that no blocked fetch may ever reach.
type canary struct {
	ln       net.Listener
	accepted atomic.Int64
}

// newCanary listens on addr ("127.0.0.1:0" or "[::1]:0") and fails the test
// at cleanup if anything connected to it.
func newCanary(t *testing.T, addr string) *canary {
	t.Helper()
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		t.Skipf("cannot listen on %s: %v", addr, err)
	}
	c := &canary{ln: ln}
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			c.accepted.Add(1)
			conn.Close()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		if n := c.accepted.Load(); n != 0 {
			t.Errorf("canary %s accepted %d connections; want 0", addr, n)
		}
	})
	return c
}

func (c *canary) port() int { return c.ln.Addr().(*net.TCPAddr).Port }

// fakeDNS answers A queries from a fixed table, entirely in memory, and
// records every name it was asked about. Unknown names get NXDOMAIN and no
// AAAA records exist, so a test never sends a real DNS query.
type fakeDNS struct {
	answers map[string]netip.Addr // fully qualified, lower case: "rebind.test."
	mu      sync.Mutex
	asked   []string
}

func (d *fakeDNS) resolver() *net.Resolver {
	return &net.Resolver{
		PreferGo: true,
		Dial: func(ctx context.Context, network, address string) (net.Conn, error) {
			client, server := net.Pipe()
			go d.serve(server)
			return client, nil
		},
	}
}

func (d *fakeDNS) lookups() []string {
	d.mu.Lock()
	defer d.mu.Unlock()
	return append([]string(nil), d.asked...)
}

// serve answers length-prefixed (stream) DNS queries on conn until it closes.
func (d *fakeDNS) serve(conn net.Conn) {
	defer conn.Close()
	for {
		var n uint16
		if err := binary.Read(conn, binary.BigEndian, &n); err != nil {
			return
		}
		msg := make([]byte, n)
		if _, err := io.ReadFull(conn, msg); err != nil {
			return
		}
		reply, err := d.answer(msg)
		if err != nil {
			return
		}
		out := binary.BigEndian.AppendUint16(nil, uint16(len(reply)))
		if _, err := conn.Write(append(out, reply...)); err != nil {
			return
		}
	}
}

func (d *fakeDNS) answer(query []byte) ([]byte, error) {
	var p dnsmessage.Parser
	h, err := p.Start(query)
	if err != nil {
		return nil, err
	}
	q, err := p.Question()
	if err != nil {
		return nil, err
	}
	name := strings.ToLower(q.Name.String())
	d.mu.Lock()
	d.asked = append(d.asked, name)
	d.mu.Unlock()
	addr, known := d.answers[name]
	rcode := dnsmessage.RCodeSuccess
	if !known {
		rcode = dnsmessage.RCodeNameError
	}
	b := dnsmessage.NewBuilder(nil, dnsmessage.Header{ID: h.ID, Response: true, Authoritative: true, RecursionDesired: h.RecursionDesired, RecursionAvailable: true, RCode: rcode})
	b.EnableCompression()
	if err := b.StartQuestions(); err != nil {
		return nil, err
	}
	if err := b.Question(q); err != nil {
		return nil, err
	}
	if err := b.StartAnswers(); err != nil {
		return nil, err
	}
	if known && q.Type == dnsmessage.TypeA && addr.Is4() {
		rh := dnsmessage.ResourceHeader{Name: q.Name, Type: dnsmessage.TypeA, Class: dnsmessage.ClassINET, TTL: 60}
		if err := b.AResource(rh, dnsmessage.AResource{A: addr.As4()}); err != nil {
			return nil, err
		}
	}
	return b.Finish()
}

// blockedEnv is a loopback-only world for blocked-destination tests: a
// canary on 127.0.0.1 (and on [::1] when available), an allowed test server,
// in-memory DNS, and a Client whose tripwire fails the test, and refuses the
// connect, if the guard ever lets through anything but the allowed server.
type blockedEnv struct {
	canary4, canary6 *canary
	allowed          *httptest.Server
	dns              *fakeDNS
	client           *Client
}

func newBlockedEnv(t *testing.T, allowLoopback bool) *blockedEnv {
	t.Helper()
	env := &blockedEnv{canary4: newCanary(t, "127.0.0.1:0")}
	if ln, err := net.Listen("tcp", "[::1]:0"); err == nil {
		ln.Close()
		env.canary6 = newCanary(t, "[::1]:0")
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/ok", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		fmt.Fprint(w, "allowed")
	})
	mux.HandleFunc("/redirect", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, r.URL.Query().Get("to"), http.StatusFound)
	})
	env.allowed = httptest.NewServer(mux)
	t.Cleanup(env.allowed.Close)
	allowedAddr := env.allowed.Listener.Addr().String()

	env.dns = &fakeDNS{answers: map[string]netip.Addr{
		"rebind.test.":   netip.MustParseAddr("127.0.0.1"),
		"allowed.test.":  netip.MustParseAddr("127.0.0.1"),
		"private.test.":  netip.MustParseAddr("10.0.0.1"),
		"metadata.test.": netip.MustParseAddr("169.254.169.254"),
		"cgnat.test.":    netip.MustParseAddr("100.64.0.1"),
	}}
	var cfg Config
	if allowLoopback {
		cfg.AllowLoopback = []string{allowedAddr}
	}
	env.client = newClient(cfg, env.dns.resolver())
	env.client.dialTripwire = func(network, address string) error {
		if address == allowedAddr {
			return nil
		}
		t.Errorf("guard allowed a connect to %s %s", network, address)
		return errors.New("test tripwire: connect refused")
	}
	t.Cleanup(env.client.CloseIdleConnections)
	return env
}

// blockedURLs are destinations that must be refused, with %d standing for a
// canary port where a real listener would otherwise answer.
var blockedURLs = []string{
	"http://127.0.0.1:%d/",
	"https://127.0.0.1:%d/",
	"http://127.0.0.2:%d/",
	"http://[::1]:%d/",
	"http://0.0.0.0:%d/",
	"http://[::]:%d/",
	"http://10.0.0.1:%d/",
	"http://10.255.255.254/",
	"http://172.16.0.1:%d/",
	"http://172.31.255.254/",
	"http://192.168.0.1:%d/",
	"http://192.168.255.254/",
	"http://100.64.0.1:%d/",
	"http://100.127.255.254/",
	"http://169.254.169.254/latest/meta-data/",
	"http://169.254.1.1:%d/",
	"http://224.0.0.1/",
	"http://255.255.255.255/",
	"http://192.0.2.1/",
	"http://198.51.100.1/",
	"http://203.0.113.1/",
	"http://198.18.0.1/",
	"http://[::ffff:127.0.0.1]:%d/",
	"http://[::ffff:7f00:1]:%d/",
	"http://[::ffff:169.254.169.254]/",
	"http://[::ffff:10.0.0.1]/",
	"http://[64:ff9b::7f00:1]:%d/",
	"http://[64:ff9b::a9fe:a9fe]/",
	"http://[64:ff9b::10.0.0.1]/",
	"http://[fe80::1]:%d/",
	"http://[fc00::1]:%d/",
	"http://[fd12:3456::1]/",
	"http://[ff02::1]/",
	"http://[2001:db8::1]/",
	"http://[2002:7f00:1::1]/",
	"http://2130706433:%d/",
	"http://0x7f000001:%d/",
	"http://0x7f.1:%d/",
	"http://0X7F.0X0.0X0.0X1:%d/",
	"http://0177.0.0.1:%d/",
	"http://0177.1:%d/",
	"http://017700000001:%d/",
	"http://127.1:%d/",
	"http://127.0.1:%d/",
	"http://127.0.0.1.:%d/",
	"http://0:%d/",
	"http://167772161/",
	"http://2852039166/",
	"http://localhost:%d/",
	"http://LOCALHOST:%d/",
	"http://localhost.:%d/",
	"http://app.localhost:%d/",
	"http://rebind.test:%d/",
	"http://private.test/",
	"http://metadata.test/latest/meta-data/",
	"http://cgnat.test/",
}

func fillPort(format string, port int) string {
	if strings.Contains(format, "%d") {
		return fmt.Sprintf(format, port)
	}
	return format
}

// TestBlockedDestinations fetches every blocked form with no test
// allowance: each must fail with FETCH_BLOCKED before any connect.
func TestBlockedDestinations(t *testing.T) {
	env := newBlockedEnv(t, false)
	for _, format := range blockedURLs {
		raw := fillPort(format, env.canary4.port())
		if env.canary6 != nil && strings.Contains(format, "[::1]") {
			raw = fillPort(format, env.canary6.port())
		}
		t.Run(raw, func(t *testing.T) {
			_, err := env.client.Fetch(context.Background(), raw)
			if CodeOf(err) != CodeBlocked || !errors.Is(err, ErrBlocked) {
				t.Fatalf("Fetch(%s) error = %v, want %s", raw, err, CodeBlocked)
			}
			var fe *Error
			errors.As(err, &fe)
			if strings.Contains(fe.Msg, "127.") || strings.Contains(fe.Msg, "10.0") || strings.Contains(fe.Msg, "169.254") {
				t.Errorf("client-facing Msg %q names an address", fe.Msg)
			}
		})
	}
	// The allowed server is not allowed either without the allowance.
	_, err := env.client.Fetch(context.Background(), env.allowed.URL+"/ok")
	if CodeOf(err) != CodeBlocked {
		t.Errorf("test server without allowance: %v, want %s", err, CodeBlocked)
	}
}

// TestBlockedViaRedirect fetches the allowed test server, which redirects to
// each blocked form; the allowance for its own host:port must not extend to
// any of them.
func TestBlockedViaRedirect(t *testing.T) {
	env := newBlockedEnv(t, true)
	resp, err := env.client.Fetch(context.Background(), env.allowed.URL+"/ok")
	if err != nil || string(resp.Body) != "allowed" {
		t.Fatalf("allowed server: %v", err)
	}
	// A name resolving to the allowed server's own address:port passes,
	// which shows the in-memory DNS and the dial path work, so the refusals
	// below come from the guard.
	allowedPort := env.allowed.Listener.Addr().(*net.TCPAddr).Port
	resp, err = env.client.Fetch(context.Background(), fmt.Sprintf("http://allowed.test:%d/ok", allowedPort))
	if err != nil || string(resp.Body) != "allowed" {
		t.Fatalf("allowed server by name: %v", err)
	}
	for _, format := range blockedURLs {
		target := fillPort(format, env.canary4.port())
		if env.canary6 != nil && strings.Contains(format, "[::1]") {
			target = fillPort(format, env.canary6.port())
		}
		raw := env.allowed.URL + "/redirect?to=" + target
		t.Run(target, func(t *testing.T) {
			_, err := env.client.Fetch(context.Background(), raw)
			if CodeOf(err) != CodeBlocked {
				t.Fatalf("redirect to %s: error = %v, want %s", target, err, CodeBlocked)
			}
		})
	}
}

// TestDialGuardAlone sends requests for loopback canaries straight through
// the transport, skipping the URL checks, and for names resolving to
// internal addresses: the connect-time check alone must refuse them.
func TestDialGuardAlone(t *testing.T) {
	env := newBlockedEnv(t, true)
	urls := []string{
		fmt.Sprintf("http://127.0.0.1:%d/", env.canary4.port()),
		fmt.Sprintf("http://[::ffff:127.0.0.1]:%d/", env.canary4.port()),
		fmt.Sprintf("http://localhost:%d/", env.canary4.port()),
		fmt.Sprintf("http://rebind.test:%d/", env.canary4.port()),
	}
	if env.canary6 != nil {
		urls = append(urls, fmt.Sprintf("http://[::1]:%d/", env.canary6.port()))
	}
	for _, raw := range urls {
		t.Run(raw, func(t *testing.T) {
			req, err := http.NewRequest(http.MethodGet, raw, nil)
			if err != nil {
				t.Fatal(err)
			}
			resp, err := env.client.transport.RoundTrip(req)
			if err == nil {
				resp.Body.Close()
				t.Fatalf("RoundTrip(%s) succeeded", raw)
			}
			if CodeOf(err) != CodeBlocked {
				t.Fatalf("RoundTrip(%s) error = %v, want %s", raw, err, CodeBlocked)
			}
		})
	}
	if got := env.dns.lookups(); !containsName(got, "rebind.test.") {
		t.Errorf("DNS lookups %v: the name was never resolved, so the dial check was not reached", got)
	}
}

func containsName(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
	}
	return false
}

// TestGuardControl checks the connect-time hook on resolved addresses
// without opening sockets.
func TestGuardControl(t *testing.T) {
	g := newGuard([]string{"127.0.0.1:4567", "[::1]:4568", "10.0.0.1:80", "127.0.0.1", "localhost:80"})
	tests := []struct {
		network, address string
		allowed          bool
	}{
		{"tcp4", "93.184.215.14:80", true},
		{"tcp4", "8.8.8.8:8443", true},
		{"tcp6", "[2606:4700::6810:84e5]:443", true},
		{"tcp4", "127.0.0.1:4567", true},
		{"tcp6", "[::1]:4568", true},
		{"tcp4", "127.0.0.1:4568", false},
		{"tcp4", "127.0.0.2:4567", false},
		{"tcp6", "[::ffff:127.0.0.1]:4567", false},
		{"tcp4", "10.0.0.1:80", false}, // non-loopback allowance entries are ignored
		{"tcp4", "127.0.0.1:80", false},
		{"tcp4", "0.0.0.0:80", false},
		{"tcp4", "10.1.2.3:80", false},
		{"tcp4", "172.20.0.1:80", false},
		{"tcp4", "192.168.1.1:443", false},
		{"tcp4", "100.100.100.100:80", false},
		{"tcp4", "169.254.169.254:80", false},
		{"tcp4", "224.0.0.251:80", false},
		{"tcp4", "255.255.255.255:80", false},
		{"tcp4", "198.19.0.1:80", false},
		{"tcp6", "[::1]:80", false},
		{"tcp6", "[::]:80", false},
		{"tcp6", "[fe80::1]:80", false},
		{"tcp6", "[fc00::1]:80", false},
		{"tcp6", "[64:ff9b::7f00:1]:80", false},
		{"tcp6", "[::ffff:a9fe:a9fe]:80", false},
		{"tcp6", "[2001:db8::1]:80", false},
		{"udp4", "8.8.8.8:53", false},
		{"tcp4", "not-an-address", false},
	}
	for _, tt := range tests {
		err := g.control(tt.network, tt.address, nil)
		if tt.allowed && err != nil {
			t.Errorf("control(%s, %s) = %v, want allowed", tt.network, tt.address, err)
		}
		if !tt.allowed && CodeOf(err) != CodeBlocked {
			t.Errorf("control(%s, %s) = %v, want %s", tt.network, tt.address, err, CodeBlocked)
		}
	}
}

// TestNoEnvironmentProxy pins the transport's proxy to none.
func TestNoEnvironmentProxy(t *testing.T) {
	c := New(Config{})
	if c.transport.Proxy != nil {
		t.Fatal("transport uses a proxy function; environment proxies must be ignored")
	}
}
