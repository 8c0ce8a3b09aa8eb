package pdftext

import (
	"math"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/structure"
)

// Heading parameters. A heading is a block of one short paragraph whose
// every line is set clearly larger than the document's body text; the
// larger its size, the higher its level. Bold at body size is not read as
// a heading: the layout does not know a glyph's weight.
const (
	headingRatio    = 1.15 // a heading's smallest line is at least this many body sizes
	headingMaxLines = 3    // blocks of more lines are body text
	headingMaxRunes = 150  // longer paragraphs are body text
	headingMinAlpha = 2    // a heading has at least this many letters
	headingSizeStep = 0.5  // sizes (user space units) within one step share a level
	bodySizeStep    = 0.1  // sizes are counted in steps of this to find the body size
)

// bodySize is the document's body text size: the font size that sets the
// most characters, 0 for a document without text.
func bodySize(pages []pageLayout) float64 {
	count := map[float64]int{}
	for _, pl := range pages {
		for _, b := range pl.blocks {
			for _, l := range b.lines {
				count[math.Round(l.size/bodySizeStep)] += utf8.RuneCountInString(l.text)
			}
		}
	}
	var best float64
	most := 0
	for s, n := range count {
		if n > most || n == most && s < best {
			best, most = s, n
		}
	}
	return best * bodySizeStep
}

// headingSize is b's heading size: the size of its smallest line when b
// is a heading of a document whose body size is body, else 0.
func headingSize(b *block, body float64) float64 {
	if body <= 0 || len(b.paras) != 1 || len(b.lines) > headingMaxLines {
		return 0
	}
	text := strings.TrimSpace(b.paras[0])
	if utf8.RuneCountInString(text) > headingMaxRunes {
		return 0
	}
	alpha := 0
	for _, r := range text {
		if unicode.IsLetter(r) {
			alpha++
		}
	}
	if alpha < headingMinAlpha {
		return 0
	}
	size := math.Inf(1)
	for _, l := range b.lines {
		size = math.Min(size, l.size)
	}
	if size < headingRatio*body {
		return 0
	}
	return size
}

// headingLevels maps each heading size in sizes (0 for none) to its
// level: the distinct sizes, in steps of headingSizeStep, largest first,
// are levels 1, 2, …, the smallest ones sharing the deepest level.
func headingLevels(sizes [][]float64) [][]int {
	var distinct []float64
	for _, page := range sizes {
		for _, s := range page {
			if s > 0 {
				distinct = append(distinct, math.Round(s/headingSizeStep))
			}
		}
	}
	slices.Sort(distinct)
	distinct = slices.Compact(distinct)
	slices.Reverse(distinct)
	levels := make([][]int, len(sizes))
	for i, page := range sizes {
		levels[i] = make([]int, len(page))
		for j, s := range page {
			if s > 0 {
				k := slices.Index(distinct, math.Round(s/headingSizeStep))
				levels[i][j] = min(k+1, structure.MaxHeadingLevel)
			}
		}
	}
	return levels
}

// headingSpans returns the heading spans of pages, each page's paragraphs
// joined by "\n" and the pages by the page separator (Result.Spans), in
// byte offsets of that text; levels holds each paragraph's level, 0 for a
// paragraph that is no heading.
func headingSpans(pages [][]string, levels [][]int) []structure.Span {
	var spans []structure.Span
	at := 0
	for i, paras := range pages {
		if i > 0 {
			at += utf8.RuneLen(normalize.PageSeparator)
		}
		for j, p := range paras {
			if j > 0 {
				at++
			}
			if levels[i][j] > 0 {
				spans = append(spans, structure.Span{Kind: structure.Heading, Start: at, End: at + len(p), Level: levels[i][j]})
			}
			at += len(p)
		}
	}
	return spans
}
