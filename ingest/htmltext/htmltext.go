// Package htmltext extracts the main content of a web page as canonical
// text: the article body in reading order, one block per paragraph, heading,
// list item, table row, blockquote paragraph, pre block or figure caption
// told as a text of its own (several paragraphs, or a long one), with
// navigation, boilerplate, comments, related links, hidden elements,
// photos' captions and credits, and non-content markup left out. It also reads the page's metadata (title,
// author, dates, language, canonical URL, site name).
//
// Input is untrusted: its size is capped (MaxInputBytes), and extraction is
// linear in the size of the parsed tree: every element is measured once, in
// one post-order pass, and selection and emission reuse those measurements.
// Pathological nesting (beyond the parser's limit), trees of more than
// MaxElements elements, and inputs that would make the parser reopen more
// than a bounded number of formatting elements (which it can multiply into
// millions of nodes from a few kilobytes; a linear pre-scan of the tokens
// estimates this before any tree is built) fall back to a flat, linear scan
// of the text instead of failing.
package htmltext

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"golang.org/x/net/html"

	"github.com/digestd/digestd/internal/htmlwalk"
	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/structure"
)

// ExtractorName names this extractor in source records.
const ExtractorName = "digestd-htmltext"

// ExtractorVersion changes whenever Extract's output may change for some
// input, so that stored extractions can be told apart.
const ExtractorVersion = "112"

// MaxInputBytes is the largest input Extract accepts.
const MaxInputBytes = 16 << 20

// MaxElements bounds the element nodes of a parsed page that the
// main-content search weighs. The parser can build many more elements than
// the input has tags (each paragraph reopens the formatting elements left
// open before it), so a page above the bound is extracted by the flat text
// scan used for pathological nesting: its text in document order, without
// the main-content search.
const MaxElements = 200_000

// ErrTooLarge is returned (wrapped) for input longer than MaxInputBytes.
var ErrTooLarge = errors.New("html input too large")

// ErrNotHTML is returned (wrapped) for input that is empty or is not text
// (binary data such as images, PDFs or archives).
var ErrNotHTML = errors.New("input is not HTML")

// Metadata is what the page says about itself. Empty fields were not found.
type Metadata struct {
	Title        string
	Author       string
	Published    string // as written by the page, usually ISO 8601
	Language     string // BCP 47 tag as declared, e.g. "de" or "en-US"
	CanonicalURL string // absolute when pageURL allowed resolving it
	// BaseURL is the page's <base href> resolved against pageURL, when
	// that gives an absolute URL: what the page's links are relative to.
	BaseURL  string
	SiteName string
}

// Result is the extraction of one page.
type Result struct {
	// Blocks is the main content in reading order; blocks carry no line
	// breaks of their own except inside pre blocks.
	Blocks []string
	// Text is normalize.Blocks(Blocks), the canonical text of the page.
	Text string
	Meta Metadata
	// Charset is the name of the encoding the page was decoded from.
	Charset string
	// Spans is the structure of Text found in the page's tree (see
	// pageSpans), in byte offsets of Text, links as written; nil when
	// the page was read without a tree.
	Spans []structure.Span

	// tree is the page's parsed tree (nil when the flat scan read it);
	// removed logs what the extraction took out of its trees.
	tree    *html.Node
	removed []removal
	// blocks are Blocks with what is known of them, for a page read as a
	// document (see RunningHeads).
	blocks []block
}

// Extract decodes raw (the charset comes from contentType's charset
// parameter, a byte order mark, a <meta> declaration or, failing those, is
// sniffed) and extracts its main content and metadata. pageURL, which may
// be empty, resolves relative URLs in metadata. Input longer than
// MaxInputBytes fails with ErrTooLarge; empty or binary input with
// ErrNotHTML. A page without an article-like body yields its meaningful
// text; a page without any text yields an empty Result and no error.
// Extract is deterministic and safe for concurrent use. A page whose tree
// would exceed the node budget of limits (DefaultMaxNodes when none is
// given) fails with ErrTooManyNodes before any tree is built.
func Extract(raw []byte, contentType string, pageURL string, limits ...Limits) (*Result, error) {
	var opt Options
	if len(limits) > 0 {
		opt.Limits = limits[0]
	}
	return ExtractWith(raw, contentType, pageURL, opt)
}

// ExtractWith is Extract with options: rules turned off (an ablation) and a
// trace of the rule table's decisions. A name in opt.Off that names no rule
// (or a fixed one) fails with ErrUnknownRule. With the zero Options it is
// Extract.
func ExtractWith(raw []byte, contentType string, pageURL string, opt Options) (*Result, error) {
	off, cleanOff, err := stageOff(opt.Off)
	if err != nil {
		return nil, err
	}
	rules, err := activeRules(cleanOff)
	if err != nil {
		return nil, err
	}
	limits := []Limits{opt.Limits}
	if len(raw) > MaxInputBytes {
		return nil, fmt.Errorf("extract html: %d bytes (limit %d): %w", len(raw), MaxInputBytes, ErrTooLarge)
	}
	if err := checkText(raw); err != nil {
		return nil, fmt.Errorf("extract html: %w", err)
	}
	decoded, name := decode(raw, contentType)
	nodes, reopened := scanTokens(decoded, maxNodes(limits), maxReopened)
	if err := checkNodeBudget(nodes, maxNodes(limits)); err != nil {
		return nil, err
	}
	res := &Result{Charset: name}
	if reopened > maxReopened {
		// The parser would multiply reopened formatting elements into more
		// nodes than memory allows: keep the text, never build the tree.
		res.flat(decoded)
		opt.Trace.recordPage(&ruleFlatText, "", limit{"reopened", reopened}, limit{"maxReopened", maxReopened})
		return res, nil
	}
	doc, err := parse(decoded)
	if err != nil {
		// Nesting too deep for a tree: keep the text, lose the structure.
		res.flat(decoded)
		opt.Trace.recordPage(&ruleFlatText, "")
		return res, nil
	}
	decl := readDeclarations(doc)
	meta, article := decl.metadata(pageURL)
	res.Meta = meta
	elems := countElements(doc, "", MaxElements)
	if elems > MaxElements {
		// Too many elements to weigh (the parser multiplies reopened
		// formatting elements): keep the text, lose the structure.
		res.flat(decoded)
		opt.Trace.recordPage(&ruleFlatText, "", limit{"elements", elems}, limit{"maxElements", MaxElements})
		return res, nil
	}
	res.tree = doc
	if opt.Document {
		res.setBlocks(documentBlocks(doc, elems, opt, &res.removed))
		res.Spans = pageSpans(doc, res.Text)
		return res, nil
	}
	w := webPage{doc: doc, decoded: decoded, elems: elems, lds: decl.pageLD, article: article, author: meta.Author}
	res.Blocks = w.blocks(stageDriver{trace: opt.Trace, off: off}, rules, &res.removed)
	res.Text = normalize.Blocks(res.Blocks)
	res.Spans = pageSpans(res.tree, res.Text)
	return res, nil
}

// flat sets r's text to the page's visible text in order (see
// flatBlocks), read from decoded.
func (r *Result) flat(decoded []byte) {
	r.Blocks = flatBlocks(decoded)
	r.Text = normalize.Blocks(r.Blocks)
}

// setBlocks replaces the blocks of a document's result, and its Blocks and
// Text with them.
func (r *Result) setBlocks(blocks []block) {
	r.blocks = blocks
	r.Blocks = texts(blocks)
	r.Text = normalize.Blocks(r.Blocks)
}

// webPage is a page read as a web page: its tree, the bytes it was
// parsed from, its count of elements and what it declares of itself.
type webPage struct {
	doc     *html.Node
	decoded []byte
	elems   int
	lds     []any
	article bool
	author  string
}

// blocks returns the page's main content (see mainBlocks), cleaned by the
// cleaner's rules, with the page's rules run by d after the readings;
// removed logs what the cleaning takes out.
func (w *webPage) blocks(d stageDriver, rules []rule, removed *[]removal) []string {
	doc, lds := w.doc, w.lds
	desc := productDescription(lds)
	product := isProductPage(doc, lds)
	title := ""
	if product {
		if title = productName(lds); !showsName(doc, title) {
			title = ""
		}
	}
	page := cleaner{reviews: product, cards: product && (desc != "" || declaredProducts(lds) == 1), posts: isThreadPage(doc, lds) || hasPostRun(doc) || !w.article && isCommentThread(doc), controlled: controlledIDs(doc)}
	page.article = w.article
	page.rules, page.stageDriver = rules, d
	page.removed = removed
	if w.article && !page.posts {
		// A box naming the article's author is about them (isAuthorBox);
		// on a thread, one naming the first poster is a post.
		page.author = strings.ToLower(w.author)
	}
	blocks := mainBlocks(doc, w.elems, page, func() *html.Node {
		// The same bytes parsed once already, so this cannot fail.
		d, err := parse(w.decoded)
		if err != nil {
			return &html.Node{Type: html.DocumentNode}
		}
		return d
	})
	if page.posts {
		blocks = d.dropTexts(&rulePostCounter, blocks)
	}
	if textLen(blocks) == 0 && d.decidesPage(&ruleFlatText, func() string { return "" }) {
		// The cleaning left nothing (a page built of forms or other
		// furniture): its visible text in order beats an empty result.
		blocks = flatBlocks(w.decoded)
	}
	blocks = withDescription(blocks, desc)
	if title != "" && textLen(blocks) > 0 {
		blocks = withName(blocks, title)
	}
	if w.elems >= appShellLimits.shellElements && visibleLen(blocks) < appShellLimits.minMainChars &&
		d.decidesPage(&ruleAppShell, func() string { return strings.Join(blocks, " ") }, limit{"chars", visibleLen(blocks)}, limit{"elements", w.elems}) {
		// A few words out of a whole page's markup are no main content
		// but what an application shell shows while its scripts fetch
		// the content: a skip link, a notice to turn on JavaScript, an
		// empty cart.
		blocks = nil
	}
	return blocks
}

// visibleLen counts the characters of blocks that are not white space.
func visibleLen(blocks []string) int {
	n := 0
	for _, b := range blocks {
		c, _ := runLen(b)
		n += c
	}
	return n
}

// countElements counts the element nodes of the tree under n, n included,
// named tag (any name when tag is ""), stopping once the count exceeds
// limit.
func countElements(n *html.Node, tag string, limit int) int {
	count := 0
	for c := n; c != nil && count <= limit; c = htmlwalk.Next(c, n) {
		if c.Type == html.ElementNode && (tag == "" || c.Data == tag) {
			count++
		}
	}
	return count
}

// parse builds the tree as a browser without scripting would, so that
// <noscript> fallbacks (which some pages fill with the article) are markup.
// A raw-text element inside a <noscript> written as if it closed itself
// (<iframe ... />, the usual tag manager fallback) swallows, so parsed,
// the rest of the page as its text; a browser runs scripts and reads the
// <noscript> as text, so the page goes on after it. See repairNoscript.
func parse(decoded []byte) (*html.Node, error) {
	doc, err := html.ParseWithOptions(bytes.NewReader(decoded), html.ParseOptionEnableScripting(false))
	if err != nil {
		return nil, err
	}
	repairNoscript(doc)
	return doc, nil
}

// repairNoscript finds, in document order, the raw-text elements inside a
// <noscript> whose text runs past the end of that <noscript>, cuts their
// text there and parses the rest as the siblings that follow the
// <noscript>. The rest may hold another such element, whose own rest is
// parsed again: at most maxNoscriptRepairs are made, so the repair costs
// at most that many parses of the input.
func repairNoscript(doc *html.Node) {
	repairs := 0
	var walk func(n *html.Node, noscript *html.Node, depth int)
	walk = func(n *html.Node, noscript *html.Node, depth int) {
		for c := n.FirstChild; c != nil && depth < maxDepth && repairs < maxNoscriptRepairs; c = c.NextSibling {
			if c.Type != html.ElementNode {
				continue
			}
			if noscript != nil && rawTextTags[c.Data] && c.FirstChild != nil && c.FirstChild.Type == html.TextNode {
				t := c.FirstChild
				if i := indexFold(t.Data, "</noscript"); i >= 0 && noscript.Parent != nil && noscript.Parent.Type == html.ElementNode {
					rest := t.Data[i:]
					if j := strings.IndexByte(rest, '>'); j >= 0 {
						rest = rest[j+1:]
					} else {
						rest = ""
					}
					t.Data = t.Data[:i]
					repairs++
					nodes, err := html.ParseFragmentWithOptions(strings.NewReader(rest), noscript.Parent, html.ParseOptionEnableScripting(false))
					if err == nil {
						after := noscript.NextSibling
						for _, f := range nodes {
							noscript.Parent.InsertBefore(f, after)
						}
					}
				}
				continue
			}
			ns := noscript
			if c.Data == "noscript" {
				ns = c
			}
			walk(c, ns, depth+1)
		}
	}
	walk(doc, nil, 0)
}

// maxNoscriptRepairs bounds the repairs of repairNoscript on one page.
const maxNoscriptRepairs = 8

// rawTextTags are the elements whose content the parser reads as text.
var rawTextTags = setOf("iframe", "noembed", "noframes", "xmp", "style", "textarea", "title")

// indexFold is strings.Index of an ASCII needle, ignoring ASCII case.
func indexFold(s, needle string) int {
	n := len(needle)
	for i := 0; i+n <= len(s); i++ {
		if strings.EqualFold(s[i:i+n], needle) {
			return i
		}
	}
	return -1
}

// checkText rejects empty input and input that sniffs as binary.
func checkText(raw []byte) error {
	if len(bytes.TrimSpace(raw)) == 0 {
		return fmt.Errorf("empty input: %w", ErrNotHTML)
	}
	ct := http.DetectContentType(raw)
	if strings.HasPrefix(ct, "text/") || strings.Contains(ct, "xml") {
		return nil
	}
	return fmt.Errorf("content sniffs as %s: %w", ct, ErrNotHTML)
}
