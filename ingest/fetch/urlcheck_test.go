package fetch

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
)

func TestValidateURL(t *testing.T) {
	tests := []struct {
		raw  string
		code fault.Code // "" means accepted
	}{
		{"http://example.com/", ""},
		{"https://example.com:8443/a/b?c=d#e", ""},
		{"HTTP://EXAMPLE.COM/", ""},
		{"http://8.8.8.8/", ""},
		{"http://[2606:4700::6810:84e5]/", ""},
		{"http://xn--bcher-kva.example/", ""},
		{"http://1.example/", ""},
		{"http://example.123abc/", ""},
		{"http://0x.example/", ""},
		{"ftp://example.com/", CodeInvalidURL},
		{"//example.com/", CodeInvalidURL},
		{"http://u:p@example.com/", CodeInvalidURL},
		{"http://:80/", CodeInvalidURL},
		{"http://example.com:99999/", CodeInvalidURL},
		{"http://[::1%25lo]/", CodeInvalidURL},
		{"http://%6c%6f%63%61%6c%68%6f%73%74/", CodeInvalidURL},                         // Go refuses escaped ASCII in hosts
		{"http://\uff4c\uff4f\uff43\uff41\uff4c\uff48\uff4f\uff53\uff54/", CodeBlocked}, // fullwidth localhost
		{"http://\uff11\uff12\uff17\u3002\uff10\u3002\uff10\u3002\uff11/", CodeBlocked}, // fullwidth 127.0.0.1
		{"http://\uff10\uff58\uff17\uff46\uff0e\uff11/", CodeBlocked},                   // fullwidth 0x7f.1
		{"http://b\u00fccher.example/", ""},
		{"http://_dmarc.example.com/", ""},
		{"http://1.2.3/", CodeInvalidURL},
		{"http://8.8.8.8./", CodeInvalidURL},
		{"http://134744072/", CodeInvalidURL},
		{"http://0x08080808/", CodeInvalidURL},
		{"http://4294967296/", CodeInvalidURL},
		{"http://1.2.3.0x/", CodeInvalidURL},
		{"http://09.1.1.1/", CodeInvalidURL},
		{"http://127.0.0.1/", CodeBlocked},
		{"http://2130706433/", CodeBlocked},
		{"http://0x7f.1/", CodeBlocked},
		{"http://0177.0.0.1/", CodeBlocked},
		{"http://0/", CodeBlocked},
		{"http://0x/", CodeBlocked},
		{"http://localhost/", CodeBlocked},
		{"http://[::ffff:127.0.0.1]/", CodeBlocked},
		{"http://[64:ff9b::7f00:1]/", CodeBlocked},
	}
	for _, tt := range tests {
		u, err := ValidateURL(tt.raw)
		if got := CodeOf(err); got != tt.code {
			t.Errorf("ValidateURL(%q) = %v, want code %q", tt.raw, err, tt.code)
		}
		if err == nil && u == nil {
			t.Errorf("ValidateURL(%q) returned a nil URL and no error", tt.raw)
		}
	}
}

func TestParseWHATWGIPv4(t *testing.T) {
	tests := []struct {
		host string
		want string // "" means a parse failure
	}{
		{"127.0.0.1", "127.0.0.1"},
		{"2130706433", "127.0.0.1"},
		{"0x7f000001", "127.0.0.1"},
		{"0x7f.1", "127.0.0.1"},
		{"0177.0.0.1", "127.0.0.1"},
		{"017700000001", "127.0.0.1"},
		{"127.1", "127.0.0.1"},
		{"127.0.1", "127.0.0.1"},
		{"10.0x10.0", "10.16.0.0"},
		{"0", "0.0.0.0"},
		{"0x", "0.0.0.0"},
		{"4294967295", "255.255.255.255"},
		{"1.2.3.4.", "1.2.3.4"},
		{"4294967296", ""},
		{"256.0.0.1", ""},
		{"1.2.3.4.5", ""},
		{"1..2", ""},
		{"08", ""},
		{"0xg", ""},
		{"1.2.65536", ""},
		{"99999999999999999999999", ""},
	}
	for _, tt := range tests {
		addr, ok := parseWHATWGIPv4(tt.host)
		got := ""
		if ok {
			got = addr.String()
		}
		if got != tt.want {
			t.Errorf("parseWHATWGIPv4(%q) = %q, want %q", tt.host, got, tt.want)
		}
	}
}

// FuzzValidateURL checks that ValidateURL never panics, fails only with its
// two codes, and that an accepted URL is http(s), has a host and no
// userinfo, names no denied literal address, uses a numeric host only in
// canonical form, and stays accepted after re-serialization (which is how a
// redirect target is re-checked).
func FuzzValidateURL(f *testing.F) {
	for _, s := range blockedURLs {
		f.Add(strings.ReplaceAll(s, "%d", "8080"))
	}
	for _, s := range []string{
		"http://example.com/", "https://example.com:8443/x?y#z", "http://8.8.8.8./", "http://[::1%25lo]/",
		"http://u@example.com/", "javascript:alert(1)", "http://0x7f.1/", "http://%31%32%37.0.0.1/",
		"http://ex%00ample.com/", "http://[::ffff:8.8.8.8]/", "http:///x", "http://a.b.c.0x10/",
		"http://localhos\xbet.:8080/",
	} {
		f.Add(s)
	}
	guardian := newGuard(nil)
	f.Fuzz(func(t *testing.T, raw string) {
		u, err := ValidateURL(raw)
		if err != nil {
			if c := CodeOf(err); c != CodeInvalidURL && c != CodeBlocked {
				t.Fatalf("ValidateURL(%q) error code %q", raw, c)
			}
			return
		}
		if u.Scheme != "http" && u.Scheme != "https" {
			t.Fatalf("accepted scheme %q", u.Scheme)
		}
		if u.User != nil || u.Hostname() == "" || len(raw) > MaxURLLength {
			t.Fatalf("accepted %q (user %v, host %q)", raw, u.User, u.Hostname())
		}
		host, err := asciiHost(u.Hostname())
		if err != nil {
			t.Fatalf("accepted host %q with no ASCII form: %v", u.Hostname(), err)
		}
		if strings.TrimSuffix(host, ".") == "localhost" || strings.HasSuffix(strings.TrimSuffix(host, "."), ".localhost") {
			t.Fatalf("accepted localhost name %q", host)
		}
		if addr, err := netip.ParseAddr(host); err == nil {
			if err := guardian.policy.SafeAddr(addr); err != nil {
				t.Fatalf("accepted denied literal %s: %v", addr, err)
			}
		}
		if endsInNumber(host) {
			addr, err := netip.ParseAddr(host)
			if err != nil || addr.String() != host {
				t.Fatalf("accepted non-canonical numeric host %q", host)
			}
		}
		// Re-serialization percent-encodes raw non-ASCII bytes and may grow
		// past the length cap; below it, it must pass again.
		if _, err := ValidateURL(u.String()); err != nil && len(u.String()) <= MaxURLLength {
			t.Fatalf("accepted %q but not its re-serialization %q: %v", raw, u.String(), err)
		}
	})
}

func TestParseAllowLoopback(t *testing.T) {
	tests := []struct {
		list string
		want string // the accepted entries joined by ","; "error" when refused
	}{
		{"", ""},
		{"127.0.0.1:8081", "127.0.0.1:8081"},
		{" 127.0.0.1:8081 , [::1]:9000 ", "127.0.0.1:8081,[::1]:9000"},
		{"127.0.0.2:80", "127.0.0.2:80"},
		{"localhost:8081", "error"},
		{"127.0.0.1", "error"},
		{"127.0.0.1:0", "error"},
		{"10.0.0.1:80", "error"},
		{"169.254.169.254:80", "error"},
		{"0.0.0.0:80", "error"},
		{"[::ffff:127.0.0.1]:80", "error"},
		{"[fe80::1%lo]:80", "error"},
		{"127.0.0.1:80,192.168.1.1:80", "error"},
		{"127.0.0.0/8:80", "error"},
		{"127.0.0.1:*", "error"},
	}
	for _, tt := range tests {
		got, err := ParseAllowLoopback(tt.list)
		s := strings.Join(got, ",")
		if err != nil {
			s = "error"
			if !strings.Contains(err.Error(), "\"") {
				t.Errorf("ParseAllowLoopback(%q): error %q does not name the entry", tt.list, err)
			}
		}
		if s != tt.want {
			t.Errorf("ParseAllowLoopback(%q) = %q (%v), want %q", tt.list, s, err, tt.want)
		}
	}
}
