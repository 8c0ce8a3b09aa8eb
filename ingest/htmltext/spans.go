package htmltext

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/text/unicode/norm"

	"github.com/digestd/digestd/structure"
)

// pageSpans finds the structure of text, a page's canonical text, in the
// tree it was written from: each block of the text is found in the tree's
// text, in order, by its letters and digits alone (the emission adds
// separators and drops furniture), and the elements that hold it or lie in
// it give its spans: headings, lists and their items, quotes,
// preformatted code, tables with rows and cells, figures and captions,
// links (href as written) and emphasis. Offsets are bytes of text. A block
// not found where the text goes on (one the extraction wrote itself) has
// no spans. It reads the tree once and the text once.
func pageSpans(tree *html.Node, text string) []structure.Span {
	if tree == nil || text == "" {
		return nil
	}
	var d domText
	d.walk(tree, 0)
	dkey := d.key.String()
	var out []structure.Span
	var open []openElem // block elements holding the previous block
	var stack []*keyedElem
	next := 0
	cursor := 0
	for bs := 0; bs < len(text); {
		be := strings.IndexAny(text[bs:], "\n\f")
		if be < 0 {
			be = len(text)
		} else {
			be += bs
		}
		key, at := blockKey(text[bs:be])
		p := -1
		if len(key) > 0 {
			if i := strings.Index(dkey[cursor:min(len(dkey), cursor+maxSearch)], key); i >= 0 {
				p = cursor + i
			}
		}
		var holding []*keyedElem
		if p >= 0 {
			end := p + len(key)
			cursor = end
			for next < len(d.elems) && d.elems[next].ks < end {
				e := &d.elems[next]
				next++
				for len(stack) > 0 && stack[len(stack)-1].ke <= e.ks {
					stack = stack[:len(stack)-1]
				}
				stack = append(stack, e)
				if inlineTag(e.kind) && e.ks >= p && e.ke <= end && e.ke > e.ks {
					out = append(out, inlineSpan(e, text, bs, be, p, at))
				}
			}
			for _, e := range stack {
				if !inlineTag(e.kind) && e.ks <= p && e.ke >= end {
					holding = append(holding, e)
				}
			}
		}
		open, out = holdBlock(open, holding, bs, be, out)
		if be >= len(text) {
			break
		}
		bs = be + 1
	}
	for _, o := range open {
		out = append(out, o.span)
	}
	return out
}

// inlineSpan is the span of an inline element e whose key lies in the
// key of the block text[bs:be], found at p of the tree's key (at maps the
// block key's offsets to the block's bytes).
func inlineSpan(e *keyedElem, text string, bs, be, p int, at []int) structure.Span {
	// A key offset maps to the byte of text where its letter begins; an
	// end, to where its letter ends.
	sp := e.span
	last := bs + at[e.ke-p-1]
	_, size := utf8.DecodeRuneInString(text[last:])
	sp.Start, sp.End = bs+at[e.ks-p], last+size
	if sp.Kind == structure.Cell {
		// A cell holds the signs around its letters ("$3", "(2)"), up to
		// the spaces that part it from the next.
		for sp.Start > bs && text[sp.Start-1] != ' ' {
			sp.Start--
		}
		for sp.End < be && text[sp.End] != ' ' {
			sp.End++
		}
	}
	return sp
}

// holdBlock carries the block elements open over the blocks before on to
// the block text[bs:be]: those that do not hold it (holding, outermost
// first) close where the block before ended and go to out; those that do
// stretch over it; and the ones that begin with it open.
func holdBlock(open []openElem, holding []*keyedElem, bs, be int, out []structure.Span) ([]openElem, []structure.Span) {
	keep := 0
	for keep < len(open) && keep < len(holding) && open[keep].e == holding[keep] {
		keep++
	}
	for _, o := range open[keep:] {
		out = append(out, o.span)
	}
	open = open[:keep]
	for i := range open {
		open[i].span.End = be
	}
	for _, e := range holding[keep:] {
		sp := e.span
		sp.Start, sp.End = bs, be
		open = append(open, openElem{e, sp})
	}
	return open, out
}

// maxSearch bounds how far in the tree's text, in bytes of its key, a
// block is looked for past the end of the one before.
const maxSearch = 1 << 18

// openElem is a block element holding the blocks so far, with its span.
type openElem struct {
	e    *keyedElem
	span structure.Span
}

// keyedElem is an element of structure with the range of the tree's key
// its text covers.
type keyedElem struct {
	kind   structure.Kind
	span   structure.Span
	ks, ke int
}

// domText is the key of a tree's text (its letters and digits, lower
// case, in order) and its elements of structure, in document order.
type domText struct {
	key   strings.Builder
	elems []keyedElem
	lists int
}

func inlineTag(k structure.Kind) bool {
	return k == structure.Link || k == structure.Emphasis || k == structure.Cell
}

// spanOf is the span an element makes, if any.
func (d *domText) spanOf(n *html.Node) (structure.Span, bool) {
	switch n.Data {
	case "h1", "h2", "h3", "h4", "h5", "h6":
		return structure.Span{Kind: structure.Heading, Level: int(n.Data[1] - '0')}, true
	case "ul", "ol":
		return structure.Span{Kind: structure.List, Ordered: n.Data == "ol"}, true
	case "li":
		return structure.Span{Kind: structure.Item, Level: max(d.lists, 1)}, true
	case "blockquote":
		return structure.Span{Kind: structure.Quote}, true
	case "pre":
		return structure.Span{Kind: structure.Code}, true
	case "table":
		return structure.Span{Kind: structure.Table}, true
	case "tr":
		return structure.Span{Kind: structure.Row}, true
	case "td", "th":
		return structure.Span{Kind: structure.Cell, Header: n.Data == "th"}, true
	case "figure":
		return structure.Span{Kind: structure.Figure}, true
	case "figcaption", "caption":
		return structure.Span{Kind: structure.Caption}, true
	case "a":
		for _, a := range n.Attr {
			if a.Key == "href" && a.Namespace == "" {
				return structure.Span{Kind: structure.Link, Href: strings.TrimSpace(a.Val)}, a.Val != ""
			}
		}
	case "em", "i":
		return structure.Span{Kind: structure.Emphasis}, true
	case "strong", "b":
		return structure.Span{Kind: structure.Emphasis, Strong: true}, true
	}
	return structure.Span{}, false
}

// walk adds n's text to the key and its elements of structure.
func (d *domText) walk(n *html.Node, depth int) {
	if depth > maxDepth {
		return
	}
	switch n.Type {
	case html.TextNode:
		appendKey(&d.key, n.Data)
		return
	case html.ElementNode:
		if dropTags[n.Data] {
			return
		}
	}
	i := -1
	if n.Type == html.ElementNode {
		if sp, ok := d.spanOf(n); ok {
			if n.Data == "ul" || n.Data == "ol" {
				d.lists++
				defer func() { d.lists-- }()
			}
			d.elems = append(d.elems, keyedElem{kind: sp.Kind, span: sp, ks: d.key.Len()})
			i = len(d.elems) - 1
		}
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		d.walk(c, depth+1)
	}
	if i >= 0 {
		d.elems[i].ke = d.key.Len()
	}
}

// appendKey writes the key of s: its letters and digits, lower case,
// each accented one as its base letter.
func appendKey(b *strings.Builder, s string) {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z', '0' <= c && c <= '9':
				b.WriteByte(c)
			case 'A' <= c && c <= 'Z':
				b.WriteByte(c + 'a' - 'A')
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		i += size
		if k, ok := keyRune(r); ok {
			b.WriteRune(k)
		}
	}
}

// keyRune is the rune r stands for in a key: letters and digits lower
// case and without their marks; ok is false for any other rune.
func keyRune(r rune) (rune, bool) {
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return 0, false
	}
	if d := norm.NFD.PropertiesString(string(r)).Decomposition(); len(d) > 0 {
		if base, _ := utf8.DecodeRune(d); unicode.IsLetter(base) || unicode.IsDigit(base) {
			r = base
		}
	}
	return unicode.ToLower(r), true
}

// blockKey returns the key of a block of text and, for each byte of the
// key, the byte offset in block of the rune it came from.
func blockKey(block string) (string, []int) {
	var b strings.Builder
	var at []int
	for i := 0; i < len(block); {
		r, size := utf8.DecodeRuneInString(block[i:])
		n := b.Len()
		if r < utf8.RuneSelf {
			appendKey(&b, block[i:i+size])
		} else if k, ok := keyRune(r); ok {
			b.WriteRune(k)
		}
		for range b.Len() - n {
			at = append(at, i)
		}
		i += size
	}
	return b.String(), at
}
