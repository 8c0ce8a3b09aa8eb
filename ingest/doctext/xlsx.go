package doctext

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	"github.com/xuri/excelize/v2"
)

// xlsx converts a workbook through excelize: each sheet is a page that
// opens with the sheet's name, then one block per row, cells joined by
// CellSeparator as the sheet shows them (formatted values).
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
	}
	return nil
}
