package wire

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"

	"github.com/digestd/digestd/fault"
)

// ListingSources names the listing of archived sources (GET /v1/sources and
// the MCP tool list_sources share its cursors).
const ListingSources = "sources"

// MaxCursorChars bounds a cursor a client sends back.
const MaxCursorChars = 1024

// cursor is the opaque position of a listing page. It is versioned, names
// the listing that issued it, and is signed so that a tampered or foreign
// cursor is refused.
type cursor struct {
	V       int    `json:"v"`
	Listing string `json:"l"`
	After   string `json:"a"`
}

const cursorVersion = 1

// Cursors signs and checks listing cursors: one format for the HTTP API and
// the MCP tools, so a cursor from either continues the listing in the other
// when both share a key.
type Cursors struct {
	key []byte
}

// NewCursors returns a signer with key; an empty key is replaced by a random
// one (cursors then hold for this process only).
func NewCursors(key []byte) *Cursors {
	if len(key) == 0 {
		key = make([]byte, 32)
		rand.Read(key)
	}
	return &Cursors{key: key}
}

// Encode returns the cursor of the page after position after of listing.
func (c *Cursors) Encode(listing, after string) string {
	b, _ := json.Marshal(cursor{V: cursorVersion, Listing: listing, After: after})
	mac := hmac.New(sha256.New, c.key)
	mac.Write(b)
	return base64.RawURLEncoding.EncodeToString(append(mac.Sum(nil)[:16], b...))
}

// Decode returns the position a cursor of listing names; a tampered,
// forged, foreign or stale cursor is INVALID_CURSOR.
func (c *Cursors) Decode(listing, raw string) (string, error) {
	bad := fault.E(fault.InvalidCursor, "cursor: not a cursor this listing issued").With("field", "cursor")
	if len(raw) > MaxCursorChars {
		return "", bad
	}
	b, err := base64.RawURLEncoding.Strict().DecodeString(raw)
	if err != nil || len(b) <= 16 {
		return "", bad
	}
	mac := hmac.New(sha256.New, c.key)
	mac.Write(b[16:])
	if !hmac.Equal(mac.Sum(nil)[:16], b[:16]) {
		return "", bad
	}
	var cur cursor
	if err := json.Unmarshal(b[16:], &cur); err != nil || cur.V != cursorVersion || cur.Listing != listing {
		return "", bad
	}
	return cur.After, nil
}
