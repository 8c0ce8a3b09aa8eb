package structure

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/normalize"
)

// Rendering is a canonical text rendered as Markdown (CommonMark with
// GitHub's tables), with the place in the Markdown of every code point of
// the text.
type Rendering struct {
	// Markdown is the rendered document.
	Markdown string
	// at[i] is the code point offset in Markdown where the text's code
	// point i was written (len(Markdown) in code points for i == the
	// text's length).
	at []int
}

// Span returns the code point offsets in r.Markdown of the text's span
// [start, end) of code points: from where its first character was written
// to just past where its last was.
func (r *Rendering) Span(start, end int) (mdStart, mdEnd int) {
	start = min(max(start, 0), len(r.at)-1)
	end = min(max(end, start), len(r.at)-1)
	if end == start {
		return r.at[start], r.at[start]
	}
	return r.at[start], r.at[end-1] + 1
}

// Markdown renders text, a canonical text, with its structure s (nil for
// none) as Markdown. It is deterministic, and every character of the
// text is written once, in order, as itself or backslash-escaped: a block
// becomes a paragraph, a heading an ATX heading, a list item an item of a
// bullet or ordered list (nested by its depth), a quote a block quote, a
// code block a fenced block, a table a GFM table (its first row the
// header), a link an inline link, emphasis * or **; a page separator is a
// thematic break. Structure the syntax cannot carry without changing the
// text (emphasis where its delimiters would not be read as such, a link
// inside a link) is left out.
func Markdown(text string, s *Structure) *Rendering {
	var spans []Span
	if s != nil {
		spans = s.Spans
	}
	m := &mdWriter{runes: []rune(text), spans: spans}
	m.at = make([]int, len(m.runes)+1)
	m.render()
	m.at[len(m.runes)] = m.n
	return &Rendering{Markdown: m.b.String(), at: m.at}
}

// mdWriter writes a rendering.
type mdWriter struct {
	runes []rune
	spans []Span
	b     strings.Builder
	n     int // code points written
	at    []int
	next  int    // the first span not yet opened
	open  []Span // the block spans holding the current block, outermost first
	lists []int  // per list depth, how many lists opened at it so far
	first map[Span]bool
}

// write writes markup (no text of the source).
func (m *mdWriter) write(s string) {
	m.b.WriteString(s)
	m.n += utf8.RuneCountInString(s)
}

// char writes the text's code point i, escaped when esc says so.
func (m *mdWriter) char(i int, esc bool) {
	if esc {
		m.b.WriteByte('\\')
		m.n++
	}
	m.at[i] = m.n
	m.b.WriteRune(m.runes[i])
	m.n++
}

func (m *mdWriter) render() {
	m.first = map[Span]bool{}
	var prev []Span // the block spans of the previous block
	for bs := 0; bs < len(m.runes); {
		be := bs
		for be < len(m.runes) && m.runes[be] != '\n' && m.runes[be] != normalize.PageSeparator {
			be++
		}
		// The block spans that hold [bs, be), outermost first.
		for len(m.open) > 0 && m.open[len(m.open)-1].End <= bs {
			m.open = m.open[:len(m.open)-1]
		}
		var inl []Span
		for m.next < len(m.spans) && m.spans[m.next].Start < be {
			sp := m.spans[m.next]
			m.next++
			if placeOf(sp.Kind) == inline {
				inl = append(inl, sp)
				continue
			}
			for len(m.open) > 0 && m.open[len(m.open)-1].End <= sp.Start {
				m.open = m.open[:len(m.open)-1]
			}
			m.open = append(m.open, sp)
			m.first[sp] = true
			if sp.Kind == List {
				for len(m.lists) < m.depth(List) {
					m.lists = append(m.lists, 0)
				}
				m.lists[m.depth(List)-1]++
			}
		}
		if bs > 0 {
			m.between(prev, bs-1)
		}
		m.block(bs, be, inl)
		prev = append(prev[:0], m.open...)
		for _, sp := range m.open {
			m.first[sp] = false
		}
		if be < len(m.runes) {
			bs = be + 1
			continue
		}
		bs = be
	}
	if f := m.fenceOf(); f != "" {
		m.write("\n" + m.prefix(false) + f)
	}
}

// depth counts the open spans of kind k.
func (m *mdWriter) depth(k Kind) int {
	d := 0
	for _, sp := range m.open {
		if sp.Kind == k {
			d++
		}
	}
	return d
}

// innermost returns the innermost open span of kind k.
func (m *mdWriter) innermost(k Kind) (Span, bool) {
	for i := len(m.open) - 1; i >= 0; i-- {
		if m.open[i].Kind == k {
			return m.open[i], true
		}
	}
	return Span{}, false
}

// fence returns the fence of the open code block, or "" outside one.
func (m *mdWriter) fenceOf() string {
	c, ok := m.innermost(Code)
	if !ok {
		return ""
	}
	longest, run := 0, 0
	for _, r := range m.runes[c.Start:c.End] {
		if r == '`' {
			run++
			longest = max(longest, run)
		} else {
			run = 0
		}
	}
	return strings.Repeat("`", max(3, longest+1))
}

// between writes what parts the previous block (held by prev) from the
// next, whose separator is the text's code point sep.
func (m *mdWriter) between(prev []Span, sep int) {
	inCode := func(spans []Span) (Span, bool) {
		for i := len(spans) - 1; i >= 0; i-- {
			if spans[i].Kind == Code {
				return spans[i], true
			}
		}
		return Span{}, false
	}
	pc, wasCode := inCode(prev)
	nc, isCode := inCode(m.open)
	if wasCode && (!isCode || pc != nc) {
		// Close the previous code block at the previous block's prefix.
		saved := m.open
		m.open = prev
		m.write("\n" + m.prefix(false) + m.fenceOf())
		m.open = saved
	}
	m.at[sep] = m.n
	if m.runes[sep] == normalize.PageSeparator {
		m.write("\n\n---\n\n")
		return
	}
	pt, wasTable := innermostOf(prev, Table)
	nt, isTable := m.innermost(Table)
	switch {
	case wasCode && isCode && pc == nc, wasTable && isTable && pt == nt:
		m.write("\n")
	default:
		// The blank line between two blocks keeps the quotes and items
		// that hold both open.
		k := 0
		for k < len(prev) && k < len(m.open) && prev[k] == m.open[k] {
			k++
		}
		saved := m.open
		m.open = m.open[:k]
		m.write("\n" + strings.TrimRight(m.prefix(false), " ") + "\n")
		m.open = saved
	}
}

func innermostOf(spans []Span, k Kind) (Span, bool) {
	for i := len(spans) - 1; i >= 0; i-- {
		if spans[i].Kind == k {
			return spans[i], true
		}
	}
	return Span{}, false
}

// prefix returns the container prefix of the current block: block quote
// markers, and list markers (on an item's first block) or their
// indentation.
func (m *mdWriter) prefix(markers bool) string {
	var p strings.Builder
	depth := 0
	var list Span
	for _, sp := range m.open {
		switch sp.Kind {
		case Quote:
			p.WriteString("> ")
		case List:
			depth++
			list = sp
		case Item:
			marker := "-"
			if depth > 0 && m.lists[depth-1]%2 == 0 {
				marker = "*"
			}
			if list.Ordered {
				marker = "1."
				if depth > 0 && m.lists[depth-1]%2 == 0 {
					marker = "1)"
				}
			}
			if markers && m.first[sp] {
				p.WriteString(marker + " ")
			} else {
				p.WriteString(strings.Repeat(" ", len(marker)+1))
			}
		}
	}
	return p.String()
}

// block writes the block [bs, be) with its inline spans inl.
func (m *mdWriter) block(bs, be int, inl []Span) {
	m.write(m.prefix(true))
	if c, ok := m.innermost(Code); ok {
		if m.first[c] {
			m.write(m.fenceOf() + "\n" + m.prefix(false))
		}
		for i := bs; i < be; i++ {
			m.char(i, false)
		}
		return
	}
	if h, ok := m.innermost(Heading); ok && h.Start <= bs && h.End >= be {
		m.write(strings.Repeat("#", h.Level) + " ")
		m.inline(bs, be, inl, false, true)
		return
	}
	if t, ok := m.innermost(Table); ok {
		if r, ok := m.innermost(Row); ok && r.Start == bs {
			m.row(t, bs, be, inl)
			return
		}
	}
	m.inline(bs, be, inl, false, false)
}

// row writes a table row, and after the table's first row its delimiter
// row. Every row has the table's number of columns.
func (m *mdWriter) row(t Span, bs, be int, inl []Span) {
	cols := 0
	rowCells := 0
	for _, sp := range m.spans {
		if sp.Start >= t.End {
			break
		}
		if sp.Kind == Row && sp.Start >= t.Start {
			cols = max(cols, rowCells)
			rowCells = 0
		}
		if sp.Kind == Cell && sp.Start >= t.Start {
			rowCells++
		}
	}
	cols = max(cols, rowCells, 1)
	var cells, rest []Span
	for _, sp := range inl {
		if sp.Kind == Cell {
			cells = append(cells, sp)
		} else {
			rest = append(rest, sp)
		}
	}
	if len(cells) == 0 {
		cells = []Span{{Kind: Cell, Start: bs, End: be}}
	}
	m.write("| ")
	pos := bs
	for i, c := range cells {
		// The text between cells holds the cell separator, whose pipe is
		// markup and text at once.
		piped := i == 0
		for ; pos < c.Start; pos++ {
			bar := !piped && m.runes[pos] == '|'
			piped = piped || bar
			m.char(pos, !bar && m.escape(pos, bs, true, false))
		}
		if !piped {
			m.write(" | ")
		}
		m.inline(c.Start, c.End, within(rest, c), true, false)
		pos = c.End
	}
	for ; pos < be; pos++ {
		m.char(pos, m.escape(pos, bs, true, false))
	}
	m.write(" |")
	for i := len(cells); i < cols; i++ {
		m.write("  |")
	}
	if r, _ := m.innermost(Row); r.Start == bs && m.firstRow(t, bs) {
		m.write("\n" + m.prefix(false) + "|" + strings.Repeat(" --- |", cols))
	}
}

// firstRow reports whether the row at bs is table t's first.
func (m *mdWriter) firstRow(t Span, bs int) bool {
	for _, sp := range m.spans {
		if sp.Kind == Row && sp.Start >= t.Start && sp.End <= t.End {
			return sp.Start == bs
		}
	}
	return false
}

// within returns the spans of inl inside c.
func within(inl []Span, c Span) []Span {
	var out []Span
	for _, sp := range inl {
		if sp.Start >= c.Start && sp.End <= c.End {
			out = append(out, sp)
		}
	}
	return out
}

// inline writes the text [bs, be) with its links and emphasis; cell says
// it is a table cell's (its pipes escaped), heading a heading's (its
// number signs escaped).
func (m *mdWriter) inline(bs, be int, inl []Span, cell, heading bool) {
	type mark struct {
		at    int
		open  bool
		token string
	}
	var opens, closes []mark
	link := -1 // the end of the link being written
	for _, sp := range inl {
		if sp.Start < bs || sp.End > be {
			continue
		}
		switch sp.Kind {
		case Link:
			if sp.Start < link {
				continue
			}
			link = sp.End
			opens = append(opens, mark{sp.Start, true, "["})
			closes = append(closes, mark{sp.End, false, "](" + destination(sp.Href) + ")"})
		case Emphasis:
			d := "*"
			if sp.Strong {
				d = "**"
			}
			if !m.flanking(sp, inl) {
				continue
			}
			opens = append(opens, mark{sp.Start, true, d})
			closes = append(closes, mark{sp.End, false, d})
		}
	}
	oi := 0
	// Closers come in reverse order of their openers when they meet at one
	// offset, as spans nest.
	var pending []mark
	for i := bs; i <= be; i++ {
		for len(pending) > 0 && pending[len(pending)-1].at == i {
			m.write(pending[len(pending)-1].token)
			pending = pending[:len(pending)-1]
		}
		for oi < len(opens) && opens[oi].at == i {
			m.write(opens[oi].token)
			pending = append(pending, closes[oi])
			oi++
		}
		if i == be {
			break
		}
		m.char(i, m.escape(i, bs, cell, heading))
	}
}

// flanking reports whether emphasis sp's delimiters would be read as
// emphasis: its first and last characters are letters or digits, and no
// other delimiter or link bracket touches them.
func (m *mdWriter) flanking(sp Span, inl []Span) bool {
	for _, o := range inl {
		if o != sp && (o.Start == sp.Start || o.End == sp.End || o.End == sp.Start || o.Start == sp.End) {
			return false
		}
	}
	letter := func(i int) bool {
		return i >= 0 && i < len(m.runes) && (unicode.IsLetter(m.runes[i]) || unicode.IsDigit(m.runes[i]))
	}
	return letter(sp.Start) && letter(sp.End-1)
}

// escape reports whether the text's code point i, in a block that begins
// at bs, is backslash-escaped so that it reads as itself.
func (m *mdWriter) escape(i, bs int, cell, heading bool) bool {
	r := m.runes[i]
	switch r {
	case '\\', '`', '*', '_', '[', ']', '<', '>', '&', '~':
		return true
	case '|':
		return cell
	case '#':
		return heading || i == bs
	case '-', '+', '=':
		return i == bs
	case '.', ')':
		// "1." or "1)" opening a block would start an ordered list.
		j := i - 1
		for j >= bs && m.runes[j] >= '0' && m.runes[j] <= '9' {
			j--
		}
		return j < bs && j < i-1
	}
	return false
}

// destination writes a link's target for an inline link: spaces percent
// encoded, and the characters CommonMark reads in a destination escaped.
func destination(href string) string {
	var b strings.Builder
	for _, r := range href {
		switch {
		case r == ' ':
			b.WriteString("%20")
		case r < ' ' || r == 0x7f:
		case strings.ContainsRune(`\&<>()`, r):
			b.WriteByte('\\')
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}
