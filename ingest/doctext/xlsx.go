package doctext

import (
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// xlsx converts a workbook through excelize: each sheet is a page that
// opens with the sheet's name, then one block per row, cells joined by
// CellSeparator as the sheet shows them (formatted values), then what its
// drawings hold (text boxes, pictures' alt text, charts' data), then its
// comments.
func (c *conv) xlsx(raw []byte) error {
	z, err := c.openZip(raw)
	if err != nil {
		return err
	}
	if err := c.coreProperties(z, "docProps/core.xml"); err != nil {
		return err
	}
	// excelize trusts the sizes an archive declares; every entry is first
	// inflated here, under the cap, and must hold what it declares.
	if err := z.verifySizes(); err != nil {
		return err
	}
	room := c.lim.MaxUnpackedBytes
	f, err := excelize.OpenReader(bytes.NewReader(raw), excelize.Options{
		UnzipSizeLimit:    room,
		UnzipXMLSizeLimit: min(room, 16<<20),
	})
	switch {
	case errors.Is(err, excelize.ErrWorkbookFileFormat):
		return fmt.Errorf("excelize: %v: %w", err, ErrUnreadable)
	case err != nil && strings.Contains(err.Error(), "unzip size exceeds"):
		return fmt.Errorf("excelize: %v: %w", err, ErrTooLarge)
	case err != nil:
		return fmt.Errorf("excelize: %v: %w", err, ErrUnreadable)
	}
	defer f.Close()
	sheets, persons, err := c.workbookParts(z)
	if err != nil {
		return err
	}
	budget := maxChartCells
	for _, name := range f.GetSheetList() {
		c.startPage(name)
		c.emit(name)
		rows, err := f.Rows(name)
		if err != nil {
			return fmt.Errorf("sheet: %v: %w", err, ErrUnreadable)
		}
		for rows.Next() {
			if err := c.tick(); err != nil {
				rows.Close()
				return err
			}
			cells, err := rows.Columns()
			if err != nil {
				rows.Close()
				return fmt.Errorf("row: %v: %w", err, ErrUnreadable)
			}
			if err := c.row(cells); err != nil {
				rows.Close()
				return err
			}
		}
		if err := rows.Close(); err != nil {
			return fmt.Errorf("sheet: %v: %w", err, ErrUnreadable)
		}
		if err := c.sheetExtras(z, sheets[name], persons, func(ref string) []string { return rangeValues(f, ref, &budget) }); err != nil {
			return err
		}
	}
	return nil
}

// workbookParts returns the part of each sheet by its name and the people
// who wrote threaded comments (id → name).
func (c *conv) workbookParts(z *container) (sheets, persons map[string]string, err error) {
	book := c.mainPart(z, "xl/workbook.xml")
	rels, err := c.relsOf(z, book)
	if err != nil {
		return nil, nil, err
	}
	persons = map[string]string{}
	for _, part := range ofType(rels, "/person") {
		if err := c.readAuthors(z, part, "person", "id", "displayName", persons); err != nil {
			return nil, nil, err
		}
	}
	sheets = map[string]string{}
	if !z.has(book) {
		return sheets, persons, nil
	}
	data, err := z.read(book)
	if err != nil {
		return nil, nil, err
	}
	ids := byID(rels)
	err = c.walkXML(data, xmlHandler{start: func(e xml.StartElement) error {
		if e.Name.Local == "sheet" {
			sheets[attr(e, "name")] = ids[attrNS(e, "r", "id")]
		}
		return nil
	}})
	return sheets, persons, err
}

// sheetExtras ends a sheet's page with what its drawings hold, in their
// order (a text box's paragraphs, a picture's alt text, a chart's data),
// then its comments: the threaded ones, then its notes.
func (c *conv) sheetExtras(z *container, sheet string, persons map[string]string, cells func(string) []string) error {
	if sheet == "" {
		return nil
	}
	rels, err := c.relsOf(z, sheet)
	if err != nil {
		return err
	}
	for _, part := range ofType(rels, "/drawing") {
		if !z.has(part) {
			continue
		}
		data, err := z.read(part)
		if err != nil {
			return err
		}
		drels, err := c.relsOf(z, part)
		if err != nil {
			return err
		}
		w := &wordWalker{c: c, z: z, rels: byID(drels), alt: "cNvPr", cells: cells}
		if err := c.walkXML(data, w.handler()); err != nil {
			return err
		}
		c.flush()
	}
	var comments []comment
	for _, part := range ofType(rels, "/threadedComment") {
		cs, err := c.readComments(z, part, xlsxThreaded, persons)
		if err != nil {
			return err
		}
		comments = append(comments, cs...)
	}
	threaded := len(comments) > 0
	for _, part := range ofType(rels, "/comments") {
		cs, err := c.readComments(z, part, xlsxComments, nil)
		if err != nil {
			return err
		}
		for _, cm := range cs {
			// Excel keeps a note "tc=ID" for each threaded comment, for
			// readers of old; with the thread read, it is a copy.
			if !threaded || !strings.HasPrefix(cm.author, "tc=") {
				comments = append(comments, cm)
			}
		}
	}
	return c.addComments(comments)
}

// maxChartCells bounds the cells read for the formulas of a workbook's
// charts, all together.
const maxChartCells = 100000

// rangeValues returns the formatted values of the cells a chart formula
// names ("Sheet1!$B$2:$B$4", "'My sheet'!$A$1"), row by row, taking them
// from budget; nothing for a formula it cannot read or a range past the
// budget.
func rangeValues(f *excelize.File, ref string, budget *int) []string {
	i := strings.LastIndex(ref, "!")
	if i < 0 {
		return nil
	}
	sheet := ref[:i]
	if len(sheet) >= 2 && sheet[0] == '\'' && sheet[len(sheet)-1] == '\'' {
		sheet = strings.ReplaceAll(sheet[1:len(sheet)-1], "''", "'")
	}
	from, to, _ := strings.Cut(strings.ReplaceAll(ref[i+1:], "$", ""), ":")
	if to == "" {
		to = from
	}
	c1, r1, err1 := excelize.CellNameToCoordinates(from)
	c2, r2, err2 := excelize.CellNameToCoordinates(to)
	if err1 != nil || err2 != nil || c2 < c1 || r2 < r1 || (c2-c1+1)*(r2-r1+1) > *budget {
		return nil
	}
	*budget -= (c2 - c1 + 1) * (r2 - r1 + 1)
	var out []string
	for r := r1; r <= r2; r++ {
		for c := c1; c <= c2; c++ {
			name, _ := excelize.CoordinatesToCellName(c, r)
			v, err := f.GetCellValue(sheet, name)
			if err != nil {
				return out
			}
			out = append(out, v)
		}
	}
	return out
}
