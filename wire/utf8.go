package wire

import (
	"fmt"
	"unicode/utf8"

	"github.com/digestd/digestd/fault"
)

// CheckUTF8 is the one rule for JSON that carries a source's text, on every
// entry point (the HTTP API's JSON bodies, MCP tool arguments, batch
// manifest lines): its bytes must be UTF-8, as a raw text/plain body must
// be. A JSON decoder would otherwise turn each bad byte into U+FFFD, which
// canonicalization drops, and digest a text the client never sent. The
// error is INVALID_FORMAT naming the offset of the first bad byte.
func CheckUTF8(b []byte) error {
	if utf8.Valid(b) {
		return nil
	}
	off := 0
	for off < len(b) {
		r, n := utf8.DecodeRune(b[off:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		off += n
	}
	return fault.E(fault.InvalidFormat, fmt.Sprintf("the JSON is not valid UTF-8 (at byte %d): text must be sent as UTF-8", off)).With("byte_offset", off)
}
