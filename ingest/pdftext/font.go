package pdftext

import (
	"math"
	"sort"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/ledongthuc/pdf"
	"golang.org/x/text/encoding/charmap"

	"github.com/digestd/digestd/ingest/pdftext/glyphlist"
)

// font is what text extraction needs from a PDF font: how to split a string
// into character codes, what each code means in Unicode and how far it
// advances.
type font struct {
	codeLen   int // bytes per code: 1 for simple fonts, usually 2 for Type0
	toUnicode *cmap
	simple    [256]string // code → text from the font's encoding (simple fonts)
	utf16     bool        // Type0 with a UCS-2/UTF-16 encoding and no ToUnicode

	firstChar int
	widths    []float64          // simple fonts, text-space units per unit of font size
	cidWidths map[uint32]float64 // Type0 widths (W array), same units
	defWidth  float64            // width for codes without one
	estimated bool               // no widths in the file: advances are guesses

	glyphs *glyphMap // Type0 TrueType: text from the embedded font's cmap

	vertical bool    // vertical writing mode (Identity-V and other -V CMaps)
	scale    float64 // Type3: em size relative to the font size

	// drop lowers the glyphs' origin to where the surrounding text's
	// baseline is, in ems: fonts whose glyphs hang below their origin
	// (TeX's math extension font) are placed by their top.
	drop float64
}

// cmap is a parsed ToUnicode CMap.
type cmap struct {
	lens   []int // code lengths seen in codespace ranges, ascending
	single map[uint32]string
	ranges []cmapRange
}

type cmapRange struct {
	lo, hi uint32
	n      int      // code length in bytes
	dst    string   // UTF-16BE of lo; later codes increment the last unit
	list   []string // or one UTF-16BE string per code
}

const maxCMapEntries = 1 << 18

func parseCMap(data []byte) *cmap {
	m := &cmap{single: map[uint32]string{}}
	l := contentLexer{buf: data}
	seenLen := map[int]bool{}
	for {
		o, ok := l.next()
		if !ok {
			break
		}
		switch o.name {
		case "endcodespacerange":
			for i := 0; i+1 < len(o.args); i += 2 {
				lo, _ := o.args[i].(string)
				if n := len(lo); n >= 1 && n <= 4 {
					seenLen[n] = true
				}
			}
		case "endbfchar":
			for i := 0; i+1 < len(o.args) && len(m.single) < maxCMapEntries; i += 2 {
				src, ok1 := o.args[i].(string)
				if !ok1 || len(src) == 0 || len(src) > 4 {
					continue
				}
				switch dst := o.args[i+1].(type) {
				case string:
					m.single[codeOf(src)] = dst
				case pdfName: // a glyph name instead of a Unicode string
					m.single[codeOf(src)] = utf16BE(glyphNameText(string(dst)))
				}
				seenLen[len(src)] = true
			}
		case "endbfrange":
			for i := 0; i+2 < len(o.args) && len(m.ranges) < maxCMapEntries; i += 3 {
				lo, ok1 := o.args[i].(string)
				hi, ok2 := o.args[i+1].(string)
				if !ok1 || !ok2 || len(lo) == 0 || len(lo) > 4 || len(hi) != len(lo) {
					continue
				}
				r := cmapRange{lo: codeOf(lo), hi: codeOf(hi), n: len(lo)}
				if r.hi < r.lo {
					continue
				}
				switch dst := o.args[i+2].(type) {
				case string:
					r.dst = dst
				case []any:
					for _, d := range dst {
						s, _ := d.(string)
						r.list = append(r.list, s)
					}
				default:
					continue
				}
				seenLen[len(lo)] = true
				m.ranges = append(m.ranges, r)
			}
		case "endcidrange":
			// A CID CMap given as ToUnicode (often Identity-H itself):
			// its CIDs are read as code points, as other readers do.
			for i := 0; i+2 < len(o.args) && len(m.ranges) < maxCMapEntries; i += 3 {
				lo, ok1 := o.args[i].(string)
				hi, ok2 := o.args[i+1].(string)
				cid, ok3 := o.args[i+2].(float64)
				if !ok1 || !ok2 || !ok3 || len(lo) == 0 || len(lo) > 4 || len(hi) != len(lo) || cid < 0 || cid > 0xFFFF {
					continue
				}
				r := cmapRange{lo: codeOf(lo), hi: codeOf(hi), n: len(lo), dst: string([]byte{byte(int(cid) >> 8), byte(int(cid))})}
				if r.hi < r.lo {
					continue
				}
				seenLen[len(lo)] = true
				m.ranges = append(m.ranges, r)
			}
		}
	}
	for n := range seenLen {
		m.lens = append(m.lens, n)
	}
	sort.Ints(m.lens)
	return m
}

func codeOf(b string) uint32 {
	var c uint32
	for i := 0; i < len(b); i++ {
		c = c<<8 | uint32(b[i])
	}
	return c
}

func utf16BE(s string) string {
	u := utf16.Encode([]rune(s))
	b := make([]byte, 0, 2*len(u))
	for _, x := range u {
		b = append(b, byte(x>>8), byte(x))
	}
	return string(b)
}

// decodeUTF16BE decodes big-endian UTF-16; a single odd byte is read as a
// Latin-1 character.
func decodeUTF16BE(s string) string {
	if len(s) == 1 {
		return string(rune(s[0]))
	}
	u := make([]uint16, 0, len(s)/2)
	for i := 0; i+1 < len(s); i += 2 {
		u = append(u, uint16(s[i])<<8|uint16(s[i+1]))
	}
	return string(utf16.Decode(u))
}

// lookup maps one code of n bytes.
func (m *cmap) lookup(code uint32, n int) (string, bool) {
	if s, ok := m.single[code]; ok {
		return decodeUTF16BE(s), true
	}
	for _, r := range m.ranges {
		if r.n != n || code < r.lo || code > r.hi {
			continue
		}
		off := code - r.lo
		if r.list != nil {
			if int(off) < len(r.list) {
				return decodeUTF16BE(r.list[off]), true
			}
			return "", false
		}
		if len(r.dst) < 2 {
			return decodeUTF16BE(r.dst), true
		}
		b := []byte(r.dst)
		last := uint32(b[len(b)-2])<<8 | uint32(b[len(b)-1])
		last += off
		b[len(b)-2], b[len(b)-1] = byte(last>>8), byte(last)
		return decodeUTF16BE(string(b)), true
	}
	return "", false
}

// loadFont reads a font dictionary. It may panic on a malformed file; the
// caller recovers.
func loadFont(fv pdf.Value, budget *streamBudget) *font {
	f := &font{codeLen: 1, defWidth: 0, scale: 1}
	subtype := fv.Key("Subtype").Name()
	if tu := fv.Key("ToUnicode"); tu.Kind() == pdf.Stream {
		if data, err := readStream(tu, budget); err == nil {
			f.toUnicode = parseCMap(data)
		}
	}
	if subtype == "Type0" {
		f.loadType0(fv, budget)
		return f
	}
	f.loadSimpleEncoding(fv, budget)
	f.firstChar = int(fv.Key("FirstChar").Int64())
	if w := fv.Key("Widths"); w.Kind() == pdf.Array {
		n := min(w.Len(), 256)
		f.widths = make([]float64, n)
		for i := range n {
			f.widths[i] = w.Index(i).Float64() / 1000
		}
	}
	desc := fv.Key("FontDescriptor")
	f.defWidth = desc.Key("MissingWidth").Float64() / 1000
	if asc, dsc := desc.Key("Ascent").Float64(), desc.Key("Descent").Float64(); asc >= 0 && asc <= 100 && dsc <= -400 {
		f.drop = 0.75
	}
	if subtype == "Type3" {
		fm := fv.Key("FontMatrix")
		a := fm.Index(0).Float64()
		d := math.Abs(fm.Index(3).Float64())
		if a == 0 {
			a = 0.001
		}
		for i := range f.widths {
			f.widths[i] = f.widths[i] * 1000 * a
		}
		f.defWidth *= 1000 * a
		if d > 0 {
			f.scale = clamp(d*1000, 0.05, 20)
		}
	}
	if len(f.widths) == 0 {
		f.estimated = true
		base := fv.Key("BaseFont").Name()
		f.defWidth = 0.5
		if strings.Contains(base, "Courier") {
			f.defWidth = 0.6
		}
	}
	return f
}

func clamp(v, lo, hi float64) float64 {
	return math.Max(lo, math.Min(hi, v))
}

func (f *font) loadType0(fv pdf.Value, budget *streamBudget) {
	f.codeLen = 2
	enc := fv.Key("Encoding")
	switch enc.Kind() {
	case pdf.Name:
		name := enc.Name()
		f.vertical = strings.HasSuffix(name, "-V")
		if strings.Contains(name, "UCS2") || strings.Contains(name, "UTF16") {
			f.utf16 = true
		}
	case pdf.Stream:
		f.vertical = enc.Key("WMode").Int64() == 1
		if data, err := readStream(enc, budget); err == nil {
			if m := parseCMap(data); len(m.lens) == 1 {
				f.codeLen = m.lens[0]
			}
		}
	}
	desc := fv.Key("DescendantFonts").Index(0)
	f.defWidth = 1
	if dw := desc.Key("DW"); dw.Kind() == pdf.Integer || dw.Kind() == pdf.Real {
		f.defWidth = dw.Float64() / 1000
	}
	w := desc.Key("W")
	f.cidWidths = map[uint32]float64{}
	n := w.Len()
	for i := 0; i < n && len(f.cidWidths) < maxCMapEntries; {
		first := w.Index(i)
		next := w.Index(i + 1)
		if next.Kind() == pdf.Array {
			c := uint32(first.Int64())
			for k := 0; k < next.Len() && len(f.cidWidths) < maxCMapEntries; k++ {
				f.cidWidths[c+uint32(k)] = next.Index(k).Float64() / 1000
			}
			i += 2
			continue
		}
		lo, hi := first.Int64(), next.Int64()
		wd := w.Index(i+2).Float64() / 1000
		for c := lo; c <= hi && c >= 0 && len(f.cidWidths) < maxCMapEntries; c++ {
			f.cidWidths[uint32(c)] = wd
		}
		i += 3
	}
	if f.toUnicode == nil && !f.utf16 {
		ord := desc.Key("CIDSystemInfo").Key("Ordering").RawString()
		if ord == "UCS" {
			f.utf16 = true
		}
	}
	if !f.utf16 {
		f.glyphs = newGlyphMap(desc, budget)
	}
}

// loadSimpleEncoding fills f.simple from the base encoding and Differences.
// The base is the encoding named in the font dictionary, else the one built
// into the embedded font program (Type 1 and CFF fonts made by TeX and many
// others carry their own), else WinAnsi.
func (f *font) loadSimpleEncoding(fv pdf.Value, budget *streamBudget) {
	base := charmap.Windows1252
	enc := fv.Key("Encoding")
	baseName := enc.Name()
	if enc.Kind() == pdf.Dict {
		baseName = enc.Key("BaseEncoding").Name()
	}
	var builtin *[256]string
	standard := false
	switch baseName {
	case "MacRomanEncoding":
		base = charmap.Macintosh
	case "WinAnsiEncoding":
	case "StandardEncoding":
		standard = true
	default:
		if f.toUnicode == nil {
			builtin = builtinEncoding(fv.Key("FontDescriptor"), budget)
		}
	}
	switch {
	case builtin != nil:
		for c, name := range builtin {
			if name != "" && name != ".notdef" {
				f.simple[c] = glyphNameText(name)
			}
		}
	case standard:
		for c, name := range standardEncoding {
			if name != "" {
				f.simple[c] = glyphNameText(name)
			}
		}
	default:
		for c := range 256 {
			if c < 32 {
				continue
			}
			r := base.DecodeByte(byte(c))
			if r != utf8.RuneError {
				f.simple[c] = string(r)
			}
		}
	}
	if enc.Kind() != pdf.Dict {
		return
	}
	diffs := enc.Key("Differences")
	code := 0
	for i := 0; i < diffs.Len() && i < 4096; i++ {
		v := diffs.Index(i)
		switch v.Kind() {
		case pdf.Integer:
			code = int(v.Int64())
		case pdf.Name:
			if code >= 0 && code < 256 {
				f.simple[code] = glyphNameText(v.Name())
			}
			code++
		}
	}
}

// glyphNameText maps a glyph name to text: uniXXXX and uXXXX forms, single
// characters, and the names common in text fonts. Unknown names map to "".
func glyphNameText(name string) string {
	if i := strings.IndexByte(name, '.'); i > 0 {
		name = name[:i]
	}
	if s, ok := glyphNames[name]; ok {
		return s
	}
	if utf8.RuneCountInString(name) == 1 {
		return name
	}
	if s, ok := glyphlist.LookupVariant(name); ok {
		return s
	}
	if strings.HasPrefix(name, "uni") && len(name) >= 7 && (len(name)-3)%4 == 0 {
		var b strings.Builder
		for i := 3; i+4 <= len(name); i += 4 {
			v, err := strconv.ParseUint(name[i:i+4], 16, 32)
			if err != nil {
				return ""
			}
			b.WriteRune(rune(v))
		}
		return b.String()
	}
	if strings.HasPrefix(name, "u") && len(name) >= 5 && len(name) <= 7 {
		if v, err := strconv.ParseUint(name[1:], 16, 32); err == nil && v <= unicode.MaxRune {
			return string(rune(v))
		}
	}
	if i := strings.IndexByte(name, '_'); i > 0 { // ligature names such as f_f_i
		var b strings.Builder
		for _, part := range strings.Split(name, "_") {
			s := glyphNameText(part)
			if s == "" {
				return ""
			}
			b.WriteString(s)
		}
		return b.String()
	}
	return ""
}

// codes splits a shown string into character codes.
func (f *font) codes(raw string, fn func(code uint32, n int)) {
	n := f.codeLen
	if f.toUnicode != nil && len(f.toUnicode.lens) == 1 && f.codeLen == 2 {
		n = f.toUnicode.lens[0]
	}
	if n < 1 || n > 4 {
		n = 1
	}
	for i := 0; i < len(raw); i += n {
		end := min(i+n, len(raw))
		fn(codeOf(raw[i:end]), end-i)
	}
}

// decode returns the text of one code and whether it could be mapped.
func (f *font) decode(code uint32, n int) (string, bool) {
	if f.toUnicode != nil {
		if s, ok := f.toUnicode.lookup(code, n); ok && s != "" {
			return s, usable(s)
		}
	}
	if f.codeLen == 1 && code < 256 {
		s := f.simple[code]
		return s, s != "" && usable(s)
	}
	if f.utf16 {
		s := decodeUTF16BE(string([]byte{byte(code >> 8), byte(code)}))
		return s, usable(s)
	}
	if f.glyphs != nil {
		if s, ok := f.glyphs.lookup(code); ok {
			return s, usable(s)
		}
	}
	return "", false
}

// usable reports whether decoded text is real text rather than control
// characters or replacement marks.
func usable(s string) bool {
	for _, r := range s {
		if r == utf8.RuneError || r < 0x20 && r != '\t' || r >= 0xE000 && r <= 0xF8FF {
			return false
		}
	}
	return true
}

// width returns the advance of one code in text space per unit of font size.
func (f *font) width(code uint32) float64 {
	if f.cidWidths != nil {
		if w, ok := f.cidWidths[code]; ok {
			return w
		}
		return f.defWidth
	}
	i := int(code) - f.firstChar
	if i >= 0 && i < len(f.widths) && f.widths[i] > 0 {
		return f.widths[i]
	}
	return f.defWidth
}

// glyphNames holds the glyph names of text fonts whose text is not the name
// itself.
var glyphNames = map[string]string{
	"space": " ", "exclam": "!", "quotedbl": "\"", "numbersign": "#", "dollar": "$", "percent": "%",
	"ampersand": "&", "quotesingle": "'", "quoteright": "\u2019", "parenleft": "(", "parenright": ")",
	"asterisk": "*", "plus": "+", "comma": ",", "hyphen": "-", "period": ".", "slash": "/",
	"zero": "0", "one": "1", "two": "2", "three": "3", "four": "4", "five": "5", "six": "6",
	"seven": "7", "eight": "8", "nine": "9", "colon": ":", "semicolon": ";", "less": "<",
	"equal": "=", "greater": ">", "question": "?", "at": "@", "bracketleft": "[", "backslash": "\\",
	"bracketright": "]", "asciicircum": "^", "underscore": "_", "quoteleft": "\u2018", "grave": "`",
	"braceleft": "{", "bar": "|", "braceright": "}", "asciitilde": "~", "bullet": "\u2022",
	"endash": "\u2013", "emdash": "\u2014", "quotedblleft": "\u201c", "quotedblright": "\u201d",
	"quotesinglbase": "\u201a", "quotedblbase": "\u201e", "ellipsis": "\u2026", "dagger": "\u2020",
	"daggerdbl": "\u2021", "fi": "fi", "fl": "fl", "ff": "ff", "ffi": "ffi", "ffl": "ffl",
	"minus": "\u2212", "degree": "\u00b0", "section": "\u00a7", "paragraph": "\u00b6",
	"copyright": "\u00a9", "registered": "\u00ae", "trademark": "\u2122", "germandbls": "\u00df",
	"dotlessi": "\u0131", "periodcentered": "\u00b7", "multiply": "\u00d7", "divide": "\u00f7",
	"nbspace": " ", "sfthyphen": "\u00ad", "guillemotleft": "\u00ab", "guillemotright": "\u00bb",
	"exclamdown": "\u00a1", "questiondown": "\u00bf", "cent": "\u00a2", "sterling": "\u00a3",
	"yen": "\u00a5", "Euro": "\u20ac", "florin": "\u0192", "perthousand": "\u2030",
	"adieresis": "ä", "odieresis": "ö", "udieresis": "ü", "Adieresis": "Ä", "Odieresis": "Ö",
	"Udieresis": "Ü", "eacute": "é", "egrave": "è", "ecircumflex": "ê", "edieresis": "ë",
	"aacute": "á", "agrave": "à", "acircumflex": "â", "atilde": "ã", "aring": "å", "ccedilla": "ç",
	"iacute": "í", "igrave": "ì", "icircumflex": "î", "idieresis": "ï", "ntilde": "ñ",
	"oacute": "ó", "ograve": "ò", "ocircumflex": "ô", "otilde": "õ", "oslash": "ø",
	"uacute": "ú", "ugrave": "ù", "ucircumflex": "û", "yacute": "ý", "ydieresis": "ÿ",
	"Eacute": "É", "Egrave": "È", "Aacute": "Á", "Agrave": "À", "Ccedilla": "Ç", "Ntilde": "Ñ",
	"Oslash": "Ø", "Aring": "Å", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ", "scaron": "š",
	"Scaron": "Š", "zcaron": "ž", "Zcaron": "Ž", "circumflex": "ˆ", "tilde": "˜", "dieresis": "¨",
	"acute": "´", "cedilla": "¸", "macron": "¯", "ring": "˚", "caron": "ˇ", "breve": "˘",
	"dotaccent": "˙", "hungarumlaut": "˝", "ogonek": "˛", "lslash": "ł", "Lslash": "Ł",
	"eth": "ð", "Eth": "Ð", "thorn": "þ", "Thorn": "Þ", "plusminus": "±",
	"logicalnot": "¬", "onehalf": "½", "onequarter": "¼", "threequarters": "¾",
	"ordfeminine": "ª", "ordmasculine": "º", "brokenbar": "¦", "currency": "¤",
	"twosuperior": "²", "threesuperior": "³", "onesuperior": "¹", "fraction": "\u2044",
	"guilsinglleft": "\u2039", "guilsinglright": "\u203a", "quotereversed": "\u201b",
	"arrowright": "\u2192", "arrowleft": "\u2190", "lessequal": "\u2264", "greaterequal": "\u2265",
	"notequal": "\u2260", "infinity": "\u221e", "summation": "\u2211", "product": "\u220f",
	"radical": "\u221a", "partialdiff": "\u2202", "integral": "\u222b", "approxequal": "\u2248",
	"alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε", "lambda": "λ",
	"pi": "π", "sigma": "σ", "tau": "τ", "phi": "φ", "omega": "ω", "Delta": "Δ", "Omega": "Ω",
}
