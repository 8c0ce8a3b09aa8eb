package structure

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// gfm parses Markdown as GitHub does (tables, strikethrough, task lists
// and bare links).
var gfm = goldmark.New(goldmark.WithExtensions(extension.GFM)).Parser()

// parsed is what a Markdown document reads as: its plain text (blocks
// apart, a row's cells joined by " | "), and its structure as
// comparable lines.
type parsed struct {
	text  []string
	items []string
}

func parseMarkdown(md string) parsed {
	src := []byte(md)
	doc := gfm.Parse(text.NewReader(src))
	var p parsed
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
				p.items = append(p.items, fmt.Sprintf("a %s %s", unescape(string(k.Destination)), lb.String()))
				b.WriteString(lb.String())
			case *ast.Emphasis:
				var eb strings.Builder
				inlineText(k, &eb)
				p.items = append(p.items, fmt.Sprintf("em%d %s", k.Level, eb.String()))
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
				p.items = append(p.items, fmt.Sprintf("h%d %s", k.Level, b.String()))
			case *ast.Paragraph, *ast.TextBlock:
				inlineText(k, &b)
			case *ast.FencedCodeBlock:
				lines := k.Lines()
				for i := 0; i < lines.Len(); i++ {
					seg := lines.At(i)
					p.text = append(p.text, strings.TrimSuffix(string(seg.Value(src)), "\n"))
				}
				p.items = append(p.items, fmt.Sprintf("code %d", lines.Len()))
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
				p.items = append(p.items, fmt.Sprintf("tr %d", len(cells)))
				b.WriteString(strings.Join(cells, " | "))
			case *ast.ListItem:
				p.items = append(p.items, "li")
				walk(k)
				continue
			case *ast.Blockquote:
				p.items = append(p.items, "quote")
				walk(k)
				continue
			default:
				walk(k)
				continue
			}
			p.text = append(p.text, b.String())
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

// collapse joins blocks and collapses white space.
func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// expected is what text and s should read as.
func expected(text string, s *Structure) parsed {
	var p parsed
	runes := []rune(text)
	for _, sp := range s.Spans {
		t := string(runes[sp.Start:sp.End])
		switch sp.Kind {
		case Heading:
			p.items = append(p.items, fmt.Sprintf("h%d %s", sp.Level, t))
		case Link:
			p.items = append(p.items, fmt.Sprintf("a %s %s", sp.Href, t))
		case Emphasis:
			l := 1
			if sp.Strong {
				l = 2
			}
			p.items = append(p.items, fmt.Sprintf("em%d %s", l, t))
		}
	}
	return p
}

func TestMarkdownRoundTrip(t *testing.T) {
	text := "Title\nIntro with a link and *stars* and _under_ and <tags> & 1. not a list\n" +
		"# not a heading\nfirst item\nsecond item\nnested item\nname | value\nx | a|b\ny\n" +
		"quoted one\nquoted two\nfunc main() {\n}\nlast words, with strong words"
	r := []rune(text)
	at := func(s string) (int, int) {
		i := strings.Index(text, s)
		if i < 0 {
			t.Fatalf("no %q", s)
		}
		st := len([]rune(text[:i]))
		return st, st + len([]rune(s))
	}
	var spans []Span
	add := func(k Kind, s string, f func(*Span)) {
		a, b := at(s)
		sp := Span{Kind: k, Start: a, End: b}
		if f != nil {
			f(&sp)
		}
		spans = append(spans, sp)
	}
	_ = r
	add(Heading, "Title", func(s *Span) { s.Level = 1 })
	add(Paragraph, "Intro with a link and *stars* and _under_ and <tags> & 1. not a list", nil)
	add(Link, "a link", func(s *Span) { s.Href = "https://example.com/a_(b)?c=1&d=2" })
	add(List, "first item\nsecond item\nnested item", nil)
	add(Item, "first item", func(s *Span) { s.Level = 1 })
	add(Item, "second item\nnested item", func(s *Span) { s.Level = 1 })
	add(List, "nested item", func(s *Span) { s.Ordered = true })
	add(Item, "nested item", func(s *Span) { s.Level = 2 })
	add(Table, "name | value\nx | a|b\ny", nil)
	add(Row, "name | value", nil)
	add(Cell, "name", func(s *Span) { s.Header = true })
	add(Cell, "value", func(s *Span) { s.Header = true })
	add(Row, "x | a|b", nil)
	add(Cell, "x", nil)
	add(Cell, "a|b", nil)
	add(Row, "y", nil)
	add(Cell, "y", nil)
	add(Quote, "quoted one\nquoted two", nil)
	add(Code, "func main() {\n}", nil)
	add(Emphasis, "strong", func(s *Span) { s.Strong = true })
	s := &Structure{Spans: spans}
	s.Sort()
	if err := Check(s, text); err != nil {
		t.Fatal(err)
	}
	rend := Markdown(text, s)
	got := parseMarkdown(rend.Markdown)
	if g, w := collapse(strings.Join(got.text, " ")), collapse(text); g != w {
		t.Errorf("plain text:\n got %q\nwant %q\nmarkdown:\n%s", g, w, rend.Markdown)
	}
	want := expected(text, s)
	var gotItems []string
	for _, it := range got.items {
		if strings.HasPrefix(it, "h") || strings.HasPrefix(it, "a ") || strings.HasPrefix(it, "em") {
			gotItems = append(gotItems, it)
		}
	}
	if g, w := strings.Join(gotItems, "\n"), strings.Join(want.items, "\n"); g != w {
		t.Errorf("structure:\n got %s\nwant %s\nmarkdown:\n%s", g, w, rend.Markdown)
	}
	for _, must := range []string{"li", "li", "li", "quote", "code 2", "tr 2", "tr 2", "tr 1"} {
		if !strings.Contains(strings.Join(got.items, "\n"), must) {
			t.Errorf("no %q in %v\nmarkdown:\n%s", must, got.items, rend.Markdown)
		}
	}
	// Every code point maps to itself in the Markdown.
	md := []rune(rend.Markdown)
	for i, c := range r {
		if c == '\n' || c == '\f' {
			continue
		}
		a, b := rend.Span(i, i+1)
		if b-a != 1 || md[a] != c {
			t.Fatalf("code point %d (%q) maps to %q", i, c, string(md[a:b]))
		}
	}
}

// TestMarkdownRandom renders random texts with random structure and reads
// them back: the plain text is always the text.
func TestMarkdownRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	words := []string{"a", "word", "*", "_", "#", "1.", "-", "|", "\\", "[x]", "<b>", "&amp;", "`", "~~", "http://x.org", "é", "東京", "!", ">", "+", "=", "***", "2)", "(", ")", "\"q\""}
	for n := 0; n < 300; n++ {
		var blocks []string
		for b := 0; b < 1+rng.IntN(8); b++ {
			var ws []string
			for w := 0; w < 1+rng.IntN(6); w++ {
				ws = append(ws, words[rng.IntN(len(words))])
			}
			blocks = append(blocks, strings.Join(ws, " "))
		}
		text := strings.Join(blocks, "\n")
		var spans []Span
		cp := 0
		kinds := []Kind{Heading, Paragraph, Code, Quote, Table}
		for _, bl := range blocks {
			n := len([]rune(bl))
			k := kinds[rng.IntN(len(kinds))]
			sp := Span{Kind: k, Start: cp, End: cp + n}
			if k == Heading {
				sp.Level = 1 + rng.IntN(6)
			}
			spans = append(spans, sp)
			if k == Table {
				spans = append(spans, Span{Kind: Row, Start: cp, End: cp + n})
			}
			if k != Code && n > 2 && rng.IntN(2) == 0 {
				if f := strings.Index(bl, " "); f > 0 {
					f = len([]rune(bl[:f]))
					spans = append(spans, Span{Kind: Link, Start: cp, End: cp + f, Href: "https://e.org/" + bl[:0] + "p q"})
				}
			}
			cp += n + 1
		}
		s := &Structure{Spans: spans}
		s.Sort()
		if err := Check(s, text); err != nil {
			t.Fatal(err)
		}
		md := Markdown(text, s).Markdown
		got := parseMarkdown(md)
		if g, w := collapse(strings.Join(got.text, " ")), collapse(text); g != w {
			t.Fatalf("plain text:\n got %q\nwant %q\nmarkdown:\n%s", g, w, md)
		}
	}
}
