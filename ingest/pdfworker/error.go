package pdfworker

import (
	"time"

	"github.com/digestd/digestd/fault"
)

// Error codes of a failed extraction: the fault codes a PDF can fail with.
const (
	CodeUnreadable    = fault.PDFUnreadable     // damaged file, parser crash, out of memory, killed by a signal
	CodeTimeout       = fault.PDFTimeout        // the worker passed its wall-clock deadline
	CodeEncrypted     = fault.PDFEncrypted      // password protected
	CodeNoText        = fault.NoExtractableText // no text layer, or glyphs that map to no characters
	CodeInvalidFormat = fault.InvalidFormat     // not a PDF at all
	CodeTooLarge      = fault.TooLarge          // input, pages, characters or decompressed data over a cap
	CodeUnavailable   = fault.Unavailable       // every worker busy for the whole queue wait
	// CodeFeatureDisabled: OCR was asked of a pool without an engine.
	CodeFeatureDisabled = fault.FeatureDisabled
)

// Error codes a document conversion fails with, besides CodeTooLarge and
// CodeUnavailable.
const (
	CodeDocumentUnreadable = fault.DocumentUnreadable     // damaged, truncated, crashed, killed or too slow
	CodeDocumentEncrypted  = fault.DocumentEncrypted      // password protected
	CodeUnsupported        = fault.UnsupportedContentType // a format inside the container digestd does not read
)

// Error is a typed extraction failure. Msg is safe to show to clients: it
// never holds document content, paths or worker output.
type Error struct {
	Code fault.Code `json:"code"`
	Msg  string     `json:"msg"`
	// RetryAfter hints when to try again (set with CodeUnavailable).
	RetryAfter time.Duration `json:"-"`
}

// Error returns "CODE: message".
func (e *Error) Error() string { return string(e.Code) + ": " + e.Msg }

// Is reports whether target is an *Error with the same Code, so that
// errors.Is(err, ErrBusy) holds for any busy error.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// ErrBusy is returned (as a copy with RetryAfter set) when every worker
// stayed busy for the pool's whole queue wait.
var ErrBusy = &Error{Code: CodeUnavailable, Msg: "all PDF workers are busy"}
