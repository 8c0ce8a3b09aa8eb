package fetch

import (
	"fmt"
	"net/netip"
	"net/url"
	"strconv"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/idna"
)

// MaxURLLength is the longest URL, in bytes, that Fetch and ValidateURL
// accept.
const MaxURLLength = 8192

// ValidateURL parses rawURL and applies the checks Fetch makes before any
// network activity, with no test allowances: scheme http or https, no
// userinfo, a host, a port in 1..65535, no non-canonical numeric IPv4 host
// forms (2130706433, 0x7f.1, 0177.0.0.1, a trailing dot after an IPv4
// address), no "localhost" names, and no literal IP in a denied range. It
// returns a *Error with CodeInvalidURL or CodeBlocked. Passing it does not
// make a URL safe to fetch: names are checked only after resolution, at
// connect time, by Fetch.
func ValidateURL(rawURL string) (*url.URL, error) {
	return newGuard(nil).checkURL(rawURL)
}

// checkURL is ValidateURL under g's allowances.
func (g *guard) checkURL(rawURL string) (*url.URL, error) {
	if len(rawURL) > MaxURLLength {
		return nil, newError(CodeInvalidURL, "URL too long", nil)
	}
	u, err := url.Parse(rawURL)
	if err != nil {
		return nil, newError(CodeInvalidURL, "URL does not parse", err)
	}
	if u.Scheme != "http" && u.Scheme != "https" {
		return nil, newError(CodeInvalidURL, "scheme must be http or https", nil)
	}
	if u.Opaque != "" {
		return nil, newError(CodeInvalidURL, "URL must be absolute with a host", nil)
	}
	if u.User != nil {
		return nil, newError(CodeInvalidURL, "URL must not contain userinfo", nil)
	}
	port, err := urlPort(u)
	if err != nil {
		return nil, err
	}
	host := u.Hostname()
	if host == "" {
		return nil, newError(CodeInvalidURL, "URL has no host", nil)
	}
	if !utf8.ValidString(host) {
		return nil, newError(CodeInvalidURL, "host is not valid UTF-8", nil)
	}
	if strings.Contains(host, "%") {
		// An IPv6 zone (or a stray escape) names a local interface.
		return nil, newError(CodeInvalidURL, "host must not carry a zone", nil)
	}
	if strings.HasPrefix(u.Host, "[") {
		addr, err := netip.ParseAddr(host)
		if err != nil || !addr.Is6() {
			return nil, newError(CodeInvalidURL, "bad IPv6 host", err)
		}
		if err := g.checkAddrPort(netip.AddrPortFrom(addr, port)); err != nil {
			return nil, err
		}
		return u, nil
	}

	// net/http dials the IDNA (UTS #46) ASCII form of a non-ASCII host, in
	// which fullwidth letters, digits and dots become ASCII ones; check that
	// form. ASCII hosts are used as they are, as net/http does.
	name, err := asciiHost(host)
	if err != nil {
		return nil, err
	}
	if name == "localhost" || strings.HasSuffix(name, ".localhost") ||
		name == "localhost." || strings.HasSuffix(name, ".localhost.") {
		return nil, newError(CodeBlocked, "destination not allowed", fmt.Errorf("loopback name"))
	}
	if !endsInNumber(name) {
		return u, nil
	}
	// The WHATWG URL standard (and browsers, and C resolvers) read a host
	// whose last label is numeric as an IPv4 address in decimal, octal or
	// hex parts. Go's resolver would instead send it to DNS, so such hosts
	// never reach resolution here: they are decoded, checked, and accepted
	// only in canonical dotted-decimal form.
	addr, ok := parseWHATWGIPv4(name)
	if !ok {
		return nil, newError(CodeInvalidURL, "bad IPv4 host", nil)
	}
	if err := g.checkAddrPort(netip.AddrPortFrom(addr, port)); err != nil {
		return nil, err
	}
	if name != addr.String() {
		return nil, newError(CodeInvalidURL, "IPv4 host must be in dotted-decimal form", nil)
	}
	return u, nil
}

// asciiHost returns host lowercased, converted to its IDNA ASCII form when
// it has any non-ASCII byte.
func asciiHost(host string) (string, error) {
	for i := 0; i < len(host); i++ {
		if host[i] >= 0x80 {
			a, err := idna.Lookup.ToASCII(host)
			if err != nil {
				return "", newError(CodeInvalidURL, "bad host name", err)
			}
			return strings.ToLower(a), nil
		}
	}
	return strings.ToLower(host), nil
}

// urlPort returns u's explicit port, or the scheme's default.
func urlPort(u *url.URL) (uint16, error) {
	p := u.Port()
	if p == "" {
		if u.Scheme == "https" {
			return 443, nil
		}
		return 80, nil
	}
	n, err := strconv.ParseUint(p, 10, 16)
	if err != nil || n == 0 {
		return 0, newError(CodeInvalidURL, "bad port", err)
	}
	return uint16(n), nil
}

// endsInNumber implements the WHATWG "ends in a number" test: whether the
// last label (ignoring one trailing dot) is all digits or a 0x hex number.
func endsInNumber(host string) bool {
	labels := strings.Split(host, ".")
	if labels[len(labels)-1] == "" {
		if len(labels) == 1 {
			return false
		}
		labels = labels[:len(labels)-1]
	}
	last := labels[len(labels)-1]
	if last != "" && strings.Trim(last, "0123456789") == "" {
		return true
	}
	_, ok := parseIPv4Number(last)
	return ok
}

// parseWHATWGIPv4 decodes a host of one to four dot-separated numbers
// (decimal, 0-prefixed octal, 0x-prefixed hex; the last fills the remaining
// bytes), as the WHATWG IPv4 parser does.
func parseWHATWGIPv4(host string) (netip.Addr, bool) {
	parts := strings.Split(host, ".")
	if parts[len(parts)-1] == "" && len(parts) > 1 {
		parts = parts[:len(parts)-1]
	}
	if len(parts) > 4 {
		return netip.Addr{}, false
	}
	nums := make([]uint64, len(parts))
	for i, p := range parts {
		n, ok := parseIPv4Number(p)
		if !ok {
			return netip.Addr{}, false
		}
		nums[i] = n
	}
	var v uint64
	for i, n := range nums[:len(nums)-1] {
		if n > 255 {
			return netip.Addr{}, false
		}
		v |= n << (8 * (3 - i))
	}
	last := nums[len(nums)-1]
	if last >= 1<<(8*(5-len(nums))) {
		return netip.Addr{}, false
	}
	v |= last
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}), true
}

// parseIPv4Number parses one WHATWG IPv4 part; "0x" alone is zero.
func parseIPv4Number(s string) (uint64, bool) {
	if s == "" {
		return 0, false
	}
	base := 10
	switch {
	case len(s) >= 2 && (s[:2] == "0x" || s[:2] == "0X"):
		base, s = 16, s[2:]
	case len(s) >= 2 && s[0] == '0':
		base, s = 8, s[1:]
	}
	if s == "" {
		return 0, true
	}
	// ParseUint with an explicit base accepts no sign, prefix or underscore.
	n, err := strconv.ParseUint(s, base, 64)
	if err != nil {
		return 0, false
	}
	return n, true
}
