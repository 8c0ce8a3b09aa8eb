// Package sentences splits text into sentences by rule: terminal
// punctuation followed by space and a plausible sentence start, with
// exceptions for abbreviations, initials, numbers, ellipses, URLs and e-mail
// addresses. Line breaks and page separators always end a sentence, so
// headings and list items without a stop are sentences of their own; so
// does a bullet between spaces, which starts an item of a list run
// together on one line. Beyond English, the rows of the rule table
// (rules.go) add the stops of other scripts, Thai and Lao sentences
// separated by spaces, and the abbreviations of other languages, each
// row with the languages it applies to; the splitter takes no language,
// so every row is written to be safe in any text.
package sentences

import (
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/normalize"
)

// Span is a sentence as byte offsets into the text given to Split:
// text[Start:End]. A span never starts or ends with white space and never
// contains "\n" or a page separator.
type Span struct {
	Start, End int
}

// Split returns the sentences of text in order. Spans do not overlap; text
// outside every span is white space.
func Split(text string) []Span {
	spans := make([]Span, 0, len(text)/80+1)
	start := 0
	for i := 0; i <= len(text); i++ {
		i = skip(text, i, &blockEnd)
		spans = splitBlock(text, start, i, spans)
		start = i + 1
	}
	return spans
}

// Bytes that stop skip: where a block ends, where a sentence may end,
// where an enclosure may open or close, and bytes outside ASCII (which
// start the runes each test decodes).
var (
	blockEnd     = stopBytes("\n"+normalize.PageBreak+"\r\v", false)
	terminalByte = stopBytes(".!?:;", true)
	enclosing    = stopBytes("()[]{}\"", true)
	nonASCII     = stopBytes("", true)
)

// stopBytes returns a table marking (with 1) the bytes in set, and every
// byte outside ASCII when nonASCII is set.
func stopBytes(set string, nonASCII bool) (t [256]uint8) {
	for i := range set {
		t[set[i]] = 1
	}
	for c := utf8.RuneSelf; nonASCII && c < 256; c++ {
		t[c] = 1
	}
	return t
}

// skip returns the offset of the first byte of s at or after i that stop
// marks, or len(s).
func skip(s string, i int, stop *[256]uint8) int {
	// Four bytes at a time while none is marked.
	for ; i+4 <= len(s); i += 4 {
		w := s[i : i+4]
		if stop[w[0]]|stop[w[1]]|stop[w[2]]|stop[w[3]] != 0 {
			break
		}
	}
	for i < len(s) && stop[s[i]] == 0 {
		i++
	}
	return i
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
	markers := listMarkers(block)
	cuts := boundaries(block, markers)
	extra := append(bulletCuts(block), spaceCuts(block)...)
	for _, m := range markers {
		// A label after a bullet starts its item with the bullet.
		if prev, _ := utf8.DecodeLastRuneInString(strings.TrimRight(block[:m.start], " ")); m.chained && m.start > 0 && !isBullet(prev) {
			extra = append(extra, m.start)
		}
	}
	if len(extra) > 0 {
		cuts = slices.Compact(slices.Sorted(slices.Values(append(cuts, extra...))))
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
// after a space and before a space, a digit ("⁃9. item") or the block's
// end, each the start of a list item (a bullet opening the block needs no
// cut).
func bulletCuts(block string) []int {
	var cuts []int
	for i, size := 0, 0; i < len(block); i += size {
		// Every bullet is outside ASCII.
		if i = skip(block, i, &nonASCII); i == len(block) {
			break
		}
		var r rune
		r, size = utf8.DecodeRuneInString(block[i:])
		if !isBullet(r) || i == 0 {
			continue
		}
		after := i + utf8.RuneLen(r)
		prev, _ := utf8.DecodeLastRuneInString(block[:i])
		next, _ := utf8.DecodeRuneInString(block[after:])
		if unicode.IsSpace(prev) && (unicode.IsSpace(next) || after == len(block) || unicode.IsDigit(next)) {
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
	case '"', '\'', '”', '’', '»', '›', ')', ']', '}', '」', '』', '）', '】', '〉', '》', '`', '«', '“':
		return true
	}
	return false
}

// isOpener reports opening quotes and brackets that may start a sentence.
func isOpener(r rune) bool {
	switch r {
	case '"', '\'', '“', '‘', '«', '‹', '(', '[', '{', '「', '『', '（', '【', '〈', '《', '`', '¿', '¡', '„', '‚':
		return true
	}
	return false
}

// caselessWords is the fewest words a block without capitals needs to be
// taken for lower-cased text; a shorter one is as likely a fragment.
const caselessWords = 25

// boundaries returns the byte offsets in block where a new sentence starts.
// The stops of list markers never end a sentence.
func boundaries(block string, markers []listMarker) []int {
	var cuts []int
	enclosed := enclosedRanges(block)
	// A block of some length without capitals (lower-cased text) gives
	// no case cue: a stop before a lower-case word may end a sentence
	// there.
	caseless := strings.IndexFunc(block, unicode.IsUpper) < 0 && strings.Count(block, " ") >= caselessWords
	quotes := quoteTokens{block: block}
	i := 0
	for i < len(block) {
		if i = skip(block, i, &terminalByte); i == len(block) {
			break
		}
		r, n := utf8.DecodeRuneInString(block[i:])
		if !mayStop(r) {
			i += n
			continue
		}
		hard := isCJKTerminal(r) || isHardStop(r) || scriptStop(block, i)
		if !hard && (!isTerminal(r) || notAStop(block, i)) {
			i += n
			continue
		}
		termStart := i
		if inMarker(markers, i) {
			i += n
			continue
		}
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
		if hard {
			// Stops of scripts whose sentences need no space after them;
			// a quotation or title that closes later holds them ("《摔跤吧！爸爸》").
			k := skipClosers(block, j)
			if k < len(block) && !(inside(enclosed, termStart) && inside(enclosed, k)) {
				cuts = append(cuts, k)
			}
			i = max(k, i+n)
			continue
		}
		end := skipClosers(block, j)
		end = skipCitations(block, end)
		if end >= len(block) {
			break
		}
		if end == j {
			// French sets a space inside guillemets: "« Oui. » Puis".
			if k := len(block) - len(strings.TrimLeft(block[end:], " ")); k > end && strings.HasPrefix(block[k:], "» ") {
				end = k + len("»")
			}
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
		// follows when no closer is attached already, unless the stop is
		// detached too: in tokenised text ("wrote . '' Why") the quote
		// token opens the next sentence.
		if end == j && !quotes.opens(termStart, j) {
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
		if isBoundary(block, sentStart, termStart, j, end, caseless) {
			cuts = append(cuts, end)
		}
		i = end
	}
	return cuts
}

// quoteTokens counts the white-space separated tokens of a block that are
// made of quote marks only, reading left to right once: asked at
// increasing offsets, the whole block costs one pass.
type quoteTokens struct {
	block string
	pos   int // tokens before pos are counted
	n     int
}

// opens reports whether the detached quote token after the full stop
// block[ts:te] opens the next sentence rather than closing this one: in
// tokenised text ("wrote . ” Why"), where the stop is detached too, a
// quote token that follows an even number of quote tokens opens a
// quotation. Offsets must not decrease between calls.
func (q *quoteTokens) opens(ts, te int) bool {
	if ts == 0 || q.block[ts-1] != ' ' || q.block[ts:te] != "." {
		return false
	}
	for q.pos < ts {
		if space, size := spaceAt(q.block, q.pos); space {
			q.pos += size
			continue
		}
		start := q.pos
		for q.pos < ts {
			space, size := spaceAt(q.block, q.pos)
			if space {
				break
			}
			q.pos += size
		}
		if quotesOnly(q.block[start:q.pos]) {
			q.n++
		}
	}
	return q.n%2 == 0
}

// spaceAt reports whether the character at byte i of s is white space
// (unicode.IsSpace), and its length in bytes.
func spaceAt(s string, i int) (bool, int) {
	if c := s[i]; c < utf8.RuneSelf {
		return c == ' ' || '\t' <= c && c <= '\r', 1
	}
	r, size := utf8.DecodeRuneInString(s[i:])
	return unicode.IsSpace(r), size
}

// quotesOnly reports whether s, not empty, is made of the quote marks ', "
// and ` only.
func quotesOnly(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c != '\'' && c != '"' && c != '`' {
			return false
		}
	}
	return true
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
		i := skip(block, next, &enclosing)
		if i == len(block) {
			break
		}
		next = i
		r := rune(block[i])
		size := 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(block[i:])
		}
		next += size
		if len(want) > 0 && closes(want[len(want)-1], r) {
			st := stack[len(stack)-1]
			stack, want = stack[:len(stack)-1], want[:len(want)-1]
			if len(stack) == 0 {
				out = append(out, enclosure{st, i})
			}
			continue
		}
		closeFor := closerFor(r)
		if (r == '"' || r == '»') && i > 0 && !isSpaceOrOpener(block[:i]) {
			closeFor = 0 // a closing mark without its opener in the block
		}
		if closeFor != 0 {
			stack = append(stack, i)
			want = append(want, closeFor)
		}
	}
	return out
}

// closerFor returns the mark that closes the bracket or quotation r
// opens, or 0. "»" opens a quotation in German ("»Ja«") and closes one
// elsewhere; it opens only where a closing one could not stand.
func closerFor(r rune) rune {
	switch r {
	case '(':
		return ')'
	case '[':
		return ']'
	case '{':
		return '}'
	case '（':
		return '）'
	case '“':
		return '”'
	case '"':
		return '"'
	case '«':
		return '»'
	case '»':
		return '«'
	case '„':
		return '“' // or ”: see closes
	case '《':
		return '》'
	case '「':
		return '」'
	case '『':
		return '』'
	case '【':
		return '】'
	}
	return 0
}

// closes reports whether r closes an enclosure waiting for want: „ is
// closed by “ (German) or ” (Polish, Romanian, Hungarian).
func closes(want, r rune) bool {
	return r == want || want == '“' && r == '”'
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
	// A single letter before the stop is part of a name ("e.Consult").
	return utf8.RuneCountInString(tok) > 1 && !strings.ContainsAny(tok, "@/") && !strings.Contains(strings.ToLower(tok), "www")
}

// isBoundary decides whether the terminal run block[ts:te], followed by
// closers up to end and then white space, ends a sentence that began at
// start. In a caseless block a lower-case next word does not rule a
// boundary out.
func isBoundary(block string, start, ts, te, end int, caseless bool) bool {
	nextWord := firstWord(block[end:])
	nr, _ := utf8.DecodeRuneInString(nextWord)
	// The case of the next word is its first letter's, after opening
	// quotes and a dash that resumes the sentence ("bar? — деді").
	lowerNext := unicode.IsLower(nextLetter(block[end:])) && !caseless
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
	sentence := block[start:ts]
	word := lastWord(sentence)
	if ts > start && block[ts-1] == ' ' {
		// A detached stop ("Mr . Smith"): judge the token before it.
		word = lastWord(strings.TrimRight(sentence, " "))
		if i := strings.LastIndexByte(word, '/'); i >= 0 {
			word = word[i+1:]
		}
	}
	if word == "" {
		return true
	}
	switch abbreviationKind(word, strings.TrimSuffix(sentence, word)) {
	case abbrevBeforeName:
		return false
	case abbrevBeforeNumber:
		if unicode.IsDigit(nr) || unicode.IsDigit(nextLetter(block[end:])) {
			return false
		}
	case abbrevMayEnd:
		return opensSentence(nextWord)
	}
	if spacedAbbreviation(word, nextWord) {
		return false // "z. B.", "u. Ä.", "s. r. o.", "т. зв."
	}
	if caseless && utf8.RuneCountInString(word) == 1 && word != "i" {
		return false // "5 a. m.", "j. smith"
	}
	if w := strings.TrimLeftFunc(word, unicode.IsDigit); w != "" && endsSentences(w) {
		// "5 p.m. The", "7a.m . All"; but "A.D. 79" (the era leads the
		// year) and "at 6 a.m. Mr. Smith left", where the sentence has
		// no verb yet.
		if unicode.IsDigit(nr) {
			return strings.ToLower(strings.TrimSuffix(w, ".")) != "a.d"
		}
		if isPrepositionalPhrase(afterColon(sentence)) {
			return startsSentence(nextWord)
		}
		if caseless {
			return startsSentence(nextWord)
		}
		return unicode.IsUpper(nr) || isOpener(nr)
	}
	if isAbbreviation(word) {
		// "Co.", "Inc." and acronyms ("U.S.") may close a sentence: they
		// do before a word that opens one ("… in the U.S. How about you?").
		return closesSentences(word) && startsSentence(nextWord)
	}
	// Initials: "J. R. R. Tolkien", "George W. Bush" — a single capital
	// followed by a capitalised word. A lone "I" is a pronoun, unless it
	// follows a name ("Albert I. Jones").
	if utf8.RuneCountInString(word) == 1 {
		wr, _ := utf8.DecodeRuneInString(word)
		if unicode.IsUpper(wr) && (word != "I" || followsName(sentence)) {
			return startsSentence(nextWord) && word != "I"
		}
	}
	if unicode.IsDigit(nr) && isNumberAbbrev(word) {
		return false
	}
	if numberedDay(sentence, word, block[end:]) {
		return false
	}
	return true
}

// nextLetter returns the first letter or digit of s after white space,
// opening quotes and brackets and dashes, or 0.
func nextLetter(s string) rune {
	for _, r := range s {
		switch {
		case unicode.IsSpace(r) || isOpener(r) || r == '—' || r == '–' || r == '-':
			continue
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			return r
		}
		return 0
	}
	return 0
}

// spacedAbbreviation reports a single lower-case letter before a stop
// followed by a letter or two and a stop: the first part of an
// abbreviation written with spaces ("z. B.", "u. a.", "s. r. o.").
func spacedAbbreviation(word, next string) bool {
	if utf8.RuneCountInString(word) != 1 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(word)
	if !unicode.IsLower(r) {
		return false
	}
	body, ok := strings.CutSuffix(strings.TrimRight(next, ",;:"), ".")
	n := utf8.RuneCountInString(body)
	if !ok || n == 0 || n > 2 {
		return false
	}
	for _, c := range body {
		if !unicode.IsLetter(c) {
			return false
		}
	}
	return true
}

// numberedDay reports a stop that belongs to a number rather than ending a
// sentence, in the languages that write a date's parts and ordinals with
// a full stop: the day or month of a numeric date ("4. 2. 2022", "4. 2."
// before the year), a day before a month name and a year ("15. Februar
// 2022"), and an ordinal after an article or preposition that takes one
// ("am 4. Februar", "zum 3. Mal"). word is the number before the stop,
// sentence the text before it and rest the text after the stop's space.
func numberedDay(sentence, word, rest string) bool {
	if !digits(word, 1, 2) {
		return false
	}
	next, after, _ := strings.Cut(strings.TrimLeft(rest, " "), " ")
	before := lastWord(strings.TrimRight(strings.TrimSuffix(sentence, word), " "))
	switch {
	case digits(strings.TrimSuffix(next, "."), 1, 2) && strings.HasSuffix(next, "."):
		return true // "4. 2. 2022": the day before the month
	case digits(strings.TrimRight(next, ".,;:"), 4, 4):
		// "4. 2. 2022": the month, after a day with its stop.
		return strings.HasSuffix(before, ".") && digits(strings.TrimSuffix(before, "."), 1, 2)
	}
	r, _ := utf8.DecodeRuneInString(next)
	if !unicode.IsUpper(r) {
		return false
	}
	if year, _, _ := strings.Cut(after, " "); digits(strings.TrimRight(year, ".,;:"), 4, 4) {
		return true // "15. Februar 2022"
	}
	return ordinalArticle(strings.ToLower(before))
}

// digits reports whether s is a run of lo to hi ASCII digits.
func digits(s string, lo, hi int) bool {
	if len(s) < lo || len(s) > hi {
		return false
	}
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return true
}

// ordinalArticle reports the German articles and contracted prepositions
// that stand before an ordinal number written with a full stop ("am 4.",
// "zum 3.", "der 2.").
func ordinalArticle(w string) bool {
	switch w {
	case "am", "im", "vom", "zum", "zur", "beim", "der", "die", "das", "den", "dem", "des", "seit", "bis", "ab":
		return true
	}
	return false
}

// afterColon returns the part of s after its last colon: "He noted: In
// 44 B.C" starts a new clause at the colon.
func afterColon(s string) string {
	if i := strings.LastIndex(s, ": "); i >= 0 {
		return s[i+1:]
	}
	return s
}

// followsName reports whether the last word of s before its final word
// is capitalised, as a first name before an initial is.
func followsName(s string) bool {
	f := strings.Fields(s)
	if len(f) < 2 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(f[len(f)-2])
	return unicode.IsUpper(r)
}

// startsSentence reports function words that open sentences (articles,
// pronouns, determiners, conjunctions, common adverbs and prepositions),
// capitalised: after an abbreviation that may close a sentence, such a
// word shows that it did, where a name ("U.S. Government") shows that it
// did not.
func startsSentence(word string) bool {
	if len(word) == 2 && word[1] == '.' {
		return false // an initial: "U. A. E."
	}
	word = strings.TrimRightFunc(word, func(r rune) bool { return unicode.IsPunct(r) })
	r, _ := utf8.DecodeRuneInString(word)
	if !unicode.IsUpper(r) && !unicode.IsLower(r) {
		return false
	}
	switch strings.ToLower(word) {
	case "the", "a", "an", "this", "that", "these", "those", "it", "its", "it's", "he", "she", "they", "we", "i", "you",
		"there", "here", "his", "her", "their", "our", "my", "your", "how", "what", "when", "where", "why", "who", "which",
		"but", "and", "or", "so", "yet", "however", "if", "as", "after", "before", "then", "thus", "also", "some", "many",
		"most", "all", "no", "one", "each", "both", "such", "in", "on", "at", "for", "with", "while", "although", "though",
		"because", "since", "during", "today", "yesterday", "now", "later", "meanwhile", "there's", "let's",
		"every", "other", "another":
		return true
	}
	return false
}

// closesSentences reports abbreviations that may stand last in a sentence:
// company suffixes, "et al.", name suffixes, street types, units and dotted
// acronyms, unlike titles ("Dr."), "e.g." or "Fig.", which always lead into
// what follows.
func closesSentences(word string) bool {
	lw := strings.ToLower(strings.TrimSuffix(word, "."))
	switch lw {
	case "e.g", "i.e", "cf", "vs", "viz", "n°":
		return false
	case "inc", "ltd", "co", "corp", "bros", "al", "jr", "sr", "dept", "ave", "blvd", "rd", "hwy", "min", "max", "misc",
		"ed", "eds", "phd", "md", "esq":
		return true
	}
	return strings.Contains(lw, ".")
}

// listMarker is the label of an item of a list written inline: "1.",
// "2)", "b.)" standing where an item starts.
type listMarker struct {
	start, end int  // byte offsets of the label, its delimiter included
	chained    bool // one of a run 1, 2, … (a, b, …) in the block
}

// listMarkers returns the item labels of block: a number of one or two
// digits or a single letter, then ".", ")" or ".)", then a space, standing
// at the block's start, after a bullet, or — when labels count up from 1
// or "a" in the same style — after a space. Those of a counting run are
// chained: each starts a new sentence.
func listMarkers(block string) []listMarker {
	type cand struct {
		listMarker
		value int
		style string
		head  bool
	}
	var cands []cand
	for i := 0; i < len(block); i++ {
		if i = nextLabel(block, i); i == len(block) {
			break
		}
		j, value, kind := i, 0, ""
		for j < len(block) && j-i < 2 && block[j] >= '0' && block[j] <= '9' {
			value = value*10 + int(block[j]-'0')
			j++
		}
		if j > i {
			kind = "digit"
			if j < len(block) && block[j] >= '0' && block[j] <= '9' {
				continue
			}
		} else {
			c := block[i]
			kind = "lower"
			if c <= 'Z' {
				kind, c = "upper", c+'a'-'A'
			}
			value = int(c-'a') + 1
			j++
		}
		delim := ""
		switch {
		case strings.HasPrefix(block[j:], ".) "):
			delim = ".)"
		case strings.HasPrefix(block[j:], ") "):
			delim = ")"
		case strings.HasPrefix(block[j:], ". "):
			delim = "."
		default:
			continue
		}
		head := i == 0
		if i > 0 {
			prev, _ := utf8.DecodeLastRuneInString(block[:i])
			before := strings.TrimRight(block[:i], " ")
			last, _ := utf8.DecodeLastRuneInString(before)
			switch {
			case before == "" || isBullet(last) || last == '-':
				head = true
			case prev != ' ':
				continue
			}
		}
		if kind == "upper" && delim == "." && !head {
			continue // initials: "J. Smith"
		}
		cands = append(cands, cand{listMarker{start: i, end: j + len(delim)}, value, kind + delim, head})
		i = j + len(delim) - 1
	}
	// Chain each label to the nearest earlier one of its style with the
	// value before it, when that one heads a list or is chained itself.
	for k := range cands {
		for p := k - 1; p >= 0; p-- {
			c := &cands[p]
			if c.style == cands[k].style && c.value == cands[k].value-1 {
				if c.value == 1 || c.head || c.chained {
					c.chained, cands[k].chained = true, true
				}
				break
			}
		}
	}
	var out []listMarker
	for _, c := range cands {
		if c.chained || c.head {
			out = append(out, c.listMarker)
		}
	}
	return out
}

// nextLabel returns the first offset i ≥ from in block that may start a
// list label, or len(block): a label is a token of its own, starting with a
// letter or digit after a non-word byte, and its one or two characters are
// followed by "." or ")".
func nextLabel(block string, from int) int {
	for i := from; i < len(block); {
		// p is the first delimiter after i: only the one or two bytes
		// before it can start a label.
		p := skip(block, i+1, &labelDelim)
		if p == len(block) {
			break
		}
		for c := max(i, p-2); c < p; c++ {
			if alnumByte[block[c]] && (c == 0 || !alnumByte[block[c-1]]) {
				return c
			}
		}
		i = p
	}
	return len(block)
}

// labelDelim marks the bytes a list label's delimiter starts with.
var labelDelim = stopBytes(".)", false)

// alnumByte marks ASCII letters and digits.
var alnumByte = func() (t [256]bool) {
	for c := range t {
		t[c] = '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
	}
	return t
}()

// inMarker reports whether byte offset i lies inside a list label.
func inMarker(ms []listMarker, i int) bool {
	for _, m := range ms {
		if i >= m.start && i < m.end {
			return true
		}
	}
	return false
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
	words := strings.Fields(quotesAsWords(s))
	if len(words) == 0 || len(words) > 7 {
		return false
	}
	switch strings.ToLower(strings.TrimLeftFunc(words[0], isOpener)) {
	case "in", "at", "on", "by", "around", "about", "before", "after", "until", "since", "from", "during", "circa", "ca":
		return true
	}
	return false
}

// quotesAsWords returns s with each quotation in double quotes ("…",
// “…”) made one word: a quotation inside a phrase ("On the day "they all
// left" at 6 a.m.") stands for one thing, a title or a saying, and its
// words are not the phrase's.
func quotesAsWords(s string) string {
	if !strings.ContainsAny(s, "\"“”") {
		return s
	}
	var b strings.Builder
	in := false
	for _, r := range s {
		switch {
		case !in && (r == '"' || r == '“'):
			in = true
			b.WriteString("Q")
		case in && (r == '"' || r == '”'):
			in = false
		case !in:
			b.WriteRune(r)
		}
	}
	return b.String()
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
	case "mr", "mrs", "ms", "dr", "prof", "sr", "jr", "st", "mt", "rev", "gen", "maj", "col", "lt", "sgt", "capt", "cpt", "gov", "sen", "rep", "hon", "pres",
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
