package wire

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
)

// TestCursors: a cursor decodes to its position only in the listing that
// issued it, under the key that signed it; every other string, including a
// well-formed cursor with a wrong signature, is INVALID_CURSOR.
func TestCursors(t *testing.T) {
	key := []byte("the key replicas share")
	c := NewCursors(key)
	good := c.Encode(ListingSources, "2026-11-28/0042")
	if after, err := c.Decode(ListingSources, good); err != nil || after != "2026-11-28/0042" {
		t.Fatalf("round trip: %q, %v", after, err)
	}
	if after, err := NewCursors(key).Decode(ListingSources, good); err != nil || after != "2026-11-28/0042" {
		t.Errorf("another signer with the same key: %q, %v", after, err)
	}

	body := func(v int, listing, after string) []byte {
		b, _ := json.Marshal(cursor{V: v, Listing: listing, After: after})
		return b
	}
	sign := func(k, b []byte) []byte {
		mac := hmac.New(sha256.New, k)
		mac.Write(b)
		return mac.Sum(nil)[:16]
	}
	enc := func(parts ...[]byte) string {
		var all []byte
		for _, p := range parts {
			all = append(all, p...)
		}
		return base64.RawURLEncoding.EncodeToString(all)
	}
	raw, _ := base64.RawURLEncoding.DecodeString(good)
	tampered := append([]byte(nil), raw...)
	tampered[len(tampered)-3] ^= 1 // a byte of the position
	payload := body(cursorVersion, ListingSources, "9999-12-31/0000")
	for _, tc := range []struct{ name, cursor string }{
		{"signed with another key", NewCursors([]byte("another key")).Encode(ListingSources, "x")},
		{"a random key's", NewCursors(nil).Encode(ListingSources, "x")},
		{"another listing's", c.Encode("digests", "x")},
		{"tampered position", base64.RawURLEncoding.EncodeToString(tampered)},
		{"forged: zero signature over a valid body", enc(make([]byte, 16), payload)},
		{"forged: a real cursor's signature over another body", enc(raw[:16], payload)},
		{"forged: signed without the key", enc(sign(nil, payload), payload)},
		{"signature only", enc(raw[:16])},
		{"body without signature", enc(payload)},
		{"another version, well signed", enc(sign(key, body(cursorVersion+1, ListingSources, "x")), body(cursorVersion+1, ListingSources, "x"))},
		{"not JSON, well signed", enc(sign(key, []byte("not json")), []byte("not json"))},
		{"padded base64", good + "=="},
		{"standard base64 alphabet", strings.NewReplacer("-", "+", "_", "/").Replace(good) + "+"},
		{"over MaxCursorChars", good + strings.Repeat("A", MaxCursorChars)},
		{"empty", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			after, err := c.Decode(ListingSources, tc.cursor)
			if fault.CodeOf(err) != fault.InvalidCursor || after != "" {
				t.Errorf("decoded to %q, %v; want INVALID_CURSOR", after, err)
			}
		})
	}
}
