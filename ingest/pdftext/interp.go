package pdftext

import (
	"fmt"
	"io"
	"math"
	"strings"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
)

// glyph is one shown character code placed on the page.
type glyph struct {
	s     string  // decoded text; "" when the code cannot be mapped
	x, y  float64 // origin on the baseline, default user space
	w     float64 // advance along the writing direction, user space
	size  float64 // em size in user space
	dir   int     // writing direction, see dirOf
	space bool    // the glyph is white space

	// Glyphs of vertical-writing fonts keep their horizontal reading too:
	// some producers place them one by one along a horizontal line.
	vert bool
	hdir int
	hw   float64
}

// Writing directions: 0 left to right, 1 bottom to top (rotated 90°
// counterclockwise), 2 upside down, 3 top to bottom (rotated clockwise, and
// vertical writing, whose columns then run right to left).
const numDirs = 4

// mat is an affine matrix [a b c d e f] as in PDF.
type mat [6]float64

var identity = mat{1, 0, 0, 1, 0, 0}

// mul returns m×n: apply m, then n.
func (m mat) mul(n mat) mat {
	return mat{
		m[0]*n[0] + m[1]*n[2], m[0]*n[1] + m[1]*n[3],
		m[2]*n[0] + m[3]*n[2], m[2]*n[1] + m[3]*n[3],
		m[4]*n[0] + m[5]*n[2] + n[4], m[4]*n[1] + m[5]*n[3] + n[5],
	}
}

// streamBudget bounds the decompressed bytes one document may read, so a
// decompression bomb is a typed error instead of gigabytes of work.
type streamBudget struct {
	left int64
}

// maxStreamBytes is the total decompressed size of content streams, fonts'
// CMaps and forms read for one document; maxOneStream caps a single stream
// (real content streams are far smaller; bombs are not).
const (
	maxStreamBytes = 192 << 20
	maxOneStream   = 32 << 20
)

func readStream(v pdf.Value, budget *streamBudget) (data []byte, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: stream: %v", ErrUnreadable, r)
		}
	}()
	if v.Kind() != pdf.Stream {
		return nil, nil
	}
	rc := v.Reader()
	defer rc.Close()
	limit := min(budget.left, maxOneStream)
	data, err = io.ReadAll(io.LimitReader(rc, limit+1))
	if int64(len(data)) > limit {
		budget.left = 0
		return nil, fmt.Errorf("%w: decompressed streams exceed %d bytes", ErrTooLarge, limit)
	}
	budget.left -= int64(len(data))
	// A damaged stream still gives the text before the damage.
	if err != nil && len(data) > 0 {
		err = nil
	}
	return data, err
}

// fontCache shares parsed fonts across the pages of one document, keyed by
// the font dictionary's own text (which names its streams by reference).
type fontCache map[string]*font

// pageInterp runs the content stream of one page.
type pageInterp struct {
	fonts   fontCache
	budget  *streamBudget
	glyphs  []glyph
	maxGlph int
	forms   int // form XObjects run on this page
	box     [4]float64
	err     error
}

type gstate struct {
	ctm                                  mat
	font                                 *font
	fontSize, charSp, wordSp, hScale, tl float64
	rise                                 float64
}

const (
	maxFormDepth    = 8
	maxFormsPerPage = 2000
)

func (p *pageInterp) run(content []byte, res pdf.Value, ctm mat, depth int) {
	gs := gstate{ctm: ctm, hScale: 1}
	var stack []gstate
	var tm, tlm mat
	fonts := map[string]*font{}
	l := contentLexer{buf: content}
	for p.err == nil {
		o, ok := l.next()
		if !ok {
			return
		}
		a := o.args
		num := func(i int) float64 {
			if i < len(a) {
				if f, ok := a[i].(float64); ok && !math.IsNaN(f) && !math.IsInf(f, 0) {
					return f
				}
			}
			return 0
		}
		switch o.name {
		case "q":
			if len(stack) < 1024 {
				stack = append(stack, gs)
			}
		case "Q":
			if n := len(stack); n > 0 {
				gs = stack[n-1]
				stack = stack[:n-1]
			}
		case "cm":
			if len(a) >= 6 {
				gs.ctm = mat{num(0), num(1), num(2), num(3), num(4), num(5)}.mul(gs.ctm)
			}
		case "BT":
			tm, tlm = identity, identity
		case "Tc":
			gs.charSp = num(0)
		case "Tw":
			gs.wordSp = num(0)
		case "Tz":
			gs.hScale = num(0) / 100
		case "TL":
			gs.tl = num(0)
		case "Ts":
			gs.rise = num(0)
		case "Tf":
			if len(a) >= 2 {
				name, _ := a[len(a)-2].(pdfName)
				gs.font = p.font(res, string(name), fonts)
				gs.fontSize = num(len(a) - 1)
			}
		case "Td", "TD":
			if len(a) >= 2 {
				tlm = mat{1, 0, 0, 1, num(0), num(1)}.mul(tlm)
				tm = tlm
				if o.name == "TD" {
					gs.tl = -num(1)
				}
			}
		case "Tm":
			if len(a) >= 6 {
				tlm = mat{num(0), num(1), num(2), num(3), num(4), num(5)}
				tm = tlm
			}
		case "T*":
			tlm = mat{1, 0, 0, 1, 0, -gs.tl}.mul(tlm)
			tm = tlm
		case "Tj", "'", "\"":
			if o.name != "Tj" {
				if o.name == "\"" && len(a) >= 3 {
					gs.wordSp, gs.charSp = num(0), num(1)
				}
				tlm = mat{1, 0, 0, 1, 0, -gs.tl}.mul(tlm)
				tm = tlm
			}
			if len(a) > 0 {
				if s, ok := a[len(a)-1].(string); ok {
					p.show(s, &gs, &tm)
				}
			}
		case "TJ":
			if len(a) == 0 {
				break
			}
			arr, _ := a[len(a)-1].([]any)
			for _, e := range arr {
				switch v := e.(type) {
				case string:
					p.show(v, &gs, &tm)
				case float64:
					adj := -v / 1000 * gs.fontSize
					if gs.font != nil && gs.font.vertical {
						tm = mat{1, 0, 0, 1, 0, -adj}.mul(tm)
					} else {
						tm = mat{1, 0, 0, 1, adj * gs.hScale, 0}.mul(tm)
					}
				}
			}
		case "Do":
			if len(a) > 0 {
				name, _ := a[len(a)-1].(pdfName)
				p.form(res, string(name), gs.ctm, depth)
			}
		}
	}
}

func (p *pageInterp) font(res pdf.Value, name string, local map[string]*font) (f *font) {
	if f, ok := local[name]; ok {
		return f
	}
	defer func() {
		if r := recover(); r != nil {
			f = &font{codeLen: 1, defWidth: 0.5, estimated: true, scale: 1}
		}
		local[name] = f
	}()
	fv := res.Key("Font").Key(name)
	if fv.Kind() != pdf.Dict {
		return &font{codeLen: 1, defWidth: 0.5, estimated: true, scale: 1}
	}
	key := fv.String()
	if len(key) > 4096 {
		key = key[:4096]
	}
	if f, ok := p.fonts[key]; ok {
		return f
	}
	f = loadFont(fv, p.budget)
	p.fonts[key] = f
	return f
}

func (p *pageInterp) form(res pdf.Value, name string, ctm mat, depth int) {
	if depth >= maxFormDepth || p.forms >= maxFormsPerPage {
		return
	}
	p.forms++
	func() {
		defer func() {
			if r := recover(); r != nil {
				_ = r // a broken form loses its own text only
			}
		}()
		xo := res.Key("XObject").Key(name)
		if xo.Kind() != pdf.Stream || xo.Key("Subtype").Name() != "Form" {
			return
		}
		data, err := readStream(xo, p.budget)
		if err != nil {
			if isTooLarge(err) {
				p.err = err
			}
			return
		}
		m := identity
		if mv := xo.Key("Matrix"); mv.Len() == 6 {
			for i := range 6 {
				m[i] = mv.Index(i).Float64()
			}
		}
		fres := xo.Key("Resources")
		if fres.Kind() != pdf.Dict {
			fres = res
		}
		p.run(data, fres, m.mul(ctm), depth+1)
	}()
}

// show places the glyphs of one shown string and advances the text matrix.
func (p *pageInterp) show(raw string, gs *gstate, tm *mat) {
	f := gs.font
	if f == nil {
		f = &font{codeLen: 1, defWidth: 0.5, estimated: true, scale: 1}
		gs.font = f
	}
	fs := gs.fontSize
	f.codes(raw, func(code uint32, n int) {
		w0 := f.width(code)
		trm := mat{fs * gs.hScale, 0, 0, fs, 0, gs.rise}.mul(*tm).mul(gs.ctm)
		s, mapped := f.decode(code, n)
		// Code 32 is a space unless the font names another glyph there
		// (TeX math fonts put ψ there).
		isSpace := n == 1 && code == 32 && (!mapped || strings.TrimSpace(s) == "") || s == " " || s == "\u00a0"
		if len(p.glyphs) >= p.maxGlph {
			p.err = fmt.Errorf("%w: more than %d glyphs", ErrTooLarge, p.maxGlph)
			return
		}
		size := math.Hypot(trm[2], trm[3]) * f.scale
		xlen := math.Hypot(trm[0], trm[1])
		g := glyph{s: s, x: trm[4] - f.drop*trm[2], y: trm[5] - f.drop*trm[3], size: size, space: isSpace}
		if !mapped {
			g.s = ""
		} else if utf8.RuneCountInString(s) > 1 && hasRTL(s) {
			// Lines are assembled in visual order and reversed later; a
			// glyph standing for several letters must survive that as a unit.
			g.s = reverseRunes(s)
		}
		if f.vertical {
			// Vertical writing advances down the glyph's own y axis.
			g.dir = dirOf(-trm[2], -trm[3])
			g.w = size
			g.vert, g.hdir, g.hw = true, dirOf(trm[0], trm[1]), w0*xlen
		} else {
			g.dir = dirOf(trm[0], trm[1])
			g.w = w0 * xlen
		}
		if g.size > 0.01 && inBox(g.x, g.y, p.box) && !math.IsNaN(g.x+g.y+g.w) && !math.IsInf(g.x+g.y+g.w, 0) {
			p.glyphs = append(p.glyphs, g)
		}
		if f.vertical {
			*tm = mat{1, 0, 0, 1, 0, -(fs + gs.charSp)}.mul(*tm)
			return
		}
		tx := w0*fs + gs.charSp
		if n == 1 && code == 32 {
			tx += gs.wordSp
		}
		*tm = mat{1, 0, 0, 1, tx * gs.hScale, 0}.mul(*tm)
	})
}

// dirOf classifies the direction of the glyph's baseline vector.
func dirOf(a, b float64) int {
	ang := math.Atan2(b, a) * 180 / math.Pi
	switch {
	case ang > -45 && ang <= 45:
		return 0
	case ang > 45 && ang <= 135:
		return 1
	case ang > 135 || ang <= -135:
		return 2
	default:
		return 3
	}
}

func inBox(x, y float64, box [4]float64) bool {
	if box[2] <= box[0] || box[3] <= box[1] {
		return true
	}
	const m = 2
	return x >= box[0]-m && x <= box[2]+m && y >= box[1]-m && y <= box[3]+m
}

// settleVertical decides, for each run of consecutive vertical-writing
// glyphs, whether they were really stacked vertically or placed one after
// the other along a horizontal line, from how the run moves on the page.
func settleVertical(gs []glyph) {
	for i := 0; i < len(gs); {
		if !gs[i].vert {
			i++
			continue
		}
		j := i + 1
		for j < len(gs) && gs[j].vert {
			j++
		}
		horiz, vert := 0, 0
		for k := i + 1; k < j; k++ {
			hx, hy := canon(gs[k].x-gs[k-1].x, gs[k].y-gs[k-1].y, gs[k].hdir)
			if hx > 0 && math.Abs(hy) < 0.3*gs[k].size {
				horiz++
			} else {
				vert++
			}
			_ = hy
		}
		if horiz > vert {
			for k := i; k < j; k++ {
				gs[k].dir, gs[k].w = gs[k].hdir, gs[k].hw
			}
		}
		i = j
	}
}
