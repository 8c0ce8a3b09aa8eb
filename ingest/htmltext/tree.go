package htmltext

import "golang.org/x/net/html"

// removal is one node the cleaning took out of a tree: its parent, the
// sibling it stood before, and the mark clean left in its place (nil for
// none).
type removal struct{ parent, node, next, mark *html.Node }

// remove takes c out of its parent n, after a mark (nil for none) that
// clean put before it, and logs where it stood when the cleaner keeps a
// log.
func (cl cleaner) remove(n, c, mark *html.Node) {
	if cl.removed != nil {
		*cl.removed = append(*cl.removed, removal{n, c, c.NextSibling, mark})
	}
	n.RemoveChild(c)
}

// Tree returns the page's tree as the extractor parsed it (<noscript>
// read as markup; see parse), or nil for a page read by the flat text
// scan. The extraction takes parts out of the trees it reads; the first
// call puts them back, in the reverse order of their removal, so that it
// costs a step for each part taken out and the page is read once, by the
// extractor. A reader of the page's markup (its verdict, see package
// verdict) reads this tree instead of parsing the page again. Tree must
// not be called concurrently with itself.
func (r *Result) Tree() *html.Node {
	for i := len(r.removed) - 1; i >= 0; i-- {
		rm := r.removed[i]
		if rm.mark != nil {
			rm.parent.RemoveChild(rm.mark)
		}
		rm.parent.InsertBefore(rm.node, rm.next)
	}
	r.removed = nil
	return r.tree
}
