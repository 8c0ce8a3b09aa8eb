package doctext

import (
	"cmp"
	"encoding/xml"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/digestd/digestd/structure"
)

// docx converts a WordprocessingML document: the body's paragraphs, list
// items and table rows in order (numbered ones after their numbers, cells
// in their grid columns, equations in a linear form, pictures by their alt
// text, charts by their data, SmartArt diagrams by their nodes' texts),
// then footnotes and endnotes, then the
// comments.
func (c *conv) docx(raw []byte) error {
	z, err := c.openZip(raw)
	if err != nil {
		return err
	}
	if err := c.coreProperties(z, "docProps/core.xml"); err != nil {
		return err
	}
	main := c.mainPart(z, "word/document.xml")
	rels, err := c.relsOf(z, main)
	if err != nil {
		return err
	}
	var numbering, styles string
	if t := ofType(rels, "/numbering"); len(t) > 0 {
		numbering = t[0]
	}
	if t := ofType(rels, "/styles"); len(t) > 0 {
		styles = t[0]
	}
	num, err := c.readNumbering(z, numbering, styles)
	if err != nil {
		return err
	}
	headings, err := c.readHeadingStyles(z, styles)
	if err != nil {
		return err
	}
	w := &wordWalker{c: c, z: z, rels: byID(rels), alt: "docPr", num: num, headings: headings, refs: map[string]int{}}
	if err := c.walkPart(z, main, w.handler()); err != nil {
		return err
	}
	c.flush()
	var notes []wordNote
	for _, part := range []string{"word/footnotes.xml", "word/endnotes.xml"} {
		if !z.has(part) {
			continue
		}
		data, err := z.read(part)
		if err != nil {
			return err
		}
		n := &wordWalker{c: c, notes: true, refs: w.refs}
		if err := c.walkXML(data, n.handler()); err != nil {
			return err
		}
		notes = append(notes, n.done...)
	}
	// Notes follow the order of their marks in the text; a note no mark
	// points to comes last.
	slices.SortStableFunc(notes, func(a, b wordNote) int {
		return cmp.Compare(cmp.Or(a.seq, math.MaxInt), cmp.Or(b.seq, math.MaxInt))
	})
	for _, n := range notes {
		c.notes = append(c.notes, n.text)
	}
	c.addNotes()
	var comments []comment
	for _, part := range ofType(rels, "/comments") {
		if !z.has(part) {
			continue
		}
		data, err := z.read(part)
		if err != nil {
			return err
		}
		n := &wordWalker{c: c, notes: true, refs: w.refs}
		if err := c.walkXML(data, n.handler()); err != nil {
			return err
		}
		for _, d := range n.done {
			comments = append(comments, comment{d.author, d.text})
		}
	}
	return c.addComments(comments)
}

// wordNote is a footnote or endnote with the number of its mark (0: no
// mark points to it), or a comment with its author.
type wordNote struct {
	seq          int
	author, text string
}

// maxNotes bounds the notes of a document.
const maxNotes = 100000

// noteMark is how a note's mark reads in the text and before the note.
func noteMark(n int) string { return "[" + strconv.Itoa(n) + "]" }

// wordWalker turns WordprocessingML into blocks: one per paragraph, one
// per table row (cells joined), one per note.
type wordWalker struct {
	c     *conv
	z     *container        // the package, for the parts a chart reference names
	rels  map[string]string // the read part's relationships: id → part
	alt   string            // the element whose title and descr are a picture's alt text ("docPr", "cNvPr")
	notes bool              // reading footnotes.xml, endnotes.xml or comments.xml
	num   *wordNumbering    // the document's lists, nil when it has none
	inPPr bool              // inside a paragraph's properties
	para  paraNumbering     // the open paragraph's numbering properties
	// headings holds the paragraph styles that make headings; outline is
	// the open paragraph's own outline level (-1: none given), pStart
	// where its text begins, and table the span of the open table.
	headings map[string]*wordStyle
	outline  int
	pStart   int
	kinded   bool // the open paragraph's kind is known
	table    int
	math     *mathReader // the open equation, nil outside one
	// cells reads the cells a chart's formula names, in a workbook.
	cells  func(ref string) []string
	inText bool
	skip   int // depth inside content that is not text (deletions, moved-from text, fallbacks, field codes)
	tables []*tableState
	note   strings.Builder
	inNote bool
	// noteSeq is the open note's number, noteAuthor a comment's author.
	noteSeq    int
	noteAuthor string
	// refs numbers the notes by their marks' order ("footnote:ID" → n).
	refs map[string]int
	done []wordNote
}

// tableState is a table being read: its current row's cells.
type tableState struct {
	cells []string
	cell  strings.Builder
	inRow bool
	span  int // the open cell's gridSpan
}

// maxGridSkip bounds the columns a row skips (gridBefore) or a cell spans
// (gridSpan); Word's tables have at most 63 columns.
const maxGridSkip = 64

// gridVal reads the w:val of a grid property, bounded.
func gridVal(e xml.StartElement) int {
	n, err := strconv.Atoi(attr(e, "val"))
	if err != nil || n < 0 {
		return 0
	}
	return min(n, maxGridSkip)
}

func (w *wordWalker) handler() xmlHandler {
	return xmlHandler{start: w.start, end: w.end, text: w.chars}
}

func (w *wordWalker) write(s string) error {
	switch {
	case len(w.tables) > 0:
		t := w.tables[len(w.tables)-1]
		if t.cell.Len() < w.c.lim.MaxChars {
			t.cell.WriteString(s)
		}
		return nil
	case w.notes:
		if w.inNote && w.note.Len() < w.c.lim.MaxChars {
			w.note.WriteString(s)
		}
		return nil
	}
	return w.c.text(s)
}

func (w *wordWalker) start(e xml.StartElement) error {
	if w.skip > 0 {
		w.skip++
		return nil
	}
	if w.math == nil && e.Name.Local == "oMath" {
		w.math = &mathReader{}
	}
	if w.math != nil {
		switch e.Name.Local {
		case "del", "moveFrom", "Fallback":
			w.skip = 1
			return nil
		}
		return w.math.start(e)
	}
	if e.Name.Local == w.alt || w.alt == "docPr" && e.Name.Space == "v" && (e.Name.Local == "shape" || e.Name.Local == "imagedata") {
		if t := altText(e); t != "" {
			return w.blocks([]string{t})
		}
	}
	switch e.Name.Local {
	case "chart":
		if e.Name.Space == "c" && w.z != nil {
			lines, err := w.c.chartLines(w.z, w.rels[attrNS(e, "r", "id")], w.cells)
			if err != nil {
				return err
			}
			return w.blocks(lines)
		}
	case "relIds":
		// A SmartArt diagram reads as its nodes' texts at its place.
		if w.z != nil {
			lines, err := w.c.diagramLines(w.z, w.rels[attrNS(e, "r", "dm")])
			if err != nil {
				return err
			}
			return w.blocks(lines)
		}
	case "comment":
		w.inNote = true
		w.note.Reset()
		w.noteSeq, w.noteAuthor = 0, attr(e, "author")
	case "del", "moveFrom", "Fallback", "instrText", "delText", "footnoteRef", "endnoteRef", "pPrChange", "trPrChange", "tcPrChange", "numberingChange":
		w.skip = 1
	case "p":
		if len(w.tables) == 0 && !w.notes {
			w.pStart, w.para, w.outline, w.kinded = w.c.pos(), paraNumbering{level: -1}, -1, false
		}
	case "pPr":
		w.inPPr, w.para = true, paraNumbering{level: -1}
	case "outlineLvl":
		if w.inPPr {
			if v, err := strconv.Atoi(attr(e, "val")); err == nil {
				w.outline = v
			}
		}
	case "pStyle", "numId", "ilvl":
		if w.inPPr {
			switch v := attr(e, "val"); e.Name.Local {
			case "pStyle":
				w.para.style = v
			case "numId":
				w.para.numID = v
			default:
				w.para.level, _ = strconv.Atoi(v)
			}
		}
	case "gridBefore":
		// The row starts past its first columns: they are empty cells.
		if n := len(w.tables); n > 0 && w.tables[n-1].inRow {
			t := w.tables[n-1]
			for range gridVal(e) {
				t.cells = append(t.cells, "")
			}
		}
	case "gridSpan":
		if n := len(w.tables); n > 0 {
			w.tables[n-1].span = gridVal(e)
		}
	case "footnoteReference", "endnoteReference":
		key := strings.TrimSuffix(e.Name.Local, "Reference") + ":" + attr(e, "id")
		n, ok := w.refs[key]
		if !ok && len(w.refs) < maxNotes {
			n = len(w.refs) + 1
			w.refs[key] = n
		}
		if n > 0 {
			return w.write(noteMark(n))
		}
	case "footnote", "endnote":
		if typ := attr(e, "type"); typ == "separator" || typ == "continuationSeparator" || typ == "continuationNotice" {
			w.skip = 1
			return nil
		}
		w.inNote = true
		w.note.Reset()
		w.noteSeq, w.noteAuthor = w.refs[e.Name.Local+":"+attr(e, "id")], ""
		if w.noteSeq > 0 {
			w.note.WriteString(noteMark(w.noteSeq) + " ")
		}
	case "t":
		w.inText = true
	case "tab", "br", "cr":
		return w.write(" ")
	case "tbl":
		if len(w.tables) == 0 {
			w.c.flush()
			if !w.notes {
				w.c.endLists()
				w.table = w.c.openSpan(structure.Span{Kind: structure.Table})
			}
		} else {
			w.tables[len(w.tables)-1].cell.WriteByte(' ')
		}
		w.tables = append(w.tables, &tableState{})
	case "tr":
		if len(w.tables) > 0 {
			t := w.tables[len(w.tables)-1]
			t.cells, t.inRow = t.cells[:0], true
		}
	case "tc":
		if len(w.tables) > 0 {
			w.tables[len(w.tables)-1].cell.Reset()
			w.tables[len(w.tables)-1].span = 0
		}
	}
	return nil
}

func (w *wordWalker) end(e xml.EndElement) error {
	if w.skip > 0 {
		w.skip--
		return nil
	}
	if w.math != nil {
		if !w.math.end() {
			return nil
		}
		// An equation reads in its linear form (omml.go).
		s := w.math.root.linear()
		w.math = nil
		return w.write(s)
	}
	switch e.Name.Local {
	case "t":
		w.inText = false
	case "pPr":
		if w.inPPr {
			w.inPPr = false
			if len(w.tables) == 0 && !w.notes {
				w.paragraphKind()
			}
			// A numbered paragraph opens with its number, as Word shows it.
			if w.num == nil {
				return nil
			}
			if label, suffix := w.num.label(w.para); label != "" {
				return w.write(label + suffix)
			}
		}
	case "p":
		if len(w.tables) == 0 && !w.notes {
			if !w.kinded {
				w.c.endListsAt(w.pStart)
			}
			w.c.flush()
		} else {
			return w.write(" ")
		}
	case "tc":
		if len(w.tables) > 0 {
			t := w.tables[len(w.tables)-1]
			t.cells = append(t.cells, t.cell.String())
			t.cell.Reset()
			// A cell spanning columns leaves the ones it covers empty.
			for i := 1; i < t.span; i++ {
				t.cells = append(t.cells, "")
			}
		}
	case "tr":
		if n := len(w.tables); n > 0 {
			t := w.tables[n-1]
			t.inRow = false
			if n == 1 && !w.notes {
				return w.c.row(t.cells)
			}
			// A nested table's row (or a note's table) reads as text of
			// the enclosing cell or note.
			return writeAbove(&w.tables, w.write, strings.Join(t.cells, " ")+" ")
		}
	case "tbl":
		if n := len(w.tables); n > 0 {
			w.tables = w.tables[:n-1]
			if n == 1 && !w.notes {
				w.c.closeSpan(w.table)
			}
		}
	case "footnote", "endnote", "comment":
		if w.inNote {
			if len(w.done) < maxNotes {
				w.done = append(w.done, wordNote{w.noteSeq, w.noteAuthor, w.note.String()})
			}
			w.inNote = false
		}
	}
	return nil
}

// paragraphKind marks the open body paragraph, once its properties are
// read: a heading, an item of a list (opened at its start), or neither
// (which ends the open lists at its start).
func (w *wordWalker) paragraphKind() {
	w.kinded = true
	if level := headingLevel(w.headings, w.para.style, w.outline); level > 0 {
		w.c.endListsAt(w.pStart)
		w.c.blockKind(structure.Span{Kind: structure.Heading, Level: level})
		return
	}
	if depth, ordered, ok := w.num.listOf(w.para); ok {
		w.c.listItemAt(depth, ordered, w.pStart)
		return
	}
	w.c.endListsAt(w.pStart)
}

// blocks writes lines at the walker's place: blocks of their own in the
// body, text of the cell or note that holds them elsewhere.
func (w *wordWalker) blocks(lines []string) error {
	if len(w.tables) > 0 || w.notes {
		for _, l := range lines {
			if err := w.write(" " + l + " "); err != nil {
				return err
			}
		}
		return nil
	}
	w.c.flush()
	for _, l := range lines {
		if err := w.c.text(l); err != nil {
			return err
		}
		w.c.flush()
	}
	return nil
}

// altText returns a picture's alt text: the title and the description
// its properties give (DrawingML's title and descr, VML's alt and
// o:title), each once.
func altText(e xml.StartElement) string {
	var parts []string
	for _, name := range []string{"title", "descr", "alt"} {
		if v := strings.Join(strings.Fields(attr(e, name)), " "); v != "" && !slices.Contains(parts, v) {
			parts = append(parts, v)
		}
	}
	return strings.Join(parts, " ")
}

// writeAbove writes s with the innermost of tables set aside: a nested
// table's row reads as text of what encloses that table. The walkers of
// Word and OpenDocument files share it.
func writeAbove[T any](tables *[]T, write func(string) error, s string) error {
	n := len(*tables)
	inner := (*tables)[n-1]
	*tables = (*tables)[:n-1]
	err := write(s)
	*tables = append(*tables, inner)
	return err
}

func (w *wordWalker) chars(s string) error {
	if w.math != nil && w.skip == 0 {
		w.math.text(s, w.c.lim.MaxChars)
		return nil
	}
	if w.skip > 0 || !w.inText {
		return nil
	}
	return w.write(s)
}
