package ocr

import (
	"slices"
	"strings"
	"unicode"
)

// The second reading of a page, of the ink Tesseract's first left unread.
const (
	// residuePad is the white painted around each word read, in pixels at
	// 300 dpi, so that the soft edges of its letters are not left as ink.
	residuePad = 4
	// residueMinInk is the least ink, in pixels sampled as the skew's
	// estimate samples them at 300 dpi, left outside the words read that
	// is worth a second reading: a few letters of small type.
	residueMinInk = 200
	// residueConf is the least mean confidence, in Tesseract's 0 to 100,
	// of a line of the second reading that is kept: what is left is as
	// often a picture's edge or a rule as it is text.
	residueConf = 70
)

// residue returns a copy of g with the boxes of words painted white, or
// nil when less than residueMinInk of ink is left outside them.
func (g *grey) residue(words []word, dpi int) *grey {
	if len(words) == 0 {
		return nil
	}
	out := &grey{w: g.w, h: g.h, pix: slices.Clone(g.pix)}
	pad := max(1, residuePad*dpi/300)
	for _, w := range words {
		x0, x1 := max(0, w.left-pad), min(g.w, w.left+w.width+pad)
		for y := max(0, w.top-pad); y < min(g.h, w.top+w.height+pad); y++ {
			if x0 < x1 {
				clear255(out.pix[y*g.w+x0 : y*g.w+x1])
			}
		}
	}
	ink := 0
	for y := 0; y < g.h; y += skewSample {
		row := out.pix[y*g.w : (y+1)*g.w]
		for x := 0; x < g.w; x += skewSample {
			if row[x] < skewInk {
				ink++
			}
		}
	}
	if ink*300*300 < residueMinInk*dpi*dpi {
		return nil
	}
	return out
}

// clear255 paints pixels white.
func clear255(pix []byte) {
	for i := range pix {
		pix[i] = 255
	}
}

// sureLines returns the words of the lines whose mean confidence is at
// least residueConf and that hold a letter or a digit.
func sureLines(words []word) []word {
	var out []word
	for start := 0; start < len(words); {
		end := start + 1
		for end < len(words) && sameLine(words[end], words[start]) {
			end++
		}
		line := words[start:end]
		var sum float64
		text := false
		for _, w := range line {
			sum += w.conf
			text = text || strings.IndexFunc(w.text, func(r rune) bool { return unicode.IsLetter(r) || unicode.IsDigit(r) }) >= 0
		}
		if text && sum >= residueConf*float64(len(line)) {
			out = append(out, line...)
		}
		start = end
	}
	return out
}

func sameLine(a, b word) bool { return a.block == b.block && a.par == b.par && a.line == b.line }

// merge places the blocks of a second reading among those of the first,
// each before the first block of the first reading that starts below it;
// their numbers are made distinct from the first reading's.
func merge(words, more []word) []word {
	if len(more) == 0 {
		return words
	}
	base := 0
	for _, w := range words {
		base = max(base, w.block)
	}
	first, second := blocks(words), blocks(more)
	for _, b := range second {
		for i := range b.words {
			b.words[i].block += base
		}
	}
	slices.SortStableFunc(second, func(a, b block) int { return a.top - b.top })
	out := make([]word, 0, len(words)+len(more))
	j := 0
	for _, b := range first {
		for ; j < len(second) && second[j].top < b.top; j++ {
			out = append(out, second[j].words...)
		}
		out = append(out, b.words...)
	}
	for ; j < len(second); j++ {
		out = append(out, second[j].words...)
	}
	return out
}

// block is a run of words of one block and the top of its highest word.
type block struct {
	top   int
	words []word
}

// blocks splits words into their runs of one block.
func blocks(words []word) []block {
	var out []block
	for i, w := range words {
		if i == 0 || w.block != words[i-1].block {
			out = append(out, block{top: w.top})
		}
		b := &out[len(out)-1]
		b.top = min(b.top, w.top)
		b.words = append(b.words, w)
	}
	return out
}
