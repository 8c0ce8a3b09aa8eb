package pdftext

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/sfnt"

	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
)

// type0PDF returns a one-page PDF that shows the hex string codes in a
// Type0 font with an embedded TrueType font (FontFile2) and the given
// CIDToGIDMap and ToUnicode entries (object bodies or references to the
// extra objects, numbered from 9).
func type0PDF(codes, cidToGID, toUnicode string, extra ...string) []byte {
	content := fmt.Sprintf("BT /F1 12 Tf 72 720 Td <%s> Tj ET", codes)
	ttf := string(goregular.TTF)
	objs := []string{
		"<< /Type /Catalog /Pages 2 0 R >>",
		"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
		"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 5 0 R >> >> /Contents 4 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(content), content),
		"<< /Type /Font /Subtype /Type0 /BaseFont /GoRegular /Encoding /Identity-H /DescendantFonts [6 0 R]" + toUnicode + " >>",
		"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /GoRegular /CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> /FontDescriptor 7 0 R /DW 600" + cidToGID + " >>",
		"<< /Type /FontDescriptor /FontName /GoRegular /Flags 32 /FontBBox [0 -200 1000 900] /ItalicAngle 0 /Ascent 900 /Descent -200 /CapHeight 700 /StemV 80 /FontFile2 8 0 R >>",
		fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(ttf), ttf),
	}
	objs = append(objs, extra...)
	return pdfgen.Assemble("1.7", objs, "/Root 1 0 R")
}

// gids returns the glyph ids of goregular for s.
func gids(t *testing.T, s string) []uint16 {
	t.Helper()
	f, err := sfnt.Parse(goregular.TTF)
	if err != nil {
		t.Fatal(err)
	}
	var buf sfnt.Buffer
	var out []uint16
	for _, r := range s {
		g, err := f.GlyphIndex(&buf, r)
		if err != nil || g == 0 {
			t.Fatalf("no glyph for %q", r)
		}
		out = append(out, uint16(g))
	}
	return out
}

func hex16(vs []uint16) string {
	var b strings.Builder
	for _, v := range vs {
		fmt.Fprintf(&b, "%04X", v)
	}
	return b.String()
}

// TestTrueTypeWithoutToUnicode checks that a Type0 TrueType font without
// a ToUnicode CMap reads through the embedded font's cmap table, with an
// Identity CIDToGIDMap and with a CIDToGIDMap stream.
func TestTrueTypeWithoutToUnicode(t *testing.T) {
	const word = "Glyphs"
	g := gids(t, word)

	identity := type0PDF(hex16(g), " /CIDToGIDMap /Identity", "")
	// CIDs 1, 2, … map to the word's glyphs through a stream.
	var m strings.Builder
	m.WriteString("\x00\x00")
	cids := make([]uint16, len(g))
	for i, v := range g {
		m.WriteString(string([]byte{byte(v >> 8), byte(v)}))
		cids[i] = uint16(i + 1)
	}
	mapStream := fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", m.Len(), m.String())
	mapped := type0PDF(hex16(cids), " /CIDToGIDMap 9 0 R", "", mapStream)

	for name, raw := range map[string][]byte{"identity": identity, "stream": mapped} {
		res, err := Extract(raw, Limits{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := strings.Join(res.Pages, "\f"); got != word {
			t.Errorf("%s: text %q, want %q", name, got, word)
		}
	}
}

// TestIdentityToUnicode checks that an Identity CID CMap given as
// ToUnicode reads codes as code points.
func TestIdentityToUnicode(t *testing.T) {
	cm := "/CIDInit /ProcSet findresource begin 12 dict begin begincmap /CMapName /Identity-H def\n" +
		"1 begincodespacerange <0000> <FFFF> endcodespacerange\n1 begincidrange <0000> <FFFF> 0 endcidrange\nendcmap end end"
	cmObj := fmt.Sprintf("<< /Length %d >>\nstream\n%s\nendstream", len(cm), cm)
	// The codes are the word's code points; the glyphs would say otherwise.
	raw := type0PDF(hex16([]uint16{'J', 'u', 's', 't'}), " /CIDToGIDMap /Identity", " /ToUnicode 9 0 R", cmObj)
	res, err := Extract(raw, Limits{})
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(res.Pages, "\f"); got != "Just" {
		t.Errorf("text %q, want %q", got, "Just")
	}
}
