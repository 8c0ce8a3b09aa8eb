package doctext

import (
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// csv converts comma-, semicolon- or tab-separated values: one block per
// record, its fields joined by CellSeparator. The delimiter is the one of
// the three the first line holds most of, outside quotes.
func (c *conv) csv(raw []byte) error {
	raw = bytes.TrimPrefix(raw, []byte("\ufeff"))
	if !utf8.Valid(raw) {
		return fmt.Errorf("not UTF-8: %w", ErrUnreadable)
	}
	r := csv.NewReader(bytes.NewReader(raw))
	r.Comma = sniffDelimiter(raw)
	r.FieldsPerRecord = -1
	r.LazyQuotes = true
	r.ReuseRecord = true
	for {
		if err := c.tick(); err != nil {
			return err
		}
		rec, err := r.Read()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return fmt.Errorf("csv: %v: %w", err, ErrUnreadable)
		}
		if err := c.row(rec); err != nil {
			return err
		}
	}
}

// sniffDelimiter picks the delimiter of the first line.
func sniffDelimiter(raw []byte) rune {
	line, _, _ := bytes.Cut(raw[:min(len(raw), 64<<10)], []byte("\n"))
	best, bestN := ',', 0
	for _, d := range []rune{',', ';', '\t'} {
		n, quoted := 0, false
		for _, r := range string(line) {
			switch {
			case r == '"':
				quoted = !quoted
			case r == d && !quoted:
				n++
			}
		}
		if n > bestN {
			best, bestN = d, n
		}
	}
	return best
}
