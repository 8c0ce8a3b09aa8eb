// Package sentences splits text into sentences by rule: terminal
// punctuation followed by space and a plausible sentence start, with
// exceptions for abbreviations, initials, numbers, ellipses, URLs and e-mail
// addresses. Line breaks and page separators always end a sentence, so
// headings and list items without a stop are sentences of their own; so
// does a bullet between spaces, which starts an item of a list run
// together on one line.
package sentences

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Span is a sentence as byte offsets into the text given to Split:
// text[Start:End]. A span never starts or ends with white space and never
// contains "\n" or "\f".
type Span struct {
	Start, End int
}

// Split returns the sentences of text in order. Spans do not overlap; text
// outside every span is white space.
func Split(text string) []Span {
	spans := make([]Span, 0, len(text)/80+1)
	start := 0
	for i := 0; i <= len(text); i++ {
		if i == len(text) || text[i] == '\n' || text[i] == '\f' || text[i] == '\r' || text[i] == '\v' {
			spans = splitBlock(text, start, i, spans)
			start = i + 1
		}
	}
	return spans
}

// Strings returns the text of each sentence of text, as Split finds them.
func Strings(text string) []string {
	spans := Split(text)
	out := make([]string, len(spans))
	for i, s := range spans {
		out[i] = text[s.Start:s.End]
	}
	return out
}

// splitBlock appends the sentences of text[lo:hi], a block without line
// breaks, to spans.
func splitBlock(text string, lo, hi int, spans []Span) []Span {
	block := text[lo:hi]
	start := 0
	cuts := boundaries(block)
	if bullets := bulletCuts(block); len(bullets) > 0 {
		cuts = slices.Compact(slices.Sorted(slices.Values(append(cuts, bullets...))))
	}
	for _, cut := range cuts {
		spans = appendTrimmed(spans, block, start, cut, lo)
		start = cut
	}
	return appendTrimmed(spans, block, start, len(block), lo)
}

// isBullet reports list bullets: a list written on one line ("• first
// • second") has an item, a sentence, after each.
func isBullet(r rune) bool {
	switch r {
	case '•', '◦', '▪', '▫', '‣', '●', '○', '■', '□', '⁃':
		return true
	}
	return false
}

// bulletCuts returns the offsets of the bullets of block that stand
// after a space and before a space or the block's end, each the start of
// a list item (a bullet opening the block needs no cut).
func bulletCuts(block string) []int {
	var cuts []int
	for i, r := range block {
		if !isBullet(r) || i == 0 {
			continue
		}
		after := i + utf8.RuneLen(r)
		prev, _ := utf8.DecodeLastRuneInString(block[:i])
		next, _ := utf8.DecodeRuneInString(block[after:])
		if unicode.IsSpace(prev) && (unicode.IsSpace(next) || after == len(block)) {
			cuts = append(cuts, i)
		}
	}
	return cuts
}

// appendTrimmed appends block[a:b] without surrounding white space, shifted
// by base, unless it is empty.
func appendTrimmed(spans []Span, block string, a, b, base int) []Span {
	for a < b {
		r, n := utf8.DecodeRuneInString(block[a:])
		if !unicode.IsSpace(r) {
			break
		}
		a += n
	}
	for b > a {
		r, n := utf8.DecodeLastRuneInString(block[:b])
		if !unicode.IsSpace(r) {
			break
		}
		b -= n
	}
	if a < b {
		spans = append(spans, Span{Start: base + a, End: base + b})
	}
	return spans
}

// isTerminal reports sentence-final punctuation.
func isTerminal(r rune) bool {
	switch r {
	case '.', '!', '?', '…', '‼', '⁇', '⁈', '⁉', '。', '！', '？', '｡', '︒', '﹒', '．':
		return true
	}
	return false
}

// isCJKTerminal reports full stops that end a sentence without a following
// space.
func isCJKTerminal(r rune) bool {
	switch r {
	case '。', '！', '？', '｡':
		return true
	}
	return false
}

// isCloser reports closing quotes and brackets that stay with the sentence
// they follow.
func isCloser(r rune) bool {
	switch r {
	case '"', '\'', '”', '’', '»', '›', ')', ']', '}', '」', '』', '）', '】', '〉', '》', '`':
		return true
	}
	return false
}

// isOpener reports opening quotes and brackets that may start a sentence.
func isOpener(r rune) bool {
	switch r {
	case '"', '\'', '“', '‘', '«', '‹', '(', '[', '{', '「', '『', '（', '【', '〈', '《', '`', '¿', '¡':
		return true
	}
	return false
}

// boundaries returns the byte offsets in block where a new sentence starts.
func boundaries(block string) []int {
	var cuts []int
	enclosed := enclosedRanges(block)
	i := 0
	for i < len(block) {
		r, n := utf8.DecodeRuneInString(block[i:])
		if !isTerminal(r) {
			i += n
			continue
		}
		termStart := i
		// Take the whole run of terminals, spaced runs (". . .", "! ? !")
		// included.
		j := i + n
		for j < len(block) {
			r2, n2 := utf8.DecodeRuneInString(block[j:])
			if isTerminal(r2) {
				j += n2
				continue
			}
			if r2 == ' ' && j+1 < len(block) {
				if r3, _ := utf8.DecodeRuneInString(block[j+1:]); isTerminal(r3) {
					j++
					continue
				}
			}
			break
		}
		if isCJKTerminal(r) {
			k := skipClosers(block, j)
			if k < len(block) {
				cuts = append(cuts, k)
			}
			i = k
			continue
		}
		end := skipClosers(block, j)
		end = skipCitations(block, end)
		if end >= len(block) {
			break
		}
		if inside(enclosed, termStart) && inside(enclosed, end) {
			// A stop inside brackets or quotes that close later in the
			// block does not end the sentence around them.
			i = end
			continue
		}
		next, _ := utf8.DecodeRuneInString(block[end:])
		if !unicode.IsSpace(next) {
			if isGluedBoundary(block, termStart, j, end) {
				cuts = append(cuts, end)
			}
			i = end
			continue
		}
		// A detached closing quote (" '' ", " ' ") belongs to the sentence it
		// follows when no closer is attached already.
		if end == j {
			if k := skipDetachedQuote(block, end); k > end {
				end = k
				end = skipSpacedTerminals(block, end)
				if end >= len(block) {
					break
				}
			}
		}
		sentStart := 0
		if len(cuts) > 0 {
			sentStart = cuts[len(cuts)-1]
		}
		if isBoundary(block, sentStart, termStart, j, end) {
			cuts = append(cuts, end)
		}
		i = end
	}
	return cuts
}

// skipClosers returns the offset after any closing quotes and brackets at i.
func skipClosers(block string, i int) int {
	for i < len(block) {
		r, n := utf8.DecodeRuneInString(block[i:])
		if !isCloser(r) {
			break
		}
		i += n
	}
	return i
}

// skipSpacedTerminals extends past " ." and " !" tokens at i.
func skipSpacedTerminals(block string, i int) int {
	for i+1 < len(block) && block[i] == ' ' {
		r, n := utf8.DecodeRuneInString(block[i+1:])
		if !isTerminal(r) {
			break
		}
		i += 1 + n
	}
	return i
}

// skipDetachedQuote returns the offset after a space-separated token made
// only of closing quotes at i (" ”", " '"), or i when there is none or when
// the token opens the next sentence (a word follows it directly).
func skipDetachedQuote(block string, i int) int {
	k := i
	for k < len(block) && block[k] == ' ' {
		k++
	}
	if k == i {
		return i
	}
	q := k
	for q < len(block) && (block[q] == '\'' || block[q] == '"') {
		q++
	}
	if q == k || (q < len(block) && block[q] != ' ') {
		return i
	}
	return q
}

// skipCitations returns the offset after citation markers such as "[1]",
// "[7][8]" or " [2–11]" at i.
func skipCitations(block string, i int) int {
	for {
		k := i
		for k < len(block) && block[k] == ' ' {
			k++
		}
		if k >= len(block) || block[k] != '[' {
			return i
		}
		close := strings.IndexByte(block[k:], ']')
		if close < 2 || !isCitation(block[k+1:k+close]) {
			return i
		}
		i = k + close + 1
	}
}

// isCitation reports a bracket body of digits, commas, spaces and dashes.
func isCitation(s string) bool {
	digits := false
	for _, r := range s {
		switch {
		case r >= '0' && r <= '9':
			digits = true
		case r == ',' || r == ' ' || r == '-' || r == '–' || r == '—':
		default:
			return false
		}
	}
	return digits
}

// span of a bracket or quotation that closes within the block.
type enclosure struct{ start, end int }

// enclosedRanges returns the byte ranges inside matched brackets and double
// quotation marks of block, outermost only.
func enclosedRanges(block string) []enclosure {
	var out []enclosure
	var stack []int
	var want []rune
	for next := 0; next < len(block); {
		i := next
		r := rune(block[i])
		size := 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(block[i:])
		}
		next += size
		var closeFor rune
		switch r {
		case '(':
			closeFor = ')'
		case '[':
			closeFor = ']'
		case '{':
			closeFor = '}'
		case '（':
			closeFor = '）'
		case '“':
			closeFor = '”'
		case '"':
			if len(want) > 0 && want[len(want)-1] == '"' {
				break
			}
			if i == 0 || isSpaceOrOpener(block[:i]) {
				closeFor = '"'
			}
		}
		if closeFor != 0 {
			stack = append(stack, i)
			want = append(want, closeFor)
			continue
		}
		if len(want) > 0 && r == want[len(want)-1] {
			st := stack[len(stack)-1]
			stack, want = stack[:len(stack)-1], want[:len(want)-1]
			if len(stack) == 0 {
				out = append(out, enclosure{st, i})
			}
		}
	}
	return out
}

// isSpaceOrOpener reports whether s ends in white space or an opener.
func isSpaceOrOpener(s string) bool {
	r, _ := utf8.DecodeLastRuneInString(s)
	return unicode.IsSpace(r) || isOpener(r)
}

// inside reports whether offset i lies strictly inside an enclosure.
func inside(es []enclosure, i int) bool {
	for _, e := range es {
		if i > e.start && i < e.end {
			return true
		}
	}
	return false
}

// isGluedBoundary reports a stop with no space after it that still ends a
// sentence: "world.Today", "1,000.That" — a lower-case letter or digit, the
// stop, then a capitalised word of letters only, outside URLs and e-mails.
func isGluedBoundary(block string, ts, te, end int) bool {
	if te-ts != 1 || block[ts] != '.' || end != te || ts == 0 {
		return false
	}
	prev, _ := utf8.DecodeLastRuneInString(block[:ts])
	if !unicode.IsLower(prev) && !unicode.IsDigit(prev) {
		return false
	}
	word := firstWord(block[end:])
	word = strings.TrimRightFunc(word, func(r rune) bool { return unicode.IsPunct(r) })
	upper, lower := 0, 0
	for i, r := range word {
		switch {
		case i == 0 && unicode.IsUpper(r):
			upper++
		case unicode.IsLower(r):
			lower++
		default:
			return false
		}
	}
	if upper == 0 || lower == 0 {
		return false
	}
	tok := lastWord(block[:ts])
	return !strings.ContainsAny(tok, "@/") && !strings.Contains(strings.ToLower(tok), "www")
}

// isBoundary decides whether the terminal run block[ts:te], followed by
// closers up to end and then white space, ends a sentence.
func isBoundary(block string, start, ts, te, end int) bool {
	nextWord := firstWord(block[end:])
	nr, _ := utf8.DecodeRuneInString(nextWord)
	lowerNext := unicode.IsLower(nr)
	if nr == ',' || nr == ';' || nr == ':' || nr == ')' || nr == ']' {
		return false
	}
	run := block[ts:te]
	if ts > 0 && (block[ts-1] == '[' || block[ts-1] == '(') {
		return false // "[...]" marks an omission
	}
	if strings.Contains(run, "!") || strings.Contains(run, "?") {
		return !lowerNext
	}
	if lowerNext {
		return false
	}
	if te-ts > 1 || run == "…" {
		// An ellipsis ends a sentence only before a capitalised word other
		// than the pronoun I.
		if nextWord == "I" || strings.HasPrefix(nextWord, "I'") || strings.HasPrefix(nextWord, "I’") {
			return false
		}
		return unicode.IsUpper(nr) || isOpener(nr)
	}
	if end > te {
		// A stop inside quotes or brackets before a capital is a boundary.
		return true
	}
	word := lastWord(block[:ts])
	if ts > 0 && block[ts-1] == ' ' {
		// A detached stop ("Mr . Smith"): judge the token before it.
		word = lastWord(strings.TrimRight(block[:ts], " "))
		if i := strings.LastIndexByte(word, '/'); i >= 0 {
			word = word[i+1:]
		}
	}
	if word == "" {
		return true
	}
	if endsSentences(word) {
		if isPrepositionalPhrase(block[start:ts]) {
			return false // "At 6 a.m. Mr. Smith left": no verb yet
		}
		return unicode.IsUpper(nr) || unicode.IsDigit(nr) || isOpener(nr)
	}
	if isAbbreviation(word) {
		return false
	}
	// Initials: "J. R. R. Tolkien", "George W. Bush" — a single capital
	// followed by a capitalised word. A lone "I" is a pronoun.
	if utf8.RuneCountInString(word) == 1 {
		wr, _ := utf8.DecodeRuneInString(word)
		if unicode.IsUpper(wr) && word != "I" {
			return false
		}
	}
	if unicode.IsDigit(nr) && isNumberAbbrev(word) {
		return false
	}
	return true
}

// firstWord returns the text after leading white space up to the next space.
func firstWord(s string) string {
	s = strings.TrimLeftFunc(s, unicode.IsSpace)
	if i := strings.IndexFunc(s, unicode.IsSpace); i >= 0 {
		return s[:i]
	}
	return s
}

// lastWord returns the word just before a stop: the run of non-space
// characters ending at the end of s, without leading openers.
func lastWord(s string) string {
	i := strings.LastIndexFunc(s, unicode.IsSpace)
	w := s[i+1:]
	return strings.TrimLeftFunc(w, isOpener)
}

// endsSentences reports abbreviations that often close a sentence (times,
// eras, degrees, compass points, "etc."): before a capitalised word or a
// number they end it, unlike "Dr." or "U.S.", which lead into a name.
func endsSentences(word string) bool {
	switch strings.ToLower(strings.TrimSuffix(word, ".")) {
	case "a.m", "p.m", "b.c", "a.d", "b.c.e", "c.e", "ph.d", "ll.m", "ll.b", "j.d", "d.phil",
		"n.e", "n.w", "s.e", "s.w", "etc":
		return true
	}
	return false
}

// isPrepositionalPhrase reports whether s, the start of a sentence, is a
// short phrase opened by a preposition ("In 44 B.C", "On Jan. 5, at 6
// a.m"): not yet a sentence, so a stop after it does not end one.
func isPrepositionalPhrase(s string) bool {
	words := strings.Fields(s)
	if len(words) == 0 || len(words) > 7 {
		return false
	}
	switch strings.ToLower(strings.TrimLeftFunc(words[0], isOpener)) {
	case "in", "at", "on", "by", "around", "about", "before", "after", "until", "since", "from", "during", "circa", "ca":
		return true
	}
	return false
}

// isNumberAbbrev reports abbreviations that usually precede a number.
func isNumberAbbrev(word string) bool {
	switch strings.ToLower(word) {
	case "no", "nos", "nr", "p", "pp", "vol", "fig", "figs", "eq", "eqs", "ch", "sec", "art", "ref", "refs", "tab", "n°",
		"lb", "lbs", "oz", "ft", "in", "yd", "mi", "sq", "cu":
		return true
	}
	return false
}

// isAbbreviation reports words that are followed by a period without ending
// a sentence.
func isAbbreviation(word string) bool {
	lw := strings.ToLower(word)
	if abbrevSet(lw) {
		return true
	}
	// Dotted acronyms and abbreviations: "U.S", "e.g", "a.m", "Ph.D".
	if strings.Contains(lw, ".") && !strings.Contains(lw, "..") {
		parts := strings.Split(lw, ".")
		short := true
		for _, p := range parts {
			if utf8.RuneCountInString(p) > 2 {
				short = false
				break
			}
		}
		if short {
			return true
		}
	}
	return false
}

// abbrevSet reports lower-cased abbreviations that take a period.
func abbrevSet(w string) bool {
	switch w {
	case "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "rev", "gen", "col", "lt", "sgt", "capt", "cpt", "gov", "sen", "rep", "hon", "pres",
		"inc", "ltd", "co", "corp", "bros", "dept", "univ", "assn", "est",
		"vs", "etc", "al", "approx", "ca", "cf", "esp", "viz", "resp", "incl", "avg", "min", "max", "misc",
		"fig", "figs", "eq", "eqs", "no", "nos", "vol", "vols", "pp", "ch", "sec", "ed", "eds", "ref", "refs", "tab", "suppl", "ser",
		"jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
		"mon", "tue", "tues", "wed", "thu", "thurs", "fri", "sat", "sun",
		"ave", "blvd", "rd", "hwy", "apt", "dist", "mx", "messrs", "mme", "mlle", "phd", "md", "ph", "e.g", "i.e", "a.m", "p.m", "n°":
		return true
	}
	return false
}
