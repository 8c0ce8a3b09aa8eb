// Package doctext converts office documents (DOCX, PPTX, XLSX, ODT, ODP,
// ODS), EPUB books, Markdown, CSV, JSON, Jupyter notebooks, RSS and Atom
// feeds and other XML into text blocks for canonical text:
// headings, paragraphs, list items and table rows (cells joined by
// CellSeparator), pictures by their alt text and charts by their titles
// and data at their place, speaker notes after their slide, footnotes and
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

	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/ingest/htmltext"
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
}

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
	s := strings.Join(strings.Fields(c.block.String()), " ")
	c.block.Reset()
	if s == "" {
		return
	}
	c.emit(s)
}

// emit adds a whole block to the current page.
func (c *conv) emit(s string) {
	if c.page.Len() > 0 {
		c.page.WriteByte('\n')
	}
	c.page.WriteString(s)
}

// row emits a table row's cells as one block, leaving out a row of empty
// cells and trailing empty cells.
func (c *conv) row(cells []string) error {
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
