package digest

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode"

	"github.com/digestd/digestd/archive"
	"golang.org/x/text/unicode/norm"
)

// QueryHash returns the first 8 lowercase hex digits of the sha256 of the
// query after NFC, collapsing white space runs to one space, and trimming.
func QueryHash(query string) string {
	sum := sha256.Sum256([]byte(NormalizeQuery(query)))
	return hex.EncodeToString(sum[:4])
}

// NormalizeQuery returns query in NFC with white space runs collapsed to one
// space and trimmed: the form that QueryHash hashes.
func NormalizeQuery(query string) string {
	return strings.Join(strings.FieldsFunc(norm.NFC.String(query), unicode.IsSpace), " ")
}

// SourceTextHash returns "sha256:<hex>" of text's UTF-8 bytes, the
// canonical text's identity and its key in the archive (archive.Hash spells
// it).
func SourceTextHash(text string) string {
	return archive.SumString(text).String()
}
