package doctext

import (
	"bufio"
	"bytes"
	"fmt"
	"html"
	"strings"
	"unicode/utf8"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	mdhtml "github.com/yuin/goldmark/renderer/html"
	"github.com/yuin/goldmark/text"

	"github.com/digestd/digestd/structure"
)

// markdownParser reads CommonMark with GitHub's tables and strikethrough
// and footnotes.
var markdownParser = goldmark.New(goldmark.WithExtensions(extension.Table, extension.Strikethrough, extension.Footnote)).Parser()

// maxMarkdownBytes bounds a Markdown source: goldmark builds its whole tree
// in memory, a few times the input's size.
const maxMarkdownBytes = 16 << 20

// markdown converts a Markdown document through goldmark's syntax tree:
// headings, paragraphs, list items, code lines, table rows, then footnotes.
// A YAML front matter block gives the title and author and is no text.
func (c *conv) markdown(raw []byte) error {
	if !utf8.Valid(raw) {
		return fmt.Errorf("not UTF-8: %w", ErrUnreadable)
	}
	if len(raw) > maxMarkdownBytes {
		return fmt.Errorf("%d bytes (limit %d): %w", len(raw), maxMarkdownBytes, ErrTooLarge)
	}
	raw = c.frontMatter(raw)
	// The title and author a front matter gives open the text, as a
	// converted document shows them.
	for i, s := range []string{c.res.Title, c.res.Author} {
		if i == 0 {
			c.blockKind(structure.Span{Kind: structure.Heading, Level: 1})
		}
		if err := c.text(s); err != nil {
			return err
		}
		c.flush()
	}
	doc := markdownParser.Parse(text.NewReader(raw))
	m := &mdWalker{c: c, src: raw}
	if err := m.blocks(doc, 0); err != nil {
		return err
	}
	c.addNotes()
	return nil
}

// frontMatter reads a leading YAML block (between "---" lines) for its
// title and author fields, and returns the document after it.
func (c *conv) frontMatter(raw []byte) []byte {
	if bytes.HasPrefix(raw, []byte("% ")) {
		return c.titleBlock(raw)
	}
	rest, ok := bytes.CutPrefix(raw, []byte("---\n"))
	if !ok {
		return raw
	}
	var body []byte
	var after []byte
	for _, end := range []string{"\n---\n", "\n...\n"} {
		if i := bytes.Index(rest, []byte(end)); i >= 0 && (body == nil || i < len(body)) {
			body, after = rest[:i], rest[i+len(end):]
		}
	}
	if body == nil {
		return raw
	}
	for _, line := range strings.Split(string(body), "\n") {
		k, v, ok := strings.Cut(line, ":")
		if !ok {
			continue
		}
		v = strings.Trim(strings.TrimSpace(v), `"'`)
		switch strings.TrimSpace(strings.ToLower(k)) {
		case "title":
			c.res.Title = v
		case "author":
			c.res.Author = v
		}
	}
	return after
}

// titleBlock reads a Pandoc title block ("% title", "% author", "% date"
// lines opening the document) and returns the document after it.
func (c *conv) titleBlock(raw []byte) []byte {
	for i := 0; i < 3 && bytes.HasPrefix(raw, []byte("% ")); i++ {
		line, rest, _ := bytes.Cut(raw, []byte("\n"))
		v := strings.TrimSpace(string(line[2:]))
		switch i {
		case 0:
			c.res.Title = v
		case 1:
			c.res.Author = v
		}
		raw = rest
	}
	return raw
}

// mdWalker walks goldmark's tree.
type mdWalker struct {
	c   *conv
	src []byte
	// lists counts the lists that hold the block being read.
	lists int
	// spans holds the links and emphasis of the inline text being
	// written, in its bytes.
	spans []structure.Span
}

// maxMarkdownDepth bounds block nesting (quotes in lists in quotes…).
const maxMarkdownDepth = 200

func (m *mdWalker) blocks(n ast.Node, depth int) error {
	if depth > maxMarkdownDepth {
		return fmt.Errorf("blocks nested over %d levels: %w", maxMarkdownDepth, ErrTooLarge)
	}
	for b := n.FirstChild(); b != nil; b = b.NextSibling() {
		if err := m.c.tick(); err != nil {
			return err
		}
		var err error
		switch k := b.(type) {
		case *ast.Heading:
			m.c.flush()
			m.c.blockKind(structure.Span{Kind: structure.Heading, Level: k.Level})
			err = m.inline(k)
			m.c.flush()
		case *ast.Paragraph, *ast.TextBlock:
			err = m.inline(k)
			m.c.flush()
		case *ast.FencedCodeBlock, *ast.CodeBlock:
			code := m.c.openSpan(structure.Span{Kind: structure.Code})
			lines := k.Lines()
			for i := 0; i < lines.Len() && err == nil; i++ {
				seg := lines.At(i)
				m.c.bare = true
				err = m.c.text(string(seg.Value(m.src)))
				m.c.flush()
			}
			m.c.closeSpan(code)
		case *ast.List:
			list := m.c.openSpan(structure.Span{Kind: structure.List, Ordered: k.IsOrdered()})
			m.lists++
			err = m.blocks(k, depth+1)
			m.lists--
			m.c.closeSpan(list)
		case *ast.ListItem:
			item := m.c.openSpan(structure.Span{Kind: structure.Item, Level: m.lists})
			err = m.blocks(k, depth+1)
			m.c.closeSpan(item)
		case *ast.Blockquote:
			quote := m.c.openSpan(structure.Span{Kind: structure.Quote})
			err = m.blocks(k, depth+1)
			m.c.closeSpan(quote)
		case *ast.HTMLBlock:
			// A raw HTML block reads as its text at its place. The HTML
			// blocks that follow it with only blank lines between are one
			// fragment with it (a table whose rows blank lines part).
			raw := m.htmlBlockBytes(nil, k)
			for next, ok := b.NextSibling().(*ast.HTMLBlock); ok; next, ok = b.NextSibling().(*ast.HTMLBlock) {
				raw = m.htmlBlockBytes(raw, next)
				b = next
			}
			err = m.c.htmlFragment(raw, depth)
		case *ast.ThematicBreak:
			// Markup, not text.
		case *east.Table:
			err = m.table(k)
		case *east.FootnoteList:
			err = m.footnotes(k)
		default:
			err = m.blocks(k, depth+1)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// htmlBlockBytes appends the source lines of a raw HTML block, with its
// closing line, to raw.
func (m *mdWalker) htmlBlockBytes(raw []byte, b *ast.HTMLBlock) []byte {
	lines := b.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		raw = append(raw, seg.Value(m.src)...)
	}
	if b.HasClosure() {
		raw = append(raw, b.ClosureLine.Value(m.src)...)
	}
	return append(raw, '\n')
}

func (m *mdWalker) table(t *east.Table) error {
	table := m.c.openSpan(structure.Span{Kind: structure.Table})
	defer m.c.closeSpan(table)
	for r := t.FirstChild(); r != nil; r = r.NextSibling() {
		var cells []string
		for cell := r.FirstChild(); cell != nil; cell = cell.NextSibling() {
			var b strings.Builder
			m.inlineTo(&b, cell, 0)
			cells = append(cells, b.String())
		}
		_, header := r.(*east.TableHeader)
		if err := m.c.tableRow(cells, header); err != nil {
			return err
		}
	}
	return nil
}

func (m *mdWalker) footnotes(list *east.FootnoteList) error {
	for f := list.FirstChild(); f != nil; f = f.NextSibling() {
		var b strings.Builder
		if fn, ok := f.(*east.Footnote); ok {
			b.WriteString(noteMark(fn.Index) + " ")
		}
		m.allText(&b, f, 0)
		if b.Len() > m.c.lim.MaxChars {
			return fmt.Errorf("footnote over %d bytes: %w", m.c.lim.MaxChars, ErrTooLarge)
		}
		m.c.notes = append(m.c.notes, b.String())
	}
	return nil
}

// allText writes the inline text of every block under n, blocks apart.
func (m *mdWalker) allText(b *strings.Builder, n ast.Node, depth int) {
	for k := n.FirstChild(); k != nil && depth < maxMarkdownDepth; k = k.NextSibling() {
		if k.Type() == ast.TypeInline {
			m.inlineNode(b, k, depth)
			continue
		}
		m.allText(b, k, depth+1)
		b.WriteByte(' ')
	}
}

func (m *mdWalker) inline(n ast.Node) error {
	var b strings.Builder
	m.spans = m.spans[:0]
	m.inlineTo(&b, n, 0)
	base := m.c.block.Len()
	for _, sp := range m.spans {
		sp.Start += base
		sp.End += base
		m.c.inlineSpan(sp)
	}
	return m.c.text(b.String())
}

// inlineTo writes the text of n's inline children: text (its entities and
// escapes resolved), code (as written), link text, image descriptions; raw
// HTML and footnote marks are left out.
func (m *mdWalker) inlineTo(b *strings.Builder, n ast.Node, depth int) {
	if depth > maxMarkdownDepth {
		return
	}
	for k := n.FirstChild(); k != nil; k = k.NextSibling() {
		m.inlineNode(b, k, depth)
	}
}

// inlineNode writes the text of one inline node.
func (m *mdWalker) inlineNode(b *strings.Builder, k ast.Node, depth int) {
	switch k := k.(type) {
	case *ast.Text:
		if k.IsRaw() {
			b.Write(k.Segment.Value(m.src))
		} else {
			writeUnescaped(b, k.Segment.Value(m.src))
		}
		if k.SoftLineBreak() || k.HardLineBreak() {
			b.WriteByte(' ')
		}
	case *ast.String:
		if k.IsCode() || k.IsRaw() {
			b.Write(k.Value)
		} else {
			writeUnescaped(b, k.Value)
		}
	case *ast.CodeSpan:
		// Code keeps its entities and backslashes as written.
		for t := k.FirstChild(); t != nil; t = t.NextSibling() {
			if t, ok := t.(*ast.Text); ok {
				b.Write(t.Segment.Value(m.src))
			}
		}
	case *ast.AutoLink:
		start := b.Len()
		b.Write(k.URL(m.src))
		m.spans = append(m.spans, structure.Span{Kind: structure.Link, Start: start, End: b.Len(), Href: string(k.URL(m.src))})
	case *ast.Link:
		start := b.Len()
		m.inlineTo(b, k, depth+1)
		var href strings.Builder
		writeUnescaped(&href, k.Destination)
		m.spans = append(m.spans, structure.Span{Kind: structure.Link, Start: start, End: b.Len(), Href: href.String()})
	case *ast.Emphasis:
		start := b.Len()
		m.inlineTo(b, k, depth+1)
		m.spans = append(m.spans, structure.Span{Kind: structure.Emphasis, Start: start, End: b.Len(), Strong: k.Level >= 2})
	case *east.FootnoteLink:
		b.WriteString(noteMark(k.Index))
	case *ast.RawHTML, *east.FootnoteBacklink, *east.TaskCheckBox:
	default:
		m.inlineTo(b, k, depth+1)
	}
}

// writeUnescaped writes Markdown text with its backslash escapes and its
// entity and numeric character references resolved, as CommonMark reads
// them: goldmark's own HTML writer resolves them (escaping the result for
// HTML), and the HTML escaping is undone.
func writeUnescaped(b *strings.Builder, src []byte) {
	if bytes.IndexByte(src, '&') < 0 && bytes.IndexByte(src, '\\') < 0 {
		b.Write(src)
		return
	}
	var out bytes.Buffer
	w := bufio.NewWriter(&out)
	mdhtml.DefaultWriter.Write(w, src)
	w.Flush()
	b.WriteString(html.UnescapeString(out.String()))
}
