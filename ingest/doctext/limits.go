package doctext

import "fmt"

// Cap names a cap of a conversion that a document can reach (see
// LimitError).
type Cap string

// The caps of a conversion, the fields of Limits and the fixed bounds of
// an EPUB's chapters.
const (
	// CapEntries: MaxEntries, the entries of a container.
	CapEntries Cap = "entries"
	// CapUnpackedBytes: MaxUnpackedBytes, the bytes decompressed.
	CapUnpackedBytes Cap = "unpacked_bytes"
	// CapXMLDepth: MaxXMLDepth, the nesting of XML elements.
	CapXMLDepth Cap = "xml_depth"
	// CapXMLTokens: MaxXMLTokens, the XML tokens read.
	CapXMLTokens Cap = "xml_tokens"
	// CapBareMarkup: MaxBareMarkup, the XML tokens read beyond what the
	// document's text allows (see MarkupTokensPerTextByte).
	CapBareMarkup Cap = "bare_markup_tokens"
	// CapText: MaxChars, the text produced.
	CapText Cap = "text"
	// CapChapterBytes and CapChapterNodes: an EPUB chapter's bytes and
	// elements, the bounds of the HTML extractor (htmltext.MaxInputBytes,
	// htmltext.DefaultMaxNodes).
	CapChapterBytes Cap = "chapter_bytes"
	CapChapterNodes Cap = "chapter_nodes"
)

// capUnits says what each cap counts, for messages.
var capUnits = map[Cap]string{
	CapEntries:       "entries in its container",
	CapUnpackedBytes: "bytes unpacked",
	CapXMLDepth:      "levels of XML nesting",
	CapXMLTokens:     "XML tokens",
	CapBareMarkup:    "XML tokens of markup beyond its text's allowance",
	CapText:          "bytes of text",
	CapChapterBytes:  "bytes in one chapter",
	CapChapterNodes:  "elements and text runs in one chapter",
}

// A LimitError says which cap a conversion reached and the cap's value.
// It is ErrTooLarge (errors.Is holds), and its message is safe to show
// to clients.
type LimitError struct {
	Cap   Cap
	Limit int64
}

func (e *LimitError) Error() string {
	return fmt.Sprintf("the document has more than %d %s", e.Limit, capUnits[e.Cap])
}

// Is reports whether target is ErrTooLarge.
func (e *LimitError) Is(target error) bool { return target == ErrTooLarge }

// limitErr returns the error of cap c of value limit.
func limitErr[T int | int64](c Cap, limit T) error { return &LimitError{Cap: c, Limit: int64(limit)} }
