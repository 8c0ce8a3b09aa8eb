// Package ingest turns a source — text, an HTML page, a PDF, a file of any
// kind ingest/format names (office documents, EPUB, Markdown, CSV, JSON,
// notebooks, feeds, XML, images), or a URL that yields one of them — into
// canonical text (through normalize) and a source record describing where
// the text came from. Untrusted bytes are parsed defensively: HTML by a
// bounded extractor, PDFs, documents and images (read by OCR) in an isolated
// worker process, URLs through a guarded fetcher, and pages that need
// scripts in a browser behind the same guard.
package ingest

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/charset"
	"github.com/digestd/digestd/ingest/fetch"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/ingest/htmltext"
	"github.com/digestd/digestd/ingest/verdict"
	"github.com/digestd/digestd/lang"
	"github.com/digestd/digestd/normalize"
)

// Kinds of source (format's kinds; format.Kinds lists them all).
const (
	KindText = format.Text
	KindHTML = format.HTML
	KindPDF  = format.PDF
	// KindImage is a PNG, JPEG, TIFF or WebP image, read by OCR.
	KindImage = format.Image
)

// DefaultMaxSourceBytes is the largest source digestd takes in by default,
// in bytes: an HTTP request body, an MCP JSON-RPC message, a batch file.
const DefaultMaxSourceBytes = 32 << 20

// Source is one input to digest. Exactly one of URL, HTML, PDF, File and
// Text is set (an archived source is resolved by the pipeline, not here).
type Source struct {
	URL  string
	HTML []byte
	PDF  []byte
	// File is a file of any kind: format.Detect decides which from
	// ContentType, Name and its bytes.
	File []byte
	// Name is File's name (only its extension counts), if known.
	Name string
	// Kind, when set, is File's kind (one of format.Kinds), given by a
	// caller that knows it; no detection is done.
	Kind string
	Text string
	// ContentType is the declared media type of HTML or File bytes (it may
	// carry a charset parameter).
	ContentType string
	// Explain asks for the HTML extractor's decisions (Document.Trace) on
	// an HTML page or an EPUB book's chapters.
	Explain bool
	// Render says whether a URL's page is rendered in a browser: one of
	// RenderNever (the default when empty), RenderAuto and RenderAlways.
	Render string
	// OCR says when a PDF's pages and an image are read by OCR: one of
	// OCRAuto (the default when empty), OCRNever and OCRAlways.
	OCR string
	// OCRLanguages names the languages to read by OCR (ISO 639-1 codes
	// or Tesseract's pack names), each installed; empty: the language
	// detected in a PDF's text layer, else English.
	OCRLanguages []string
}

// Record describes where a canonical text came from. It is archived as a
// JSON blob and returned to clients as data.source.record.
type Record struct {
	Kind             string       `json:"kind"`
	RequestedURL     string       `json:"requested_url,omitempty"`
	FinalURL         string       `json:"final_url,omitempty"`
	HTTPStatus       int          `json:"http_status,omitempty"`
	ContentType      string       `json:"content_type,omitempty"`
	FetchedAt        time.Time    `json:"fetched_at,omitzero"`
	RawSHA256        archive.Hash `json:"raw_sha256"`
	RawBytes         int          `json:"raw_bytes"`
	Extractor        string       `json:"extractor"`
	ExtractorVersion string       `json:"extractor_version"`
	Canonicalizer    string       `json:"canonicalizer"`
	Title            string       `json:"title,omitempty"`
	Author           string       `json:"author,omitempty"`
	Published        string       `json:"published,omitempty"`
	// Language is the text's language, ISO 639-1: the one detected in it
	// (lang.Detect) when LanguageConfidence reaches lang.MinConfidence,
	// else the one the source declared (DeclaredLanguage), else the
	// detector's best guess.
	Language           string  `json:"language,omitempty"`
	LanguageConfidence float64 `json:"language_confidence,omitempty"`
	// DeclaredLanguage is the language an HTML page declares (its lang
	// attribute or metadata, a BCP 47 tag as written): a hint, not the truth.
	DeclaredLanguage string `json:"declared_language,omitempty"`
	CanonicalURL     string `json:"canonical_url,omitempty"`
	SiteName         string `json:"site_name,omitempty"`
	Charset          string `json:"charset,omitempty"`
	PageCount        int    `json:"page_count,omitempty"`
	// PageOffsets[i] is the code point offset in the canonical text where
	// page i+1 starts.
	PageOffsets []int `json:"page_offsets,omitempty"`
	// PageNames holds each page's slide title or sheet name ("" for a
	// slide without a title), for presentations and spreadsheets.
	PageNames     []string `json:"page_names,omitempty"`
	EmptyPages    []int    `json:"empty_pages,omitempty"`
	UnmappedPages []int    `json:"unmapped_pages,omitempty"`
	// OCRPages lists the 1-based pages read by OCR (an image's page, a TIFF's pages,
	// a PDF's pages without a usable text layer); OCREngine names the
	// engine and its version, OCRLanguages the language packs read with,
	// and OCRConfidence is the mean word confidence of those pages, in
	// [0, 1].
	OCRPages      []int    `json:"ocr_pages,omitempty"`
	OCREngine     string   `json:"ocr_engine,omitempty"`
	OCRLanguages  []string `json:"ocr_languages,omitempty"`
	OCRConfidence float64  `json:"ocr_confidence,omitempty"`
	// Rendered is set when the text is the page's DOM after a browser
	// ran its scripts; Browser names the browser and its version.
	Rendered  bool   `json:"rendered,omitempty"`
	Browser   string `json:"browser,omitempty"`
	TextChars int    `json:"text_chars"`
	// Verdict is what the page was judged to be (verdict.Content for every
	// HTML page that is digested; pages judged otherwise are refused).
	Verdict string `json:"verdict,omitempty"`
	// ExtractionConfidence estimates, in [0, 1], how surely an HTML
	// page's extracted text is its content (see verdict.Verdict).
	ExtractionConfidence float64 `json:"extraction_confidence,omitempty"`
	// StructureHash names the sidecar of the text's structure
	// (structure.Sidecar), archived beside the text; zero when the source
	// has none.
	StructureHash archive.Hash `json:"structure_hash,omitzero"`
	// OutsideLinksHash names the links of a web page outside its
	// canonical text (structure.WriteOutside), archived beside the text;
	// zero when the source has none.
	OutsideLinksHash archive.Hash `json:"outside_links_hash,omitzero"`
}

// Document is an ingested source: its canonical text (with its hash, made
// once as the text came in), its record, and any warnings about what could
// not be extracted.
type Document struct {
	Text     archive.Blob
	Record   Record
	Warnings []Warning
	// Trace holds the HTML extractor's decisions on the page, or on an
	// EPUB book's chapters, when the source asked for them
	// (Source.Explain); nil otherwise.
	Trace *htmltext.Trace
	// Sidecar is the encoded structure of the text (structure.Encode),
	// hashed once (Record.StructureHash); empty when the source has none.
	Sidecar archive.Blob
	// OutsideLinks is the encoded links of a web page outside its text
	// (structure.WriteOutside), hashed once (Record.OutsideLinksHash);
	// empty when the source has none.
	OutsideLinks archive.Blob
}

// Warning is a non-fatal remark about an ingested source.
type Warning struct {
	Code    fault.Warning `json:"code"`
	Message string        `json:"message"`
}

// Ingester ingests sources. The zero value handles text and HTML sources;
// URL and PDF sources need Fetcher and PDF.
type Ingester struct {
	// Fetcher fetches URL sources; nil disables them.
	Fetcher *fetch.Client
	// PDF extracts PDF text in isolation; nil disables PDF sources.
	PDF PDFExtractor
	// Documents converts office documents, EPUB and text documents; nil
	// converts them in process under doctext's default limits.
	Documents DocumentExtractor
	// MaxTextChars caps the canonical text of any source (0: no cap).
	MaxTextChars int
	// MaxHTMLNodes bounds the nodes of an HTML page's tree, and with them
	// the memory of extracting it; a page over it is TOO_LARGE before its
	// tree is built (0: htmltext.DefaultMaxNodes).
	MaxHTMLNodes int
	// Now returns the time recorded as fetched_at; nil means time.Now.
	Now func() time.Time
	// Renderer renders the pages of URL sources that ask for it; nil
	// disables rendering (see Source.Render).
	Renderer PageRenderer
	// OCR reads images and PDF pages without a usable text layer; nil
	// disables OCR (images are then FEATURE_DISABLED).
	OCR OCRReader
}

const textExtractor = "plain-text"

// Ingest returns the canonical text and record of src.
func (in *Ingester) Ingest(ctx context.Context, src Source) (*Document, error) {
	o, err := in.ocrOptionsOf(src)
	if err != nil {
		return nil, err
	}
	switch {
	case src.Text != "":
		return in.text(src.Text, Record{})
	case len(src.HTML) > 0:
		return in.html(src.HTML, src.ContentType, "", Record{Kind: KindHTML, ContentType: src.ContentType}, src.Explain)
	case len(src.PDF) > 0:
		return in.pdf(ctx, src.PDF, Record{Kind: KindPDF, ContentType: "application/pdf"}, o)
	case len(src.File) > 0:
		kind := src.Kind
		if kind == "" {
			kind = format.Detect(src.ContentType, src.Name, src.File)
		}
		return in.file(ctx, kind, src.File, src.ContentType, Record{ContentType: src.ContentType}, src.Explain, o)
	case src.URL != "":
		return in.url(ctx, src.URL, src.Render, src.Explain, o)
	}
	return nil, fault.E(fault.MissingRequired, "source: one of url, html, pdf_base64, file_base64, text or archive is required")
}

// file ingests bytes of any kind.
func (in *Ingester) file(ctx context.Context, kind string, raw []byte, contentType string, rec Record, explain bool, o ocrOptions) (*Document, error) {
	switch {
	case !slices.Contains(format.Kinds, kind):
		return nil, fault.E(fault.UnsupportedContentType, "the file is none of the kinds digestd reads")
	case kind == KindPDF:
		return in.pdf(ctx, raw, rec, o)
	case kind == KindImage:
		return in.image(ctx, raw, rec, o)
	case kind == KindHTML:
		return in.html(raw, contentType, "", rec, explain)
	case kind == KindText:
		return in.textBytes(raw, contentType, rec)
	}
	return in.document(ctx, kind, raw, contentType, rec, explain)
}

// text ingests a text given as a string (a JSON field, a UTF-8 body),
// which is UTF-8 or refused.
func (in *Ingester) text(raw string, rec Record) (*Document, error) {
	if !utf8.ValidString(raw) {
		return nil, fault.E(fault.InvalidFormat, "source.text: must be valid UTF-8")
	}
	rec.Kind, rec.Extractor, rec.ExtractorVersion = KindText, textExtractor, "1"
	sent := archive.NewBlob(raw)
	text, ok := canonicalForms.get(sent.Hash())
	if !ok {
		text = sent
		if c := normalize.Canonical(raw); c != raw {
			text = archive.NewBlob(c)
		}
		canonicalForms.add(sent.Hash(), text)
	}
	return in.finishBlob(text, sent.Hash(), len(raw), rec, nil)
}

// textBytes ingests a text given as bytes (a file, a URL's body), in the
// charset charset.Decode decides; the record keeps it.
func (in *Ingester) textBytes(raw []byte, contentType string, rec Record) (*Document, error) {
	dec, err := decodeText(raw, charset.Hints{ContentType: contentType})
	if err != nil {
		return nil, err
	}
	text := normalize.Canonical(string(dec.UTF8))
	rec.Kind, rec.Extractor, rec.ExtractorVersion, rec.Charset = KindText, textExtractor, "1", dec.Charset
	return in.finish(text, raw, rec, nil)
}

// decodeText reads the bytes of a text source or a text document
// (format.TextDocuments) as UTF-8; bytes whose charset nothing decides are
// DOCUMENT_UNREADABLE, with the offset of the first byte that is not
// UTF-8.
func decodeText(raw []byte, h charset.Hints) (charset.Text, error) {
	dec, err := charset.Decode(raw, h)
	if off, ok := charset.IsUndecidable(err); ok {
		return dec, fault.Wrap(fault.DocumentUnreadable, fmt.Sprintf("the text's charset cannot be decided: byte %d is not UTF-8, and no byte order mark, charset declaration or confident detection names another; send it as UTF-8 or declare its charset", off), err).
			With("byte_offset", off)
	}
	return dec, err
}

// html extracts a page's main content, with a trace of the extractor's
// decisions when explain is set.
func (in *Ingester) html(raw []byte, contentType, pageURL string, rec Record, explain bool) (*Document, error) {
	doc, _, err := in.judgedHTML(raw, contentType, pageURL, rec, explain)
	return doc, err
}

// judgedHTML is html that also returns the page's verdict (the zero
// Verdict when the page could not be extracted).
func (in *Ingester) judgedHTML(raw []byte, contentType, pageURL string, rec Record, explain bool) (*Document, verdict.Verdict, error) {
	var v verdict.Verdict
	opt := htmltext.Options{Limits: htmltext.Limits{MaxNodes: in.MaxHTMLNodes}}
	if explain {
		opt.Trace = &htmltext.Trace{}
	}
	res, err := htmltext.ExtractWith(raw, contentType, pageURL, opt)
	switch {
	case errors.Is(err, htmltext.ErrTooManyNodes):
		return nil, v, fault.Wrap(fault.TooLarge, "the HTML page has more elements and text runs than the server extracts", err).
			With("limit_nodes", cmp.Or(in.MaxHTMLNodes, htmltext.DefaultMaxNodes))
	case errors.Is(err, htmltext.ErrTooLarge):
		return nil, v, fault.Wrap(fault.TooLarge, "the HTML page exceeds the size limit", err).With("limit_bytes", htmltext.MaxInputBytes)
	case errors.Is(err, htmltext.ErrNotHTML):
		return nil, v, fault.Wrap(fault.InvalidFormat, "the source is not HTML", err)
	case err != nil:
		return nil, v, fault.Wrap(fault.ExtractionFailed, "the HTML page could not be extracted", err)
	}
	rec.Kind = KindHTML
	rec.Extractor = htmltext.ExtractorName
	rec.ExtractorVersion = htmltext.ExtractorVersion
	rec.Title = res.Meta.Title
	rec.Author = res.Meta.Author
	rec.Published = res.Meta.Published
	rec.DeclaredLanguage = res.Meta.Language
	rec.CanonicalURL = res.Meta.CanonicalURL
	rec.SiteName = res.Meta.SiteName
	rec.Charset = res.Charset
	v = verdict.Judge(verdict.Page{Raw: raw, Title: res.Meta.Title, Text: res.Text, Tree: res.Tree})
	if err := verdictFault(v); err != nil {
		return nil, v, err
	}
	if res.Text == "" {
		// Most often an application shell: the page's text arrives only
		// when its scripts run.
		return nil, v, fault.E(fault.NoExtractableText, "the HTML page shows no main text (one its scripts fill?)")
	}
	rec.Verdict, rec.ExtractionConfidence = string(v.Class), v.Confidence
	doc, err := in.finish(res.Text, raw, rec, nil)
	if err != nil {
		return nil, v, err
	}
	doc.Trace = opt.Trace
	// Links are relative to the page's <base href>, else to its URL.
	base := cmp.Or(res.Meta.BaseURL, pageURL, res.Meta.CanonicalURL)
	main := doc.structured(res.Text, res.Spans, base)
	doc.outsideLinks(res.PageLinks(), base, main)
	return doc, v, nil
}

// url fetches a URL through the guarded client and ingests what it
// returned by its kind.
func (in *Ingester) url(ctx context.Context, rawURL, render string, explain bool, o ocrOptions) (*Document, error) {
	if in.Fetcher == nil {
		return nil, fault.E(fault.FeatureDisabled, "URL sources are not enabled on this server")
	}
	if err := in.checkRender(render); err != nil {
		return nil, err
	}
	resp, err := in.Fetcher.Fetch(ctx, rawURL)
	if err != nil {
		return nil, fetchFault(err)
	}
	rec := Record{
		RequestedURL: resp.RequestedURL,
		FinalURL:     resp.FinalURL,
		HTTPStatus:   resp.Status,
		ContentType:  resp.ContentType,
		FetchedAt:    resp.FetchedAt,
	}
	switch resp.Kind {
	case fetch.KindHTML:
		rec.Kind = KindHTML
		if render == RenderAlways {
			return in.rendered(ctx, resp.FinalURL, rec, explain)
		}
		doc, v, err := in.judgedHTML(resp.Body, resp.ContentType, resp.FinalURL, rec, explain)
		if render == RenderAuto && in.Renderer != nil && v.Shell {
			return in.rendered(ctx, resp.FinalURL, rec, explain)
		}
		return doc, err
	case fetch.KindPDF:
		rec.Kind = KindPDF
		return in.pdf(ctx, resp.Body, rec, o)
	case KindImage:
		return in.image(ctx, resp.Body, rec, o)
	case fetch.KindText:
	default:
		return in.document(ctx, resp.Kind, resp.Body, resp.ContentType, rec, explain)
	}
	return in.textBytes(resp.Body, resp.ContentType, rec)
}

// verdictFault is the error a page judged not to be content answers, or
// nil for content.
func verdictFault(v verdict.Verdict) error {
	var f *fault.Error
	switch v.Class {
	case verdict.Content:
		return nil
	case verdict.Blocked:
		f = fault.E(fault.ContentBlocked, "the page is a "+v.Reason+" page, not the content").With("reason", v.Reason)
	case verdict.JSRequired:
		f = fault.E(fault.JSRequired, "the page shows its content only when its scripts run")
	default:
		f = fault.E(fault.NotContent, "the page holds no content ("+v.Reason+")").With("reason", v.Reason)
	}
	return f.With("rule", v.Rule)
}

// fetchFault carries a fetch error's stable code into a client error.
func fetchFault(err error) error {
	var fe *fetch.Error
	if !errors.As(err, &fe) {
		return fault.Wrap(fault.FetchFailed, "the URL could not be fetched", err).With("cause", fetch.CauseNetwork)
	}
	if fe.Cause == fetch.CauseRedirectLoop {
		return fault.Wrap(fault.NotContent, fe.Msg, err).With("reason", verdict.ReasonRedirectLoop).With("rule", verdict.ReasonRedirectLoop)
	}
	f := fault.Wrap(fe.Code, fe.Msg, err)
	if fe.Cause != "" {
		f.With("cause", fe.Cause)
	}
	if fe.Status != 0 {
		f.With("upstream_status", fe.Status)
	}
	return f
}

// finish fills the record fields shared by every kind and enforces caps.
func (in *Ingester) finish(text string, raw []byte, rec Record, warns []Warning) (*Document, error) {
	// The canonical text is hashed here, once on its way in; its hash
	// travels with it (archive.Blob) to the archive and the digest. A raw
	// source that was canonical already has the same hash.
	blob := archive.NewBlob(text)
	rawHash := blob.Hash()
	if string(raw) != text {
		rawHash = archive.Sum(raw)
	}
	return in.finishBlob(blob, rawHash, len(raw), rec, warns)
}

// finishBlob is finish, given the canonical text as a blob and the hash
// and size of the raw input.
func (in *Ingester) finishBlob(blob archive.Blob, rawHash archive.Hash, rawBytes int, rec Record, warns []Warning) (*Document, error) {
	text := blob.String()
	n := utf8.RuneCountInString(text)
	if in.MaxTextChars > 0 && n > in.MaxTextChars {
		return nil, fault.E(fault.TooLarge, "the source's text exceeds the limit").
			With("limit_chars", in.MaxTextChars).With("text_chars", n)
	}
	if n == 0 {
		return nil, fault.E(fault.NoExtractableText, "the source has no extractable text")
	}
	rec.RawSHA256 = rawHash
	rec.RawBytes = rawBytes
	rec.Canonicalizer = normalize.Version
	rec.TextChars = n
	found := lang.Decide(rec.DeclaredLanguage, detected.detect(blob.Hash(), text))
	rec.Language, rec.LanguageConfidence = found.Language, found.Confidence
	rec.capMetadata()
	return &Document{Text: blob, Record: rec, Warnings: warns}, nil
}
