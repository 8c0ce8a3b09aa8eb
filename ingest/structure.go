package ingest

import (
	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/structure"
)

// structured gives d the sidecar of its structure: spans over raw, the
// text the extractor wrote, carried onto the canonical text, with links
// resolved against base (the source's URL, "" for none). Structure is
// kept beside the text and never changes it: a source whose spans cannot
// be carried over (or that has none) has no sidecar. It returns the
// structure archived (nil for none).
func (d *Document) structured(raw string, spans []structure.Span, base string) *structure.Structure {
	if len(spans) == 0 {
		return nil
	}
	text := d.Text.String()
	s, err := structure.Map(raw, text, structure.ResolveLinks(spans, base))
	if err != nil || len(s.Spans) == 0 {
		return nil
	}
	data, err := structure.Write(s, text, d.Text.Hash())
	if err != nil {
		return nil
	}
	d.Sidecar = archive.NewBlob(string(data))
	d.Record.StructureHash = d.Sidecar.Hash()
	return s
}

// outsideLinks gives d the links of its page that lead somewhere its
// canonical text's links (main, nil for none) do not: anchors, the page's
// links in document order (nil for a page read without its tree),
// resolved against base (see structure.Outside), the first of them that
// fit the text's budget (structure.WriteOutside), with how many the page
// had, so that a listing says when some are not kept. A page read from its
// tree keeps them even when there are none, so that a record without
// them is one archived before they were kept.
func (d *Document) outsideLinks(anchors []structure.Anchor, base string, main *structure.Structure) {
	if anchors == nil {
		return
	}
	links, total := structure.Outside(anchors, base, main)
	data, _, err := structure.WriteOutside(links, total, d.Text.Hash(), d.Text.Len())
	if err != nil {
		return
	}
	d.OutsideLinks = archive.NewBlob(string(data))
	d.Record.OutsideLinksHash = d.OutsideLinks.Hash()
}
