package ingest

import (
	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/structure"
)

// structured gives d the sidecar of its structure: spans over raw, the
// text the extractor wrote, carried onto the canonical text, with links
// resolved against base (the source's URL, "" for none). Structure is
// kept beside the text and never changes it: a source whose spans cannot
// be carried over (or that has none) has no sidecar.
func (d *Document) structured(raw string, spans []structure.Span, base string) {
	if len(spans) == 0 {
		return
	}
	text := d.Text.String()
	s, err := structure.Map(raw, text, structure.ResolveLinks(spans, base))
	if err != nil || len(s.Spans) == 0 {
		return
	}
	data, err := structure.Write(s, text, d.Text.Hash())
	if err != nil {
		return
	}
	d.Sidecar = archive.NewBlob(string(data))
	d.Record.StructureHash = d.Sidecar.Hash()
}
