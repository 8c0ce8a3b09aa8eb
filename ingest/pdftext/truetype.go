package pdftext

import (
	"github.com/ledongthuc/pdf"
	"golang.org/x/image/font/sfnt"
)

// glyphMap recovers text for a CIDFontType2 font whose ToUnicode CMap is
// missing, empty or incomplete: each code is a CID, the CIDToGIDMap turns
// it into a glyph of the embedded TrueType font (FontFile2), and the font's
// own cmap table, read backwards, says which character the glyph draws.
type glyphMap struct {
	file     pdf.Value // the FontFile2 stream
	cidToGID pdf.Value // a stream of big-endian glyph ids, or Identity
	budget   *streamBudget

	loaded bool
	gids   []uint16          // CID → glyph id, nil for Identity
	text   map[uint16]string // glyph id → character
}

// newGlyphMap returns the glyph map of descendant font desc, or nil when
// it embeds no TrueType font.
func newGlyphMap(desc pdf.Value, budget *streamBudget) *glyphMap {
	if desc.Key("Subtype").Name() != "CIDFontType2" {
		return nil
	}
	file := desc.Key("FontDescriptor").Key("FontFile2")
	if file.Kind() != pdf.Stream {
		return nil
	}
	return &glyphMap{file: file, cidToGID: desc.Key("CIDToGIDMap"), budget: budget}
}

// lookup returns the character drawn for cid, reading the font on first
// use.
func (g *glyphMap) lookup(cid uint32) (string, bool) {
	if !g.loaded {
		g.loaded = true
		g.load()
	}
	if len(g.text) == 0 {
		return "", false
	}
	gid := cid
	if g.gids != nil {
		if int(cid) >= len(g.gids) {
			return "", false
		}
		gid = uint32(g.gids[cid])
	}
	if gid == 0 || gid > 0xFFFF {
		return "", false
	}
	s, ok := g.text[uint16(gid)]
	return s, ok
}

// load reads the CIDToGIDMap and inverts the font's cmap table. A damaged
// font leaves the map empty.
func (g *glyphMap) load() {
	defer func() {
		if recover() != nil {
			g.text = nil
		}
	}()
	if g.cidToGID.Kind() == pdf.Stream {
		data, err := readStream(g.cidToGID, g.budget)
		if err != nil {
			return
		}
		g.gids = make([]uint16, len(data)/2)
		for i := range g.gids {
			g.gids[i] = uint16(data[2*i])<<8 | uint16(data[2*i+1])
		}
	}
	data, err := readStream(g.file, g.budget)
	if err != nil || len(data) == 0 {
		return
	}
	f, err := sfnt.Parse(data)
	if err != nil {
		return
	}
	var buf sfnt.Buffer
	g.text = map[uint16]string{}
	// The lowest code point of each glyph wins, so a glyph mapped from
	// both a letter and a presentation form reads as the letter. Private
	// use code points say nothing and are skipped.
	for r := rune(0x20); r <= 0xFFFF; r++ {
		if r >= 0xD800 && r <= 0xF8FF {
			continue
		}
		gi, err := f.GlyphIndex(&buf, r)
		if err != nil || gi == 0 {
			continue
		}
		if _, ok := g.text[uint16(gi)]; !ok {
			g.text[uint16(gi)] = string(r)
		}
	}
}
