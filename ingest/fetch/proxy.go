package fetch

import (
	"context"
	"io"
	"log"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
)

// ProxyLimits bound what one Proxy passes on.
type ProxyLimits struct {
	// MaxBytes caps the bytes the proxy passes back to its client, over
	// every request and tunnel together; past it every connection is
	// closed and new ones are refused (0: no cap).
	MaxBytes int64
}

// Proxy is an HTTP forward proxy on a loopback port that reaches the
// network only through the Client's guard: each request's URL is checked
// like Fetch's, each tunnel's (CONNECT) host name and port too, and every
// connection it makes is checked at connect time, after DNS, by the same
// dialer Control as Fetch's. A browser pointed at it (and at nothing else)
// can reach no private, loopback, link-local or metadata address but the
// Client's exact allowed ones. It follows no redirects itself: the browser
// asks again for the next address, and that request is checked in turn.
type Proxy struct {
	c      *Client
	limits ProxyLimits
	ln     net.Listener
	srv    *http.Server

	passed  atomic.Int64 // bytes passed back to the client
	refused atomic.Int64 // requests and tunnels refused by the guard
	over    atomic.Bool  // MaxBytes was passed

	mu      sync.Mutex
	tunnels map[net.Conn]bool
	closed  bool
}

// Proxy starts a proxy for c on 127.0.0.1, on a port of its own. The
// caller closes it.
func (c *Client) Proxy(limits ProxyLimits) (*Proxy, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	p := &Proxy{c: c, limits: limits, ln: ln, tunnels: map[net.Conn]bool{}}
	p.srv = &http.Server{
		Handler:           p,
		ReadHeaderTimeout: c.cfg.HeaderTimeout,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	go p.srv.Serve(ln)
	return p, nil
}

// Addr is the proxy's address, "127.0.0.1:port".
func (p *Proxy) Addr() string { return p.ln.Addr().String() }

// Refused is how many requests and tunnels the guard refused so far.
func (p *Proxy) Refused() int64 { return p.refused.Load() }

// OverLimit reports whether the client was cut off at ProxyLimits.MaxBytes.
func (p *Proxy) OverLimit() bool { return p.over.Load() }

// Close stops the proxy and every connection through it.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for conn := range p.tunnels {
		conn.Close()
	}
	p.mu.Unlock()
	return p.srv.Close()
}

// hopHeaders are the headers of one connection, never passed on.
var hopHeaders = []string{"Connection", "Proxy-Connection", "Keep-Alive", "Proxy-Authenticate",
	"Proxy-Authorization", "Te", "Trailer", "Transfer-Encoding", "Upgrade"}

// ServeHTTP answers one proxy request: a CONNECT tunnel or an absolute-form
// request. A refused destination is 403, anything else it cannot pass 502.
func (p *Proxy) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if p.over.Load() {
		http.Error(w, "proxy byte limit reached", http.StatusForbidden)
		return
	}
	if r.Method == http.MethodConnect {
		p.tunnel(w, r)
		return
	}
	if r.Header.Get("Upgrade") != "" {
		// A WebSocket (or any upgrade) is only ever tunnelled, where the
		// guard has checked its destination.
		http.Error(w, "upgrades go through CONNECT", http.StatusNotImplemented)
		return
	}
	u, err := p.c.guard.checkURL(r.URL.String())
	if err != nil {
		p.refuse(w)
		return
	}
	out := r.Clone(r.Context())
	out.URL = u
	out.RequestURI = ""
	out.Host = ""
	for _, h := range hopHeaders {
		out.Header.Del(h)
	}
	resp, err := p.c.transport.RoundTrip(out)
	if err != nil {
		if CodeOf(classify(r.Context(), err)) == CodeBlocked {
			p.refuse(w)
			return
		}
		http.Error(w, "upstream failed", http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	for _, h := range hopHeaders {
		resp.Header.Del(h)
	}
	for k, vs := range resp.Header {
		for _, v := range vs {
			w.Header().Add(k, v)
		}
	}
	w.WriteHeader(resp.StatusCode)
	p.copy(w, resp.Body)
}

// refuse answers a request the guard refused by closing the connection
// unanswered: a browser then fails the request (a document shows its own
// error page) instead of taking a proxy's answer for the page's.
func (p *Proxy) refuse(w http.ResponseWriter) {
	p.refused.Add(1)
	conn, _, err := http.NewResponseController(w).Hijack()
	if err != nil {
		http.Error(w, "destination not allowed", http.StatusForbidden)
		return
	}
	conn.Close()
}

// tunnel serves CONNECT host:port: the guard checks the name and port as a
// URL's host, the dialer every address it resolves to.
func (p *Proxy) tunnel(w http.ResponseWriter, r *http.Request) {
	host, port, err := net.SplitHostPort(r.Host)
	if err != nil || port == "" {
		http.Error(w, "bad tunnel address", http.StatusBadRequest)
		return
	}
	// Any port may carry https or wss; the check is the address.
	if _, err := p.c.guard.checkURL("https://" + net.JoinHostPort(host, port) + "/"); err != nil {
		p.refused.Add(1)
		http.Error(w, "destination not allowed", http.StatusForbidden)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), p.c.cfg.ConnectTimeout)
	upstream, err := p.c.dial(ctx, "tcp", net.JoinHostPort(host, port))
	cancel()
	if err != nil {
		if CodeOf(classify(r.Context(), err)) == CodeBlocked {
			p.refused.Add(1)
			http.Error(w, "destination not allowed", http.StatusForbidden)
			return
		}
		http.Error(w, "upstream failed", http.StatusBadGateway)
		return
	}
	client, buf, err := http.NewResponseController(w).Hijack()
	if err != nil {
		upstream.Close()
		return
	}
	if !p.track(client, upstream) {
		client.Close()
		upstream.Close()
		return
	}
	defer p.untrack(client, upstream)
	client.Write([]byte("HTTP/1.1 200 Connection Established\r\n\r\n"))
	done := make(chan struct{})
	go func() {
		// What the client sent ahead of the tunnel, then the rest.
		if n := buf.Reader.Buffered(); n > 0 {
			b, _ := buf.Reader.Peek(n)
			upstream.Write(b)
		}
		io.Copy(upstream, client)
		if tc, ok := upstream.(*net.TCPConn); ok {
			tc.CloseWrite()
		}
		close(done)
	}()
	p.copy(client, upstream)
	client.Close()
	upstream.Close()
	<-done
}

// track registers a tunnel's two ends so that Close ends them; it fails
// once the proxy is closed.
func (p *Proxy) track(conns ...net.Conn) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	for _, c := range conns {
		p.tunnels[c] = true
	}
	return true
}

func (p *Proxy) untrack(conns ...net.Conn) {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, c := range conns {
		delete(p.tunnels, c)
	}
}

// copy passes src to dst, counting against MaxBytes; past it, the proxy
// refuses everything and closes every tunnel.
func (p *Proxy) copy(dst io.Writer, src io.Reader) {
	buf := make([]byte, 32<<10)
	for {
		n, err := src.Read(buf)
		if n > 0 {
			total := p.passed.Add(int64(n))
			if p.limits.MaxBytes > 0 && total > p.limits.MaxBytes {
				p.over.Store(true)
				p.mu.Lock()
				for conn := range p.tunnels {
					conn.Close()
				}
				p.mu.Unlock()
				return
			}
			if _, werr := dst.Write(buf[:n]); werr != nil {
				return
			}
			if f, ok := dst.(http.Flusher); ok {
				f.Flush()
			}
		}
		if err != nil {
			return
		}
	}
}
