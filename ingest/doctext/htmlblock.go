package doctext

import (
	"bytes"
	"fmt"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlFragment reads a fragment of HTML embedded in a document (a
// Markdown file's raw HTML blocks) as blocks at its place: a table row by
// row, its cells joined by CellSeparator as a Markdown table's are, each
// list item, paragraph, heading or other block element its own block, a
// <pre>'s lines one block each, an image its alt text. Scripts, styles and
// comments are no text. depth is the nesting the fragment starts at.
func (c *conv) htmlFragment(raw []byte, depth int) error {
	nodes, err := html.ParseFragment(bytes.NewReader(raw), bodyContext())
	if err != nil {
		// The parser fails on nothing but its bound on open elements
		// (512): the bytes come from memory.
		return fmt.Errorf("html block: %v: %w", err, ErrTooLarge)
	}
	h := htmlWalker{c: c}
	for _, n := range nodes {
		if err := h.node(n, depth); err != nil {
			return err
		}
	}
	c.flush()
	return nil
}

// bodyContext returns the context a fragment is parsed in: a <body>.
func bodyContext() *html.Node {
	return &html.Node{Type: html.ElementNode, Data: "body", DataAtom: atom.Body}
}

// htmlWalker lays out an HTML tree as blocks of a conversion.
type htmlWalker struct{ c *conv }

// htmlSkipped are the elements whose content is no text.
var htmlSkipped = map[atom.Atom]bool{
	atom.Script: true, atom.Style: true, atom.Template: true, atom.Noscript: true,
	atom.Head: true, atom.Title: true, atom.Textarea: true, atom.Select: true,
	atom.Svg: true, atom.Math: true, atom.Object: true, atom.Iframe: true,
}

// htmlBlocks are the elements that start and end a block.
var htmlBlocks = map[atom.Atom]bool{
	atom.Address: true, atom.Article: true, atom.Aside: true, atom.Blockquote: true,
	atom.Caption: true, atom.Dd: true, atom.Details: true, atom.Dialog: true, atom.Div: true,
	atom.Dl: true, atom.Dt: true, atom.Fieldset: true, atom.Figcaption: true, atom.Figure: true,
	atom.Footer: true, atom.Form: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Header: true, atom.Hgroup: true,
	atom.Hr: true, atom.Li: true, atom.Main: true, atom.Nav: true, atom.Ol: true,
	atom.P: true, atom.Section: true, atom.Summary: true, atom.Ul: true,
	atom.Body: true, atom.Html: true, atom.Legend: true,
}

// node lays out n and what it holds.
func (h *htmlWalker) node(n *html.Node, depth int) error {
	if depth > maxMarkdownDepth {
		return fmt.Errorf("html nested over %d levels: %w", maxMarkdownDepth, ErrTooLarge)
	}
	if err := h.c.tick(); err != nil {
		return err
	}
	switch n.Type {
	case html.TextNode:
		return h.c.text(n.Data)
	case html.ElementNode:
	case html.DocumentNode:
		return h.children(n, depth)
	default:
		return nil // comments, doctypes
	}
	switch {
	case htmlSkipped[n.DataAtom]:
		return nil
	case n.DataAtom == atom.Img:
		return h.c.text(" " + htmlAttr(n, "alt") + " ")
	case n.DataAtom == atom.Br:
		return h.c.text(" ")
	case n.DataAtom == atom.Table:
		return h.table(n, depth)
	case n.DataAtom == atom.Pre:
		h.c.flush()
		var b strings.Builder
		htmlTextTo(&b, n, depth, h.c.lim.MaxChars)
		for line := range strings.SplitSeq(b.String(), "\n") {
			if err := h.c.text(line); err != nil {
				return err
			}
			h.c.flush()
		}
		return nil
	case htmlBlocks[n.DataAtom]:
		h.c.flush()
		if err := h.children(n, depth); err != nil {
			return err
		}
		h.c.flush()
		return nil
	}
	return h.children(n, depth)
}

func (h *htmlWalker) children(n *html.Node, depth int) error {
	for k := n.FirstChild; k != nil; k = k.NextSibling {
		if err := h.node(k, depth+1); err != nil {
			return err
		}
	}
	return nil
}

// table lays out a table: its caption, then one block per row (of the
// table itself, not of a table nested in a cell), its cells' text joined
// by CellSeparator.
func (h *htmlWalker) table(t *html.Node, depth int) error {
	h.c.flush()
	var rows []*html.Node
	var caption *html.Node
	for k := t.FirstChild; k != nil; k = k.NextSibling {
		switch k.DataAtom {
		case atom.Caption:
			caption = k
		case atom.Tr:
			rows = append(rows, k)
		case atom.Thead, atom.Tbody, atom.Tfoot:
			for r := k.FirstChild; r != nil; r = r.NextSibling {
				if r.DataAtom == atom.Tr {
					rows = append(rows, r)
				}
			}
		}
	}
	if caption != nil {
		if err := h.node(caption, depth+1); err != nil {
			return err
		}
	}
	for _, r := range rows {
		if err := h.c.tick(); err != nil {
			return err
		}
		var cells []string
		for cell := r.FirstChild; cell != nil; cell = cell.NextSibling {
			if cell.DataAtom != atom.Td && cell.DataAtom != atom.Th {
				continue
			}
			var b strings.Builder
			htmlTextTo(&b, cell, depth+2, h.c.lim.MaxChars)
			cells = append(cells, b.String())
		}
		if err := h.c.row(cells); err != nil {
			return err
		}
	}
	return nil
}

// htmlTextTo writes the text under n, block elements apart, images as
// their alt text, up to limit bytes.
func htmlTextTo(b *strings.Builder, n *html.Node, depth, limit int) {
	for k := n.FirstChild; k != nil && depth < maxMarkdownDepth && b.Len() <= limit; k = k.NextSibling {
		switch {
		case k.Type == html.TextNode:
			b.WriteString(k.Data)
		case k.Type != html.ElementNode || htmlSkipped[k.DataAtom]:
		case k.DataAtom == atom.Img:
			b.WriteString(" " + htmlAttr(k, "alt") + " ")
		case k.DataAtom == atom.Br:
			b.WriteByte('\n')
		default:
			block := htmlBlocks[k.DataAtom] || k.DataAtom == atom.Td || k.DataAtom == atom.Th || k.DataAtom == atom.Tr
			if block {
				b.WriteByte(' ')
			}
			htmlTextTo(b, k, depth+1, limit)
			if block {
				b.WriteByte(' ')
			}
		}
	}
}

// htmlAttr returns an element's attribute value, or "".
func htmlAttr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key && a.Namespace == "" {
			return a.Val
		}
	}
	return ""
}
