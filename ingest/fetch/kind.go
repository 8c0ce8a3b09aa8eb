package fetch

import "github.com/digestd/digestd/ingest/format"

// Kinds of fetched content, the values of Response.Kind: these and the
// other kinds of package format (format.Kinds).
const (
	KindHTML = format.HTML
	KindPDF  = format.PDF
	KindText = format.Text
)
