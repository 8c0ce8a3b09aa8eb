package ocr

// Internals for the external tests (ocr_test imports ocrtest, which
// imports this package).
var (
	ParseTSV       = parseTSV
	PageDPI        = renderDPI
	ParsePDFInfo   = parsePDFInfo
	ParseLanguages = parseLanguages
	GreyMap        = pgm
)
