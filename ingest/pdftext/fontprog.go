package pdftext

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"

	"github.com/ledongthuc/pdf"
)

// builtinEncoding reads the encoding built into an embedded Type 1 (FontFile)
// or CFF (FontFile3 Type1C) font program: the glyph name of every code, or
// nil when the font embeds no such program or it cannot be read. A program
// that uses the standard encoding gives that encoding's names.
func builtinEncoding(desc pdf.Value, budget *streamBudget) *[256]string {
	if ff := desc.Key("FontFile"); ff.Kind() == pdf.Stream {
		data, err := readStream(ff, budget)
		if err != nil || len(data) == 0 {
			return nil
		}
		if n := int(ff.Key("Length1").Int64()); n > 0 && n < len(data) {
			data = data[:n]
		}
		return type1Encoding(data)
	}
	if ff := desc.Key("FontFile3"); ff.Kind() == pdf.Stream && ff.Key("Subtype").Name() == "Type1C" {
		data, err := readStream(ff, budget)
		if err != nil || len(data) == 0 {
			return nil
		}
		return cffEncoding(data)
	}
	return nil
}

var type1EncRe = regexp.MustCompile(`dup\s+(\d{1,3})\s*/([^\s/\[\]{}()<>%]{1,64})\s+put`)

// type1Encoding reads the /Encoding of a Type 1 program's clear-text part:
// "StandardEncoding", or an array filled by "dup code /name put".
func type1Encoding(clear []byte) *[256]string {
	if i := bytes.Index(clear, []byte("eexec")); i > 0 {
		clear = clear[:i]
	}
	at := bytes.Index(clear, []byte("/Encoding"))
	if at < 0 {
		return nil
	}
	rest := clear[at+len("/Encoding"):]
	if bytes.HasPrefix(bytes.TrimLeft(rest, " \t\r\n"), []byte("StandardEncoding")) {
		enc := standardEncoding
		return &enc
	}
	var enc [256]string
	found := false
	for _, m := range type1EncRe.FindAllSubmatch(rest, 256) {
		code, _ := strconv.Atoi(string(m[1]))
		if code < 256 {
			enc[code] = string(m[2])
			found = true
		}
	}
	if !found {
		return nil
	}
	return &enc
}

// cffEncoding reads the encoding and charset of the first font in a CFF
// program (Adobe Technical Note #5176) and names the glyph of every code.
// CID-keyed fonts and damaged programs give nil.
func cffEncoding(data []byte) (enc *[256]string) {
	defer func() {
		if recover() != nil {
			enc = nil
		}
	}()
	if len(data) < 4 || data[0] != 1 {
		return nil
	}
	off := int(data[2])
	_, off, ok := cffIndex(data, off) // Name INDEX
	if !ok {
		return nil
	}
	top, off, ok := cffIndex(data, off)
	if !ok || len(top) == 0 {
		return nil
	}
	strs, _, ok := cffIndex(data, off)
	if !ok {
		return nil
	}
	dict := cffDict(top[0])
	if _, cid := dict[1230]; cid {
		return nil
	}
	cs, ok := dict[17]
	if !ok || len(cs) == 0 {
		return nil
	}
	glyphs, _, ok := cffIndex(data, cs[0])
	if !ok {
		return nil
	}
	n := len(glyphs)
	sidName := func(sid int) string {
		if sid < len(cffStandardStrings) {
			return cffStandardStrings[sid]
		}
		if i := sid - len(cffStandardStrings); i < len(strs) {
			return string(strs[i])
		}
		return ""
	}
	// charset: glyph id → SID
	sids := make([]int, n)
	charset := 0
	if v, ok := dict[15]; ok && len(v) > 0 {
		charset = v[0]
	}
	switch charset {
	case 0: // ISOAdobe: SIDs in glyph order
		for g := range n {
			sids[g] = g
		}
	case 1, 2: // Expert charsets: rare in text, names unknown here
		return nil
	default:
		p := charset
		format := data[p]
		p++
		for g := 1; g < n; {
			switch format {
			case 0:
				sids[g] = int(data[p])<<8 | int(data[p+1])
				p += 2
				g++
			case 1, 2:
				first := int(data[p])<<8 | int(data[p+1])
				left := int(data[p+2])
				p += 3
				if format == 2 {
					left = left<<8 | int(data[p])
					p++
				}
				for k := 0; k <= left && g < n; k++ {
					sids[g] = first + k
					g++
				}
			default:
				return nil
			}
		}
	}
	encOff := 0
	if v, ok := dict[16]; ok && len(v) > 0 {
		encOff = v[0]
	}
	var out [256]string
	switch encOff {
	case 0:
		out = standardEncoding
		return &out
	case 1:
		return nil
	}
	p := encOff
	format := data[p]
	p++
	switch format & 0x7f {
	case 0:
		nc := int(data[p])
		p++
		for i := 1; i <= nc; i++ {
			if i < n {
				out[data[p]] = sidName(sids[i])
			}
			p++
		}
	case 1:
		nr := int(data[p])
		p++
		g := 1
		for range nr {
			first, left := int(data[p]), int(data[p+1])
			p += 2
			for k := 0; k <= left && first+k < 256 && g < n; k++ {
				out[first+k] = sidName(sids[g])
				g++
			}
		}
	default:
		return nil
	}
	if format&0x80 != 0 {
		ns := int(data[p])
		p++
		for range ns {
			code := data[p]
			sid := int(data[p+1])<<8 | int(data[p+2])
			p += 3
			out[code] = sidName(sid)
		}
	}
	return &out
}

// cffIndex reads the INDEX at off: its items and the offset after it.
func cffIndex(data []byte, off int) ([][]byte, int, bool) {
	if off < 0 || off+2 > len(data) {
		return nil, 0, false
	}
	count := int(data[off])<<8 | int(data[off+1])
	if count == 0 {
		return nil, off + 2, true
	}
	if off+3 > len(data) {
		return nil, 0, false
	}
	size := int(data[off+2])
	if size < 1 || size > 4 {
		return nil, 0, false
	}
	base := off + 3 + (count+1)*size - 1
	if base >= len(data) {
		return nil, 0, false
	}
	offset := func(i int) int {
		p := off + 3 + i*size
		v := 0
		for k := range size {
			v = v<<8 | int(data[p+k])
		}
		return v
	}
	items := make([][]byte, count)
	for i := range count {
		a, b := base+offset(i), base+offset(i+1)
		if a < base || b < a || b > len(data) {
			return nil, 0, false
		}
		items[i] = data[a:b]
	}
	return items, base + offset(count), true
}

// cffDict reads a DICT's integer operands by operator (two-byte operators
// are 1200+second byte). Real operands are read as 0.
func cffDict(d []byte) map[int][]int {
	out := map[int][]int{}
	var ops []int
	for i := 0; i < len(d); {
		b := int(d[i])
		switch {
		case b <= 21:
			op := b
			i++
			if b == 12 && i < len(d) {
				op = 1200 + int(d[i])
				i++
			}
			out[op] = ops
			ops = nil
		case b == 28 && i+2 < len(d):
			ops = append(ops, int(int16(uint16(d[i+1])<<8|uint16(d[i+2]))))
			i += 3
		case b == 29 && i+4 < len(d):
			ops = append(ops, int(int32(uint32(d[i+1])<<24|uint32(d[i+2])<<16|uint32(d[i+3])<<8|uint32(d[i+4]))))
			i += 5
		case b == 30:
			i++
			for i < len(d) && d[i]&0x0f != 0x0f && d[i]>>4 != 0x0f {
				i++
			}
			i++
			ops = append(ops, 0)
		case b >= 32 && b <= 246:
			ops = append(ops, b-139)
			i++
		case b >= 247 && b <= 250 && i+1 < len(d):
			ops = append(ops, (b-247)*256+int(d[i+1])+108)
			i += 2
		case b >= 251 && b <= 254 && i+1 < len(d):
			ops = append(ops, -(b-251)*256-int(d[i+1])-108)
			i += 2
		default:
			i++
		}
	}
	return out
}

// standardEncoding is PostScript's StandardEncoding by glyph name.
var standardEncoding = func() [256]string {
	var e [256]string
	ascii := strings.Fields(`space exclam quotedbl numbersign dollar percent ampersand quoteright
		parenleft parenright asterisk plus comma hyphen period slash zero one two three four five six
		seven eight nine colon semicolon less equal greater question at A B C D E F G H I J K L M N O P
		Q R S T U V W X Y Z bracketleft backslash bracketright asciicircum underscore quoteleft a b c d
		e f g h i j k l m n o p q r s t u v w x y z braceleft bar braceright asciitilde`)
	for i, n := range ascii {
		e[32+i] = n
	}
	upper := map[int]string{
		0xA1: "exclamdown", 0xA2: "cent", 0xA3: "sterling", 0xA4: "fraction", 0xA5: "yen",
		0xA6: "florin", 0xA7: "section", 0xA8: "currency", 0xA9: "quotesingle", 0xAA: "quotedblleft",
		0xAB: "guillemotleft", 0xAC: "guilsinglleft", 0xAD: "guilsinglright", 0xAE: "fi", 0xAF: "fl",
		0xB1: "endash", 0xB2: "dagger", 0xB3: "daggerdbl", 0xB4: "periodcentered", 0xB6: "paragraph",
		0xB7: "bullet", 0xB8: "quotesinglbase", 0xB9: "quotedblbase", 0xBA: "quotedblright",
		0xBB: "guillemotright", 0xBC: "ellipsis", 0xBD: "perthousand", 0xBF: "questiondown",
		0xC1: "grave", 0xC2: "acute", 0xC3: "circumflex", 0xC4: "tilde", 0xC5: "macron", 0xC6: "breve",
		0xC7: "dotaccent", 0xC8: "dieresis", 0xCA: "ring", 0xCB: "cedilla", 0xCD: "hungarumlaut",
		0xCE: "ogonek", 0xCF: "caron", 0xD0: "emdash", 0xE1: "AE", 0xE3: "ordfeminine", 0xE8: "Lslash",
		0xE9: "Oslash", 0xEA: "OE", 0xEB: "ordmasculine", 0xF1: "ae", 0xF5: "dotlessi", 0xF8: "lslash",
		0xF9: "oslash", 0xFA: "oe", 0xFB: "germandbls",
	}
	for c, n := range upper {
		e[c] = n
	}
	return e
}()

// cffStandardStrings are the 391 predefined strings of CFF (SIDs 0-390).
var cffStandardStrings = strings.Fields(`.notdef space exclam quotedbl numbersign dollar percent
	ampersand quoteright parenleft parenright asterisk plus comma hyphen period slash zero one two
	three four five six seven eight nine colon semicolon less equal greater question at A B C D E F
	G H I J K L M N O P Q R S T U V W X Y Z bracketleft backslash bracketright asciicircum underscore
	quoteleft a b c d e f g h i j k l m n o p q r s t u v w x y z braceleft bar braceright asciitilde
	exclamdown cent sterling fraction yen florin section currency quotesingle quotedblleft
	guillemotleft guilsinglleft guilsinglright fi fl endash dagger daggerdbl periodcentered paragraph
	bullet quotesinglbase quotedblbase quotedblright guillemotright ellipsis perthousand questiondown
	grave acute circumflex tilde macron breve dotaccent dieresis ring cedilla hungarumlaut ogonek
	caron emdash AE ordfeminine Lslash Oslash OE ordmasculine ae dotlessi lslash oslash oe germandbls
	onesuperior logicalnot mu trademark Eth onehalf plusminus Thorn onequarter divide brokenbar degree
	thorn threequarters twosuperior registered minus eth multiply threesuperior copyright Aacute
	Acircumflex Adieresis Agrave Aring Atilde Ccedilla Eacute Ecircumflex Edieresis Egrave Iacute
	Icircumflex Idieresis Igrave Ntilde Oacute Ocircumflex Odieresis Ograve Otilde Scaron Uacute
	Ucircumflex Udieresis Ugrave Yacute Ydieresis Zcaron aacute acircumflex adieresis agrave aring
	atilde ccedilla eacute ecircumflex edieresis egrave iacute icircumflex idieresis igrave ntilde
	oacute ocircumflex odieresis ograve otilde scaron uacute ucircumflex udieresis ugrave yacute
	ydieresis zcaron exclamsmall Hungarumlautsmall dollaroldstyle dollarsuperior ampersandsmall
	Acutesmall parenleftsuperior parenrightsuperior twodotenleader onedotenleader zerooldstyle
	oneoldstyle twooldstyle threeoldstyle fouroldstyle fiveoldstyle sixoldstyle sevenoldstyle
	eightoldstyle nineoldstyle commasuperior threequartersemdash periodsuperior questionsmall
	asuperior bsuperior centsuperior dsuperior esuperior isuperior lsuperior msuperior nsuperior
	osuperior rsuperior ssuperior tsuperior ff ffi ffl parenleftinferior parenrightinferior
	Circumflexsmall hyphensuperior Gravesmall Asmall Bsmall Csmall Dsmall Esmall Fsmall Gsmall Hsmall
	Ismall Jsmall Ksmall Lsmall Msmall Nsmall Osmall Psmall Qsmall Rsmall Ssmall Tsmall Usmall Vsmall
	Wsmall Xsmall Ysmall Zsmall colonmonetary onefitted rupiah Tildesmall exclamdownsmall
	centoldstyle Lslashsmall Scaronsmall Zcaronsmall Dieresissmall Brevesmall Caronsmall
	Dotaccentsmall Macronsmall figuredash hypheninferior Ogoneksmall Ringsmall Cedillasmall
	questiondownsmall oneeighth threeeighths fiveeighths seveneighths onethird twothirds zerosuperior
	foursuperior fivesuperior sixsuperior sevensuperior eightsuperior ninesuperior zeroinferior
	oneinferior twoinferior threeinferior fourinferior fiveinferior sixinferior seveninferior
	eightinferior nineinferior centinferior dollarinferior periodinferior commainferior Agravesmall
	Aacutesmall Acircumflexsmall Atildesmall Adieresissmall Aringsmall AEsmall Ccedillasmall
	Egravesmall Eacutesmall Ecircumflexsmall Edieresissmall Igravesmall Iacutesmall Icircumflexsmall
	Idieresissmall Ethsmall Ntildesmall Ogravesmall Oacutesmall Ocircumflexsmall Otildesmall
	Odieresissmall OEsmall Oslashsmall Ugravesmall Uacutesmall Ucircumflexsmall Udieresissmall
	Yacutesmall Thornsmall Ydieresissmall 001.000 001.001 001.002 001.003 Black Bold Book Light Medium
	Regular Roman Semibold`)
