package ingest

import "unicode/utf8"

// Caps on a record's metadata, in bytes: a page or a PDF names its own
// title, author and URLs, and a hostile one could make its record larger
// than the read cap on records (and so unreadable by hash).
const (
	MaxMetadataBytes = 2048
	MaxURLBytes      = 8192
)

// capMetadata cuts every metadata field of rec to its cap, at a code point
// boundary.
func (rec *Record) capMetadata() {
	for _, f := range []*string{&rec.Title, &rec.Author, &rec.Published, &rec.DeclaredLanguage, &rec.SiteName, &rec.Charset, &rec.ContentType} {
		*f = cut(*f, MaxMetadataBytes)
	}
	for _, f := range []*string{&rec.RequestedURL, &rec.FinalURL, &rec.CanonicalURL} {
		*f = cut(*f, MaxURLBytes)
	}
}

// cut returns the longest prefix of s of at most n bytes that ends on a
// code point boundary.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
