package ocr

import "image"

// Internals for the external tests (ocr_test imports ocrtest, which
// imports this package).
var (
	ParseTSV       = parseTSV
	PageDPI        = renderDPI
	ParsePDFInfo   = parsePDFInfo
	ParseLanguages = parseLanguages
	GreyMap        = pgm
)

// Turn turns a grey map by deg degrees, as a skewed scan would be.
func Turn(pgm []byte, deg float64) []byte {
	g, err := parsePGM(pgm)
	if err != nil {
		panic(err)
	}
	return g.rotate(deg).encode()
}

// SkewOf estimates a grey map's skew.
func SkewOf(pgm []byte) float64 {
	g, err := parsePGM(pgm)
	if err != nil {
		panic(err)
	}
	return g.skew()
}

// Deskew returns a grey map straightened, or nil when it lies straight.
func Deskew(pgm []byte) ([]byte, error) {
	g, err := parsePGM(pgm)
	if err != nil {
		return nil, err
	}
	if s := g.straighten(); s != nil {
		return s.encode(), nil
	}
	return nil, nil
}

// Word is a word of a TSV reading, for the tests of a second reading.
type Word = word

// Residue paints the words of a grey map white and returns the part of
// it left for a second reading and where that lies, or nil when there is
// none.
func Residue(pgm []byte, words []Word, dpi int) ([]byte, image.Point) {
	g, err := parsePGM(pgm)
	if err != nil {
		panic(err)
	}
	if r, at := g.residue(words, dpi); r != nil {
		return r.encode(), at
	}
	return nil, image.Point{}
}

// MergeText is the text of a page whose second reading, its sure lines,
// joins the first.
func MergeText(first, second []Word) string { return layout(merge(first, sureLines(second))).Text }

// W makes a word of a reading.
func W(block, par, line, left, top, width, height int, conf float64, text string) Word {
	return word{block: block, par: par, line: line, left: left, top: top, width: width, height: height, conf: conf, text: text}
}
