// Package structuretest reads Markdown back, as GitHub does, for the tests
// of the Markdown that package structure renders.
package structuretest

import (
	"fmt"
	"strings"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// gfm parses Markdown as GitHub does (tables, strikethrough, task lists
// and bare links).
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()

// Parsed is what a Markdown document reads as: its plain text (blocks
// apart, a row's cells joined by " | "), and its structure as
// comparable lines.
type Parsed struct {
	Text  []string
	Items []string
}

// Read parses md with goldmark's GFM extension and returns its plain text
// (backslash escapes undone) and its headings, links, emphasis, items,
// quotes, code blocks and table rows.
func Read(md string) Parsed {
	src := []byte(md)
	doc := gfm.Parse(text.NewReader(src))
	var p Parsed
	var inlineText func(n ast.Node, b *strings.Builder)
	inlineText = func(n ast.Node, b *strings.Builder) {
		for k := n.FirstChild(); k != nil; k = k.NextSibling() {
			switch k := k.(type) {
			case *ast.Text:
				if k.IsRaw() {
					b.Write(k.Segment.Value(src))
				} else {
					b.WriteString(unescape(string(k.Segment.Value(src))))
				}
				if k.SoftLineBreak() || k.HardLineBreak() {
					b.WriteByte(' ')
				}
			case *ast.String:
				b.Write(k.Value)
			case *ast.AutoLink:
				b.Write(k.Label(src))
			case *ast.Link:
				var lb strings.Builder
				inlineText(k, &lb)
				p.Items = append(p.Items, fmt.Sprintf("a %s %s", unescape(string(k.Destination)), lb.String()))
				b.WriteString(lb.String())
			case *ast.Emphasis:
				var eb strings.Builder
				inlineText(k, &eb)
				p.Items = append(p.Items, fmt.Sprintf("em%d %s", k.Level, eb.String()))
				b.WriteString(eb.String())
			default:
				inlineText(k, b)
			}
		}
	}
	var walk func(n ast.Node)
	walk = func(n ast.Node) {
		for k := n.FirstChild(); k != nil; k = k.NextSibling() {
			var b strings.Builder
			switch k := k.(type) {
			case *ast.Heading:
				inlineText(k, &b)
				p.Items = append(p.Items, fmt.Sprintf("h%d %s", k.Level, b.String()))
			case *ast.Paragraph, *ast.TextBlock:
				inlineText(k, &b)
			case *ast.FencedCodeBlock:
				lines := k.Lines()
				for i := 0; i < lines.Len(); i++ {
					seg := lines.At(i)
					p.Text = append(p.Text, strings.TrimSuffix(string(seg.Value(src)), "\n"))
				}
				p.Items = append(p.Items, fmt.Sprintf("code %d", lines.Len()))
				continue
			case *east.TableHeader, *east.TableRow:
				var cells []string
				for c := k.FirstChild(); c != nil; c = c.NextSibling() {
					var cb strings.Builder
					inlineText(c, &cb)
					if cb.Len() > 0 {
						cells = append(cells, cb.String())
					}
				}
				p.Items = append(p.Items, fmt.Sprintf("tr %d", len(cells)))
				b.WriteString(strings.Join(cells, " | "))
			case *ast.ListItem:
				p.Items = append(p.Items, "li")
				walk(k)
				continue
			case *ast.Blockquote:
				p.Items = append(p.Items, "quote")
				walk(k)
				continue
			default:
				walk(k)
				continue
			}
			p.Text = append(p.Text, b.String())
		}
	}
	walk(doc)
	return p
}

// unescape undoes CommonMark's backslash escapes.
func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+1 < len(s) && strings.IndexByte("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~", s[i+1]) >= 0 {
			i++
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// Collapse joins blocks and collapses white space.
func Collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// Words is s with white space collapsed and the table pipes left out: the
// plain text a rendering and its canonical text are compared by (a table
// row's cells are apart by a pipe in Markdown, by a space or " | " in
// canonical text).
func Words(s string) string {
	f := strings.Fields(s)
	out := f[:0]
	for _, w := range f {
		if w != "|" {
			out = append(out, w)
		}
	}
	return strings.Join(out, " ")
}
