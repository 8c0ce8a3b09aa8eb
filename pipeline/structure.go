package pipeline

import (
	"context"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/structure"
)

// maxSidecarBytes bounds the sidecar read back for a text: its spans are
// a fraction of the text's size.
const maxSidecarBytes = 64 << 20

// Structure returns the structure of text, an archived canonical text
// whose record is rec (nil when it has none), from the sidecar the record
// names, checked against the text; nil when there is none (an archive
// written before sidecars, a source whose extractor records none). A
// sidecar that fails its hash or breaks a rule of the format is
// ARCHIVE_CORRUPT and never served.
func (p *Pipeline) Structure(ctx context.Context, text archive.Blob, rec *ingest.Record) (*structure.Structure, error) {
	if rec == nil || !rec.StructureHash.Valid() {
		return nil, nil
	}
	data, err := p.readBlob(ctx, rec.StructureHash, maxSidecarBytes)
	if err != nil {
		return nil, archiveFault("read the text's structure", err)
	}
	s, err := structure.Read(data, text.String(), text.Hash())
	if err != nil {
		p.noteCorrupt(rec.StructureHash)
		return nil, fault.Wrap(fault.ArchiveCorrupt, "the text's structure breaks the sidecar's rules and is not served", err)
	}
	return s, nil
}

// Markdown renders the archived canonical text d as Markdown from its
// text and its structure (structure.Markdown): headings, lists, tables,
// links and emphasis where the source's sidecar holds them, paragraphs
// alone where it has none. Every character of the rendering's text is a
// code point of the canonical text (Rendering.Span maps a locator's span
// into it).
func (p *Pipeline) Markdown(ctx context.Context, d archive.Hash) (*structure.Rendering, error) {
	text, rec, _, err := p.Archived(ctx, d)
	if err != nil {
		return nil, err
	}
	s, err := p.Structure(ctx, text, rec)
	if err != nil {
		return nil, err
	}
	return structure.Markdown(text.String(), s), nil
}
