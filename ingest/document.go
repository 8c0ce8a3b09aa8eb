package ingest

import (
	"cmp"
	"context"
	"errors"
	"slices"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/charset"
	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/ingest/pdfworker"
	"github.com/digestd/digestd/normalize"
)

// DocumentExtractor converts office documents, EPUB books and text
// documents (the kinds of format.Documents) into text, where a hostile file cannot
// hurt the caller. Its errors are fault errors.
type DocumentExtractor interface {
	// ExtractDocument converts raw, a document of kind; explain asks for
	// the HTML extractor's decisions on an EPUB's chapters
	// (doctext.Result.Trace).
	ExtractDocument(ctx context.Context, kind string, raw []byte, explain bool) (*doctext.Result, error)
}

// InProcessDocuments converts documents in the calling process under
// doctext's limits (decompressed bytes, entries, XML depth and tokens,
// output characters and a deadline).
type InProcessDocuments struct{ Limits doctext.Limits }

// ExtractDocument implements DocumentExtractor.
func (d InProcessDocuments) ExtractDocument(ctx context.Context, kind string, raw []byte, explain bool) (*doctext.Result, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	res, err := doctext.ExtractWith(kind, raw, doctext.Options{Limits: d.Limits, Explain: explain})
	if err != nil {
		return nil, DocumentFault(err)
	}
	return res, nil
}

// DocumentFault maps a doctext error to the error clients see, said as
// the worker processes say it (pdfworker.DocumentError); a cap reached is
// named in the message, which the cause would only repeat.
func DocumentFault(err error) error {
	we := pdfworker.DocumentError(err, 0)
	if errors.Is(err, doctext.ErrTooLarge) {
		return fault.E(we.Code, we.Msg)
	}
	return fault.Wrap(we.Code, we.Msg, err)
}

// document converts an office document, EPUB or a text document
// (format.TextDocuments: Markdown, CSV, JSON, a notebook, a feed, XML);
// the bytes of a text document are first read as UTF-8 in the charset
// charset.Decode decides (contentType, or XML's declaration, may declare
// it), which the record keeps.
func (in *Ingester) document(ctx context.Context, kind string, raw []byte, contentType string, rec Record, explain bool) (*Document, error) {
	var ex DocumentExtractor = InProcessDocuments{}
	if in.Documents != nil {
		ex = in.Documents
	}
	doc := raw
	if slices.Contains(format.TextDocuments, kind) {
		xml := kind == format.XML || kind == format.RSS || kind == format.Atom
		dec, err := decodeText(raw, charset.Hints{ContentType: contentType, Markdown: kind == format.Markdown, XML: xml})
		if err != nil {
			return nil, err
		}
		doc, rec.Charset = dec.UTF8, dec.Charset
	}
	res, err := ex.ExtractDocument(ctx, kind, doc, explain)
	if err != nil {
		return nil, err
	}
	rec.Kind = kind
	rec.Extractor = doctext.ExtractorName
	rec.ExtractorVersion = doctext.ExtractorVersion
	rec.Title = res.Title
	rec.Author = res.Author
	var text string
	if res.Paginated {
		text = normalize.Pages(res.Pages)
		rec.PageCount = len(res.Pages)
		rec.PageOffsets = normalize.IndexPages(text).Starts()
		rec.PageNames = capNames(res.PageNames)
	} else {
		text = normalize.Canonical(res.Pages[0])
	}
	d, err := in.finish(text, raw, rec, nil)
	if err != nil {
		return nil, err
	}
	d.Trace = res.Trace
	d.structured(res.Text(), res.Spans, cmp.Or(rec.FinalURL, rec.RequestedURL))
	return d, nil
}

// maxPageNames bounds the slide titles and sheet names a record lists.
const maxPageNames = 1000

// capNames cuts each page name to the metadata cap and the list to
// maxPageNames.
func capNames(names []string) []string {
	names = names[:min(len(names), maxPageNames)]
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = cut(n, MaxMetadataBytes/8)
	}
	return out
}

// PoolDocuments converts documents in the isolated worker processes of a
// pdfworker.Pool, where a hostile file that exhausts memory or time kills
// one worker, never the service. Its failures are fault errors with the
// pool's codes; a busy pool's error carries retry_after.
type PoolDocuments struct{ Pool *pdfworker.Pool }

// ExtractDocument implements DocumentExtractor.
func (p PoolDocuments) ExtractDocument(ctx context.Context, kind string, raw []byte, explain bool) (*doctext.Result, error) {
	res, err := p.Pool.ExtractDocument(ctx, kind, raw, explain)
	if err != nil {
		var we *pdfworker.Error
		if !errors.As(err, &we) {
			return nil, fault.Wrap(fault.DocumentUnreadable, "the document could not be read", err)
		}
		f := fault.Wrap(we.Code, we.Msg, err)
		if we.RetryAfter > 0 {
			f.With("retry_after", int((we.RetryAfter+time.Second-1)/time.Second))
		}
		return nil, f
	}
	return res, nil
}
