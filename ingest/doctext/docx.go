package doctext

import (
	"cmp"
	"encoding/xml"
	"math"
	"slices"
	"strconv"
	"strings"
)

// docx converts a WordprocessingML document: the body's paragraphs, list
// items and table rows in order, then footnotes and endnotes.
func (c *conv) docx(raw []byte) error {
	z, err := c.openZip(raw)
	if err != nil {
		return err
	}
	if err := c.coreProperties(z, "docProps/core.xml"); err != nil {
		return err
	}
	main := "word/document.xml"
	if rels, err := c.relationshipsOfType(z, "_rels/.rels", "", "/officeDocument"); err == nil && len(rels) > 0 {
		main = rels[0]
	}
	data, err := z.read(main)
	if err != nil {
		return err
	}
	w := &wordWalker{c: c, refs: map[string]int{}}
	if err := c.walkXML(data, w.handler()); err != nil {
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
	return nil
}

// wordNote is a footnote or endnote with the number of its mark (0: no
// mark points to it).
type wordNote struct {
	seq  int
	text string
}

// maxNotes bounds the notes of a document.
const maxNotes = 100000

// noteMark is how a note's mark reads in the text and before the note.
func noteMark(n int) string { return "[" + strconv.Itoa(n) + "]" }

// relationshipsOfType returns the targets of a relationships part whose
// type ends in typeSuffix, in document order.
func (c *conv) relationshipsOfType(z *container, relsPath, baseDir, typeSuffix string) ([]string, error) {
	var out []string
	if !z.has(relsPath) {
		return nil, nil
	}
	data, err := z.read(relsPath)
	if err != nil {
		return nil, err
	}
	err = c.walkXML(data, xmlHandler{start: func(e xml.StartElement) error {
		if e.Name.Local == "Relationship" && strings.HasSuffix(attr(e, "Type"), typeSuffix) && attr(e, "TargetMode") != "External" {
			out = append(out, resolve(baseDir, attr(e, "Target")))
		}
		return nil
	}})
	return out, err
}

// wordWalker turns WordprocessingML into blocks: one per paragraph, one
// per table row (cells joined), one per note.
type wordWalker struct {
	c      *conv
	notes  bool // reading footnotes.xml or endnotes.xml
	inText bool
	skip   int // depth inside content that is not text (deletions, moved-from text, fallbacks, field codes)
	tables []*tableState
	note   strings.Builder
	inNote bool
	// noteSeq is the open note's number.
	noteSeq int
	// refs numbers the notes by their marks' order ("footnote:ID" → n).
	refs map[string]int
	done []wordNote
}

// tableState is a table being read: its current row's cells.
type tableState struct {
	cells []string
	cell  strings.Builder
	inRow bool
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
	switch e.Name.Local {
	case "del", "moveFrom", "Fallback", "instrText", "delText", "footnoteRef", "endnoteRef":
		w.skip = 1
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
		w.noteSeq = w.refs[e.Name.Local+":"+attr(e, "id")]
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
		}
	}
	return nil
}

func (w *wordWalker) end(e xml.EndElement) error {
	if w.skip > 0 {
		w.skip--
		return nil
	}
	switch e.Name.Local {
	case "t":
		w.inText = false
	case "p":
		if len(w.tables) == 0 && !w.notes {
			w.c.flush()
		} else {
			return w.write(" ")
		}
	case "tc":
		if len(w.tables) > 0 {
			t := w.tables[len(w.tables)-1]
			t.cells = append(t.cells, t.cell.String())
			t.cell.Reset()
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
		}
	case "footnote", "endnote":
		if w.inNote {
			if len(w.done) < maxNotes {
				w.done = append(w.done, wordNote{w.noteSeq, w.note.String()})
			}
			w.inNote = false
		}
	}
	return nil
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
	if w.skip > 0 || !w.inText {
		return nil
	}
	return w.write(s)
}
