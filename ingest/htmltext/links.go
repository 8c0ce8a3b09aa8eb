package htmltext

import (
	"strings"

	"golang.org/x/net/html"

	"github.com/digestd/digestd/structure"
)

// PageLinks returns the links of the whole page, in document order: each
// <a href> outside what is never shown (scripts, templates, form
// controls, hidden elements), its href as written and its anchor text
// (its text, else its aria-label, its title, or the alt text of an image
// in it), white space collapsed; an href written again is not listed
// again. The extraction's own links, those of the canonical text, are
// among them. It reads the page's tree as parsed (Tree): nil for a page
// read without a tree, an empty list for a page without links.
func (r *Result) PageLinks() []structure.Anchor {
	tree := r.Tree()
	if tree == nil {
		return nil
	}
	out := []structure.Anchor{}
	seen := map[string]bool{}
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || dropTags[c.Data] || isHidden(c) || depth > maxDepth {
				continue
			}
			if c.Data == "a" {
				if href, ok := attrValue(c, "href"); ok && strings.TrimSpace(href) != "" {
					if href = strings.TrimSpace(href); !seen[href] {
						seen[href] = true
						out = append(out, structure.Anchor{Href: href, Text: anchorText(c)})
					}
					// An anchor inside an anchor is no link of its own.
					continue
				}
			}
			walk(c, depth+1)
		}
	}
	walk(tree, 0)
	return out
}

// anchorText is what a link reads as: its visible text, else its
// aria-label, its title, or the alt text of its first image that has one.
func anchorText(a *html.Node) string {
	if c := a.FirstChild; c != nil && c.Type == html.TextNode && c.NextSibling == nil {
		if s := collapse(c.Data); s != "" {
			return s
		}
	}
	var b strings.Builder
	alt := ""
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				b.WriteString(c.Data)
			case c.Type != html.ElementNode || isHidden(c) || dropTags[c.Data]:
			case c.Data == "img":
				if alt == "" {
					alt = attr(c, "alt")
				}
			case c.Data == "br" || !phrasingTags[c.Data]:
				// A line break or a block parts words.
				b.WriteByte(' ')
				walk(c)
				b.WriteByte(' ')
			default:
				walk(c)
			}
		}
	}
	walk(a)
	for _, s := range []string{b.String(), attr(a, "aria-label"), attr(a, "title"), alt} {
		if s = collapse(s); s != "" {
			return s
		}
	}
	return ""
}
