package ocr

import (
	"image"
	"slices"
	"strings"
	"unicode"
)

// The second reading of a page, of the ink Tesseract's first left unread.
const (
	// residuePad is the white painted around each word read, in pixels at
	// 300 dpi, so that the soft edges of its letters are not left as ink.
	residuePad = 4
	// residueMinGlyphs is the fewest marks of a letter's size left
	// outside the words read that are worth a second reading.
	residueMinGlyphs = 3
	// glyphMin and glyphMax bound the height of a mark of a letter's size,
	// in pixels at 300 dpi (from a small letter of 6-point type to a
	// capital of 48-point); specks, rules and pictures are not.
	glyphMin = 10
	glyphMax = 200
	// residueConf is the least mean confidence, in Tesseract's 0 to 100,
	// of a line of the second reading that is kept: what is left is as
	// often a picture's edge or a rule as it is text.
	residueConf = 70
)

// residue returns the part of g that holds ink of letters' size left
// outside the boxes of words, those boxes painted white, and where that
// part lies in g; nil when there are fewer than residueMinGlyphs such
// marks.
func (g *grey) residue(words []word, dpi int) (*grey, image.Point) {
	if len(words) == 0 {
		return nil, image.Point{}
	}
	rest := slices.Clone(g.pix)
	pad := max(1, residuePad*dpi/300)
	for _, w := range words {
		x0, x1 := max(0, w.left-pad), min(g.w, w.left+w.width+pad)
		for y := max(0, w.top-pad); y < min(g.h, w.top+w.height+pad); y++ {
			if x0 < x1 {
				paintWhite(rest[y*g.w+x0 : y*g.w+x1])
			}
		}
	}
	marks := glyphs(&grey{w: g.w, h: g.h, pix: rest}, glyphMin*dpi/300, glyphMax*dpi/300)
	if len(marks) < residueMinGlyphs {
		return nil, image.Point{}
	}
	box := marks[0]
	for _, m := range marks[1:] {
		box = box.Union(m)
	}
	// A margin of the tallest mark's height, for Tesseract's layout.
	margin := 0
	for _, m := range marks {
		margin = max(margin, m.Dy())
	}
	box = box.Inset(-margin).Intersect(image.Rect(0, 0, g.w, g.h))
	out := &grey{w: box.Dx(), h: box.Dy(), pix: make([]byte, 0, box.Dx()*box.Dy())}
	for y := box.Min.Y; y < box.Max.Y; y++ {
		out.pix = append(out.pix, rest[y*g.w+box.Min.X:y*g.w+box.Max.X]...)
	}
	return out, box.Min
}

// paintWhite paints pixels white.
func paintWhite(pix []byte) {
	for i := range pix {
		pix[i] = 255
	}
}

// glyphs returns the boxes, in pixels, of the marks of g (its ink, sampled
// as the skew's estimate samples it, in 8-connected runs) whose height is
// within [lo, hi] and whose width is at most four heights.
func glyphs(g *grey, lo, hi int) []image.Rectangle {
	gw, gh := (g.w+skewSample-1)/skewSample, (g.h+skewSample-1)/skewSample
	ink := make([]bool, gw*gh)
	for y := range gh {
		row := g.pix[y*skewSample*g.w:]
		for x := range gw {
			ink[y*gw+x] = row[x*skewSample] < skewInk
		}
	}
	var out []image.Rectangle
	var stack []int
	for start := range ink {
		if !ink[start] {
			continue
		}
		ink[start] = false
		stack = append(stack[:0], start)
		box := image.Rect(start%gw, start/gw, start%gw+1, start/gw+1)
		for len(stack) > 0 {
			c := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			cx, cy := c%gw, c/gw
			box = box.Union(image.Rect(cx, cy, cx+1, cy+1))
			for dy := -1; dy <= 1; dy++ {
				for dx := -1; dx <= 1; dx++ {
					x, y := cx+dx, cy+dy
					if x >= 0 && y >= 0 && x < gw && y < gh && ink[y*gw+x] {
						ink[y*gw+x] = false
						stack = append(stack, y*gw+x)
					}
				}
			}
		}
		r := image.Rect(box.Min.X*skewSample, box.Min.Y*skewSample, box.Max.X*skewSample, box.Max.Y*skewSample)
		if r.Dy() >= lo && r.Dy() <= hi && r.Dx() <= 4*r.Dy() {
			out = append(out, r)
		}
	}
	return out
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
