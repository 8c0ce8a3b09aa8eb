package ocr

import (
	"bytes"
	"fmt"
	"math"
	"strconv"
)

// Skew a scanner gives a page, undone before Tesseract reads it: its layout
// analysis takes the lines of a page turned by a degree or two, noisy and
// blurred, for pictures and drops them.
const (
	// MaxSkew is the largest turn looked for, in degrees either way.
	MaxSkew = 3.0
	// skewStep is the resolution of the search, in degrees.
	skewStep = 0.1
	// MinSkew is the smallest turn undone: Tesseract's own layout
	// analysis follows lines turned by less, and the resampling of a turn
	// softens the letters of a blurred page more than such a skew costs.
	MinSkew = 1.0
	// skewSample takes every skewSample-th pixel of every skewSample-th
	// row into the estimate.
	skewSample = 2
	// skewInk is the grey under which a pixel counts as ink.
	skewInk = 128
	// skewMinInk is the fewest sampled ink pixels worth an estimate.
	skewMinInk = 500
)

// grey is an 8-bit grey map, one byte a pixel, rows stored without gaps.
type grey struct {
	w, h int
	pix  []byte
}

// parsePGM reads a binary grey map (P5) of 8-bit samples.
func parsePGM(b []byte) (*grey, error) {
	var fields [4]string
	rest := b
	for i := range fields {
		rest = bytes.TrimLeft(rest, " \t\r\n")
		end := bytes.IndexAny(rest, " \t\r\n")
		if end < 0 {
			return nil, fmt.Errorf("%w: a grey map's header cut short", ErrUnreadable)
		}
		fields[i], rest = string(rest[:end]), rest[end+1:]
	}
	w, err1 := strconv.Atoi(fields[1])
	h, err2 := strconv.Atoi(fields[2])
	if fields[0] != "P5" || fields[3] != "255" || err1 != nil || err2 != nil || w <= 0 || h <= 0 {
		return nil, fmt.Errorf("%w: not an 8-bit binary grey map", ErrUnreadable)
	}
	if err := CheckSize(w, h); err != nil {
		return nil, err
	}
	if len(rest) < w*h {
		return nil, fmt.Errorf("%w: a grey map of %d × %d pixels holds %d bytes", ErrUnreadable, w, h, len(rest))
	}
	return &grey{w: w, h: h, pix: rest[:w*h]}, nil
}

// encode writes g as a binary grey map.
func (g *grey) encode() []byte {
	head := fmt.Sprintf("P5\n%d %d\n255\n", g.w, g.h)
	out := make([]byte, 0, len(head)+len(g.pix))
	return append(append(out, head...), g.pix...)
}

// skew estimates the turn of a page's lines, in degrees within ±MaxSkew
// (positive: the lines rise to the left): the angle at which the ink,
// projected across the page, piles up into the sharpest rows (the
// greatest sum of squared row counts). A page with too little ink is
// taken as straight.
func (g *grey) skew() float64 {
	var xs, ys []float64
	for y := 0; y < g.h; y += skewSample {
		row := g.pix[y*g.w : (y+1)*g.w]
		for x := 0; x < g.w; x += skewSample {
			if row[x] < skewInk {
				xs = append(xs, float64(x))
				ys = append(ys, float64(y))
			}
		}
	}
	if len(xs) < skewMinInk {
		return 0
	}
	// A row of the projection is skewSample pixels high; the turned rows
	// span the page's height and at most its width's rise either way.
	rise := float64(g.w) * math.Tan(MaxSkew*math.Pi/180)
	rows := make([]float64, (g.h+2*int(rise)+2)/skewSample+2)
	best, bestAngle := -1.0, 0.0
	steps := int(math.Round(MaxSkew / skewStep))
	for i := -steps; i <= steps; i++ {
		a := float64(i) * skewStep
		sin, cos := math.Sincos(a * math.Pi / 180)
		clear(rows)
		for k := range xs {
			r := int((ys[k]*cos-xs[k]*sin+rise)/skewSample) + 1
			if r >= 0 && r < len(rows) {
				rows[r]++
			}
		}
		var s float64
		for _, n := range rows {
			s += n * n
		}
		// Of equal piles, the angle nearest to straight.
		if s > best || s == best && math.Abs(a) < math.Abs(bestAngle) {
			best, bestAngle = s, a
		}
	}
	return bestAngle
}

// rotate returns g turned by deg degrees about its centre (bilinear,
// white where the turned page has no pixel), so that lines a skew of deg
// turned lie level.
func (g *grey) rotate(deg float64) *grey {
	sin, cos := math.Sincos(deg * math.Pi / 180)
	cx, cy := float64(g.w)/2, float64(g.h)/2
	out := &grey{w: g.w, h: g.h, pix: make([]byte, len(g.pix))}
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= g.w || y >= g.h {
			return 255
		}
		return float64(g.pix[y*g.w+x])
	}
	for y := range g.h {
		dy := float64(y) - cy
		for x := range g.w {
			dx := float64(x) - cx
			sx, sy := cos*dx-sin*dy+cx, sin*dx+cos*dy+cy
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := sx-float64(x0), sy-float64(y0)
			v := at(x0, y0)*(1-fx)*(1-fy) + at(x0+1, y0)*fx*(1-fy) + at(x0, y0+1)*(1-fx)*fy + at(x0+1, y0+1)*fx*fy
			out.pix[y*g.w+x] = uint8(v + 0.5)
		}
	}
	return out
}

// straighten returns g with its skew undone, or nil when it lies
// straight (within MinSkew).
func (g *grey) straighten() *grey {
	a := g.skew()
	if math.Abs(a) < MinSkew {
		return nil
	}
	return g.rotate(a)
}
