package pdftext

import (
	"math"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Layout parameters, in units of the font size (em) of the text involved.
const (
	wordGap        = 0.15 // a gap wider than this between glyphs separates words
	spacedGap      = 0.3  // the same where the producer writes space characters
	spacedRatio    = 0.08 // share of space glyphs that marks such a producer
	sameBaseline   = 0.65 // a lighter run this close to a row's baseline joins it (exponents, indices)
	tightBaseline  = 0.15 // baselines closer than this are one row
	maxRowLook     = 12   // rows searched on each side for a heavier neighbour
	gutterGap      = 0.6  // narrowest gap that can be a column gutter
	gutterRows     = 6    // rows on each side that must agree on a gutter
	gutterReach    = 2.0  // a row reaching this close to a gutter (ems) supports it
	gutterEdgeRows = 4    // rows that must reach up to a gutter no row crosses
	fragmentGap    = 1.2  // a gap wider than this splits a row into fragments (columns, table cells)
	minLeading     = 1.45 // lines closer than this (baseline to baseline) may form one block
	maxLeading     = 3.0  // lines further apart than this never form one block
	columnWidth    = 6.0  // both sides of a column cut must be at least this wide
	indentMin      = 0.8  // a first-line indent is at least this deep
	maxLayoutBlk   = 4000 // pages with more blocks than this are ordered top to bottom only

	tableCellWidth = 10.0 // a column cut whose lines are mostly narrower than this may be a table
	maxTableCells  = 2000 // larger regions are not read as tables
	speckWidth     = 1.5  // one-line blocks narrower than this (ems) do not decide columns
	tableMinRows   = 4    // fewer aligned rows make a table only with figures in its cells
	columnPause    = 1.5  // white space between bands of columns that still reads as one region
)

// ligatures expands the Latin ligature characters.
var ligatures = strings.NewReplacer(
	"\ufb00", "ff", "\ufb01", "fi", "\ufb02", "fl", "\ufb03", "ffi", "\ufb04", "ffl", "\ufb05", "st", "\ufb06", "st",
)

type word struct {
	text       string
	x0, x1, y  float64
	size       float64
	spaceAfter bool // white space followed it in the content stream
}

type line struct {
	words  []*word
	x0, x1 float64
	y      float64 // baseline
	size   float64
	text   string
}

// block is a run of lines laid out together: a paragraph or several, a
// heading, a table cell. Coordinates are in the block's writing direction
// (text runs towards +x, lines go towards -y).
type block struct {
	lines            []*line
	x0, x1, top, bot float64
	size             float64
	dir              int
	paras            []string
}

func (b *block) add(l *line) {
	if len(b.lines) == 0 {
		b.x0, b.x1, b.top, b.bot, b.size = l.x0, l.x1, l.y+0.8*l.size, l.y-0.25*l.size, l.size
	}
	b.lines = append(b.lines, l)
	b.x0 = math.Min(b.x0, l.x0)
	b.x1 = math.Max(b.x1, l.x1)
	b.top = math.Max(b.top, l.y+0.8*l.size)
	b.bot = math.Min(b.bot, l.y-0.25*l.size)
	b.size = math.Max(b.size, l.size)
}

// canon maps a point to the coordinates of writing direction dir.
func canon(x, y float64, dir int) (float64, float64) {
	switch dir {
	case 1:
		return y, -x
	case 2:
		return -x, -y
	case 3:
		return -y, x
	}
	return x, y
}

// layoutPage turns the glyphs of one page into blocks in reading order.
// Upright text comes first, then the other directions.
func layoutPage(glyphs []glyph) []*block {
	var out []*block
	spaces := 0
	for _, g := range glyphs {
		if g.space {
			spaces++
		}
	}
	gap := wordGap
	if float64(spaces) >= spacedRatio*float64(len(glyphs)) {
		gap = spacedGap
	}
	for dir := range numDirs {
		words := buildWords(glyphs, dir, gap)
		if len(words) == 0 {
			continue
		}
		lines := attachLabels(buildLines(words, gap))
		blocks := buildBlocks(lines)
		for _, b := range blocks {
			b.dir = dir
		}
		if len(blocks) <= maxLayoutBlk {
			blocks = readingOrder(blocks)
		} else {
			sort.SliceStable(blocks, func(i, j int) bool { return blocks[i].top > blocks[j].top })
		}
		out = append(out, blocks...)
	}
	for _, b := range out {
		b.paras = paragraphs(b)
	}
	return out
}

// buildWords groups the glyphs of one direction into words, in content
// stream order, and drops overprinted duplicates (fake bold). A spacing
// accent drawn over a letter (TeX sets "é" as "´" and "e") joins it.
func buildWords(glyphs []glyph, dir int, wordGap float64) []*word {
	var words []*word
	var cur *word
	var b strings.Builder
	accented := false
	flush := func(space bool) {
		if cur != nil {
			cur.text = b.String()
			if accented {
				// TeX accents the dotless i and j.
				cur.text = norm.NFC.String(dotlessAccented.Replace(cur.text))
			}
			cur.spaceAfter = space
			words = append(words, cur)
			cur = nil
		}
		b.Reset()
		accented = false
	}
	pending := "" // combining mark for the next letter
	var prev *glyph
	for i := range glyphs {
		g := &glyphs[i]
		if g.dir != dir {
			continue
		}
		if g.space || strings.TrimSpace(g.s) == "" {
			if g.space {
				flush(true)
			}
			continue
		}
		if mark, ok := combiningAccents[g.s]; ok {
			if prev != nil && cur != nil && isLetterGlyph(prev) && coversGlyph(g, prev) {
				b.WriteString(mark)
				accented = true
				continue
			}
			if next := nextGlyph(glyphs, i, dir); next != nil && isLetterGlyph(next) && coversGlyph(g, next) {
				pending = mark
				continue
			}
		}
		x, y := canon(g.x, g.y, dir)
		size := g.size
		text := ligatures.Replace(g.s)
		if pending != "" {
			text += pending
			pending = ""
			accented = true
		}
		prev = g
		if cur != nil {
			s := math.Max(size, cur.size)
			gap := x - cur.x1
			if math.Abs(y-cur.y) < 0.3*s && gap > -0.5*s && gap < wordGap*s {
				b.WriteString(text)
				cur.x1 = math.Max(cur.x1, x+g.w)
				cur.size = math.Max(cur.size, size)
				continue
			}
			flush(false)
			accented = pendingInText(text)
		}
		cur = &word{x0: x, x1: x + g.w, y: y, size: size}
		b.WriteString(text)
	}
	flush(false)
	return dedupe(words)
}

// combiningAccents maps the spacing accents that typesetters draw over a
// letter to the combining marks that compose with it.
var combiningAccents = map[string]string{
	"´": "́", "`": "̀", "ˆ": "̂", "˜": "̃", "¨": "̈",
	"˚": "̊", "¸": "̧", "ˇ": "̌", "˘": "̆", "¯": "̄",
	"˙": "̇", "˝": "̋", "˛": "̨",
}

// dotlessAccented gives accented dotless letters their dots back, so that
// they compose.
var dotlessAccented = func() *strings.Replacer {
	var pairs []string
	for _, m := range combiningAccents {
		pairs = append(pairs, "\u0131"+m, "i"+m, "\u0237"+m, "j"+m)
	}
	return strings.NewReplacer(pairs...)
}()

// pendingInText reports whether text carries a combining mark.
func pendingInText(text string) bool {
	for _, r := range text {
		if unicode.Is(unicode.Mn, r) {
			return true
		}
	}
	return false
}

func isLetterGlyph(g *glyph) bool {
	r, _ := utf8.DecodeRuneInString(g.s)
	return unicode.IsLetter(r)
}

// coversGlyph reports whether accent a is drawn over (or under) letter l:
// their extents along the line overlap by most of the narrower one.
func coversGlyph(a, l *glyph) bool {
	ax, ay := canon(a.x, a.y, a.dir)
	lx, ly := canon(l.x, l.y, l.dir)
	if math.Abs(ay-ly) > 1.2*l.size {
		return false
	}
	ov := overlap(ax, ax+a.w, lx, lx+l.w)
	return ov > 0.5*math.Min(a.w, l.w)
}

func nextGlyph(glyphs []glyph, i, dir int) *glyph {
	for j := i + 1; j < len(glyphs) && j <= i+3; j++ {
		if glyphs[j].dir == dir && !glyphs[j].space {
			return &glyphs[j]
		}
	}
	return nil
}

func dedupe(words []*word) []*word {
	seen := map[string][]*word{}
	out := words[:0]
	for _, w := range words {
		dup := false
		for _, o := range seen[w.text] {
			if math.Abs(o.x0-w.x0) < 0.3*w.size && math.Abs(o.y-w.y) < 0.3*w.size {
				dup = true
				break
			}
		}
		if dup {
			continue
		}
		if len(seen[w.text]) < 64 {
			seen[w.text] = append(seen[w.text], w)
		}
		out = append(out, w)
	}
	return out
}

// buildLines groups words into rows by baseline and splits each row into
// fragments at wide gaps and at column gutters.
func buildLines(words []*word, wordGap float64) []*line {
	rows := buildRows(words)
	var lines []*line
	for i, row := range rows {
		lines = append(lines, splitRow(row, wordGap, gutters(rows, i))...)
	}
	return lines
}

// row is one baseline of words, left to right.
type row struct {
	words  []*word
	y      float64 // baseline of its heaviest words
	size   float64
	weight float64 // letters times size: how much text sets the baseline
}

// buildRows clusters words by baseline: first words on the same baseline,
// then small raised or lowered runs (exponents, indices, inline math) join
// the heavier row they sit beside.
func buildRows(words []*word) []*row {
	sort.SliceStable(words, func(i, j int) bool {
		if words[i].y != words[j].y {
			return words[i].y > words[j].y
		}
		return words[i].x0 < words[j].x0
	})
	var rows []*row
	for i := 0; i < len(words); {
		anchor := words[i]
		j := i + 1
		for j < len(words) && anchor.y-words[j].y < tightBaseline*math.Max(anchor.size, words[j].size) {
			j++
		}
		// A baseline shared across a wide gap (another column's line
		// level with an exponent) is separate rows until attached.
		seg := append([]*word(nil), words[i:j]...)
		sort.SliceStable(seg, func(a, b int) bool { return seg[a].x0 < seg[b].x0 })
		start := 0
		for k := 1; k <= len(seg); k++ {
			if k < len(seg) && seg[k].x0-seg[k-1].x1 <= fragmentGap*math.Max(seg[k].size, seg[k-1].size) {
				continue
			}
			r := &row{words: seg[start:k:k], y: anchor.y}
			for _, w := range r.words {
				r.size = math.Max(r.size, w.size)
				r.weight += float64(utf8.RuneCountInString(w.text)) * w.size
			}
			rows = append(rows, r)
			start = k
		}
		i = j
	}
	// Light rows join heavier neighbours, lightest first.
	order := make([]int, len(rows))
	for i := range order {
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return rows[order[a]].weight < rows[order[b]].weight })
	merged := make([]bool, len(rows))
	for _, i := range order {
		g := rows[i]
		var best *row
		bestD := math.Inf(1)
		for k := i - 1; k >= 0 && k >= i-maxRowLook; k-- {
			if h := rows[k]; !merged[k] && h.y-g.y <= sameBaseline*h.size && h.y-g.y < bestD && attaches(g, h) {
				best, bestD = h, h.y-g.y
			}
		}
		for k := i + 1; k < len(rows) && k <= i+maxRowLook; k++ {
			if h := rows[k]; !merged[k] && g.y-h.y <= sameBaseline*h.size && g.y-h.y < bestD && attaches(g, h) {
				best, bestD = h, g.y-h.y
			}
		}
		if best != nil {
			merged[i] = true
			best.words = append(best.words, g.words...)
			best.weight += g.weight
		}
	}
	out := rows[:0]
	for i, r := range rows {
		if merged[i] {
			continue
		}
		sort.SliceStable(r.words, func(a, b int) bool { return r.words[a].x0 < r.words[b].x0 })
		out = append(out, r)
	}
	return out
}

// attaches reports whether row g can join row h: g is lighter, no larger,
// lies beside h's words and overlaps none of them.
func attaches(g, h *row) bool {
	if g.weight > h.weight || g.size > h.size*1.05 {
		return false
	}
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, w := range h.words {
		x0, x1 = math.Min(x0, w.x0), math.Max(x1, w.x1)
	}
	reach := 1.5 * h.size
	for _, w := range g.words {
		if w.x1 < x0-reach || w.x0 > x1+reach {
			return false
		}
		for _, v := range h.words {
			if overlap(w.x0, w.x1, v.x0, v.x1) > 0.25*math.Min(w.size, v.size) {
				return false
			}
		}
	}
	return true
}

// gutters returns the x positions in row i where a gap between words is a
// column gutter: the rows around it have white space there too and no word
// crosses it.
func gutters(rows []*row, i int) []float64 {
	r := rows[i]
	var out []float64
	for k := 1; k < len(r.words); k++ {
		a, b := r.words[k-1], r.words[k]
		s := math.Max(a.size, b.size)
		gap := b.x0 - a.x1
		if gap < gutterGap*s || gap > fragmentGap*s {
			continue
		}
		mid := (a.x1 + b.x0) / 2
		// Rows of one baseline (segments of a line split at wide gaps)
		// count together.
		type side struct{ left, right, cross, near bool }
		byY := map[int]*side{}
		for j := max(0, i-4*gutterRows); j < len(rows) && j <= i+4*gutterRows; j++ {
			dy := rows[j].y - r.y
			if math.Abs(dy) < tightBaseline*s || math.Abs(dy) > gutterRows*1.5*s {
				continue
			}
			key := int(math.Round(dy / (tightBaseline * s)))
			sd := byY[key]
			if sd == nil {
				sd = &side{}
				byY[key] = sd
			}
			for _, w := range rows[j].words {
				switch {
				case w.x1 <= mid:
					sd.left = true
					sd.near = sd.near || w.x1 >= mid-gutterReach*s
				case w.x0 >= mid:
					sd.right = true
					sd.near = sd.near || w.x0 <= mid+gutterReach*s
				default:
					sd.cross = true
				}
			}
		}
		// Columns on one baseline grid leave rows with text on both sides
		// of the gutter; columns on their own grids leave rows that reach
		// up to it from one side. Either way no row crosses it.
		gapped, crossed, edge := 0, 0, 0
		for _, sd := range byY {
			switch {
			case sd.cross:
				crossed++
			case sd.left && sd.right:
				gapped++
			}
			if !sd.cross && sd.near {
				edge++
			}
		}
		if gapped >= 2 && crossed*4 <= gapped || crossed == 0 && (gapped == 1 || edge >= gutterEdgeRows) {
			out = append(out, mid)
		}
	}
	return out
}

func splitRow(r *row, wordGap float64, cuts []float64) []*line {
	row := r.words
	var out []*line
	var cur *line
	var b strings.Builder
	var base *word // the longest word sets the baseline
	flush := func() {
		if cur != nil {
			cur.text = visualToLogical(b.String())
			cur.y = base.y
			out = append(out, cur)
		}
		b.Reset()
	}
	for i, w := range row {
		if cur != nil {
			prev := row[i-1]
			s := math.Max(w.size, prev.size)
			gap := w.x0 - cur.x1
			cut := false
			for _, c := range cuts {
				if prev.x1 <= c && w.x0 >= c {
					cut = true
				}
			}
			if gap > fragmentGap*s || cut {
				flush()
				cur = nil
			} else {
				if gap >= wordGap*s || prev.spaceAfter {
					b.WriteByte(' ')
				}
				b.WriteString(w.text)
				cur.words = append(cur.words, w)
				cur.x1 = math.Max(cur.x1, w.x1)
				cur.size = math.Max(cur.size, w.size)
				if len(w.text) > len(base.text) {
					base = w
				}
				continue
			}
		}
		cur = &line{words: []*word{w}, x0: w.x0, x1: w.x1, size: w.size}
		base = w
		b.WriteString(w.text)
	}
	flush()
	return out
}

// leadingRatio estimates the page's usual line spacing as a multiple of the
// font size, from pairs of vertically adjacent, overlapping lines.
func leadingRatio(lines []*line) float64 {
	counts := map[int]int{}
	for i, l := range lines {
		for j := i + 1; j < len(lines) && j < i+40; j++ {
			m := lines[j]
			d := l.y - m.y
			if d <= 0 || math.Abs(l.size-m.size) > 0.1*l.size || overlap(l.x0, l.x1, m.x0, m.x1) <= 0 {
				continue
			}
			r := d / l.size
			if r < maxLeading {
				counts[int(math.Round(r*20))]++
			}
			break
		}
	}
	best, bestN := 0, 0
	for k, n := range counts {
		if n > bestN || n == bestN && k < best {
			best, bestN = k, n
		}
	}
	if bestN < 3 {
		return 0
	}
	return float64(best) / 20
}

func overlap(a0, a1, b0, b1 float64) float64 {
	return math.Min(a1, b1) - math.Max(a0, b0)
}

// buildBlocks stacks lines into blocks: a line joins the block right above
// it when it overlaps it horizontally, is about as large and is no further
// than the usual line spacing.
func buildBlocks(lines []*line) []*block {
	lead := math.Max(minLeading, math.Min(maxLeading, leadingRatio(lines)*1.15))
	var blocks []*block
	for _, l := range lines {
		var best *block
		bestD := math.Inf(1)
		for k := len(blocks) - 1; k >= 0 && k >= len(blocks)-60; k-- {
			b := blocks[k]
			last := b.lines[len(b.lines)-1]
			d := last.y - l.y
			s := math.Max(last.size, l.size)
			if d <= 0.3*s || d > lead*s {
				continue
			}
			if math.Max(last.size, l.size) > 1.25*math.Min(last.size, l.size) {
				continue
			}
			if overlap(b.x0, b.x1, l.x0, l.x1) <= 0 {
				continue
			}
			// A line under a block's last line must not also reach under
			// another block in the same row (a heading over two columns).
			if d < bestD {
				best, bestD = b, d
			}
		}
		if best == nil {
			best = &block{}
			blocks = append(blocks, best)
		}
		best.add(l)
	}
	return blocks
}

// readingOrder orders blocks by recursive cuts: columns left to right where
// a vertical band of white space splits the region, else rows top to bottom.
func readingOrder(blocks []*block) []*block {
	if len(blocks) <= 1 {
		return blocks
	}
	size := medianSize(blocks)
	if groups := columnCut(blocks, size, 0); len(groups) > 1 {
		if rows := tableRows(groups, size); rows != nil {
			return rows
		}
	}
	if groups := columnCut(blocks, size, columnWidth); len(groups) > 1 {
		var out []*block
		for _, g := range groups {
			out = append(out, readingOrder(g)...)
		}
		return out
	}
	if groups := rowCut(blocks, size); len(groups) > 1 {
		var out []*block
		for _, g := range groups {
			out = append(out, readingOrder(g)...)
		}
		return out
	}
	sorted := append([]*block(nil), blocks...)
	sort.SliceStable(sorted, func(i, j int) bool {
		if math.Abs(sorted[i].top-sorted[j].top) > 0.5*size {
			return sorted[i].top > sorted[j].top
		}
		return sorted[i].x0 < sorted[j].x0
	})
	return sorted
}

func medianSize(blocks []*block) float64 {
	s := make([]float64, len(blocks))
	for i, b := range blocks {
		s[i] = b.size
	}
	sort.Float64s(s)
	return s[len(s)/2]
}

func columnCut(blocks []*block, size, minWidth float64) [][]*block {
	// Specks (a page number, a stray exponent) may sit in a gutter; the
	// columns are found without them and they join the nearest one.
	var main, specks []*block
	for _, b := range blocks {
		if len(b.lines) == 1 && b.x1-b.x0 < speckWidth*b.size {
			specks = append(specks, b)
		} else {
			main = append(main, b)
		}
	}
	if len(main) < 2 || len(specks) == 0 {
		return columnCutAll(blocks, size, minWidth)
	}
	groups := columnCutAll(main, size, minWidth)
	if groups == nil {
		return nil
	}
	for _, sp := range specks {
		best, bestD := 0, math.Inf(1)
		mid := (sp.x0 + sp.x1) / 2
		for k, g := range groups {
			x0, x1 := math.Inf(1), math.Inf(-1)
			for _, b := range g {
				x0, x1 = math.Min(x0, b.x0), math.Max(x1, b.x1)
			}
			d := math.Max(0, math.Max(x0-mid, mid-x1))
			if d < bestD {
				best, bestD = k, d
			}
		}
		g := groups[best]
		groups[best] = append(g[:len(g):len(g)], sp) // groups share one array
	}
	return groups
}

func columnCutAll(blocks []*block, size, minWidth float64) [][]*block {
	bs := append([]*block(nil), blocks...)
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].x0 < bs[j].x0 })
	// Candidate cut positions: indexes where the next block starts right of
	// every block before it.
	var cuts []int
	maxX := bs[0].x1
	for i := 1; i < len(bs); i++ {
		if bs[i].x0 > maxX+0.3*size {
			cuts = append(cuts, i)
		}
		maxX = math.Max(maxX, bs[i].x1)
	}
	if len(cuts) == 0 {
		return nil
	}
	// Keep cuts whose sides are both wide enough to be columns.
	var groups [][]*block
	start := 0
	for k, c := range cuts {
		left := span(bs[start:c])
		next := len(bs)
		if k+1 < len(cuts) {
			next = cuts[k+1]
		}
		_ = next
		right := span(bs[c:])
		if left >= minWidth*size && right >= minWidth*size {
			groups = append(groups, bs[start:c])
			start = c
		}
	}
	if start == 0 {
		return nil
	}
	return append(groups, bs[start:])
}

func span(bs []*block) float64 {
	x0, x1 := math.Inf(1), math.Inf(-1)
	for _, b := range bs {
		x0, x1 = math.Min(x0, b.x0), math.Max(x1, b.x1)
	}
	return x1 - x0
}

func rowCut(blocks []*block, size float64) [][]*block {
	bs := append([]*block(nil), blocks...)
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].top > bs[j].top })
	var groups [][]*block
	start := 0
	minY := bs[0].bot
	for i := 1; i < len(bs); i++ {
		if bs[i].top <= minY+0.1*size {
			groups = append(groups, bs[start:i])
			start = i
		}
		minY = math.Min(minY, bs[i].bot)
	}
	if start == 0 {
		return nil
	}
	groups = append(groups, bs[start:])
	// Bands that both split into columns at the same gutter, less than a
	// blank line apart, are one two-column region whose columns happen to
	// pause at the same height.
	merged := [][]*block{groups[0]}
	lastGutter, lastOK := gutterOf(groups[0], size)
	for _, g := range groups[1:] {
		gut, ok := gutterOf(g, size)
		prev := merged[len(merged)-1]
		gap := math.Inf(1)
		for _, b := range prev {
			gap = math.Min(gap, b.bot)
		}
		gap -= g[0].top // g is sorted by top: g[0] is its highest block
		// Columns that start level after a wide gap are a new band (verses
		// side by side); a pause in staggered columns is not.
		if ok && lastOK && (gap < columnPause*size || !levelColumns(g, size)) && overlap(gut[0], gut[1], lastGutter[0], lastGutter[1]) > 0 &&
			tableRows(columnCut(append(append([]*block(nil), prev...), g...), size, 0), size) == nil {
			merged[len(merged)-1] = append(merged[len(merged)-1], g...)
			lastGutter = [2]float64{math.Max(gut[0], lastGutter[0]), math.Min(gut[1], lastGutter[1])}
			continue
		}
		// A band within one column (a heading) close under a two-column
		// band continues that column.
		if !ok && lastOK && gap < columnPause*size && oneSide(g, lastGutter) {
			merged[len(merged)-1] = append(merged[len(merged)-1], g...)
			continue
		}
		merged = append(merged, g)
		lastGutter, lastOK = gut, ok
	}
	if len(merged) == 1 {
		return nil
	}
	return merged
}

// oneSide reports whether every block lies on the same side of gutter.
func oneSide(blocks []*block, gutter [2]float64) bool {
	left, right := 0, 0
	for _, b := range blocks {
		switch {
		case b.x1 <= gutter[1]:
			left++
		case b.x0 >= gutter[0]:
			right++
		default:
			return false
		}
	}
	return left == 0 || right == 0
}

// levelColumns reports whether the first two columns of blocks start at
// the same height.
func levelColumns(blocks []*block, size float64) bool {
	cols := columnCut(blocks, size, columnWidth)
	if len(cols) < 2 {
		return false
	}
	top := func(bs []*block) float64 {
		t := math.Inf(-1)
		for _, b := range bs {
			t = math.Max(t, b.top)
		}
		return t
	}
	return math.Abs(top(cols[0])-top(cols[1])) < 0.5*size
}

// gutterOf returns the white space between the first two columns of
// blocks, when they split into columns.
func gutterOf(blocks []*block, size float64) ([2]float64, bool) {
	cols := columnCut(blocks, size, columnWidth)
	if len(cols) < 2 || tableRows(cols, size) != nil {
		return [2]float64{}, false // no columns, or a table's
	}
	x1 := math.Inf(-1)
	for _, b := range cols[0] {
		x1 = math.Max(x1, b.x1)
	}
	x0 := math.Inf(1)
	for _, b := range cols[1] {
		x0 = math.Min(x0, b.x0)
	}
	return [2]float64{x1, x0}, true
}

// paragraphs splits a block into paragraphs at first-line indents and after
// short lines, and joins the lines of each, undoing end-of-line hyphenation.
func paragraphs(b *block) []string {
	var out []string
	var cur string
	width := b.x1 - b.x0
	for i, l := range b.lines {
		if i == 0 {
			cur = l.text
			continue
		}
		prev := b.lines[i-1]
		s := l.size
		indented := l.x0 > b.x0+indentMin*s && prev.x0 < b.x0+0.5*s && l.x0 < prev.x0+6*s &&
			!hangs(prev, l)
		short := prev.x1 < b.x0+0.7*width ||
			prev.x1 < b.x1-2*s && endsSentence(prev.text)
		// A list item starts a paragraph of its own.
		item := isLabel(l) && (endsSentence(prev.text) || isLabel(prev))
		if indented || item || short && len(b.lines) > 2 {
			out = append(out, cur)
			cur = l.text
			continue
		}
		cur = joinLines(cur, l.text)
	}
	return append(out, cur)
}

func endsSentence(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(strings.TrimRight(s, " "))
	return strings.ContainsRune(".!?:;", r)
}

// joinLines joins two lines of one paragraph: with a space, or without the
// hyphen when a word was split across them.
func joinLines(a, b string) string {
	a = strings.TrimRight(a, " ")
	if a == "" {
		return b
	}
	last, n := utf8.DecodeLastRuneInString(a)
	first, _ := utf8.DecodeRuneInString(b)
	if last == '\u00ad' {
		return a[:len(a)-n] + b
	}
	if last == '-' || last == '\u2010' {
		before, _ := utf8.DecodeLastRuneInString(a[:len(a)-n])
		if unicode.IsLetter(before) && unicode.IsLower(first) {
			// A divided word or a compound: resolveHyphens decides.
			return a[:len(a)-n] + "-" + hyphenMark + b
		}
		return a + b
	}
	return a + " " + b
}

// endsDivided reports whether paragraph a ends in a letter and a hyphen and
// b goes on with a lowercase letter: one word divided across blocks.
func endsDivided(a, b string) bool {
	last, n := utf8.DecodeLastRuneInString(a)
	if last != '-' && last != '\u2010' {
		return false
	}
	before, _ := utf8.DecodeLastRuneInString(a[:len(a)-n])
	first, _ := utf8.DecodeRuneInString(b)
	return unicode.IsLetter(before) && unicode.IsLower(first)
}

// tableRows reads a column cut as a table when its sides are short cells
// whose lines share baselines across the cut: it returns one block per row,
// top to bottom, with the cells left to right. Otherwise it returns nil.
func tableRows(groups [][]*block, size float64) []*block {
	type cell struct {
		l     *line
		group int
	}
	var cells []cell
	var widths []float64
	for g, bs := range groups {
		for _, b := range bs {
			for _, l := range b.lines {
				cells = append(cells, cell{l, g})
				widths = append(widths, l.x1-l.x0)
			}
		}
	}
	if len(cells) < 4 || len(cells) > maxTableCells {
		return nil
	}
	sort.Float64s(widths)
	if widths[len(widths)/2] > tableCellWidth*size {
		return nil
	}
	sort.SliceStable(cells, func(i, j int) bool { return cells[i].l.y > cells[j].l.y })
	var rows [][]cell
	for i := 0; i < len(cells); {
		j := i + 1
		for j < len(cells) && cells[i].l.y-cells[j].l.y < 0.3*size {
			j++
		}
		rows = append(rows, cells[i:j])
		i = j
	}
	aligned := 0
	for _, r := range rows {
		for _, c := range r[1:] {
			if c.group != r[0].group {
				aligned++
				break
			}
		}
	}
	if aligned < 2 || float64(aligned) < 0.6*float64(len(rows)) {
		return nil
	}
	// Short tables are told from side-by-side blocks (authors and their
	// affiliations) by their figures.
	digits := 0
	for _, c := range cells {
		if strings.ContainsFunc(c.l.text, unicode.IsDigit) {
			digits++
		}
	}
	if aligned < tableMinRows && float64(digits) < 0.2*float64(len(cells)) {
		return nil
	}
	out := make([]*block, 0, len(rows))
	for _, r := range rows {
		sort.SliceStable(r, func(i, j int) bool { return r[i].l.x0 < r[j].l.x0 })
		joined := &line{x0: r[0].l.x0, y: r[0].l.y}
		var texts []string
		for _, c := range r {
			joined.words = append(joined.words, c.l.words...)
			joined.x1 = math.Max(joined.x1, c.l.x1)
			joined.size = math.Max(joined.size, c.l.size)
			texts = append(texts, c.l.text)
		}
		joined.text = strings.Join(texts, " ")
		b := &block{}
		b.add(joined)
		out = append(out, b)
	}
	return out
}

// labelGap is the widest gap, in font sizes, between a list label set on
// a line of its own (a bullet glyph, "1.") and the item text it labels;
// labelRise is how far, in font sizes, the label's baseline may sit from
// the item's (a bullet from a symbol font is often raised or smaller).
const (
	labelGap  = 4.0
	labelRise = 0.6
)

// attachLabels joins each line that is only a list label — a bullet or a
// number glyph the layout set apart from its item by a wide gap or its own
// baseline — to the line it labels: the nearest line that starts to its
// right, at most labelGap font sizes away, on about the same baseline.
// The label then starts its item instead of standing as a block of its
// own. Lines are returned in their order, without the joined labels.
func attachLabels(lines []*line) []*line {
	joined := false
	for i, l := range lines {
		if len(l.words) != 1 || !labelText(l.text) {
			continue
		}
		var best *line
		bestD := math.Inf(1)
		for _, m := range lines {
			if m == nil || m == l || len(m.words) == 1 && labelText(m.text) {
				continue
			}
			s := math.Max(l.size, m.size)
			gap := m.x0 - l.x1
			if gap < -0.1*s || gap > labelGap*s || math.Abs(m.y-l.y) > labelRise*s {
				continue
			}
			if d := gap + math.Abs(m.y-l.y); d < bestD {
				best, bestD = m, d
			}
		}
		if best == nil {
			continue
		}
		best.words = append([]*word{l.words[0]}, best.words...)
		best.text = l.text + " " + best.text
		best.x0 = math.Min(best.x0, l.x0)
		best.size = math.Max(best.size, l.size)
		lines[i] = nil
		joined = true
	}
	if !joined {
		return lines
	}
	out := lines[:0]
	for _, l := range lines {
		if l != nil {
			out = append(out, l)
		}
	}
	return out
}

// labelText reports a list label standing alone: a bullet, dash or other
// symbol of at most two characters, or up to three digits or a single
// letter followed by "." or ")" ("1.", "12)", "a.").
func labelText(s string) bool {
	n := utf8.RuneCountInString(s)
	if n == 0 || n > 4 {
		return false
	}
	letters, digits, marks := 0, 0, 0
	for _, r := range s {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		case unicode.IsSymbol(r) || r == '•' || r == '·' || r == '‣' || r == '⁃' || r == '–' || r == '—' || r == '-' || r == '*':
			marks++
		}
	}
	if letters+digits == 0 {
		return marks == n && n <= 2
	}
	last, _ := utf8.DecodeLastRuneInString(s)
	return letters <= 1 && marks == 0 && (last == '.' || last == ')') && letters+digits == n-1
}

// hangs reports whether l continues a list item that prev starts: prev
// begins with a label ("•", "1.", "(a)") and l starts under the item's
// text, not under the label.
func hangs(prev, l *line) bool {
	return isLabel(prev) && math.Abs(l.x0-prev.words[1].x0) < 0.5*l.size
}

// isLabel reports whether l begins with a list label ("•", "1.", "(a)")
// followed by text.
func isLabel(l *line) bool {
	if len(l.words) < 2 {
		return false
	}
	label := l.words[0].text
	if utf8.RuneCountInString(label) > 4 {
		return false
	}
	letters, digits := 0, 0
	for _, r := range label {
		switch {
		case unicode.IsLetter(r):
			letters++
		case unicode.IsDigit(r):
			digits++
		}
	}
	if letters > 1 || letters == 1 && !strings.ContainsAny(label, ".)") {
		return false
	}
	if letters+digits > 0 && !strings.ContainsAny(label, ".)") {
		return false // a number in running text, not "3." or "(a)"
	}
	return true
}
