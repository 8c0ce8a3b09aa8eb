// Package htmlwalk walks a tree parsed by golang.org/x/net/html in document
// order without recursion.
package htmlwalk

import "golang.org/x/net/html"

// Next returns the node after c in a pre-order walk of the tree under root
// (root itself comes first), or nil when c is the last; the walk never
// leaves root. Start at root to visit it too, or at root.FirstChild to visit
// only what it holds.
//
// The walk is iterative on purpose: html.Node.Descendants recurses, one
// frame per level, and the tree of an untrusted page may be as deep as the
// parser allows.
func Next(c, root *html.Node) *html.Node {
	if c.FirstChild != nil {
		return c.FirstChild
	}
	for c != root && c.NextSibling == nil {
		c = c.Parent
	}
	if c == root {
		return nil
	}
	return c.NextSibling
}
