// Package glyphlist maps PostScript glyph names to Unicode text through the
// Adobe Glyph List (glyphlist.txt, Apache-2.0, see LICENSE) and the names of
// TeX's Computer Modern text and math fonts, which the list lacks or maps to
// private-use code points.
package glyphlist

import (
	_ "embed"
	"strconv"
	"strings"
	"sync"
)

//go:embed glyphlist.txt
var aglData string

var (
	aglOnce sync.Once
	agl     map[string]string
)

func loadAGL() {
	agl = make(map[string]string, 4400)
	for line := range strings.SplitSeq(aglData, "\n") {
		if line == "" || line[0] == '#' {
			continue
		}
		name, codes, ok := strings.Cut(strings.TrimSpace(line), ";")
		if !ok {
			continue
		}
		var b strings.Builder
		for c := range strings.FieldsSeq(codes) {
			v, err := strconv.ParseUint(c, 16, 32)
			if err != nil {
				b.Reset()
				break
			}
			b.WriteRune(rune(v))
		}
		if b.Len() > 0 {
			agl[name] = b.String()
		}
	}
}

// Lookup returns the text of a glyph name from the TeX names and then the
// Adobe Glyph List. Ligature names give their letters ("ffi" is "ffi").
// Names of private-use code points and unknown names report false.
func Lookup(name string) (string, bool) {
	if s, ok := tex[name]; ok {
		return s, s != ""
	}
	aglOnce.Do(loadAGL)
	s, ok := agl[name]
	if !ok {
		return "", false
	}
	for _, r := range s {
		if r >= 0xE000 && r <= 0xF8FF {
			return "", false
		}
	}
	return s, true
}

// tex holds the glyph names of the Computer Modern fonts (cmr, cmmi, cmsy,
// cmex, the AMS fonts) where the Adobe Glyph List has no entry, a
// private-use one, or a compatibility character where TeX means a letter.
// An empty value marks a glyph that draws no text (a bar or a tie).
var tex = map[string]string{
	// ligatures as letters
	"ff": "ff", "fi": "fi", "fl": "fl", "ffi": "ffi", "ffl": "ffl",
	// Greek as letters, not as the symbols of the same shape
	"Delta": "Δ", "Omega": "Ω", "mu": "μ", "Upsilon1": "ϒ",
	"epsilon1": "ϵ", "theta1": "ϑ", "pi1": "ϖ", "rho1": "ϱ", "sigma1": "ς", "phi1": "ϕ",
	"dotlessj": "ȷ", "suppress": "", "visiblespace": "␣", "compwordmark": "", "cwm": "",
	// cmsy
	"asteriskmath": "∗", "diamondmath": "⋄", "minusplus": "∓", "circleminus": "⊖",
	"circledivide": "⊘", "circlecopyrt": "◯", "openbullet": "◦", "equivasymptotic": "≍",
	"precedesequal": "⪯", "followsequal": "⪰", "lessmuch": "≪", "greatermuch": "≫",
	"precedes": "≺", "follows": "≻", "arrownortheast": "↗", "arrowsoutheast": "↘",
	"arrownorthwest": "↖", "arrowsouthwest": "↙", "similarequal": "≃", "owner": "∋",
	"triangle": "△", "triangleinv": "▽", "negationslash": "\u0338", "mapsto": "↦",
	"Rfractur": "ℜ", "Ifractur": "ℑ", "latticetop": "⊤", "unionmulti": "⊎",
	"turnstileleft": "⊢", "turnstileright": "⊣", "floorleft": "⌊", "floorright": "⌋",
	"ceilingleft": "⌈", "ceilingright": "⌉", "angbracketleft": "⟨", "angbracketright": "⟩",
	"bardbl": "‖", "arrowbothv": "↕", "arrowdblbothv": "⇕", "wreathproduct": "≀",
	"coproduct": "∐", "unionsq": "⊔", "intersectionsq": "⊓", "subsetsqequal": "⊑",
	"supersetsqequal": "⊒", "club": "♣", "diamond": "♢", "heart": "♡", "spade": "♠",
	"periodcentered": "·", "element": "∈", "reflexsubset": "⊆", "reflexsuperset": "⊇",
	// cmmi
	"arrowlefttophalf": "↼", "arrowleftbothalf": "↽", "arrowrighttophalf": "⇀",
	"arrowrightbothalf": "⇁", "arrowhookleft": "↩", "arrowhookright": "↪",
	"triangleright": "▷", "triangleleft": "◁", "star": "⋆", "flat": "♭", "natural": "♮",
	"sharp": "♯", "slurbelow": "⌣", "slurabove": "⌢", "lscript": "ℓ", "weierstrass": "℘",
	"vector": "", "tie": "", "zerooldstyle": "0", "oneoldstyle": "1", "twooldstyle": "2",
	"threeoldstyle": "3", "fouroldstyle": "4", "fiveoldstyle": "5", "sixoldstyle": "6",
	"sevenoldstyle": "7", "eightoldstyle": "8", "nineoldstyle": "9",
	// cmex pieces that are not a size variant of a named symbol
	"barex": "|", "bardblex": "‖", "braceex": "", "arrowvertex": "", "arrowvertexdbl": "",
	"radicalvertex": "", "radicaltp": "", "radicalbt": "√", "hatwide": "", "hatwider": "",
	"hatwidest": "", "tildewide": "", "tildewider": "", "tildewidest": "",
	"contintegral": "∮", "circledot": "⊙", "circleplus": "⊕", "circlemultiply": "⊗",
}

// sizeSuffixes are the endings of cmex's size variants and pieces of a
// symbol: "parenleftBig", "summationdisplay", "bracelefttp".
var sizeSuffixes = []string{"bigg", "Bigg", "big", "Big", "display", "text", "tp", "bt", "mid", "ex"}

// LookupVariant is Lookup that also reads a size variant or piece of a
// symbol ("integraldisplay", "parenleftbig", "braceleftmid") as the symbol.
func LookupVariant(name string) (string, bool) {
	if s, ok := Lookup(name); ok {
		return s, true
	}
	for _, suf := range sizeSuffixes {
		if base, ok := strings.CutSuffix(name, suf); ok && base != "" {
			if s, ok := Lookup(base); ok {
				return s, true
			}
		}
	}
	return "", false
}
