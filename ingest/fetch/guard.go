package fetch

import (
	"fmt"
	"net/netip"
	"strings"
	"syscall"

	"code.dny.dev/ssrf"
)

// guard decides which socket addresses an outbound fetch may connect to. It
// is consulted twice: on the literal host of every URL (first request and
// each redirect) before any resolution, and on every resolved address at
// connect time through net.Dialer.Control, which is the check that holds
// against DNS names pointing at internal addresses and DNS rebinding.
type guard struct {
	policy *ssrf.Guardian
	// allowed holds exact loopback host:port pairs let through for tests.
	allowed map[netip.AddrPort]bool
}

// newGuard returns a guard that denies every special-purpose address (see
// ssrf.IPv4DeniedPrefixes; for IPv6 everything outside 2000::/3, which
// covers ::1, ::, fe80::/10, fc00::/7, multicast, IPv4-mapped ::ffff:0:0/96
// and NAT64 64:ff9b::/96, plus documentation, Teredo and 6to4 prefixes
// inside it). Any port is allowed: the threat is the address, and public
// sites do serve on ports other than 80 and 443.
//
// allowLoopback entries are "127.0.0.1:port" or "[::1]:port" style literals;
// an entry that does not parse as an IP:port with a loopback IP is ignored,
// so a mistaken entry can only make the guard stricter.
func newGuard(allowLoopback []string) *guard {
	g := &guard{
		policy:  ssrf.New(ssrf.WithAnyPort()),
		allowed: make(map[netip.AddrPort]bool, len(allowLoopback)),
	}
	for _, s := range allowLoopback {
		if ap, err := loopbackAddrPort(s); err == nil {
			g.allowed[ap] = true
		}
	}
	return g
}

// ParseAllowLoopback reads a comma-separated list of exact loopback
// addresses ("127.0.0.1:8081,[::1]:9000") for Config.AllowLoopback. It
// refuses, naming the entry, anything else: a host name, a non-loopback
// IP, a missing or zero port, a zone, a range. An empty list is none.
func ParseAllowLoopback(list string) ([]string, error) {
	var out []string
	for _, s := range strings.Split(list, ",") {
		s = strings.TrimSpace(s)
		if s == "" {
			continue
		}
		ap, err := loopbackAddrPort(s)
		if err != nil {
			return nil, err
		}
		out = append(out, ap.String())
	}
	return out, nil
}

// loopbackAddrPort parses one exact loopback IP:port literal.
func loopbackAddrPort(s string) (netip.AddrPort, error) {
	ap, err := netip.ParseAddrPort(s)
	switch {
	case err != nil:
		return ap, fmt.Errorf("%q is not an IP:port pair (want e.g. 127.0.0.1:8081)", s)
	case !ap.Addr().IsLoopback():
		return ap, fmt.Errorf("%q is not a loopback address (only 127.0.0.0/8 and ::1 may be allowed)", s)
	case ap.Addr().Zone() != "" || ap.Port() == 0 || ap.Addr().Is4In6():
		return ap, fmt.Errorf("%q needs a port, no zone and a plain IPv4 or IPv6 address", s)
	}
	return ap, nil
}

// checkAddrPort reports a *Error with CodeBlocked when ap may not be dialed.
func (g *guard) checkAddrPort(ap netip.AddrPort) error {
	if g.allowed[ap] {
		return nil
	}
	if !ap.Addr().IsValid() {
		return newError(CodeBlocked, "destination not allowed", fmt.Errorf("invalid address"))
	}
	if err := g.policy.SafeAddr(ap.Addr()); err != nil {
		return newError(CodeBlocked, "destination not allowed", err)
	}
	return nil
}

// control is the net.Dialer.Control hook: it runs after DNS resolution and
// socket creation but before connect, for every address the dialer tries.
func (g *guard) control(network, address string, _ syscall.RawConn) error {
	if network != "tcp4" && network != "tcp6" {
		return newError(CodeBlocked, "destination not allowed", fmt.Errorf("network %q not permitted", network))
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return newError(CodeBlocked, "destination not allowed", fmt.Errorf("parse dial address: %w", err))
	}
	return g.checkAddrPort(ap)
}
