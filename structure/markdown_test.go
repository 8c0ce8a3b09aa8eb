package structure

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/digestd/digestd/structure/structuretest"
)

// expected is what text and s should read as.
func expected(text string, s *Structure) structuretest.Parsed {
	var p structuretest.Parsed
	runes := []rune(text)
	for _, sp := range s.Spans {
		t := string(runes[sp.Start:sp.End])
		switch sp.Kind {
		case Heading:
			p.Items = append(p.Items, fmt.Sprintf("h%d %s", sp.Level, t))
		case Link:
			p.Items = append(p.Items, fmt.Sprintf("a %s %s", sp.Href, t))
		case Emphasis:
			l := 1
			if sp.Strong {
				l = 2
			}
			p.Items = append(p.Items, fmt.Sprintf("em%d %s", l, t))
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
	got := structuretest.Read(rend.Markdown)
	if g, w := structuretest.Collapse(strings.Join(got.Text, " ")), structuretest.Collapse(text); g != w {
		t.Errorf("plain text:\n got %q\nwant %q\nmarkdown:\n%s", g, w, rend.Markdown)
	}
	want := expected(text, s)
	var gotItems []string
	for _, it := range got.Items {
		if strings.HasPrefix(it, "h") || strings.HasPrefix(it, "a ") || strings.HasPrefix(it, "em") {
			gotItems = append(gotItems, it)
		}
	}
	if g, w := strings.Join(gotItems, "\n"), strings.Join(want.Items, "\n"); g != w {
		t.Errorf("structure:\n got %s\nwant %s\nmarkdown:\n%s", g, w, rend.Markdown)
	}
	for _, must := range []string{"li", "li", "li", "quote", "code 2", "tr 2", "tr 2", "tr 1"} {
		if !strings.Contains(strings.Join(got.Items, "\n"), must) {
			t.Errorf("no %q in %v\nmarkdown:\n%s", must, got.Items, rend.Markdown)
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
		got := structuretest.Read(md)
		if g, w := structuretest.Collapse(strings.Join(got.Text, " ")), structuretest.Collapse(text); g != w {
			t.Fatalf("plain text:\n got %q\nwant %q\nmarkdown:\n%s", g, w, md)
		}
	}
}
