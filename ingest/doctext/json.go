package doctext

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark/text"
)

// jsonValues converts JSON (one value, or a stream of them as JSON Lines
// holds) into its string values in document order, each paragraph of a
// string (parted by a blank line) one block. Keys, numbers, booleans and
// nulls are no text. Nesting is bounded by MaxXMLDepth and tokens by
// MaxXMLTokens, as XML's are.
func (c *conv) jsonValues(raw []byte) error {
	if !utf8.Valid(raw) {
		return fmt.Errorf("not UTF-8: %w", ErrUnreadable)
	}
	d := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(raw, []byte("\ufeff"))))
	// open holds, for each container the decoder is in, whether it is an
	// object whose next token is a key.
	type frame struct{ object, key bool }
	var open []frame
	// valueDone marks the end of a value inside an object: a key comes next.
	valueDone := func() {
		if n := len(open); n > 0 && open[n-1].object {
			open[n-1].key = true
		}
	}
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) && len(open) == 0 {
			return nil
		}
		if errors.Is(err, io.EOF) {
			return fmt.Errorf("json ends inside a value: %w", ErrUnreadable)
		}
		if err != nil {
			return fmt.Errorf("json: %v: %w", err, ErrUnreadable)
		}
		c.tokens++
		if c.tokens > c.lim.MaxXMLTokens {
			return fmt.Errorf("over %d JSON tokens: %w", c.lim.MaxXMLTokens, ErrTooLarge)
		}
		if err := c.tick(); err != nil {
			return err
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				if len(open) >= c.lim.MaxXMLDepth {
					return fmt.Errorf("JSON nested over %d levels: %w", c.lim.MaxXMLDepth, ErrTooLarge)
				}
				open = append(open, frame{object: t == '{', key: t == '{'})
			default:
				open = open[:len(open)-1]
				valueDone()
			}
		case string:
			if n := len(open); n > 0 && open[n-1].key {
				open[n-1].key = false
				continue
			}
			if err := c.paragraphs(t); err != nil {
				return err
			}
			valueDone()
		default:
			valueDone()
		}
	}
}

// paragraphs emits s as blocks, one per paragraph (lines parted by a blank
// line), the lines of a paragraph joined.
func (c *conv) paragraphs(s string) error {
	c.flush()
	for _, line := range strings.Split(strings.ReplaceAll(s, "\r\n", "\n"), "\n") {
		if strings.TrimSpace(line) == "" {
			c.flush()
			continue
		}
		if err := c.text(line + " "); err != nil {
			return err
		}
	}
	c.flush()
	return nil
}

// notebook is the part of a Jupyter notebook (nbformat 4, and 3's
// worksheets) that is text.
type notebook struct {
	Cells      []nbCell `json:"cells"`
	Worksheets []struct {
		Cells []nbCell `json:"cells"`
	} `json:"worksheets"`
}

// nbCell is a cell: markdown, code (its source, or nbformat 3's input) with
// its outputs, or raw.
type nbCell struct {
	Type    string     `json:"cell_type"`
	Source  nbText     `json:"source"`
	Input   nbText     `json:"input"`
	Outputs []nbOutput `json:"outputs"`
}

// nbOutput is a code cell's output: a stream's text, a result's or a
// display's text/plain, or an error's name and value. Images and other
// media are not read.
type nbOutput struct {
	Type string `json:"output_type"`
	Text nbText `json:"text"`
	Data struct {
		Plain nbText `json:"text/plain"`
	} `json:"data"`
	Ename  string `json:"ename"`
	Evalue string `json:"evalue"`
}

// nbText is a multi-line string, which a notebook stores as a string or as
// a list of lines.
type nbText string

func (t *nbText) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '[' {
		var lines []string
		if err := json.Unmarshal(b, &lines); err != nil {
			return err
		}
		*t = nbText(strings.Join(lines, ""))
		return nil
	}
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*t = nbText(s)
	return nil
}

// notebook converts a Jupyter notebook: its markdown cells as Markdown, its
// code cells line by line, each followed by its outputs' text (streams,
// text/plain results, errors' name and value), and raw cells line by line.
func (c *conv) notebook(raw []byte) error {
	if !utf8.Valid(raw) {
		return fmt.Errorf("not UTF-8: %w", ErrUnreadable)
	}
	var nb notebook
	if err := json.Unmarshal(bytes.TrimPrefix(raw, []byte("\ufeff")), &nb); err != nil {
		return fmt.Errorf("notebook: %v: %w", err, ErrUnreadable)
	}
	cells := nb.Cells
	for _, w := range nb.Worksheets {
		cells = append(cells, w.Cells...)
	}
	for _, cell := range cells {
		if err := c.tick(); err != nil {
			return err
		}
		var err error
		switch cell.Type {
		case "markdown", "heading":
			src := []byte(cell.Source)
			m := &mdWalker{c: c, src: src}
			err = m.blocks(markdownParser.Parse(text.NewReader(src)), 0)
		case "code":
			err = c.lines(string(cell.Source) + string(cell.Input))
			for _, o := range cell.Outputs {
				if err != nil {
					break
				}
				switch {
				case o.Type == "error":
					err = c.lines(o.Ename + ": " + o.Evalue)
				case o.Text != "":
					err = c.lines(string(o.Text))
				default:
					err = c.lines(string(o.Data.Plain))
				}
			}
		default:
			err = c.lines(string(cell.Source))
		}
		if err != nil {
			return err
		}
	}
	c.addNotes()
	return nil
}

// lines emits each line of s as a block, as a code block's.
func (c *conv) lines(s string) error {
	c.flush()
	for line := range strings.SplitSeq(s, "\n") {
		if err := c.text(line); err != nil {
			return err
		}
		c.flush()
	}
	return nil
}
