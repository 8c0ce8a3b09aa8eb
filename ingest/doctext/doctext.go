// Package doctext converts office documents (DOCX, PPTX, XLSX, ODT, ODP,
// ODS), EPUB books, Markdown, CSV, JSON, Jupyter notebooks, RSS and Atom
// feeds and other XML into text blocks for canonical text:
// headings, paragraphs, list items and table rows (cells joined by
// CellSeparator), pictures by their alt text, charts by their titles
// and data and SmartArt diagrams by their nodes' texts at their place,
// speaker notes after their slide, footnotes and
// endnotes at the end, and comments after CommentsHeading at the end of
// their page. Slides and sheets are pages.
//
// Every input is untrusted: containers are read through caps on entries and
// decompressed bytes, XML through caps on depth and tokens (encoding/xml
// resolves no external entity and expands no declared one), output through
// a cap on characters, and the whole conversion through a deadline.
package doctext

import (
	"errors"
	"fmt"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/ingest/htmltext"
	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/structure"
)

// ExtractorName and ExtractorVersion name this converter in source records.
const (
	ExtractorName    = "digestd-doctext"
	ExtractorVersion = "2"
)

// CellSeparator joins the cells of a table row in one block.
const CellSeparator = " | "

// CommentsHeading opens the reviewers' comments of a slide, a sheet or an
// unpaginated document: a block of its own at the end of the page (of the
// text, after its notes), followed by one block "author: text" per
// comment.
const CommentsHeading = "Comments:"

// Errors of a conversion; every error Extract returns wraps one of them.
var (
	// ErrUnsupported: the kind is not one this package converts, or the
	// container holds a format it does not read.
	ErrUnsupported = errors.New("doctext: unsupported document")
	// ErrEncrypted: the document is password protected.
	ErrEncrypted = errors.New("doctext: document is encrypted")
	// ErrUnreadable: damaged, truncated or malformed.
	ErrUnreadable = errors.New("doctext: document is unreadable")
	// ErrTooLarge: a cap of Limits was reached.
	ErrTooLarge = errors.New("doctext: document exceeds the limits")
	// ErrTimeout: the conversion passed its deadline.
	ErrTimeout = errors.New("doctext: document took too long")
)

// Limits bound one conversion. Zero fields take the defaults.
type Limits struct {
	// MaxEntries caps the entries of a container (default 10,000).
	MaxEntries int
	// MaxUnpackedBytes caps the bytes decompressed from a container, all
	// entries together (default 128 MiB).
	MaxUnpackedBytes int64
	// MaxXMLDepth caps element nesting, and a JSON document's (default
	// 256).
	MaxXMLDepth int
	// MaxXMLTokens caps the XML tokens read, all parts together, and a
	// JSON document's (default 20 million).
	MaxXMLTokens int
	// MaxBareMarkup caps the XML tokens read, all parts together, beyond
	// MarkupTokensPerTextByte for each byte of character data that is not
	// white space (default 1 Mi): markup that makes no text (a million
	// empty runs) is bounded by what the text can become, not only by
	// the bytes unpacked.
	MaxBareMarkup int
	// MaxChars caps the text produced, in bytes (default 64 MiB).
	MaxChars int
	// Timeout is the wall-clock limit of one conversion (default 20s).
	Timeout time.Duration
}

// Defaults of Limits.
const (
	DefaultMaxEntries       = 10000
	DefaultMaxUnpackedBytes = 128 << 20
	DefaultMaxXMLDepth      = 256
	DefaultMaxXMLTokens     = 20_000_000
	DefaultMaxBareMarkup    = 1 << 20
	DefaultMaxChars         = 64 << 20
	DefaultTimeout          = 20 * time.Second
)

func (l Limits) fill() Limits {
	if l.MaxEntries <= 0 {
		l.MaxEntries = DefaultMaxEntries
	}
	if l.MaxUnpackedBytes <= 0 {
		l.MaxUnpackedBytes = DefaultMaxUnpackedBytes
	}
	if l.MaxXMLDepth <= 0 {
		l.MaxXMLDepth = DefaultMaxXMLDepth
	}
	if l.MaxXMLTokens <= 0 {
		l.MaxXMLTokens = DefaultMaxXMLTokens
	}
	if l.MaxBareMarkup <= 0 {
		l.MaxBareMarkup = DefaultMaxBareMarkup
	}
	if l.MaxChars <= 0 {
		l.MaxChars = DefaultMaxChars
	}
	if l.Timeout <= 0 {
		l.Timeout = DefaultTimeout
	}
	return l
}

// MarkupTokensPerTextByte is how many XML tokens a byte of text allows
// beyond MaxBareMarkup: more than any word processor writes around a
// character (a run with all its properties around one letter is some 20).
const MarkupTokensPerTextByte = 32

// Result is a converted document.
type Result struct {
	// Pages holds the text of each page, blocks separated by "\n"; an
	// unpaginated document is one page.
	Pages []string `json:"pages"`
	// Paginated says the pages are the document's own (slides, sheets).
	Paginated bool `json:"paginated,omitempty"`
	// PageNames holds each slide's title or each sheet's name ("" for a
	// slide without a title); nil for an unpaginated document.
	PageNames []string `json:"page_names,omitempty"`
	Title     string   `json:"title,omitempty"`
	Author    string   `json:"author,omitempty"`
	// Trace holds the HTML extractor's decisions on an EPUB's chapters
	// when Options.Explain asked for them; nil otherwise.
	Trace *htmltext.Trace `json:"trace,omitempty"`
	// Spans is the structure of the text (headings, lists, tables, links,
	// emphasis), in byte offsets of Text: structure.Map carries them onto
	// the canonical text.
	Spans []structure.Span `json:"spans,omitempty"`
}

// Text is the text the spans are over: an unpaginated document's one
// page, or the pages joined by the page separator, whose canonical form
// is normalize.Canonical's or normalize.Pages' of them.
func (r *Result) Text() string {
	if r.Paginated {
		return strings.Join(r.Pages, normalize.PageBreak)
	}
	return r.Pages[0]
}

// Options change how ExtractWith converts a document. The zero value,
// with the default Limits, is Extract's.
type Options struct {
	Limits
	// Explain asks for the decisions of the HTML extractor on an EPUB's
	// chapters (Result.Trace).
	Explain bool
}

// Extract converts raw, a document of the given kind (one of
// format.Documents), into blocks of text.
func Extract(kind string, raw []byte, lim Limits) (*Result, error) {
	return ExtractWith(kind, raw, Options{Limits: lim})
}

// ExtractWith is Extract with options.
func ExtractWith(kind string, raw []byte, opt Options) (*Result, error) {
	c := &conv{lim: opt.Limits.fill()}
	if opt.Explain {
		c.res.Trace = &htmltext.Trace{}
	}
	c.deadline = time.Now().Add(c.lim.Timeout)
	var err error
	switch kind {
	case format.DOCX:
		err = c.docx(raw)
	case format.PPTX:
		err = c.pptx(raw)
	case format.XLSX:
		err = c.xlsx(raw)
	case format.ODT, format.ODP, format.ODS:
		err = c.odf(kind, raw)
	case format.EPUB:
		err = c.epub(raw)
	case format.Markdown:
		err = c.markdown(raw)
	case format.CSV:
		err = c.csv(raw)
	case format.JSON:
		err = c.jsonValues(raw)
	case format.Notebook:
		err = c.notebook(raw)
	case format.RSS, format.Atom:
		err = c.feed(raw)
	case format.XML:
		err = c.plainXML(raw)
	default:
		return nil, fmt.Errorf("kind %q: %w", kind, ErrUnsupported)
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", kind, err)
	}
	c.endPage()
	res := &c.res
	if kind != format.EPUB {
		// Only a book's chapters are read by the HTML extractor.
		res.Trace = nil
	}
	res.Paginated = format.Paginated(kind)
	if !res.Paginated {
		res.PageNames = nil
	}
	if len(res.Pages) == 0 {
		res.Pages = []string{""}
	}
	c.endLists()
	if !res.Paginated && len(res.Pages) > 1 {
		// Only the first page is the text (see Text).
		c.sb = structure.Builder{}
	}
	res.Spans = c.sb.Spans()
	return res, nil
}

// conv accumulates a conversion's pages and blocks and enforces its limits.
type conv struct {
	lim      Limits
	deadline time.Time
	res      Result
	page     strings.Builder // the current page's blocks
	open     bool            // a page is open
	block    strings.Builder // the current block
	notes    []string        // footnotes and endnotes, for the end
	chars    int
	unpacked int64
	tokens   int
	// textBytes counts the bytes of XML character data that are not
	// white space (see Limits.MaxBareMarkup).
	textBytes int
	checks    int
	// sb records the structure, in byte offsets of the pages joined by
	// the page separator; rawLen is the length of the pages ended so far
	// with their separators.
	sb     structure.Builder
	rawLen int
	// kind is the kind of the block being built (a paragraph, which goes
	// unrecorded, when unset);
	// inline holds its links and emphasis, in byte offsets of block.
	kind   structure.Span
	inline []structure.Span
	// bare says the block being built is of no kind of its own (a line of
	// a code block).
	bare bool
	// lists holds the open lists and their open items, outermost first.
	lists []openList
}

// openList is an open list: its span and its open item's (-1 for none).
type openList struct{ list, item int }

// startPage ends any open page and opens one named name.
func (c *conv) startPage(name string) {
	c.endPage()
	c.open = true
	c.res.PageNames = append(c.res.PageNames, name)
}

// endPage ends the open page, if any.
func (c *conv) endPage() {
	c.flush()
	if !c.open && c.page.Len() == 0 {
		return
	}
	c.res.Pages = append(c.res.Pages, c.page.String())
	c.rawLen += c.page.Len() + len(normalize.PageBreak)
	c.page.Reset()
	c.open = false
}

// text adds s to the current block.
func (c *conv) text(s string) error {
	c.chars += len(s)
	if c.chars > c.lim.MaxChars {
		return c.textTooLarge()
	}
	c.block.WriteString(s)
	return nil
}

// flush ends the current block, dropping it when it holds only space.
func (c *conv) flush() {
	raw := c.block.String()
	c.block.Reset()
	s := collapseSpans(raw, c.inline)
	inline := c.inline
	c.inline = c.inline[:0]
	kind, bare := c.kind, c.bare
	c.kind, c.bare = structure.Span{}, false
	if s == "" {
		return
	}
	c.emit(s)
	end := c.pos()
	kind.Start, kind.End = end-len(s), end
	if !bare && kind.Kind != "" {
		// A block no span marks is a paragraph: paragraphs go unrecorded.
		c.sb.Add(kind)
	}
	for _, sp := range inline {
		sp.Start += kind.Start
		sp.End += kind.Start
		c.sb.Add(sp)
	}
}

// collapseSpans returns s with its white space runs one space and
// trimmed, as strings.Fields joined, and moves the spans over s onto it.
func collapseSpans(s string, spans []structure.Span) string {
	if len(spans) == 0 {
		return strings.Join(strings.Fields(s), " ")
	}
	at := make([]int, len(s)+1)
	var b strings.Builder
	space := false
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if unicode.IsSpace(r) {
			space = b.Len() > 0
			for j := i; j < i+size; j++ {
				at[j] = b.Len()
			}
			i += size
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		for j := i; j < i+size; j++ {
			at[j] = b.Len()
		}
		b.WriteString(s[i : i+size])
		i += size
	}
	at[len(s)] = b.Len()
	for i := range spans {
		spans[i].Start = at[min(max(spans[i].Start, 0), len(s))]
		spans[i].End = at[min(max(spans[i].End, 0), len(s))]
	}
	return b.String()
}

// emit adds a whole block to the current page.
func (c *conv) emit(s string) {
	if c.page.Len() > 0 {
		c.page.WriteByte('\n')
	}
	c.page.WriteString(s)
}

// pos is the byte offset where the text written so far ends, in the
// pages joined by the page separator.
func (c *conv) pos() int { return c.rawLen + c.page.Len() }

// blockKind sets the kind of the block being built; the next flush
// records it.
func (c *conv) blockKind(sp structure.Span) { c.kind = sp }

// inlineSpan records a link or emphasis over bytes [start, end) of the
// block being built.
func (c *conv) inlineSpan(sp structure.Span) { c.inline = append(c.inline, sp) }

// openSpan ends the block being built and opens a span of sp's kind that
// holds the blocks to come until closeSpan.
func (c *conv) openSpan(sp structure.Span) int {
	c.flush()
	return c.sb.Open(sp, c.pos())
}

// closeSpan ends the block being built and the span openSpan returned as i.
func (c *conv) closeSpan(i int) {
	c.flush()
	c.sb.Close(i, c.pos())
}

// listItem ends the block being built and opens an item at depth (1 for
// a top-level list) of a numbered or bulleted list (see listItemAt).
func (c *conv) listItem(depth int, ordered bool) {
	c.flush()
	c.listItemAt(depth, ordered, c.pos())
}

// listItemAt opens an item at depth of a numbered or bulleted list at
// byte offset at: the deeper lists and the items at depth or deeper
// close there, and lists open down to depth.
func (c *conv) listItemAt(depth int, ordered bool, at int) {
	depth = min(max(depth, 1), structure.MaxDepth/2)
	for len(c.lists) > depth {
		c.closeListAt(at)
	}
	if n := len(c.lists); n == depth && c.lists[n-1].item >= 0 {
		c.sb.Close(c.lists[n-1].item, at)
		c.lists[n-1].item = -1
	}
	for len(c.lists) < depth {
		c.lists = append(c.lists, openList{list: c.sb.Open(structure.Span{Kind: structure.List, Ordered: ordered}, at), item: -1})
	}
	c.lists[depth-1].item = c.sb.Open(structure.Span{Kind: structure.Item, Level: depth}, at)
}

// closeListAt closes the innermost open list and its open item at byte
// offset at.
func (c *conv) closeListAt(at int) {
	l := c.lists[len(c.lists)-1]
	if l.item >= 0 {
		c.sb.Close(l.item, at)
	}
	c.sb.Close(l.list, at)
	c.lists = c.lists[:len(c.lists)-1]
}

// endLists ends the block being built and closes every open list.
func (c *conv) endLists() {
	c.flush()
	c.endListsAt(c.pos())
}

// endListsAt closes every open list at byte offset at.
func (c *conv) endListsAt(at int) {
	for len(c.lists) > 0 {
		c.closeListAt(at)
	}
}

// row emits a table row's cells as one block, leaving out a row of empty
// cells and trailing empty cells.
func (c *conv) row(cells []string) error { return c.tableRow(cells, false) }

// tableRow is row, whose cells are header cells when header is set.
func (c *conv) tableRow(cells []string, header bool) error {
	for i := range cells {
		cells[i] = strings.Join(strings.Fields(cells[i]), " ")
	}
	for len(cells) > 0 && cells[len(cells)-1] == "" {
		cells = cells[:len(cells)-1]
	}
	if len(cells) == 0 {
		return nil
	}
	c.flush()
	s := strings.Join(cells, CellSeparator)
	c.chars += len(s)
	if c.chars > c.lim.MaxChars {
		return c.textTooLarge()
	}
	c.emit(s)
	at := c.pos() - len(s)
	c.sb.Add(structure.Span{Kind: structure.Row, Start: at, End: at + len(s)})
	for i, cell := range cells {
		c.sb.Add(structure.Span{Kind: structure.Cell, Start: at, End: at + len(cell), Header: header})
		if i < len(cells)-1 {
			at += len(cell) + len(CellSeparator)
		}
	}
	return nil
}

// textTooLarge is the error of text past MaxChars.
func (c *conv) textTooLarge() error {
	return limitErr(CapText, c.lim.MaxChars)
}

// addNotes appends the collected notes as the last blocks.
func (c *conv) addNotes() {
	c.flush()
	for _, n := range c.notes {
		if s := strings.Join(strings.Fields(n), " "); s != "" {
			c.emit(s)
		}
	}
	c.notes = nil
}

// tick checks the deadline every so often; loops over untrusted input call
// it once per unit of work.
func (c *conv) tick() error {
	c.checks++
	if c.checks%1024 == 0 && time.Now().After(c.deadline) {
		return fmt.Errorf("over %s: %w", c.lim.Timeout, ErrTimeout)
	}
	return nil
}
