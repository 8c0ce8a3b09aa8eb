package htmlwalk

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// names walks from start under root and lists the elements it meets.
func names(start, root *html.Node) string {
	var got []string
	for c := start; c != nil; c = Next(c, root) {
		if c.Type == html.ElementNode {
			got = append(got, c.Data)
		}
	}
	return strings.Join(got, " ")
}

// find returns the first element named a in document order.
func find(doc *html.Node, a atom.Atom) *html.Node {
	for c := doc; c != nil; c = Next(c, doc) {
		if c.DataAtom == a {
			return c
		}
	}
	return nil
}

func TestNext(t *testing.T) {
	doc, err := html.Parse(strings.NewReader(
		`<div><p><b>x</b><i>y</i></p><ul><li>1</li><li>2</li></ul></div><section><em>z</em></section>`))
	if err != nil {
		t.Fatal(err)
	}
	div, ul, em := find(doc, atom.Div), find(doc, atom.Ul), find(doc, atom.Em)
	for _, tc := range []struct {
		name        string
		start, root *html.Node
		want        string
	}{
		{"whole document", doc, doc, "html head body div p b i ul li li section em"},
		{"subtree with its root", div, div, "div p b i ul li li"},
		{"subtree without its root", div.FirstChild, div, "p b i ul li li"},
		{"last subtree of a parent", ul, ul, "ul li li"},
		{"leaf", em, em, "em"},
	} {
		if got := names(tc.start, tc.root); got != tc.want {
			t.Errorf("%s: got %q, want %q", tc.name, got, tc.want)
		}
	}
}

// A tree far deeper than any page nests is walked to its end, in order.
func TestNextDeepTree(t *testing.T) {
	const depth = 200000
	root := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
	n := root
	for range depth {
		c := &html.Node{Type: html.ElementNode, Data: "div", DataAtom: atom.Div}
		n.AppendChild(c)
		n = c
	}
	n.AppendChild(&html.Node{Type: html.TextNode, Data: "end"})
	count, last := 0, root
	for c := root; c != nil; c = Next(c, root) {
		count++
		last = c
	}
	if count != depth+2 || last.Data != "end" {
		t.Errorf("walked %d nodes ending at %q, want %d ending at \"end\"", count, last.Data, depth+2)
	}
}
