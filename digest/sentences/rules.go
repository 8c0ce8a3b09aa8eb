package sentences

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// ruleKind is what a row of the rule table does.
type ruleKind uint8

const (
	// unicodeStops: the characters outside Latin and the general
	// punctuation block that Unicode marks Sentence_Terminal (the full
	// stops, question and exclamation marks of every script) end a
	// sentence wherever they stand, a space after them or not, except
	// those of chars.
	unicodeStops ruleKind = iota + 1
	// stopChars: each character of chars ends a sentence wherever it
	// stands, a space after it or not.
	stopChars
	// stopAfterScript: each character of chars ends a sentence when it
	// follows a letter of script and a space or the block's end follows
	// it.
	stopAfterScript
	// notStopAfterScript: a full stop after a letter of script is not a
	// sentence end (the language has another full stop).
	notStopAfterScript
	// spaceInScript: a space between two letters of script ends a
	// sentence (scripts that write words without spaces and sentences
	// with them) once the sentence holds min code points: a shorter run
	// between spaces is a clause or a phrase, which the same space sets
	// apart.
	spaceInScript
	// abbrevBeforeName: the words, each followed by a full stop, lead
	// into what follows (titles, "z.", "вул.") and never end a sentence.
	abbrevBeforeName
	// abbrevBeforeNumber: the words, followed by a full stop, do not end
	// a sentence before a number ("Nr. 5", "кв. 234").
	abbrevBeforeNumber
	// suffixBeforeNumber: a word ending in one of words, followed by a
	// full stop, does not end a sentence before a number
	// ("Gartenstr. 12").
	suffixBeforeNumber
	// abbrevMayEnd: the words, followed by a full stop, end a sentence
	// only before a word of the opener rows ("usw. Die", "1898 г. В").
	abbrevMayEnd
	// openers: function words that open sentences in the language,
	// lower-cased: after an abbreviation that may end a sentence, such a
	// word shows that it did, where a name shows that it did not.
	openers
	// initialInScript: a single letter of script with its vowel signs,
	// before a full stop, is an initial ("കെ. പി. മോഹനൻ").
	initialInScript
	// lowerLetterAbbrev: a single lower-case letter of script before a
	// full stop, after a word of the same script, is an abbreviation
	// ("біля с. Моринці"), not a sentence end, unless it is one of words
	// (which may end one) or a row of abbrevMayEnd names it. A letter
	// after other text is a symbol ("|x − y| < δ. The").
	lowerLetterAbbrev
)

// rule is one row of the splitter's table: what it recognises, the
// languages (ISO 639-1) it applies to, and its data. The splitter has no
// language input, so a row applies to any text; rows are written to be
// safe across languages: script rules act only inside runs of their
// script, and abbreviations are those a full stop after them leaves
// unambiguous.
type rule struct {
	name   string
	langs  string // space-separated ISO 639-1 codes
	kind   ruleKind
	script *unicode.RangeTable // stopAfterScript, notStopAfterScript, spaceInScript, initialInScript, lowerLetterAbbrev
	chars  string              // stopChars, stopAfterScript
	words  string              // space-separated, lower-cased
	min    int                 // spaceInScript
}

// rules is the splitter's table, one row per rule. English abbreviations,
// initials, lists, numbers and quotations are the code of sentences.go;
// these rows add the scripts and languages beyond it.
var rules = []rule{
	{name: "stops of every script (。！？ ։ ؟ ۔ । ॥ ። ፧ ။ …); the Myanmar little section is a comma, fullwidth stops may be decimal points",
		langs: "*", kind: unicodeStops, chars: "၊．﹒"},
	{name: "script stops without Unicode's Sentence_Terminal", langs: "km", kind: stopChars, chars: "។៕"},
	{name: "Armenian full stop written as a colon", langs: "hy", kind: stopAfterScript, script: unicode.Armenian, chars: ":"},
	{name: "Greek question mark", langs: "el", kind: stopAfterScript, script: unicode.Greek, chars: ";\u037e"},
	{name: "Armenian full stop '.' is a colon (mijaket)", langs: "hy", kind: notStopAfterScript, script: unicode.Armenian},
	{name: "Thai sentences separated by spaces", langs: "th", kind: spaceInScript, script: unicode.Thai, min: 100},
	{name: "Lao sentences separated by spaces", langs: "lo", kind: spaceInScript, script: unicode.Lao, min: 100},
	{name: "Cyrillic one-letter abbreviations", langs: "ru uk bg kk be sr mk", kind: lowerLetterAbbrev, script: unicode.Cyrillic, words: "я"},
	{name: "Greek one-letter abbreviations", langs: "el", kind: lowerLetterAbbrev, script: unicode.Greek},
	{name: "initials in Dravidian scripts", langs: "ml ta te kn", kind: initialInScript, script: dravidianScripts},

	{name: "German titles and abbreviations inside a sentence", langs: "de", kind: abbrevBeforeName,
		words: "dr med dipl ing prof hr fr bzw bzgl vgl ggf evtl inkl zzgl kath ev allg sog ca entspr jh urspr"},
	{name: "German abbreviations before a number", langs: "de", kind: abbrevBeforeNumber, words: "str nr abs s bd hnr tel"},
	{name: "German street names before a number", langs: "de", kind: suffixBeforeNumber, words: "str"},
	{name: "German abbreviations that may end a sentence", langs: "de", kind: abbrevMayEnd, words: "usw etc ff"},
	{name: "German sentence openers", langs: "de", kind: openers,
		words: "der die das den dem des ein eine einer es er sie wir ich ihr man dies diese dieser dieses aber und oder doch denn dann danach auch so wie was wer wann warum wo nun jetzt heute im am in an auf mit nach bei für zum zur seit als wenn ob"},
	{name: "Danish and Norwegian titles and abbreviations", langs: "da nb nn", kind: abbrevBeforeName, words: "skt hr fru dr prof bl mht vedr iflg evt ca jf"},
	{name: "Dutch titles and abbreviations", langs: "nl", kind: abbrevBeforeName, words: "dhr mevr mr drs ir ing bijv vgl resp blz"},
	{name: "Spanish and Portuguese titles and abbreviations", langs: "es pt", kind: abbrevBeforeName, words: "sr sra srta dra lic ing arq av avda pág sto sta exmo exma ilmo sres"},
	{name: "Italian titles and abbreviations", langs: "it", kind: abbrevBeforeName,
		words: "sig sigg dott dott.ssa avv ing geom prof dir amm psicol egr spett pag ecc ca"},
	{name: "French titles", langs: "fr", kind: abbrevBeforeName, words: "mme mlle mgr"},
	{name: "Slovak, Czech and Polish abbreviations", langs: "sk cs pl", kind: abbrevBeforeName, words: "napr tzv resp príp ing mgr prof ul np tzn"},
	{name: "Russian, Ukrainian and Bulgarian titles and abbreviations", langs: "ru uk bg", kind: abbrevBeforeName,
		words: "проф акад доц д-р др г-н г-жа ул вул пл просп пер пгт обл р-н журн изд вид чл див напр вкл т.е т.к т.н зв см ср"},
	{name: "Russian, Ukrainian and Bulgarian abbreviations before a number", langs: "ru uk bg", kind: abbrevBeforeNumber,
		words: "кв стр стор рис табл гл ст д тел год хв мин сек ч"},
	{name: "Russian, Ukrainian and Bulgarian abbreviations that may end a sentence", langs: "ru uk bg", kind: abbrevMayEnd,
		words: "г гг р рр в вв т.д т.п др пр"},
	{name: "Russian, Ukrainian and Bulgarian sentence openers", langs: "ru uk bg", kind: openers,
		words: "в во на но и а это этот эта он она оно они мы я ты вы по с к у за из как что когда после до при однако так тогда там здесь тут її він вона вони ми це цей ця але і й з із після коли як що той тя те"},
	{name: "Kazakh abbreviations", langs: "kk", kind: abbrevBeforeName, words: "т.б т.с.с проф акад"},
	{name: "Greek titles and abbreviations", langs: "el", kind: abbrevBeforeName, words: "δρ κα καθ π.χ δηλ βλ"},
	{name: "Malayalam titles", langs: "ml", kind: abbrevBeforeName, words: "ഡോ പ്രൊ മി ശ്രീ"},
	{name: "Hindi and Marathi titles", langs: "hi mr", kind: abbrevBeforeName, words: "डॉ प्रो श्री"},
}

// dravidianScripts covers the scripts of Tamil, Telugu, Kannada and
// Malayalam, which write a full stop as "." and whose words, long and
// agglutinative, rarely end a sentence in one syllable (Hindi's "है."
// does, so Devanagari has no initials row).
var dravidianScripts = mergeTables(unicode.Tamil, unicode.Telugu, unicode.Kannada, unicode.Malayalam)

// mergeTables returns one table holding the ranges of ts, which must not
// overlap and must be given in increasing order.
func mergeTables(ts ...*unicode.RangeTable) *unicode.RangeTable {
	var m unicode.RangeTable
	for _, t := range ts {
		m.R16 = append(m.R16, t.R16...)
		m.R32 = append(m.R32, t.R32...)
	}
	return &m
}

// ruleIndex is the table read into lookups, built once.
type ruleIndex struct {
	abbrev        map[string]ruleKind // lower-cased word → abbreviation kind
	openers       map[string]bool
	hardStops     map[rune]bool
	unicodeStops  bool
	notHardStops  string // unicodeStops exceptions
	scriptStops   []rule // stopAfterScript rows
	notStops      []*unicode.RangeTable
	spaceScripts  []rule
	spaceLo       rune // the span of the spaceScripts tables, a fast test
	spaceHi       rune
	spaceLead     [256]uint8 // the first bytes of runes from spaceLo to spaceHi
	initials      []*unicode.RangeTable
	lowerLetters  []rule
	suffixes      []string      // suffixBeforeNumber words
	scriptStopSet map[rune]bool // every character of a stopAfterScript row
}

var index = buildIndex(rules)

// buildIndex reads rows into lookups. A word in abbreviation rows of
// different kinds takes the kind that ends sentences most readily
// (abbrevMayEnd, then abbrevBeforeNumber).
func buildIndex(rows []rule) ruleIndex {
	x := ruleIndex{abbrev: map[string]ruleKind{}, openers: map[string]bool{}, hardStops: map[rune]bool{}, scriptStopSet: map[rune]bool{}}
	for _, r := range rows {
		switch r.kind {
		case unicodeStops:
			x.unicodeStops = true
			x.notHardStops += r.chars
		case stopChars:
			for _, c := range r.chars {
				x.hardStops[c] = true
			}
		case stopAfterScript:
			x.scriptStops = append(x.scriptStops, r)
			for _, c := range r.chars {
				x.scriptStopSet[c] = true
			}
		case notStopAfterScript:
			x.notStops = append(x.notStops, r.script)
		case spaceInScript:
			x.spaceScripts = append(x.spaceScripts, r)
			lo, hi := tableSpan(r.script)
			if len(x.spaceScripts) == 1 || lo < x.spaceLo {
				x.spaceLo = lo
			}
			x.spaceHi = max(x.spaceHi, hi)
		case initialInScript:
			x.initials = append(x.initials, r.script)
		case lowerLetterAbbrev:
			x.lowerLetters = append(x.lowerLetters, r)
		case suffixBeforeNumber:
			x.suffixes = append(x.suffixes, strings.Fields(r.words)...)
		case openers:
			for _, w := range strings.Fields(r.words) {
				x.openers[w] = true
			}
		case abbrevBeforeName, abbrevBeforeNumber, abbrevMayEnd:
			for _, w := range strings.Fields(r.words) {
				if k, ok := x.abbrev[w]; !ok || rank(r.kind) > rank(k) {
					x.abbrev[w] = r.kind
				}
			}
		}
	}
	for r := x.spaceLo; len(x.spaceScripts) > 0 && r <= x.spaceHi; r++ {
		x.spaceLead[utf8.AppendRune(nil, r)[0]] = 1
	}
	return x
}

// tableSpan returns the lowest and highest rune of t.
func tableSpan(t *unicode.RangeTable) (lo, hi rune) {
	lo = unicode.MaxRune
	for _, r := range t.R16 {
		lo, hi = min(lo, rune(r.Lo)), max(hi, rune(r.Hi))
	}
	for _, r := range t.R32 {
		lo, hi = min(lo, rune(r.Lo)), max(hi, rune(r.Hi))
	}
	return lo, hi
}

// stopRunes marks the runes below U+10000 that may end a sentence in
// some context (isTerminal, isHardStop, the stopAfterScript rows), so
// that the scan passes every other rune at the cost of one test.
var stopRunes = func() (t [1 << 16 / 8]uint8) {
	for r := rune(0); r < 1<<16; r++ {
		if isTerminal(r) || isCJKTerminal(r) || isHardStop(r) || index.scriptStopSet[r] {
			t[r>>3] |= 1 << (r & 7)
		}
	}
	return t
}()

// mayStop reports whether r may end a sentence in some context.
func mayStop(r rune) bool {
	return r >= 1<<16 || stopRunes[r>>3]&(1<<(r&7)) != 0
}

// rank orders abbreviation kinds by how readily they end a sentence.
func rank(k ruleKind) int {
	switch k {
	case abbrevMayEnd:
		return 2
	case abbrevBeforeNumber:
		return 1
	}
	return 0
}

// isHardStop reports stops that end a sentence without a space after
// them: those of the unicodeStops and stopChars rows.
func isHardStop(r rune) bool {
	if r < 0x0580 {
		return false
	}
	if index.hardStops[r] {
		return true
	}
	if !index.unicodeStops || strings.ContainsRune(index.notHardStops, r) || (r >= 0x2000 && r < 0x2E80) {
		return false
	}
	return unicode.Is(unicode.Sentence_Terminal, r)
}

// scriptStop reports whether block[i], a character of a stopAfterScript
// row, ends a sentence there: it follows a letter of the row's script
// (closing quotes and an ellipsis between them allowed) and white space
// or the block's end follows it.
func scriptStop(block string, i int) bool {
	r, n := utf8.DecodeRuneInString(block[i:])
	if !index.scriptStopSet[r] {
		return false
	}
	if next, _ := utf8.DecodeRuneInString(block[i+n:]); i+n < len(block) && !unicode.IsSpace(next) {
		return false
	}
	prev := strings.TrimRightFunc(block[:i], func(p rune) bool { return isCloser(p) || p == '.' || p == '…' })
	p, _ := utf8.DecodeLastRuneInString(prev)
	for _, row := range index.scriptStops {
		if strings.ContainsRune(row.chars, r) && unicode.Is(row.script, p) {
			return true
		}
	}
	return false
}

// notAStop reports a full stop at block[i] that a notStopAfterScript row
// takes for other punctuation: it follows a letter of the row's script.
func notAStop(block string, i int) bool {
	if block[i] != '.' || i == 0 || len(index.notStops) == 0 {
		return false
	}
	p, _ := utf8.DecodeLastRuneInString(block[:i])
	for _, t := range index.notStops {
		if unicode.Is(t, p) {
			return true
		}
	}
	return false
}

// spaceCuts returns the offsets of block where a sentence starts after a
// space between two letters of a spaceInScript row's script.
func spaceCuts(block string) []int {
	if len(index.spaceScripts) == 0 {
		return nil
	}
	var cuts []int
	for i := 0; i < len(block); {
		// Only the lead bytes of the scripts' runes stop the scan.
		if i = skip(block, i, &index.spaceLead); i == len(block) {
			break
		}
		r, n := utf8.DecodeRuneInString(block[i:])
		i += n
		if i == len(block) || block[i] != ' ' || r < index.spaceLo || r > index.spaceHi {
			continue
		}
		row := scriptOf(r)
		k := i
		for k < len(block) && block[k] == ' ' {
			k++
		}
		last := 0
		if len(cuts) > 0 {
			last = cuts[len(cuts)-1]
		}
		if row != nil && k < len(block) && utf8.RuneCountInString(block[last:i]) >= row.min {
			if next, _ := utf8.DecodeRuneInString(block[k:]); unicode.Is(row.script, next) && unicode.IsLetter(next) {
				cuts = append(cuts, k)
			}
		}
	}
	return cuts
}

// scriptOf returns the spaceInScript row whose script holds r, or nil.
func scriptOf(r rune) *rule {
	for i := range index.spaceScripts {
		if unicode.Is(index.spaceScripts[i].script, r) {
			return &index.spaceScripts[i]
		}
	}
	return nil
}

// abbreviationKind returns the kind of the abbreviation rows naming word
// (the token before a full stop, without an elided article: "l'Ing" is
// "ing"), or 0. before is the text before word.
func abbreviationKind(word, before string) ruleKind {
	if i := strings.LastIndexByte(word, '\''); i >= 0 {
		word = word[i+1:]
	}
	if i := strings.LastIndex(word, "’"); i >= 0 {
		word = word[i+len("’"):]
	}
	if word == "" {
		return 0
	}
	if allCaps(word) {
		return 0 // an acronym ("ING.", "PR.") is not a title
	}
	lw := strings.ToLower(strings.TrimSuffix(word, "."))
	if k, ok := index.abbrev[lw]; ok {
		return k
	}
	for _, suf := range index.suffixes {
		if len(lw) > len(suf) && strings.HasSuffix(lw, suf) {
			return abbrevBeforeNumber
		}
	}
	if utf8.RuneCountInString(lw) == 1 {
		r, _ := utf8.DecodeRuneInString(lw)
		wr, _ := utf8.DecodeRuneInString(word)
		for _, row := range index.lowerLetters {
			if unicode.Is(row.script, r) && unicode.IsLower(wr) && !strings.Contains(" "+row.words+" ", " "+lw+" ") &&
				strings.IndexFunc(lastWord(strings.TrimRight(before, " ")), func(c rune) bool { return unicode.Is(row.script, c) }) >= 0 {
				return abbrevBeforeName
			}
		}
	}
	if isInitial(word) {
		return abbrevBeforeName
	}
	return 0
}

// allCaps reports a word of two or more letters, all capitals.
func allCaps(word string) bool {
	n := 0
	for _, r := range word {
		if unicode.IsLower(r) {
			return false
		}
		if unicode.IsUpper(r) {
			n++
		}
	}
	return n >= 2
}

// isInitial reports a single letter of an initialInScript row's script
// with its vowel signs and other marks.
func isInitial(word string) bool {
	r, n := utf8.DecodeRuneInString(word)
	if !unicode.IsLetter(r) {
		return false
	}
	in := false
	for _, t := range index.initials {
		in = in || unicode.Is(t, r)
	}
	if !in {
		return false
	}
	for _, m := range word[n:] {
		if !unicode.Is(unicode.M, m) {
			return false
		}
	}
	return true
}

// opensSentence reports a word that opens sentences, in English or in a
// language of the opener rows.
func opensSentence(word string) bool {
	if startsSentence(word) {
		return true
	}
	word = strings.TrimLeftFunc(word, isOpener)
	word = strings.TrimRightFunc(word, unicode.IsPunct)
	r, _ := utf8.DecodeRuneInString(word)
	return unicode.IsUpper(r) && index.openers[strings.ToLower(word)]
}
