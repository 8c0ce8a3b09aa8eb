package htmltext

import (
	"bytes"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// maxReopened bounds how many formatting elements the tree parser may be
// expected to reopen (see scanTokens) before a page is extracted by
// the flat text scan instead. On the evaluation pages the estimate stays
// under 7,000.
const maxReopened = 100_000

// scanTokens counts, in one linear pass over the tokens of decoded that
// holds no more than one token, the nodes the tree parser would build
// without reopening formatting elements (one for every start tag, text run,
// comment and doctype), stopping once they pass nodeLimit, and estimates how many
// elements the HTML5 tree parser would create by reopening formatting
// elements ("reconstruct the active formatting elements"): before every
// text run and most start tags, the parser clones each formatting element
// still on its list but no longer open. A small input that opens many
// distinct formatting elements and never closes them makes the parser
// build millions of nodes (19 KB can become 1.6 million), far beyond what
// the input's size suggests, so the tree must not be built at all.
//
// The estimate errs high: it counts every listed element after the last
// scope marker as reopened at every step, and an end tag whose element is
// not among the last few listed leaves the list as it is. Like the parser,
// it keeps at most three identical entries (same tag and attributes). It
// stops estimating once the estimate passes reopenLimit (the nodes are still
// counted: a page over its node budget fails whatever it reopens).
func scanTokens(decoded []byte, nodeLimit, reopenLimit int) (nodes, reopened int) {
	type entry struct {
		tag   atom.Atom
		key   string // tag and attributes, for the limit on identical entries
		depth int    // scope depth (markers) it was listed at
	}
	const searchBack = 64 // how far back an end tag looks for its element
	z := html.NewTokenizer(bytes.NewReader(decoded))
	var list []entry
	depth := 0   // open scope markers: td, th, caption, applet, marquee, object, template
	current := 0 // entries listed at the current depth
	total := 0
	remove := func(tag atom.Atom) {
		for i := len(list) - 1; i >= 0 && i >= len(list)-searchBack && list[i].depth == depth; i-- {
			if list[i].tag == tag {
				list = append(list[:i], list[i+1:]...)
				current--
				return
			}
		}
	}
	for nodes <= nodeLimit {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return nodes, total
		case html.StartTagToken, html.SelfClosingTagToken, html.TextToken, html.CommentToken, html.DoctypeToken:
			nodes++
		}
		if total > reopenLimit {
			continue
		}
		switch tt {
		case html.TextToken:
			total += current
		case html.StartTagToken, html.SelfClosingTagToken:
			a := tagAtom(z.Raw())
			switch {
			case formatting(a):
				total += current
				if a == atom.A || a == atom.Nobr {
					remove(a) // the parser closes an open one first
				}
				if tt == html.StartTagToken {
					// The raw tag stands for its name and attributes: tags
					// the parser deems identical but that are written
					// differently count as distinct, which errs high.
					key := string(z.Raw())
					same, first := 0, -1
					for i := len(list) - 1; i >= 0 && i >= len(list)-searchBack && list[i].depth == depth; i-- {
						if list[i].key == key {
							same++
							first = i
						}
					}
					if same >= 3 {
						list = append(list[:first], list[first+1:]...)
						current--
					}
					list = append(list, entry{a, key, depth})
					current++
				}
			case scopeMarker(a):
				total += current
				depth++
				current = 0
			default:
				total += current
			}
		case html.EndTagToken:
			a := tagAtom(z.Raw())
			switch {
			case formatting(a):
				remove(a)
			case scopeMarker(a) && depth > 0:
				// Closing the scope clears the list back to its marker.
				for len(list) > 0 && list[len(list)-1].depth == depth {
					list = list[:len(list)-1]
				}
				depth--
				current = 0
				for i := len(list) - 1; i >= 0 && list[i].depth == depth; i-- {
					current++
				}
			}
		}
	}
	return nodes, total
}

// tagAtom is the atom of the tag token raw ("<name ...>" or
// "</name ...>"), 0 for a name that is no atom. It reads the name as the
// tokenizer does (up to a space, '/' or '>', ASCII lowercased) without
// the copy Tokenizer.TagName makes of every tag; a name with a NUL byte,
// which TagName would turn into U+FFFD, is no atom either way.
func tagAtom(raw []byte) atom.Atom {
	raw = bytes.TrimPrefix(bytes.TrimPrefix(raw, []byte("<")), []byte("/"))
	var name [32]byte // longer than any atom
	n := 0
	for _, c := range raw {
		if c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r' || c == '/' || c == '>' {
			break
		}
		if n == len(name) {
			return 0
		}
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		name[n] = c
		n++
	}
	return atom.Lookup(name[:n])
}

// formatting reports whether a is one of the HTML5 formatting elements the
// parser reopens.
func formatting(a atom.Atom) bool {
	switch a {
	case atom.A, atom.B, atom.Big, atom.Code, atom.Em, atom.Font, atom.I, atom.Nobr,
		atom.S, atom.Small, atom.Strike, atom.Strong, atom.Tt, atom.U:
		return true
	}
	return false
}

// scopeMarker reports whether a's start inserts a marker into the list of
// active formatting elements (and its end clears back to it).
func scopeMarker(a atom.Atom) bool {
	switch a {
	case atom.Td, atom.Th, atom.Caption, atom.Applet, atom.Marquee, atom.Object, atom.Template:
		return true
	}
	return false
}
