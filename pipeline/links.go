package pipeline

import (
	"context"
	"fmt"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/structure"
)

// Bounds of a source's links.
const (
	// MaxSourceLinks bounds the links an answer's data.source.links
	// carries: the first of the source's links (GET
	// /v1/sources/{hash}/links pages through them all).
	MaxSourceLinks = 500
	// DefaultLinksLimit and MaxLinksLimit bound a page of SourceLinks.
	DefaultLinksLimit = 100
	MaxLinksLimit     = MaxSourceLinks
)

// ReasonOutsideLinks is the context.reason of the CONTENT_TRUNCATED
// warning that says a page had more links outside its canonical text than
// its archive keeps (see OutsideCount).
const ReasonOutsideLinks = "outside_links"

// OutsideCount counts a web page's links outside its canonical text:
// Total, those the page had, and Listed, the first of them in the page's
// order that its archive keeps (at most structure.MaxOutsideLinks, within
// structure.OutsideBudget of its text's bytes), the only ones listed.
type OutsideCount struct {
	Total  int `json:"total"`
	Listed int `json:"listed"`
}

// SourceFields are the optional parts of data.source a digest request
// names in its fields: links, the source's links.
var SourceFields = []string{"links"}

// Link is one link of a source: its absolute target, its anchor text (at
// most structure.MaxLinkTextChars code points, cut there), whether it is
// in the canonical text (the main content) and, when it is, its anchor's
// locator there; null for a link the page holds outside it.
type Link struct {
	URL     string          `json:"url"`
	Text    string          `json:"text"`
	InMain  bool            `json:"in_main"`
	Locator *digest.Locator `json:"locator"`
}

// Links lists the links of text, an archived canonical text whose record
// is rec (nil when it has none): those of its structure's sidecar, in the
// text's order, then those its page holds outside the text, each target
// once (structure.Links). outside counts the page's links outside its
// text, nil when its record keeps none. warns say what the list leaves
// out: a NO_STRUCTURE warning when some links are not known, all of them
// when the record names neither a sidecar nor outside links (a source
// archived before either was kept, or whose extractor records no
// structure), the outside ones for a web page archived before they were
// kept; a CONTENT_TRUNCATED warning (context.reason ReasonOutsideLinks)
// when the page had more outside links than its archive keeps. A blob
// that fails its hash or breaks its format's rules is ARCHIVE_CORRUPT.
func (p *Pipeline) Links(ctx context.Context, text archive.Blob, rec *ingest.Record) (links []Link, outside *OutsideCount, warns []Warning, err error) {
	if rec == nil || !rec.StructureHash.Valid() && !rec.OutsideLinksHash.Valid() {
		return []Link{}, nil, []Warning{{Code: fault.NoStructure,
			Message: "the source was archived without a record of its structure (before structure was kept, or its extractor records none): its links are not known",
			Context: map[string]any{"field": "links", "missing": "all"}}}, nil
	}
	if rec.Kind == ingest.KindHTML && !rec.OutsideLinksHash.Valid() {
		// Every web page read from its tree keeps its outside links,
		// none as well: this one was archived before they were kept.
		warns = append(warns, Warning{Code: fault.NoStructure,
			Message: "the page was archived before its links outside its text were kept: only the links of its text are listed",
			Context: map[string]any{"field": "links", "missing": "outside"}})
	}
	s, err := p.Structure(ctx, text, rec)
	if err != nil {
		return nil, nil, nil, err
	}
	var kept []structure.OutsideLink
	if rec.OutsideLinksHash.Valid() {
		data, err := p.readBlob(ctx, rec.OutsideLinksHash, maxSidecarBytes)
		if err != nil {
			return nil, nil, nil, archiveFault("read the page's links", err)
		}
		var total int
		if kept, total, err = structure.ReadOutside(data, text.Hash(), text.Len()); err != nil {
			p.noteCorrupt(rec.OutsideLinksHash)
			return nil, nil, nil, fault.Wrap(fault.ArchiveCorrupt, "the page's links break their format's rules and are not served", err)
		}
		outside = &OutsideCount{Total: total, Listed: len(kept)}
		if total > len(kept) {
			warns = append(warns, Warning{Code: fault.ContentTruncated,
				Message: fmt.Sprintf("the page has %d links outside its main content; its archive keeps the first %d (at most %d, in at most a quarter of its text's bytes or %d bytes): the other %d are not listed",
					total, len(kept), structure.MaxOutsideLinks, structure.MinOutsideBytes, total-len(kept)),
				Context: map[string]any{"field": "links", "reason": ReasonOutsideLinks, "outside_total": total, "outside_listed": len(kept)}})
		}
	}
	all := structure.Links(text.String(), s, kept)
	var pages normalize.PageIndex
	paged := format.Paginated(rec.Kind)
	if paged {
		pages = normalize.IndexPages(text.String())
	}
	links = make([]Link, len(all))
	for i, l := range all {
		links[i] = Link{URL: l.Href, Text: l.Text, InMain: l.InMain}
		if l.InMain {
			loc := digest.Locator{Start: l.Start, End: l.End}
			if paged {
				// A link span lies inside one block, so on one page.
				loc.Page, _ = pages.Span(l.Start, l.End)
			}
			links[i].Locator = &loc
		}
	}
	return links, outside, warns, nil
}

// LinksPage is a page of a source's links (GET /v1/sources/{hash}/links).
type LinksPage struct {
	ArchiveHash archive.Hash `json:"archive_hash"`
	// RecordHash names the record whose links these are: the source's
	// (the one listings show) on a first page, the first page's on the
	// pages after it.
	RecordHash archive.Hash `json:"record_hash,omitzero"`
	// Total counts all of the source's links; Links are those of this
	// page, from Offset on.
	Total  int    `json:"total"`
	Offset int    `json:"offset"`
	Links  []Link `json:"links"`
	// Outside counts the page's links outside its canonical text, of
	// which Links lists those kept; absent when the record keeps none.
	Outside *OutsideCount `json:"outside,omitempty"`
	// Warnings say what the source's links leave out (see Links).
	Warnings []Warning `json:"-"`
	// More says links follow this page.
	More bool `json:"-"`
}

// SourceLinks returns a page of the links of the archived text d: up to
// limit (0: DefaultLinksLimit; at most MaxLinksLimit) from offset on,
// read from the record named record, or from the source's record when
// record is zero. A text that is not archived is NOT_FOUND; a text
// without a record has no known links (see Links).
func (p *Pipeline) SourceLinks(ctx context.Context, d, record archive.Hash, offset, limit int) (*LinksPage, error) {
	if limit == 0 {
		limit = DefaultLinksLimit
	}
	if limit < 1 || limit > MaxLinksLimit {
		return nil, fault.E(fault.ValidationError, fmt.Sprintf("limit: must be an integer between 1 and %d", MaxLinksLimit)).With("field", "limit")
	}
	text, rec, recHash, err := p.Archived(ctx, d)
	if err != nil {
		return nil, err
	}
	if record.Valid() && record != recHash {
		if rec, err = p.readRecord(ctx, record); err != nil {
			return nil, err
		}
		recHash = record
	}
	all, outside, warns, err := p.Links(ctx, text, rec)
	if err != nil {
		return nil, err
	}
	offset = min(max(offset, 0), len(all))
	end := min(offset+limit, len(all))
	return &LinksPage{ArchiveHash: d, RecordHash: recHash, Total: len(all), Offset: offset, Links: all[offset:end], Outside: outside, Warnings: warns, More: end < len(all)}, nil
}

// sourceLinks gives info, the source of text, its first MaxSourceLinks
// links, and returns the warnings that say what the list leaves out: a
// CONTENT_TRUNCATED warning when the source has more, and those of Links
// (some not known, outside links not kept).
func (p *Pipeline) sourceLinks(ctx context.Context, text archive.Blob, info *SourceInfo) ([]Warning, error) {
	links, _, warns, err := p.Links(ctx, text, info.Record)
	if err != nil {
		return nil, err
	}
	if len(links) > MaxSourceLinks {
		warns = append(warns, Warning{Code: fault.ContentTruncated,
			Message: fmt.Sprintf("the source has %d links; the answer holds the first %d: GET /v1/sources/%s/links pages through them all", len(links), MaxSourceLinks, info.ArchiveHash),
			Context: map[string]any{"field": "links", "reason": "links", "links_total": len(links), "links_returned": MaxSourceLinks}})
		links = links[:MaxSourceLinks]
	}
	info.Links = &links
	return warns, nil
}
