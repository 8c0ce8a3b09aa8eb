package doctext

import (
	"encoding/xml"
	"slices"
	"strconv"
	"strings"

	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/structure"
)

// maxRepeat bounds how often a repeated ODF cell or row with text is
// written out (a sheet may declare a cell repeated a million times).
const maxRepeat = 256

// odf converts an OpenDocument text, presentation or spreadsheet from its
// content.xml: an ODT's headings, paragraphs, list items and table rows,
// then its notes; an ODP's slides (draw:page) as pages named by their
// title frame, each followed by its speaker notes (numbered list items and
// headings open with their numbers, odfnumbering.go); an ODS's sheets as
// pages that open with the sheet's name, one block per row. A picture's
// or shape's title and description (svg:title, svg:desc) read at its
// place, and comments (office:annotation) close their page.
func (c *conv) odf(kind string, raw []byte) error {
	z, err := c.openZip(raw)
	if err != nil {
		return err
	}
	if z.has("META-INF/manifest.xml") {
		data, err := z.read("META-INF/manifest.xml")
		if err != nil {
			return err
		}
		if err := c.refuseEncrypted(data, func(e xml.StartElement) bool { return e.Name.Local == "encryption-data" }); err != nil {
			return err
		}
	}
	if err := c.coreProperties(z, "meta.xml"); err != nil {
		return err
	}
	w := &odfWalker{c: c, z: z, kind: kind, num: newODFNumbering()}
	if z.has("styles.xml") {
		// The list styles and the outline style that number paragraphs.
		err := c.walkPart(z, "styles.xml", xmlHandler{start: func(e xml.StartElement) error {
			w.num.style(e)
			return nil
		}, end: func(e xml.EndElement) error {
			w.num.endStyle(e)
			return nil
		}})
		if err != nil {
			return err
		}
	}
	if err := c.walkPart(z, "content.xml", w.handler()); err != nil {
		return err
	}
	c.addNotes()
	return w.endComments()
}

// odfWalker turns content.xml into blocks.
type odfWalker struct {
	c      *conv
	z      *container // the package, for embedded charts
	kind   string
	para   int // depth inside text:p / text:h
	skip   int // depth inside text that is not content
	note   int // depth inside a note body
	noteB  strings.Builder
	tables []*odfTable
	title  int // depth inside an ODP title frame
	titleB strings.Builder
	frames []bool // open draw:frame elements: skipped or not
	// citation is the depth inside a note's mark, citeB its text.
	citation int
	citeB    strings.Builder
	// annot is the depth inside a comment (office:annotation), annotPara
	// inside its paragraphs, annotBy inside its author; comments holds the
	// page's comments so far.
	annot, annotPara int
	annotBy          bool
	author, said     strings.Builder
	comments         []comment
	// alt is the depth inside a frame's or shape's svg:title or svg:desc,
	// altB its text; alts holds the blocks of the open frame: its title
	// and description (altText, joined in one block) or its chart's lines.
	alt     int
	altB    strings.Builder
	alts    []string
	altText bool
	// lists is the depth inside text:list elements of the body; table is
	// the span of the open top-level table.
	lists int
	table int
	// num numbers list items and headings; depth is the depth of the
	// open element, and labelled is true inside a paragraph that opens
	// with its number.
	num      *odfNumbering
	depth    int
	labelled bool
}

type odfTable struct {
	cells   []string
	cell    strings.Builder
	repeat  int // the open cell's number-columns-repeated
	rowRep  int // the open row's number-rows-repeated
	isSheet bool
}

func (w *odfWalker) handler() xmlHandler {
	return xmlHandler{start: w.start, end: w.end, text: w.chars}
}

func (w *odfWalker) write(s string) error {
	switch {
	case w.note > 0:
		if w.noteB.Len() < w.c.lim.MaxChars {
			w.noteB.WriteString(s)
		}
	case len(w.tables) > 0:
		t := w.tables[len(w.tables)-1]
		if t.cell.Len() < w.c.lim.MaxChars {
			t.cell.WriteString(s)
		}
	default:
		if w.title > 0 && w.titleB.Len() < 1024 {
			w.titleB.WriteString(s)
		}
		return w.c.text(s)
	}
	return nil
}

func repeatOf(e xml.StartElement, name string) int {
	n, err := strconv.Atoi(attr(e, name))
	if err != nil || n < 1 {
		return 1
	}
	return n
}

func (w *odfWalker) start(e xml.StartElement) error {
	w.depth++
	if w.skip > 0 {
		w.skip++
		return nil
	}
	if w.annot > 0 {
		w.annot++
		switch e.Name.Space + ":" + e.Name.Local {
		case "dc:creator":
			w.annotBy = true
		case "text:p", "text:h":
			w.annotPara++
			w.said.WriteByte(' ')
		case "text:s", "text:tab", "text:line-break":
			w.said.WriteByte(' ')
		}
		return nil
	}
	switch e.Name.Space + ":" + e.Name.Local {
	case "text:list-style", "text:outline-style", "text:list-level-style-number", "text:outline-level-style", "text:list-level-style-bullet", "text:list-level-style-image":
		w.num.style(e)
	case "text:number":
		// The number a file states: the one counted from the styles
		// stands instead.
		if w.para == 0 || w.labelled {
			w.skip = 1
		}
	case "office:annotation", "officeooo:annotation":
		w.annot = 1
		w.author.Reset()
		w.said.Reset()
	case "svg:title", "svg:desc":
		w.alt++
		w.altB.Reset()
	case "draw:object":
		// An embedded chart reads as its data at its place.
		href := strings.TrimPrefix(attrNS(e, "xlink", "href"), "./")
		if href == "" || strings.Contains(href, ":") {
			return nil
		}
		lines, err := w.c.odfChart(w.z, resolve("", href+"/content.xml"))
		if err != nil || len(lines) == 0 {
			return err
		}
		w.alts = append(w.alts[:0], lines...)
	case "text:tracked-changes", "draw:page-thumbnail":
		w.skip = 1
	case "text:note-citation":
		// The note's mark: "[n]" in the text, and again before the note.
		w.citation++
		w.citeB.Reset()
	case "text:note":
		w.note++
		if w.note == 1 {
			w.noteB.Reset()
		}
	case "text:p", "text:h":
		w.para++
		// A heading, a paragraph of the Title style (a document's title,
		// as office suites and Pandoc write it) or of a slide's title
		// frame, is a heading.
		if (e.Name.Local == "h" || attrNS(e, "text", "style-name") == "Title" || w.title > 0) && w.para == 1 && w.note == 0 && len(w.tables) == 0 {
			level, err := strconv.Atoi(attrNS(e, "text", "outline-level"))
			if err != nil {
				level = 1
			}
			w.c.flush()
			w.c.blockKind(structure.Span{Kind: structure.Heading, Level: level})
		}
		outline := 0
		if e.Name.Local == "h" {
			outline = max(positive(e, "text", "outline-level"), 1)
		}
		if label := w.num.paragraph(e, w.depth, outline); label != "" {
			w.labelled = true
			return w.write(label + " ")
		}
	case "text:list":
		w.num.openList(e)
		if w.note == 0 && len(w.tables) == 0 {
			w.lists++
		}
	case "text:list-item", "text:list-header":
		ordered := w.num.openItem(e, w.depth)
		if w.note == 0 && len(w.tables) == 0 && w.lists > 0 {
			w.c.listItem(w.lists, ordered)
		}
	case "text:s":
		n := min(repeatOf(e, "c"), 64)
		return w.write(strings.Repeat(" ", n))
	case "text:tab", "text:line-break":
		return w.write(" ")
	case "draw:page":
		w.c.startPage(attr(e, "name"))
	case "draw:frame":
		class := attrNS(e, "presentation", "class")
		skip := class == "page-number" || class == "date-time" || class == "footer" || class == "header"
		w.frames = append(w.frames, skip)
		if skip {
			w.frames = w.frames[:len(w.frames)-1]
			w.skip = 1
			return nil
		}
		if class == "title" && w.kind == format.ODP {
			w.title++
		}
	case "table:table":
		sheet := w.kind == format.ODS && len(w.tables) == 0
		if sheet {
			name := attr(e, "name")
			w.c.startPage(name)
			w.c.emit(name)
		} else if len(w.tables) == 0 {
			w.c.flush()
		}
		if len(w.tables) == 0 {
			w.table = w.c.openSpan(structure.Span{Kind: structure.Table})
		}
		w.tables = append(w.tables, &odfTable{isSheet: sheet})
	case "table:table-row":
		if t := w.top(); t != nil {
			t.cells = t.cells[:0]
			t.rowRep = repeatOf(e, "number-rows-repeated")
		}
	case "table:table-cell", "table:covered-table-cell":
		if t := w.top(); t != nil {
			t.cell.Reset()
			t.repeat = repeatOf(e, "number-columns-repeated")
		}
	}
	return nil
}

func (w *odfWalker) top() *odfTable {
	if len(w.tables) == 0 {
		return nil
	}
	return w.tables[len(w.tables)-1]
}

func (w *odfWalker) end(e xml.EndElement) error {
	w.depth--
	if w.skip > 0 {
		w.skip--
		return nil
	}
	if w.annot > 0 {
		w.annot--
		switch e.Name.Space + ":" + e.Name.Local {
		case "dc:creator":
			w.annotBy = false
		case "text:p", "text:h":
			w.annotPara--
		}
		if w.annot == 0 && len(w.comments) < maxComments {
			w.comments = append(w.comments, comment{w.author.String(), w.said.String()})
		}
		return nil
	}
	switch e.Name.Space + ":" + e.Name.Local {
	case "svg:title", "svg:desc":
		w.alt--
		if t := strings.Join(strings.Fields(w.altB.String()), " "); t != "" && w.alt == 0 && !slices.Contains(w.alts, t) && len(w.alts) < 2 {
			w.alts, w.altText = append(w.alts, t), true
		}
		return nil
	}
	if e.Name.Space == "draw" && len(w.alts) > 0 {
		// The frame or shape that holds a title and description ends:
		// they read at its place, a block of their own.
		lines := w.alts
		if w.altText {
			lines = []string{strings.Join(w.alts, " ")}
		}
		w.alts, w.altText = w.alts[:0], false
		for _, t := range lines {
			if w.note > 0 || len(w.tables) > 0 {
				if err := w.write(" " + t + " "); err != nil {
					return err
				}
				continue
			}
			w.c.flush()
			if err := w.c.text(t); err != nil {
				return err
			}
			w.c.flush()
		}
	}
	switch e.Name.Space + ":" + e.Name.Local {
	case "text:list-style", "text:outline-style":
		w.num.endStyle(e)
	case "text:number":
		return w.write(" ")
	case "text:list-item", "text:list-header":
		w.num.closeItem()
	case "text:note-citation":
		w.citation--
		mark := "[" + strings.TrimSpace(w.citeB.String()) + "]"
		w.noteB.WriteString(mark + " ")
		w.note--
		err := w.write(mark)
		w.note++
		return err
	case "text:list":
		w.num.closeList()
		if w.note == 0 && len(w.tables) == 0 && w.lists > 0 {
			w.lists--
			if w.lists == 0 {
				w.c.endLists()
			}
		}
	case "text:note":
		w.note--
		if w.note == 0 {
			w.c.notes = append(w.c.notes, w.noteB.String())
		}
	case "text:p", "text:h":
		w.para--
		if w.para == 0 {
			w.labelled = false
		}
		if w.note > 0 || len(w.tables) > 0 {
			return w.write(" ")
		}
		if w.title > 0 {
			w.titleB.WriteByte(' ')
		}
		w.c.flush()
	case "draw:frame":
		if n := len(w.frames); n > 0 {
			w.frames = w.frames[:n-1]
		}
		if w.title > 0 {
			w.title--
			title := strings.Join(strings.Fields(w.titleB.String()), " ")
			if w.title == 0 && len(w.c.res.PageNames) > 0 && title != "" {
				// A slide's title names it better than draw:name, which
				// is often "page1".
				w.c.res.PageNames[len(w.c.res.PageNames)-1] = title
			}
			w.titleB.Reset()
		}
	case "draw:page":
		if err := w.endComments(); err != nil {
			return err
		}
		w.c.endPage()
	case "table:table-cell", "table:covered-table-cell":
		if t := w.top(); t != nil {
			s := t.cell.String()
			for range min(t.repeat, maxRepeat) {
				t.cells = append(t.cells, s)
			}
			t.cell.Reset()
		}
	case "table:table-row":
		if n := len(w.tables); n > 0 {
			t := w.tables[n-1]
			if n > 1 {
				return writeAbove(&w.tables, w.write, strings.Join(t.cells, " ")+" ")
			}
			rep := min(t.rowRep, maxRepeat)
			for range rep {
				if err := w.c.tick(); err != nil {
					return err
				}
				if err := w.c.row(append([]string(nil), t.cells...)); err != nil {
					return err
				}
			}
		}
	case "table:table":
		if n := len(w.tables); n > 0 {
			sheet := w.tables[n-1].isSheet
			w.tables = w.tables[:n-1]
			if n == 1 {
				w.c.closeSpan(w.table)
			}
			if sheet {
				if err := w.endComments(); err != nil {
					return err
				}
				w.c.endPage()
			}
		}
	}
	return nil
}

// endComments ends the page (a slide, a sheet, the text) with its
// comments.
func (w *odfWalker) endComments() error {
	cs := w.comments
	w.comments = nil
	return w.c.addComments(cs)
}

func (w *odfWalker) chars(s string) error {
	if w.annot > 0 && w.skip == 0 {
		switch {
		case w.annotBy && w.author.Len() < maxChartText:
			w.author.WriteString(s)
		case w.annotPara > 0 && w.said.Len() < w.c.lim.MaxChars:
			w.said.WriteString(s)
		}
		return nil
	}
	if w.alt > 0 {
		if w.altB.Len() < maxChartText {
			w.altB.WriteString(s)
		}
		return nil
	}
	if w.citation > 0 {
		if w.citeB.Len() < 32 {
			w.citeB.WriteString(s)
		}
		return nil
	}
	if w.skip > 0 || w.para == 0 {
		return nil
	}
	return w.write(s)
}

// odfChart reads an embedded OpenDocument chart (an object's content.xml
// holding chart:chart) into blocks, as chartLines does for OOXML: its
// title, subtitle and axis titles, its categories (the first column of its
// data table) joined by CellSeparator, then one line per series (a
// column: its header, then its values). An object that is not a chart, or
// that the package does not hold, gives none.
func (c *conv) odfChart(z *container, name string) ([]string, error) {
	if !z.has(name) {
		return nil, nil
	}
	data, err := z.read(name)
	if err != nil {
		return nil, err
	}
	var (
		titles       []string
		stack        []string
		text         strings.Builder
		header       []string
		rows         [][]string
		row          []string
		inHeader     bool
		isChart      bool
		inTitle, inP int
	)
	err = c.walkXML(data, xmlHandler{
		start: func(e xml.StartElement) error {
			name := e.Name.Space + ":" + e.Name.Local
			stack = append(stack, name)
			switch name {
			case "chart:chart":
				isChart = true
			case "chart:title", "chart:subtitle":
				inTitle++
				text.Reset()
			case "table:table-header-rows":
				inHeader = true
			case "table:table-row":
				row = row[:0]
			case "table:table-cell":
				text.Reset()
			case "text:p":
				inP++
				text.WriteByte(' ')
			}
			return nil
		},
		end: func(xml.EndElement) error {
			if len(stack) == 0 {
				return nil
			}
			name := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			switch name {
			case "chart:title", "chart:subtitle":
				inTitle--
				if t := strings.Join(strings.Fields(text.String()), " "); t != "" && len(titles) < 64 {
					titles = append(titles, t)
				}
			case "text:p":
				inP--
			case "table:table-cell":
				if len(row) < maxRepeat {
					row = append(row, strings.Join(strings.Fields(text.String()), " "))
				}
			case "table:table-row":
				if inHeader {
					header = append([]string(nil), row...)
				} else if len(rows) < maxChartRows {
					rows = append(rows, append([]string(nil), row...))
				}
			case "table:table-header-rows":
				inHeader = false
			}
			return nil
		},
		text: func(s string) error {
			if (inTitle > 0 || inP > 0) && text.Len() < maxChartText {
				text.WriteString(s)
			}
			return nil
		},
	})
	if err != nil || !isChart {
		return nil, err
	}
	lines := titles
	var cats []string
	for _, r := range rows {
		if len(r) > 0 && r[0] != "" {
			cats = append(cats, r[0])
		}
	}
	if len(cats) > 0 {
		lines = append(lines, strings.Join(cats, CellSeparator))
	}
	for j := 1; j < len(header) || (len(rows) > 0 && j < len(rows[0])); j++ {
		var line []string
		if j < len(header) && header[j] != "" {
			line = append(line, header[j])
		}
		for _, r := range rows {
			if j < len(r) {
				line = append(line, r[j])
			}
		}
		if len(line) > 0 {
			lines = append(lines, strings.Join(line, CellSeparator))
		}
	}
	return lines, nil
}

// maxChartRows bounds the rows of an embedded chart's data table.
const maxChartRows = 10000
