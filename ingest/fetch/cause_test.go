package fetch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"
)

// TestFailureCauses: a fetch that gets no usable response says why in
// Error.Cause, with a message that names neither an address nor a port.
func TestFailureCauses(t *testing.T) {
	closed, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closedAddr := closed.Addr().String()
	closed.Close() // nothing listens there now: connection refused

	tlsSrv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	tlsSrv.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshake is expected
	tlsSrv.StartTLS()
	t.Cleanup(tlsSrv.Close)
	hangup := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		conn, _, err := http.NewResponseController(w).Hijack()
		if err == nil {
			conn.Close() // no answer at all
		}
	}))
	t.Cleanup(hangup.Close)
	status := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "gone", http.StatusGone)
	}))
	t.Cleanup(status.Close)

	dns := &fakeDNS{answers: map[string]netip.Addr{}}
	for _, tc := range []struct {
		name, url, cause string
	}{
		{"unknown host", "http://nowhere.test/", CauseDNS},
		{"refused", "http://" + closedAddr + "/", CauseConnect},
		{"untrusted certificate", tlsSrv.URL, CauseTLS},
		{"hung up", hangup.URL, CauseConnectionClosed},
		{"status", status.URL, CauseUpstreamStatus},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newClient(Config{MaxRedirects: -1, AllowLoopback: []string{
				closedAddr, tlsSrv.Listener.Addr().String(), hangup.Listener.Addr().String(), status.Listener.Addr().String(),
			}}, dns.resolver())
			t.Cleanup(c.CloseIdleConnections)
			_, err := c.Fetch(context.Background(), tc.url)
			var fe *Error
			if !errors.As(err, &fe) || fe.Code != CodeFailed || fe.Cause != tc.cause {
				t.Fatalf("%v (%+v), want %s with cause %s", err, fe, CodeFailed, tc.cause)
			}
			if fe.Msg == "" || strings.Contains(fe.Msg, "127.0.0.1") || strings.Contains(fe.Msg, ":") {
				t.Errorf("message %q is empty or names an address", fe.Msg)
			}
			if (tc.cause == CauseUpstreamStatus) != (fe.Status == http.StatusGone) {
				t.Errorf("status %d for cause %s", fe.Status, fe.Cause)
			}
		})
	}
}

// A redirect back to an address already visited is a loop, told apart from
// a chain that is merely long.
func TestRedirectLoop(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/a":
			http.Redirect(w, r, "/b", http.StatusFound)
		case "/b":
			http.Redirect(w, r, "/a", http.StatusFound)
		default:
			var n int
			fmt.Sscanf(r.URL.Path, "/chain/%d", &n)
			http.Redirect(w, r, fmt.Sprintf("/chain/%d", n+1), http.StatusFound)
		}
	}))
	t.Cleanup(srv.Close)
	c := newClient(Config{AllowLoopback: []string{srv.Listener.Addr().String()}}, nil)
	t.Cleanup(c.CloseIdleConnections)
	for path, cause := range map[string]string{"/a": CauseRedirectLoop, "/chain/0": CauseRedirects} {
		_, err := c.Fetch(context.Background(), srv.URL+path)
		var fe *Error
		if !errors.As(err, &fe) || fe.Code != CodeFailed || fe.Cause != cause {
			t.Errorf("%s: %v, want %s with cause %s", path, err, CodeFailed, cause)
		}
	}
}
