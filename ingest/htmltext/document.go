package htmltext

import (
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// A document (a chapter of an EPUB book, see Options.Document) is read by
// a rule set of its own: its whole body is content, headings, lists,
// tables, figures, headers, footers and asides alike, but for markup that
// is no text (scripts, styles, comments, what the markup hides) and the
// publisher's navigation: <nav>, a table of contents or landmarks
// (epub:type, role), a list of links to the book's own documents, and a
// print edition's page-number markers. The web page's search, emission
// filters and readings do not apply. Across the chapters of a book,
// RunningHeads leaves out the running heads they repeat.

// readingDocument names a document's one reading in a trace.
const readingDocument = "document"

// documentRules is the cleaner's table for a document, in the order it is
// asked: the rules of cleanRules that remove markup without text, and the
// navigation rules of documents.
var documentRules = []rule{
	cleanRule("markup-comment"),
	cleanRule("text"),
	cleanRule("non-content-element"),
	cleanRule("hidden"),
	{
		name: "publisher-navigation", action: drop,
		doc: "the publisher's navigation: <nav>, or an element whose epub:type or role names a table of contents, landmarks, a page list or a list of illustrations or tables",
		match: func(cl *cleaner, v *visit) bool {
			return v.n.Data == "nav" || typedAs(v.n, navigationTypes)
		},
	},
	{
		name: "book-contents", action: drop,
		doc:   "an outermost list of links to the book's own documents or places in them, nearly all of its text linked: a table of contents",
		reads: []string{"tocMinLinks", "tocLinkedShare"},
		match: func(cl *cleaner, v *visit) bool {
			return v.list && !v.inList && isBookContents(v.n)
		},
	},
	{
		name: "page-marker", action: drop,
		doc: "a print edition's page-number marker (epub:type pagebreak, role doc-pagebreak)",
		match: func(cl *cleaner, v *visit) bool {
			return typedAs(v.n, pageMarkerTypes)
		},
	},
}

// DocumentRules lists the rules of a document's reading (see
// Options.Document): the cleaner's table for documents, in the order it is
// asked, then the running heads of a book (see RunningHeads).
func DocumentRules() []Rule {
	r := ruleRunningHead
	return append(describeRules(documentRules), Rule{Name: r.name, Doc: r.doc, Stage: r.stage, Kinds: "any", Action: r.action.String(), Limits: limitMap(r.limits())})
}

// cleanRule returns the rule of cleanRules named name; documentRules take
// them from there, so that a rule has one definition.
func cleanRule(name string) rule {
	for _, r := range cleanRules {
		if r.name == name {
			return r
		}
	}
	panic("htmltext: no clean rule " + name)
}

// navigationTypes are the epub:type and role tokens of navigation, and
// pageMarkerTypes those of a print edition's page-number marker.
var (
	navigationTypes = setOf("toc", "landmarks", "page-list", "loi", "lot", "doc-toc", "doc-pagelist", "directory", "navigation")
	pageMarkerTypes = setOf("pagebreak", "doc-pagebreak")
)

// typedAs reports whether element n's epub:type or role lists a token of
// types.
func typedAs(n *html.Node, types map[string]bool) bool {
	if n.Type != html.ElementNode {
		return false
	}
	for _, key := range []string{"epub:type", "role"} {
		for _, tok := range strings.Fields(strings.ToLower(attr(n, key))) {
			if types[tok] {
				return true
			}
		}
	}
	return false
}

// isBookContents reports whether list n is a table of contents of a book:
// at least tocMinLinks links, each to a document of the book or a place
// in one (a relative reference, no scheme), holding all but
// 1/tocLinkedShare of its text.
func isBookContents(n *html.Node) bool {
	links, text, linked := 0, 0, 0
	other := false
	walkText(n, isAnchor, func(c *html.Node, inLink bool) bool {
		switch {
		case c.Type == html.TextNode:
			t, _ := runLen(c.Data)
			text += t
			if inLink {
				linked += t
			}
		case c.Type == html.ElementNode && c.Data == "a":
			if !bookLink(attr(c, "href")) {
				other = true
				return false
			}
			links++
		}
		return true
	})
	return !other && links >= tocLimits.tocMinLinks && linked*tocLimits.tocLinkedShare >= text*(tocLimits.tocLinkedShare-1)
}

// bookLink reports whether href is a relative reference: a document of the
// book or a place in one, not a page elsewhere.
func bookLink(href string) bool {
	href = strings.TrimSpace(href)
	if href == "" || strings.HasPrefix(href, "//") {
		return false
	}
	if i := strings.IndexAny(href, ":/?#"); i >= 0 && href[i] == ':' {
		return false
	}
	return true
}

// documentBlocks returns the blocks of a document's body: all of it, but
// what documentRules leave out.
func documentBlocks(doc *html.Node, elems int, opt Options, removed *[]removal) []block {
	x := newExtraction(elems)
	cl := cleaner{rules: documentRules, stageDriver: stageDriver{trace: opt.Trace}, removed: removed}
	x.trace, x.reading = opt.Trace, readingDocument
	x.cleanPass = opt.Trace.begin(readingDocument)
	body := findBody(doc)
	cl.clean(body, 0, false)
	e := &emitter{x: x, keepAll: true, document: true}
	e.walk(body, body, false, false, 0)
	e.flush()
	opt.Trace.finish(x.cleanPass)
	return e.blocks
}

// ruleRunningHead is the rule of RunningHeads.
var ruleRunningHead = stageRule{name: "running-head", stage: stagePage, action: drop,
	doc: "a short block, not a heading nor a table row, that opens or closes at least runningHeadChapters chapters of the book word for word",
	lim: &runningHeadLimits}

// RunningHeads leaves out of a book's chapters, each read with
// Options.Document, the running heads they repeat (see ruleRunningHead),
// recording each in trace when it is not nil. Chapters read otherwise are
// left as they are.
func RunningHeads(chapters []*Result, trace *Trace) {
	ends := map[string]int{}
	for _, ch := range chapters {
		seen := map[string]bool{}
		for _, b := range chapterEnds(ch) {
			if !seen[b.text] {
				seen[b.text] = true
				ends[b.text]++
			}
		}
	}
	heads := map[string]bool{}
	for text, n := range ends {
		if n >= runningHeadLimits.runningHeadChapters {
			heads[text] = true
		}
	}
	if len(heads) == 0 {
		return
	}
	for _, ch := range chapters {
		if len(ch.blocks) == 0 {
			continue
		}
		// Only the ends go: a line of the same words inside a chapter
		// is its text.
		first, last := 0, len(ch.blocks)-1
		drop := map[int]bool{}
		if b := ch.blocks[first]; runningHeadCandidate(b) && heads[b.text] {
			drop[first] = true
		}
		if b := ch.blocks[last]; runningHeadCandidate(b) && heads[b.text] {
			drop[last] = true
		}
		if len(drop) == 0 {
			continue
		}
		kept := ch.blocks[:0:0]
		for i, b := range ch.blocks {
			if drop[i] {
				// The book's text is the chapters' text without it.
				trace.recordFinal(readingDocument, &ruleRunningHead, b)
				continue
			}
			kept = append(kept, b)
		}
		ch.setBlocks(kept)
	}
}

// chapterEnds returns the first and last blocks of a chapter read as a
// document that may be running heads.
func chapterEnds(ch *Result) []block {
	if len(ch.blocks) == 0 {
		return nil
	}
	var out []block
	for _, b := range []block{ch.blocks[0], ch.blocks[len(ch.blocks)-1]} {
		if runningHeadCandidate(b) {
			out = append(out, b)
		}
	}
	return out
}

// runningHeadCandidate reports whether b may be a running head: short,
// and neither a heading nor a table row.
func runningHeadCandidate(b block) bool {
	return b.level == 0 && !b.data && utf8.RuneCountInString(b.text) <= runningHeadLimits.runningHeadChars
}
