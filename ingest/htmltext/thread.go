package htmltext

import (
	"strings"
	"unicode"

	"golang.org/x/net/html"
)

// A discussion thread (a forum topic, a message board) is a run of posts,
// and the posts are its content: the replies that an article's page sets
// apart as comments are the thread itself. Forum software marks its posts
// with class names such as "comment" or "replies", which the cleaning
// otherwise reads as furniture. A page that declares itself a thread in
// schema.org terms, or whose structure shows a run of posts (see
// hasPostRun), is read with those names taken for posts.

// threadType is the schema.org type of a post that opens a thread.
const threadType = "DiscussionForumPosting"

// isThreadPage reports whether the page declares a discussion thread: a
// JSON-LD object of @type DiscussionForumPosting in the page's JSON-LD lds
// (declarations.pageLD; at any depth: as the page's main entity, in a @graph) or an
// element of itemtype schema.org/DiscussionForumPosting.
func isThreadPage(doc *html.Node, lds []any) bool {
	for _, v := range lds {
		if hasType(v, threadType, 0) {
			return true
		}
	}
	found := false
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		for c := n.FirstChild; c != nil && !found && depth < maxDepth; c = c.NextSibling {
			if c.Type != html.ElementNode || c.Data == "script" {
				continue
			}
			if strings.HasSuffix(strings.TrimSpace(attr(c, "itemtype")), "schema.org/"+threadType) {
				found = true
				return
			}
			walk(c, depth+1)
		}
	}
	walk(doc, 0)
	return found
}

// maxTypeDepth bounds how deep hasType looks into a JSON-LD value.
const maxTypeDepth = 8

// hasType reports whether v or a value nested in it (at most maxTypeDepth
// levels down) is an object whose @type is or lists typ.
func hasType(v any, typ string, depth int) bool {
	if depth > maxTypeDepth {
		return false
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if hasType(e, typ, depth+1) {
				return true
			}
		}
	case map[string]any:
		if typeIs(x, typ) {
			return true
		}
		for k, e := range x {
			if k != "@type" && hasType(e, typ, depth+1) {
				return true
			}
		}
	}
	return false
}

// holdsPost reports whether one of n's children is an <article>, on a
// thread a post: forum software nests the replies to a post in a block
// under it and names that block as its layout needs ("children-container
// hide-last-connector"), which a weak furniture hint would remove with the
// replies (see removable).
func holdsPost(n *html.Node) bool {
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		if c.Type == html.ElementNode && c.Data == "article" {
			return true
		}
	}
	return false
}

// A thread that declares nothing still shows itself in its structure: its
// posts are a run of sibling blocks of one shape, each dated (the meta line
// above the post) and each holding running text with few links, and the
// run holds most of the page's text. Forum software writes a post as text
// and line breaks; the blocks of other pages that take that shape (an
// article's comments, a guide's sections, review lists) write paragraphs,
// so a run whose text sits mostly in <p> is not read as posts.
const (
	// postRunMin is the fewest posts of a run.
	postRunMin = 4
	// postRunDated is the least share of the posts that carry a date.
	postRunDated = 0.8
	// postRunShare is the least share of the page's unlinked text that
	// the run holds.
	postRunShare = 0.5
	// postRunParagraphs is the most share of the run's text inside <p>.
	postRunParagraphs = 0.25
)

// postRun describes a run of post-like sibling blocks of one shape.
type postRun struct {
	shape        string
	posts, dated int
	// text is the posts' unlinked text, paragraphs the part of their text
	// inside little-linked <p> elements.
	text, paragraphs int
}

// runStat is what hasPostRun measures of a subtree.
type runStat struct {
	text, link, paragraphs int
	dated                  bool
}

// hasPostRun reports whether the page's structure shows a thread's run of
// posts (see postRunMin and the other bounds above). It walks the tree
// once.
func hasPostRun(doc *html.Node) bool {
	var best postRun
	bodyText := 0
	var walk func(n *html.Node, depth int) runStat
	walk = func(n *html.Node, depth int) runStat {
		var s runStat
		var runs []postRun
		for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				t, _ := runLen(c.Data)
				s.text += t
				s.dated = s.dated || hasDate(c.Data)
			case html.ElementNode:
				if dropTags[c.Data] {
					continue
				}
				cs := walk(c, depth+1)
				switch c.Data {
				case "a":
					cs.link = cs.text
				case "time":
					cs.dated = true
				case "p":
					if cs.link*5 < cs.text {
						cs.paragraphs = cs.text
					}
				}
				s.text += cs.text
				s.link += cs.link
				s.paragraphs += cs.paragraphs
				s.dated = s.dated || cs.dated
				if c.Data == "p" || cs.text < mainLeadLimits.proseChars || float64(cs.link) >= mainProseRunLimits.postLinkShare*float64(cs.text) {
					continue
				}
				shape := shapeOf(c)
				i := 0
				for i < len(runs) && runs[i].shape != shape {
					i++
				}
				if i == len(runs) {
					if len(runs) >= maxShapes {
						continue
					}
					runs = append(runs, postRun{shape: shape})
				}
				r := &runs[i]
				r.posts++
				r.text += cs.text - cs.link
				r.paragraphs += cs.paragraphs
				if cs.dated {
					r.dated++
				}
			}
		}
		for _, r := range runs {
			if r.posts >= postRunMin && r.text > best.text {
				best = r
			}
		}
		if n.Type == html.ElementNode && n.Data == "body" {
			bodyText = s.text - s.link
		}
		return s
	}
	walk(doc, 0)
	return best.posts >= postRunMin &&
		float64(best.dated) >= postRunDated*float64(best.posts) &&
		float64(best.text) >= postRunShare*float64(bodyText) &&
		float64(best.paragraphs) < postRunParagraphs*float64(best.text)
}

// maxShapes bounds the shapes of blocks counted under one parent, so that
// a parent of many differently named children costs linear time.
const maxShapes = 8

// shapeOf is the shape of a block as a run compares it: its tag and its
// first class name without trailing digits (alternating rows are named
// "row1", "row2").
func shapeOf(n *html.Node) string {
	class := strings.Fields(attr(n, "class"))
	if len(class) == 0 {
		return n.Data
	}
	return n.Data + "." + strings.ToLower(strings.TrimRight(class[0], "0123456789"))
}

// hasDate reports whether s holds a year (1900 to 2099, standing alone) or
// a relative date ("3 days ago").
func hasDate(s string) bool {
	for i := 0; i+4 <= len(s); i++ {
		if (s[i] == '1' && s[i+1] == '9' || s[i] == '2' && s[i+1] == '0') && isASCIIDigit(s[i+2]) && isASCIIDigit(s[i+3]) &&
			(i == 0 || !isASCIIDigit(s[i-1])) && (i+4 == len(s) || !isASCIIDigit(s[i+4])) {
			return true
		}
	}
	return strings.Contains(s, " ago")
}

func isASCIIDigit(b byte) bool { return b >= '0' && b <= '9' }

// typeIs reports whether the JSON-LD object x has @type typ, alone or in a
// list of types.
func typeIs(x map[string]any, typ string) bool {
	switch t := x["@type"].(type) {
	case string:
		return t == typ
	case []any:
		for _, e := range t {
			if e == typ {
				return true
			}
		}
	}
	return false
}

// A link aggregator's thread (a submission and the discussion under it)
// declares nothing and writes its posts in paragraphs, so hasPostRun does
// not see it; it names its posts comments. When the comments hold most of
// the page's text and the page does not declare itself an article (an
// article's comments are read as furniture), the page is the discussion.
const commentThreadShare = 0.5

// isCommentThread reports whether the outermost elements whose class or id
// names comments hold at least commentThreadShare of the unlinked text of
// the page's body. It walks the tree once.
func isCommentThread(doc *html.Node) bool {
	comments, body := 0, 0
	// walk returns the text and the link text under n; in is set inside a
	// comment-named element.
	var walk func(n *html.Node, depth int, in bool) (text, link int)
	walk = func(n *html.Node, depth int, in bool) (text, link int) {
		for c := n.FirstChild; c != nil && depth < maxDepth; c = c.NextSibling {
			switch c.Type {
			case html.TextNode:
				t, _ := runLen(c.Data)
				text += t
			case html.ElementNode:
				if dropTags[c.Data] {
					continue
				}
				cin := in || namesComments(c)
				t, l := walk(c, depth+1, cin)
				if c.Data == "a" {
					l = t
				}
				if cin && !in {
					comments += t - l
				}
				text += t
				link += l
			}
		}
		if n.Type == html.ElementNode && n.Data == "body" {
			body = text - link
		}
		return text, link
	}
	walk(doc, 0, false)
	return body > 0 && float64(comments) >= commentThreadShare*float64(body)
}

// namesComments reports whether n's class or id names comments.
func namesComments(n *html.Node) bool {
	return strings.Contains(strings.ToLower(attr(n, "class")), "comment") || strings.Contains(strings.ToLower(attr(n, "id")), "comment")
}

// A post opens with a line that names its poster and dates it, and forum
// software links both: the name to the poster's page, the date to the
// post's own address. Weighed as links, that line reads as a menu and is
// left out; on a thread, the text of such poster links counts as the
// post's own text (see emitter.write).

// memberSegments are the words of a link's path that name a member's page
// (/members/name.12/, /u/name, /user/12, /profile/name).
var memberSegments = setOf("member", "members", "memberlist", "user", "users", "u", "profile", "profiles")

// isPosterLink reports whether link a names a post's poster (it leads to
// a member's page, see isMemberLink) or dates the post (it holds a <time>:
// the post's own address under its date).
func isPosterLink(a *html.Node) bool {
	return isMemberLink(a) || hasTag(a, "time", 0)
}

// isMemberLink reports whether link a leads to a member's page: a
// segment of its path (split at "/" and ".") is one of memberSegments.
func isMemberLink(a *html.Node) bool {
	for seg := range strings.FieldsFuncSeq(hrefPath(a), func(r rune) bool { return r == '/' || r == '.' }) {
		if memberSegments[seg] {
			return true
		}
	}
	return false
}

// Each post of a thread shows its counts (votes, likes, replies) beside
// the buttons that change them, as blocks of a number alone: no text of
// the post's.

// isCounter reports whether block b is a count alone (see isCount), or
// a count with the word naming it (see isLabelledCount).
func isCounter(b string) bool {
	b = strings.TrimSpace(b)
	return isCount(b) || isLabelledCount(b)
}

// isLabelledCount reports whether s is a count and one word naming what
// it counts, as a post shows its likes or replies ("12 likes", "1 Reply"):
// a word of letters alone after the count.
func isLabelledCount(s string) bool {
	num, word, ok := strings.Cut(s, " ")
	if !ok || !isCount(num) || word == "" {
		return false
	}
	for _, r := range word {
		if !unicode.IsLetter(r) {
			return false
		}
	}
	return true
}

// isCount reports whether s is a count as a post shows it: digits with
// group or decimal separators, perhaps shortened by a final k or M
// ("1,204", "18.7k").
func isCount(s string) bool {
	s = strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(s, "k"), "K"), "M")
	digits := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case isASCIIDigit(c):
			digits = true
		case c == ',' || c == '.':
		default:
			return false
		}
	}
	return digits
}
