// Package porter implements the Porter stemmer exactly as NLTK's
// PorterStemmer does in its default NLTK_EXTENSIONS mode: the stemmer behind
// the rouge_score package, and the digester's term normaliser for English.
package porter

// Stem stems a lower-case ASCII word with the Porter algorithm exactly
// as NLTK's PorterStemmer does in its default NLTK_EXTENSIONS mode, the
// stemmer the rouge_score package uses. Words of at most two letters are
// returned unchanged.
func Stem(word string) string {
	if s, ok := porterIrregular[word]; ok {
		return s
	}
	if len(word) <= 2 {
		return word
	}
	w := []byte(word)
	w = porterStep1a(w)
	w = porterStep1b(w)
	w = porterStep1c(w)
	w = porterStep2(w)
	w = porterStep3(w)
	w = porterStep4(w)
	w = porterStep5a(w)
	w = porterStep5b(w)
	return string(w)
}

// porterIrregular is NLTK's pool of irregular forms.
var porterIrregular = map[string]string{
	"sky": "sky", "skies": "sky",
	"dying": "die", "lying": "lie", "tying": "tie",
	"news":    "news",
	"innings": "inning", "inning": "inning",
	"outings": "outing", "outing": "outing",
	"cannings": "canning", "canning": "canning",
	"howe": "howe", "proceed": "proceed", "exceed": "exceed", "succeed": "succeed",
}

func isConsonant(w []byte, i int) bool {
	switch w[i] {
	case 'a', 'e', 'i', 'o', 'u':
		return false
	case 'y':
		if i == 0 {
			return true
		}
		return !isConsonant(w, i-1)
	}
	return true
}

// measure is m in [C](VC)^m[V]: the number of vowel-consonant sequences.
func measure(w []byte) int {
	m := 0
	prevVowel := false
	for i := range w {
		c := isConsonant(w, i)
		if c && prevVowel {
			m++
		}
		prevVowel = !c
	}
	return m
}

func containsVowel(w []byte) bool {
	for i := range w {
		if !isConsonant(w, i) {
			return true
		}
	}
	return false
}

func endsDoubleConsonant(w []byte) bool {
	n := len(w)
	return n >= 2 && w[n-1] == w[n-2] && isConsonant(w, n-1)
}

func endsCVC(w []byte) bool {
	n := len(w)
	if n >= 3 && isConsonant(w, n-3) && !isConsonant(w, n-2) && isConsonant(w, n-1) &&
		w[n-1] != 'w' && w[n-1] != 'x' && w[n-1] != 'y' {
		return true
	}
	return n == 2 && !isConsonant(w, 0) && isConsonant(w, 1)
}

// porterRule replaces suffix by replacement when cond holds for the stem
// (nil: always). The suffix "*d" stands for a double consonant.
type porterRule struct {
	suffix, replacement string
	cond                func(stem []byte) bool
}

// applyRules applies the first rule whose suffix matches and stops there,
// whether or not its condition holds.
func applyRules(w []byte, rules []porterRule) []byte {
	for _, r := range rules {
		if r.suffix == "*d" {
			if endsDoubleConsonant(w) {
				stem := w[:len(w)-2]
				if r.cond == nil || r.cond(stem) {
					return append(stem[:len(stem):len(stem)], r.replacement...)
				}
				return w
			}
			continue
		}
		if hasSuffixB(w, r.suffix) {
			stem := w[:len(w)-len(r.suffix)]
			if r.cond == nil || r.cond(stem) {
				return append(stem[:len(stem):len(stem)], r.replacement...)
			}
			return w
		}
	}
	return w
}

func positiveMeasure(stem []byte) bool { return measure(stem) > 0 }
func measureAbove1(stem []byte) bool   { return measure(stem) > 1 }

// hasSuffixB reports whether w ends in s; the comparison does not copy w.
func hasSuffixB(w []byte, s string) bool {
	return len(w) >= len(s) && string(w[len(w)-len(s):]) == s
}

func replaceSuffix(w []byte, suffix, repl string) []byte {
	stem := w[:len(w)-len(suffix)]
	return append(stem[:len(stem):len(stem)], repl...)
}

func porterStep1a(w []byte) []byte {
	if hasSuffixB(w, "ies") && len(w) == 4 {
		return replaceSuffix(w, "ies", "ie")
	}
	return applyRules(w, step1aRules)
}

func porterStep1b(w []byte) []byte {
	if hasSuffixB(w, "ied") {
		if len(w) == 4 {
			return replaceSuffix(w, "ied", "ie")
		}
		return replaceSuffix(w, "ied", "i")
	}
	if hasSuffixB(w, "eed") {
		stem := w[:len(w)-3]
		if measure(stem) > 0 {
			return append(stem[:len(stem):len(stem)], "ee"...)
		}
		return w
	}
	var stem []byte
	ok := false
	for _, suf := range []string{"ed", "ing"} {
		if hasSuffixB(w, suf) {
			stem = w[:len(w)-len(suf)]
			if containsVowel(stem) {
				ok = true
				break
			}
		}
	}
	if !ok {
		return w
	}
	last := string(stem[len(stem)-1:])
	return applyRules(stem, []porterRule{
		{"at", "ate", nil},
		{"bl", "ble", nil},
		{"iz", "ize", nil},
		{"*d", last, func([]byte) bool { return last != "l" && last != "s" && last != "z" }},
		{"", "e", func(s []byte) bool { return measure(s) == 1 && endsCVC(s) }},
	})
}

func porterStep1c(w []byte) []byte {
	return applyRules(w, step1cRules)
}

func porterStep2(w []byte) []byte {
	if hasSuffixB(w, "alli") && positiveMeasure(w[:len(w)-4]) {
		return porterStep2(replaceSuffix(w, "alli", "al"))
	}
	return applyRules(w, step2Rules)
}

func porterStep3(w []byte) []byte {
	return applyRules(w, step3Rules)
}

var step3Rules = []porterRule{
	{"icate", "ic", positiveMeasure},
	{"ative", "", positiveMeasure},
	{"alize", "al", positiveMeasure},
	{"iciti", "ic", positiveMeasure},
	{"ical", "ic", positiveMeasure},
	{"ful", "", positiveMeasure},
	{"ness", "", positiveMeasure},
}

func porterStep4(w []byte) []byte {
	return applyRules(w, step4Rules)
}

var step4Rules = []porterRule{
	{"al", "", measureAbove1},
	{"ance", "", measureAbove1},
	{"ence", "", measureAbove1},
	{"er", "", measureAbove1},
	{"ic", "", measureAbove1},
	{"able", "", measureAbove1},
	{"ible", "", measureAbove1},
	{"ant", "", measureAbove1},
	{"ement", "", measureAbove1},
	{"ment", "", measureAbove1},
	{"ent", "", measureAbove1},
	{"ion", "", func(s []byte) bool {
		return measure(s) > 1 && len(s) > 0 && (s[len(s)-1] == 's' || s[len(s)-1] == 't')
	}},
	{"ou", "", measureAbove1},
	{"ism", "", measureAbove1},
	{"ate", "", measureAbove1},
	{"iti", "", measureAbove1},
	{"ous", "", measureAbove1},
	{"ive", "", measureAbove1},
	{"ize", "", measureAbove1},
}

func porterStep5a(w []byte) []byte {
	if hasSuffixB(w, "e") {
		stem := w[:len(w)-1]
		m := measure(stem)
		if m > 1 || (m == 1 && !endsCVC(stem)) {
			return stem
		}
	}
	return w
}

func porterStep5b(w []byte) []byte {
	return applyRules(w, step5bRules)
}

var step1aRules = []porterRule{
	{"sses", "ss", nil},
	{"ies", "i", nil},
	{"ss", "ss", nil},
	{"s", "", nil},
}

var step1cRules = []porterRule{
	{"y", "i", func(s []byte) bool { return len(s) > 1 && isConsonant(s, len(s)-1) }},
}

// step2Rules and the other rule tables are read-only.
var step2Rules = []porterRule{
	{"ational", "ate", positiveMeasure},
	{"tional", "tion", positiveMeasure},
	{"enci", "ence", positiveMeasure},
	{"anci", "ance", positiveMeasure},
	{"izer", "ize", positiveMeasure},
	{"bli", "ble", positiveMeasure},
	{"alli", "al", positiveMeasure},
	{"entli", "ent", positiveMeasure},
	{"eli", "e", positiveMeasure},
	{"ousli", "ous", positiveMeasure},
	{"ization", "ize", positiveMeasure},
	{"ation", "ate", positiveMeasure},
	{"ator", "ate", positiveMeasure},
	{"alism", "al", positiveMeasure},
	{"iveness", "ive", positiveMeasure},
	{"fulness", "ful", positiveMeasure},
	{"ousness", "ous", positiveMeasure},
	{"aliti", "al", positiveMeasure},
	{"iviti", "ive", positiveMeasure},
	{"biliti", "ble", positiveMeasure},
	{"fulli", "ful", positiveMeasure},
	// The stem before "logi" plus its "l", still in the word's array.
	{"logi", "log", func(s []byte) bool { return positiveMeasure(s[:len(s)+1]) }},
}

// The stem before "ll" plus one "l", still in the word's array.
var step5bRules = []porterRule{
	{"ll", "l", func(s []byte) bool { return measure(s[:len(s)+1]) > 1 }},
}
