package ocr

import (
	"strings"
	"unicode"
)

// A text layer is unusable when what its glyphs map to is not text: an
// image under a layer of noise, or a font whose map sends glyphs to
// private-use or control code points, or to letters of scripts taken at
// random. Such a page is read by OCR as a page without text is.
const (
	// unusableMinRunes is the fewest characters (spaces aside) a page's
	// layer must hold to be judged; a shorter one is kept as it is.
	unusableMinRunes = 40
	// unusableBadShare is the share of private-use, replacement and
	// control characters that makes a layer unusable.
	unusableBadShare = 0.10
	// unusableMinTextShare is the least share of letters, marks and
	// digits a usable layer holds (punctuation and symbols are the rest).
	unusableMinTextShare = 0.50
	// unusableMixedShare is the share of words (of three letters or more)
	// whose letters come from more than one script other than Latin that
	// makes a layer unusable (Latin is written inside words of other
	// scripts: "BSkyB的", "COVID-инфекция").
	unusableMixedShare = 0.30
)

// UnusableLayer reports whether a page's text layer is not text (see
// above), judged from its characters alone, in any language.
func UnusableLayer(page string) bool {
	var runes, bad, text int
	prev := rune(-1)
	for _, r := range page {
		repeated := r == prev
		prev = r
		switch {
		case unicode.IsSpace(r):
			continue
		case repeated && (unicode.IsPunct(r) || unicode.IsSymbol(r)):
			continue // a run of leaders or rules counts once
		case r == unicode.ReplacementChar || unicode.Is(unicode.Co, r) || unicode.IsControl(r):
			bad++
		case unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r):
			text++
		}
		runes++
	}
	if runes < unusableMinRunes {
		return false
	}
	if float64(bad) >= unusableBadShare*float64(runes) || float64(text) < unusableMinTextShare*float64(runes) {
		return true
	}
	var words, mixed int
	for _, w := range strings.Fields(page) {
		letters, script, many := 0, "", false
		for _, r := range w {
			if !unicode.IsLetter(r) {
				continue
			}
			letters++
			s := scriptOf(r)
			switch {
			case s == "" || s == "Latin":
			case script == "":
				script = s
			case s != script:
				many = true
			}
		}
		if letters >= 3 {
			words++
			if many {
				mixed++
			}
		}
	}
	return words > 0 && float64(mixed) >= unusableMixedShare*float64(words)
}

// scripts are the scripts a word's letters are told apart by.
var scripts = []struct {
	name  string
	table *unicode.RangeTable
}{
	{"Latin", unicode.Latin}, {"Greek", unicode.Greek}, {"Cyrillic", unicode.Cyrillic},
	{"Armenian", unicode.Armenian}, {"Hebrew", unicode.Hebrew}, {"Arabic", unicode.Arabic},
	{"Devanagari", unicode.Devanagari}, {"Bengali", unicode.Bengali}, {"Thai", unicode.Thai},
	{"Georgian", unicode.Georgian}, {"Hangul", unicode.Hangul}, {"Han", unicode.Han},
	{"Hiragana", unicode.Hiragana}, {"Katakana", unicode.Katakana}, {"Tamil", unicode.Tamil},
	{"Ethiopic", unicode.Ethiopic},
}

// scriptOf names the script of a letter among scripts, or "" for one of
// none of them. Han, Hiragana and Katakana are one script here, as
// Japanese writes them in one word.
func scriptOf(r rune) string {
	for _, s := range scripts {
		if unicode.Is(s.table, r) {
			switch s.name {
			case "Hiragana", "Katakana":
				return "Han"
			}
			return s.name
		}
	}
	return ""
}
