package htmltext

import (
	"encoding/json"
	"strings"

	"golang.org/x/net/html"
)

// A discussion thread (a forum topic, a message board) is a run of posts,
// and the posts are its content: the replies that an article's page sets
// apart as comments are the thread itself. Forum software marks its posts
// with class names such as "comment" or "replies", which the cleaning
// otherwise reads as furniture. A page that declares itself a thread in
// schema.org terms is read with those names taken for posts.

// threadType is the schema.org type of a post that opens a thread.
const threadType = "DiscussionForumPosting"

// isThreadPage reports whether the page declares a discussion thread: a
// JSON-LD object of @type DiscussionForumPosting (at any depth: as the
// page's main entity, in a @graph) or an element of itemtype
// schema.org/DiscussionForumPosting.
func isThreadPage(doc *html.Node) bool {
	found := false
	var walk func(n *html.Node, depth int)
	walk = func(n *html.Node, depth int) {
		for c := n.FirstChild; c != nil && !found && depth < maxDepth; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if c.Data == "script" {
				if strings.EqualFold(strings.TrimSpace(attr(c, "type")), "application/ld+json") && c.FirstChild != nil && len(c.FirstChild.Data) <= maxJSONLD {
					var v any
					if json.Unmarshal([]byte(c.FirstChild.Data), &v) == nil {
						found = hasType(v, threadType, 0)
					}
				}
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
		switch t := x["@type"].(type) {
		case string:
			if t == typ {
				return true
			}
		case []any:
			for _, e := range t {
				if e == typ {
					return true
				}
			}
		}
		for k, e := range x {
			if k != "@type" && hasType(e, typ, depth+1) {
				return true
			}
		}
	}
	return false
}

// Content split into parts: the best-scoring container may be one part of
// a run of parts that each hold prose, laid out side by side under one
// ancestor: the posts of a thread, the sections of a guide or of a
// service page, each wrapped in its own block. The other parts are
// cousins of the chosen container, which withSiblings does not reach.
const (
	// runLevels is how far above the chosen container withProseRun looks
	// for the run it belongs to.
	runLevels = 6
	// runLinkShare is the most share of link text a run of parts may
	// have: more, and the parts are teasers and link lists, not content.
	runLinkShare = 0.1
	// runTopShare is the most share of the run's text the chosen
	// container may hold for the run to replace it: a container with more
	// is the content, and the other parts are extras beside it.
	runTopShare = 0.5
)

// withProseRun returns the container of the run of parts that top is one
// of: the nearest ancestor (at most runLevels up, below body) with at least
// two children that hold prose, one of them holding top. On a thread page
// (x.posts) the run of posts is the content as it is; elsewhere it must be
// little linked (runLinkShare) and top must hold at most runTopShare of
// its text. Otherwise top is returned.
func (x *extraction) withProseRun(top, body *html.Node) *html.Node {
	if top == body {
		return top
	}
	child := top
	for level, a := 0, top.Parent; level < runLevels && a != nil && a != body && a.Type == html.ElementNode; level, a = level+1, a.Parent {
		parts, holds := 0, false
		for c := a.FirstChild; c != nil; c = c.NextSibling {
			if c.Type != html.ElementNode || paragraphTags[c.Data] || !x.isPart(c) {
				continue
			}
			parts++
			holds = holds || c == child
		}
		if parts >= 2 && holds {
			if x.posts {
				return a
			}
			st, tst := x.stat(a), x.stat(top)
			if st == nil || tst == nil || st.linkDensity() > runLinkShare || float64(tst.text) > runTopShare*float64(st.text) {
				return top
			}
			return a
		}
		child = a
	}
	return top
}

// isPart reports whether n can be a part of a run: it holds prose, or, on
// a thread page, it holds running text whatever its markup (forum software
// often writes a post as text and line breaks, without paragraphs): at
// least proseChars characters, few of them in links.
func (x *extraction) isPart(n *html.Node) bool {
	if x.posts {
		if st := x.stat(n); st != nil && st.text >= proseChars && st.linkDensity() < postLinkShare {
			return true
		}
	}
	return hasProse(n, 0)
}

// postLinkShare is the most share of link text in a post's running text.
const postLinkShare = 0.2
