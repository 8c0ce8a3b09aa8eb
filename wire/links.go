package wire

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/pipeline"
)

// ListingLinks names the listing of a source's links (GET
// /v1/sources/{hash}/links and the MCP tool list_links share its cursors).
const ListingLinks = "links"

// SourceFieldsOf checks the fields of a digest request (POST /v1/digest,
// the MCP tool digest_source): each names an optional part of data.source
// (pipeline.SourceFields), else INVALID_FIELDS with details.invalid_fields
// and details.allowed_fields. It reports whether they ask for the source's
// links.
func SourceFieldsOf(fields []string) (links bool, err error) {
	var bad []string
	for _, f := range fields {
		if !slices.Contains(pipeline.SourceFields, f) {
			bad = append(bad, f)
		}
	}
	if len(bad) > 0 {
		return false, fault.E(fault.InvalidFields, fmt.Sprintf("fields: %s not an optional field of data.source", strings.Join(bad, ", "))).
			With("invalid_fields", bad).With("allowed_fields", pipeline.SourceFields)
	}
	return slices.Contains(fields, "links"), nil
}

// FieldsFromQuery reads ?fields= of a raw upload: names apart by commas,
// the parameter given once or more.
func FieldsFromQuery(values []string) []string {
	var out []string
	for _, v := range values {
		for f := range strings.SplitSeq(v, ",") {
			if f = strings.TrimSpace(f); f != "" {
				out = append(out, f)
			}
		}
	}
	return out
}

// LinksRequest is a request for a page of a source's links: the text's
// hash, the page size (0: the default) and the cursor of the page before.
type LinksRequest struct {
	Hash   archive.Hash
	Limit  int
	Cursor string
}

// ListLinks answers a LinksRequest through p: the envelope's data is the page
// (pipeline.LinksPage), meta.pagination has the cursor of the next page,
// a NO_STRUCTURE warning says when some of the source's links are not
// known, and a CONTENT_TRUNCATED one when a page's outside links were not
// all kept (pipeline.Links).
// A cursor names the record of the first page and the position after the
// page before, so that paging reads one record's links to the end.
func ListLinks(ctx context.Context, p *pipeline.Pipeline, cursors *Cursors, in LinksRequest, meta Meta, requestID string, start time.Time) (Envelope, *pipeline.LinksPage, error) {
	var record archive.Hash
	offset := 0
	if in.Cursor != "" {
		var err error
		if record, offset, err = linksPosition(cursors, in.Hash, in.Cursor); err != nil {
			return Envelope{}, nil, err
		}
	}
	page, err := p.SourceLinks(ctx, in.Hash, record, offset, in.Limit)
	if err != nil {
		return Envelope{}, nil, err
	}
	meta.Pagination = &Pagination{HasMore: page.More, PageSize: len(page.Links)}
	if page.More {
		c := cursors.Encode(ListingLinks, in.Hash.String()+" "+page.RecordHash.String()+" "+strconv.Itoa(page.Offset+len(page.Links)))
		meta.Pagination.Cursor = &c
	}
	for _, w := range page.Warnings {
		meta.AddWarning(w.Code, w.Message, w.Context)
	}
	return Success(page, meta, requestID, start), page, nil
}

// linksPosition reads a links cursor: the record and the offset it
// continues from. A cursor of another source's links is INVALID_CURSOR.
func linksPosition(cursors *Cursors, d archive.Hash, raw string) (archive.Hash, int, error) {
	pos, err := cursors.Decode(ListingLinks, raw)
	if err != nil {
		return archive.Hash{}, 0, err
	}
	bad := fault.E(fault.InvalidCursor, "cursor: not a cursor of this source's links").With("field", "cursor")
	parts := strings.Split(pos, " ")
	if len(parts) != 3 || parts[0] != d.String() {
		return archive.Hash{}, 0, bad
	}
	record, err := archive.ParseHash(parts[1])
	offset, err2 := strconv.Atoi(parts[2])
	if err != nil || err2 != nil || offset < 0 {
		return archive.Hash{}, 0, bad
	}
	return record, offset, nil
}
