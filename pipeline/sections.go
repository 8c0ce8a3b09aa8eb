package pipeline

import (
	"slices"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/structure"
)

// textStructure is where the structure of a text being digested comes
// from: the sidecar Hash names (zero for none), and Load, which reads it
// (nil, nil when there is none).
type textStructure struct {
	Hash archive.Hash
	Load func() (*structure.Structure, error)
}

// addSections gives each evidence snippet of pl the heading path of the
// section it starts in, from s, the structure of text (nil for none): each
// heading its text in the canonical text, cut to its bound
// (digest.SectionHeading), the innermost digest.MaxSectionDepth kept.
func addSections(pl *digest.Payload, text string, s *structure.Structure) {
	o := structure.Outline(s)
	if o.Len() == 0 {
		return
	}
	paths := make([][]structure.Span, len(pl.EvidenceSnippets))
	var offs []int
	for i, sn := range pl.EvidenceSnippets {
		path := o.Path(sn.Locator.Start)
		if n := len(path); n > digest.MaxSectionDepth {
			path = path[n-digest.MaxSectionDepth:]
		}
		paths[i] = path
		for _, h := range path {
			offs = append(offs, h.Start, h.End)
		}
	}
	if len(offs) == 0 {
		return
	}
	slices.Sort(offs)
	offs = slices.Compact(offs)
	bytesAt := normalize.ByteOffsets(text, offs)
	at := func(cp int) int {
		k, _ := slices.BinarySearch(offs, cp)
		return bytesAt[k]
	}
	for i, path := range paths {
		if len(path) == 0 {
			continue
		}
		sec := make([]string, len(path))
		for j, h := range path {
			sec[j] = digest.SectionHeading(text[at(h.Start):at(h.End)])
		}
		pl.EvidenceSnippets[i].Section = sec
	}
}
