package digest

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/digest/porter"
	"github.com/digestd/digestd/digest/sentences"
	"github.com/digestd/digestd/normalize"
)

// sentence is one sentence of a canonical text with its position.
type sentence struct {
	start, end   int // byte offsets into the text
	cstart, cend int // code point offsets into the text
	page         int // 1-based page holding the sentence
	block        int // 0-based index of the block holding the sentence
	terms        []int32
	ends         []int32 // byte offset, from start, just after each term
	words        int     // tokens before stop-word removal
}

// chars is the sentence's length in code points.
func (s *sentence) chars() int { return s.cend - s.cstart }

// document is a canonical text analysed for ranking: sentences, a term
// vocabulary and sentence-level document frequencies.
type document struct {
	text  string
	pages normalize.PageIndex
	sents []sentence
	vocab map[string]int32 // stemmed term → id
	forms map[string]int32 // surface token → id of its stem
	stems []string         // term id → stem
	// lettered[id] reports a stem of three or more letters only (see
	// numericResidue).
	lettered []bool
	df       []int32 // number of sentences holding each term
	avgdl    float64 // mean sentence length in terms
}

// analyze splits text into sentences and indexes their terms.
func analyze(text string) *document {
	// Sizing the maps by the text's length avoids most of their growth
	// in long texts (papers of 100k characters hold about one distinct
	// form per 32 bytes, longer texts fewer).
	hint := max(1024, len(text)/32)
	d := &document{text: text, vocab: make(map[string]int32, hint), forms: make(map[string]int32, hint)}
	// Sentences and blocks run across soft line breaks (hard-wrapped
	// text); the text itself keeps them.
	flow := unwrap(text)
	spans := sentences.Split(flow)
	d.sents = make([]sentence, len(spans))
	d.pages = normalize.IndexPages(text)
	// One walk over the text converts byte offsets to code points and counts
	// line breaks. Sentences start and end on character boundaries. A page
	// break also ends a block.
	cp, lines := 0, 0
	b := 0
	advance := func(to int) {
		if to <= b {
			return
		}
		seg := flow[b:to]
		cp += utf8.RuneCountInString(seg)
		lines += strings.Count(seg, "\n")
		b = to
	}
	var buf []byte
	total := 0
	// lastSent[id] is 1 + the last sentence holding term id, so that each
	// sentence counts once in df.
	var lastSent []int32
	// terms and ends hold every sentence's terms in order; bounds[i] is
	// the end of sentence i's.
	terms := make([]int32, 0, len(text)/8)
	ends := make([]int32, 0, len(text)/8)
	bounds := make([]int32, len(spans))
	from := 0
	for i, sp := range spans {
		advance(sp.Start)
		s := &d.sents[i]
		s.start, s.cstart, s.page = sp.Start, cp, d.pages.PageOf(cp)
		s.block = lines + s.page - 1
		advance(sp.End)
		s.end, s.cend = sp.End, cp
		buf = tokenize(text[sp.Start:sp.End], buf, func(tok []byte, stop bool, end int) {
			s.words++
			if stop {
				return
			}
			id := d.termID(tok)
			terms = append(terms, id)
			ends = append(ends, int32(end))
			for int(id) >= len(lastSent) {
				lastSent = append(lastSent, 0)
			}
			if lastSent[id] != int32(i)+1 {
				lastSent[id] = int32(i) + 1
				d.df[id]++
			}
		})
		total += len(terms) - from
		from = len(terms)
		bounds[i] = int32(from)
	}
	// The sentences share one backing array of terms and one of ends.
	prev := 0
	for i := range d.sents {
		s := &d.sents[i]
		to := int(bounds[i])
		if to > prev {
			s.terms, s.ends = terms[prev:to:to], ends[prev:to:to]
		}
		prev = to
	}
	if len(d.sents) > 0 {
		d.avgdl = float64(total) / float64(len(d.sents))
	}
	return d
}

// termID returns the id of the stem of surface token tok, adding it to the
// vocabulary when new. Stems are computed once per distinct surface form.
func (d *document) termID(tok []byte) int32 {
	if id, ok := d.forms[string(tok)]; ok {
		return id
	}
	form := string(tok)
	st := stem(form)
	id, ok := d.vocab[st]
	if !ok {
		id = int32(len(d.vocab))
		d.vocab[st] = id
		d.stems = append(d.stems, st)
		d.lettered = append(d.lettered, lettered(st))
		d.df = append(d.df, 0)
	}
	d.forms[form] = id
	return id
}

// queryTerms returns the distinct content terms of query with the ids they
// have in d's vocabulary (-1 for terms absent from the text), in order of
// first appearance.
func (d *document) queryTerms(query string) []int32 {
	var ids []int32
	seen := map[string]bool{}
	seenID := map[int32]bool{}
	tokenize(asked(query), nil, func(tok []byte, stop bool, _ int) {
		if stop || seen[string(tok)] {
			return
		}
		seen[string(tok)] = true
		id, ok := d.forms[string(tok)]
		if !ok {
			id, ok = d.vocab[stem(string(tok))]
		}
		if !ok {
			id = -1
		}
		// Two forms of one stem ("infection", "infections") are one term.
		if id >= 0 && seenID[id] {
			return
		}
		seenID[id] = true
		ids = append(ids, id)
	})
	return ids
}

// asked returns query without the words of an interrogative phrase that
// asks for a category ("what type of", "which kinds of"): type and kind
// there say what the answer is, not what it is about.
func asked(query string) string {
	words := strings.Fields(query)
	changed := false
	for i := 0; i+2 < len(words); i++ {
		w := strings.ToLower(words[i])
		if w != "what" && w != "which" || !strings.EqualFold(words[i+2], "of") {
			continue
		}
		switch strings.ToLower(words[i+1]) {
		case "type", "types", "kind", "kinds", "sort", "sorts", "class", "classes", "form", "forms":
			words[i+1] = ""
			changed = true
		}
	}
	if !changed {
		return query
	}
	return strings.Join(words, " ")
}

// Words returns the lower-cased words of text as the digester reads them:
// runs of letters, digits and marks, each ideograph, kana or Thai letter
// alone, Latin ligatures and Greek letters spelled out; neither stemmed nor
// rid of stop words. The evaluation's baselines read text through it, so
// that they read every script as the digester does.
func Words(text string) []string {
	var out []string
	tokenize(text, nil, func(tok []byte, _ bool, _ int) {
		out = append(out, string(tok))
	})
	return out
}

// tokenize calls emit for each token of s: a lower-cased run of letters, digits and marks, or a single ideograph or kana; stop
// reports a stop word and end is the byte offset in s just after the token.
// buf is scratch space, returned for reuse.
func tokenize(s string, buf []byte, emit func(tok []byte, stop bool, end int)) []byte {
	var spelled []byte
	greek := false // buf may hold a Greek letter
	flush := func(end int) {
		if len(buf) == 0 {
			return
		}
		if g, ok := spellGreekIf(greek, buf, spelled[:0]); ok {
			spelled = g
			emit(g, false, end)
		} else {
			emit(buf, isStopWord(buf), end)
		}
		buf = buf[:0]
		greek = false
	}
	buf = buf[:0]
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case 'a' <= c && c <= 'z' || '0' <= c && c <= '9':
				// The run of such bytes joins the token at once.
				j := i + 1
				for j < len(s) && lowerAlnum[s[j]] {
					j++
				}
				buf = append(buf, s[i:j]...)
				i = j
				continue
			case 'A' <= c && c <= 'Z':
				buf = append(buf, c+'a'-'A')
			case c == '-' && len(buf) > 0 && i+2 < len(s) && s[i+1] == '\n' && 'a' <= s[i+2] && s[i+2] <= 'z':
				// A word hyphenated at a line break is one word.
				i += 2
				continue
			default:
				flush(i)
			}
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case 0xFB00 <= r && r <= 0xFB06:
			// Latin ligatures, common in text from PDFs, are their letters.
			buf = append(buf, ligature(r)...)
		case unicode.Is(unicode.Thai, r):
			// A run of Thai, written without spaces between words and
			// whose letters alone say little: its clusters (a letter and
			// the vowel and tone marks over and under it) read two at a
			// time, overlapping, as a word of two syllables' worth would.
			flush(i)
			i = thaiPairs(s, i, func(from, to int) {
				buf = append(buf[:0], s[from:to]...)
				emit(buf, false, to)
			})
			buf = buf[:0]
			continue
		case isIdeographic(r):
			flush(i)
			buf = utf8.AppendRune(buf, r)
			flush(i + n)
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			greek = greek || 0x0370 <= r && r <= 0x03FF
			buf = utf8.AppendRune(buf, unicode.ToLower(r))
		case unicode.Is(unicode.Mn, r) && len(buf) > 0:
			buf = utf8.AppendRune(buf, r)
		default:
			flush(i)
		}
		i += n
	}
	flush(len(s))
	return buf
}

// thaiPairs calls yield with the byte span of each overlapping pair of
// clusters of the run of Thai that starts at byte i of s (the span of its
// one cluster when it has only one), and returns the byte offset after the
// run. A cluster is a letter with the combining marks that follow it.
func thaiPairs(s string, i int, yield func(start, end int)) int {
	prev, cur := -1, i // the starts of the previous and the current cluster
	j := i
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if !unicode.Is(unicode.Thai, r) {
			break
		}
		if j > i && !unicode.Is(unicode.Mn, r) {
			// A cluster ends at j: the pair that ends with it.
			if prev >= 0 {
				yield(prev, j)
			}
			prev, cur = cur, j
		}
		j += n
	}
	switch {
	case prev >= 0:
		yield(prev, j)
	case j > cur:
		yield(cur, j)
	}
	return j
}

// UnspacedRun returns the byte offset after the run of characters written
// without spaces (Unspaced, with the marks that follow them) that starts
// at byte i of s; i when none starts there.
func UnspacedRun(s string, i int) int {
	j := i
	for j < len(s) {
		r, n := utf8.DecodeRuneInString(s[j:])
		if !Unspaced(r) && (j == i || !unicode.Is(unicode.Mn, r)) {
			break
		}
		j += n
	}
	return j
}

// UnspacedTerms calls yield with the byte span [start, end) of each term
// the digester reads in the text of s written without spaces: a Chinese
// or Japanese character alone, and the overlapping pairs of clusters of a
// run of Thai (see tokenize). The rest of s is skipped. The search
// engines read such text through it, as the digester does.
func UnspacedTerms(s string, yield func(start, end int)) {
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case unicode.Is(unicode.Thai, r):
			i = thaiPairs(s, i, yield)
			continue
		case isIdeographic(r):
			yield(i, i+n)
		}
		i += n
	}
}

// lowerAlnum marks the bytes a-z and 0-9.
var lowerAlnum = func() (t [256]bool) {
	for c := range t {
		t[c] = 'a' <= c && c <= 'z' || '0' <= c && c <= '9'
	}
	return t
}()

// ligature spells the Latin ligature r, U+FB00 to U+FB06.
func ligature(r rune) string {
	switch r {
	case 0xFB00:
		return "ff"
	case 0xFB01:
		return "fi"
	case 0xFB02:
		return "fl"
	case 0xFB03:
		return "ffi"
	case 0xFB04:
		return "ffl"
	}
	return "st"
}

// Unspaced reports whether r belongs to a script written without spaces
// (Chinese, Japanese kana, Thai), whose text the digester reads by
// UnspacedTerms: the search engines split such words as it does.
func Unspaced(r rune) bool { return isIdeographic(r) }

// isIdeographic reports scripts written without spaces: Chinese and
// Japanese, read one character at a time, and Thai, read by pairs of
// clusters (see UnspacedTerms).
func isIdeographic(r rune) bool {
	return unicode.Is(unicode.Han, r) || unicode.Is(unicode.Hiragana, r) ||
		unicode.Is(unicode.Katakana, r) || unicode.Is(unicode.Thai, r)
}

// stem returns the Porter stem of an ASCII word and other words unchanged.
func stem(w string) string {
	for i := 0; i < len(w); i++ {
		if w[i] >= utf8.RuneSelf {
			return w
		}
	}
	if s, ok := stems.get(w); ok {
		return s
	}
	s := porter.Stem(w)
	stems.put(w, s)
	return s
}

// stems remembers the stems of the words seen lately, in every document:
// most words of a text are common words that other texts had too. A stem
// depends on the word alone, so the cache never changes a digest.
var stems = stemCache{m: make(map[string]string)}

// stemCacheSize bounds the cache; it is emptied when full.
const stemCacheSize = 1 << 16

type stemCache struct {
	mu sync.RWMutex
	m  map[string]string
}

func (c *stemCache) get(w string) (string, bool) {
	c.mu.RLock()
	s, ok := c.m[w]
	c.mu.RUnlock()
	return s, ok
}

func (c *stemCache) put(w, s string) {
	c.mu.Lock()
	if len(c.m) >= stemCacheSize {
		clear(c.m)
	}
	c.m[w] = s
	c.mu.Unlock()
}

// isStopWord reports English function words and question words that carry
// no topic.
func isStopWord(w []byte) bool {
	switch string(w) {
	case "a", "about", "above", "after", "again", "against", "all", "also", "am", "an", "and", "any", "are", "as", "at",
		"be", "because", "been", "before", "being", "below", "between", "both", "but", "by",
		"can", "could", "did", "do", "does", "doing", "done", "down", "during", "each", "either", "et", "al",
		"few", "for", "from", "further", "had", "has", "have", "having", "he", "her", "here", "hers", "herself", "him", "himself", "his", "how",
		"i", "if", "in", "into", "is", "it", "its", "itself", "just", "may", "me", "might", "more", "most", "must", "my", "myself",
		"no", "nor", "not", "now", "of", "off", "on", "once", "only", "or", "other", "our", "ours", "ourselves", "out", "over", "own",
		"same", "shall", "she", "should", "so", "some", "such", "than", "that", "the", "their", "theirs", "them", "themselves", "then",
		"there", "these", "they", "this", "those", "through", "to", "too", "under", "until", "up", "upon", "us", "very",
		"was", "we", "were", "what", "when", "where", "whether", "which", "while", "who", "whom", "whose", "why", "will", "with", "within", "would",
		"you", "your", "yours", "yourself", "yourselves", "s", "t", "e", "g", "eg", "ie", "etc", "via", "among", "many", "much", "one":
		return true
	}
	return false
}

// Spelling tolerance for query words the text lacks: a word of at least
// closeMin letters, without digits, matches a form of the text at edit
// distance 1 (2 for words of at least closeMin2 letters) that starts with
// the same letter.
const (
	closeMin  = 5
	closeMin2 = 10
)

// closeForm returns the term id of the surface form of d closest in
// spelling to the absent query word w (see closeMin), or -1. Ties go to
// the form held by more sentences, then to the smaller id.
func (d *document) closeForm(w string) int32 {
	n := utf8.RuneCountInString(w)
	if n < closeMin || strings.ContainsAny(w, "0123456789") {
		return -1
	}
	limit := 1
	if n >= closeMin2 {
		limit = 2
	}
	rw := []rune(w)
	best, bestD := int32(-1), limit+1
	var scratch [3][]int
	for f, id := range d.forms {
		if len(f) < len(w)-limit || len(f) > len(w)+limit || f[0] != w[0] {
			continue
		}
		dist := editDistance(rw, []rune(f), limit, &scratch)
		if dist > limit {
			continue
		}
		if dist < bestD || dist == bestD && (d.df[id] > d.df[best] || d.df[id] == d.df[best] && id < best) {
			best, bestD = id, dist
		}
	}
	return best
}

// editDistance returns the optimal string alignment distance between a
// and b (insertions, deletions, substitutions and transpositions of
// neighbours), or limit+1 when it exceeds limit. scratch is reused.
func editDistance(a, b []rune, limit int, scratch *[3][]int) int {
	if len(a)-len(b) > limit || len(b)-len(a) > limit {
		return limit + 1
	}
	for k := range scratch {
		if cap(scratch[k]) < len(b)+1 {
			scratch[k] = make([]int, len(b)+1)
		}
		scratch[k] = scratch[k][:len(b)+1]
	}
	prev2, prev, cur := scratch[0], scratch[1], scratch[2]
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		rowMin := i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			v := min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
			if i > 1 && j > 1 && a[i-1] == b[j-2] && a[i-2] == b[j-1] {
				v = min(v, prev2[j-2]+1)
			}
			cur[j] = v
			rowMin = min(rowMin, v)
		}
		if rowMin > limit {
			return limit + 1
		}
		prev2, prev, cur = prev, cur, prev2
	}
	return prev[len(b)]
}

// unwrap returns text with each soft line break, one that only wraps a
// line inside a sentence, replaced by a space (so byte offsets are kept):
// a single "\n" after a line that does not end in terminal punctuation,
// before a line that starts with a lower-case letter or digit, or after a
// line that ends in a hyphen or comma. text is returned as is when it has
// no soft break.
func unwrap(text string) string {
	var b []byte
	breaks, soft := 0, 0
	for i := strings.IndexByte(text, '\n'); i >= 0; {
		breaks++
		if softBreak(text, i) {
			soft++
			if b == nil {
				b = []byte(text)
			}
			b[i] = ' '
		}
		j := strings.IndexByte(text[i+1:], '\n')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	if b == nil {
		return text
	}
	if soft >= hardWrapMin && soft*3 >= breaks {
		// A hard-wrapped text also wraps before capitals: a long line
		// that ends inside a sentence runs on.
		last := -1
		for i := range len(text) {
			if text[i] != '\n' {
				continue
			}
			if b[i] == '\n' && i-last > hardWrapLine && i+1 < len(text) && 'A' <= text[i+1] && text[i+1] <= 'Z' && wordEnd(text[i-1]) {
				b[i] = ' '
			}
			last = i
		}
	}
	return string(b)
}

// hardWrapMin soft breaks, a third of all line breaks or more, mark a
// hard-wrapped text, in which a line of more than hardWrapLine bytes
// that ends in a letter, digit or closing bracket runs on into the next.
const (
	hardWrapMin  = 20
	hardWrapLine = 40
)

// wordEnd reports a byte that can end a word inside a sentence.
func wordEnd(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == ')' || c == ']' || c >= 0x80
}

// softBreak reports whether the "\n" at byte i of text wraps a sentence
// (see unwrap).
func softBreak(text string, i int) bool {
	if i == 0 || i+1 >= len(text) {
		return false
	}
	prev, next := text[i-1], text[i+1]
	switch prev {
	case '\n', normalize.PageSeparator, '\r', ' ', '\t', '.', '!', '?', ':', ';':
		return false
	case '-', ',':
		return next != '\n' && next != normalize.PageSeparator && next != ' ' && next != '\t'
	}
	return 'a' <= next && next <= 'z' || '0' <= next && next <= '9'
}

// greekName spells the lower-case Greek letter r, α (U+03B1) to ω (U+03C9).
func greekName(r rune) string {
	names := [...]string{"alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta", "iota", "kappa", "lambda", "mu",
		"nu", "xi", "omicron", "pi", "rho", "sigma", "sigma", "tau", "upsilon", "phi", "chi", "psi", "omega"}
	return names[r-0x03B1]
}

// spellGreekIf is spellGreek when tok may hold a Greek letter.
func spellGreekIf(may bool, tok, dst []byte) ([]byte, bool) {
	if !may {
		return nil, false
	}
	return spellGreek(tok, dst)
}

// spellGreek returns tok with its Greek letters spelled out in Latin
// ("il1β" → "il1beta", "α" → "alpha") when tok mixes Greek letters with
// other characters or is one Greek letter, so that the symbol and its
// name match; words written in Greek stay as they are. dst is scratch
// space.
func spellGreek(tok, dst []byte) ([]byte, bool) {
	greek, other := 0, 0
	for i := 0; i < len(tok); {
		r, n := utf8.DecodeRune(tok[i:])
		switch {
		case 0x03B1 <= r && r <= 0x03C9:
			greek++
		case 0x0370 <= r && r <= 0x03FF || 0x1F00 <= r && r <= 0x1FFF:
			// Other Greek letters (accented, capital) mark a Greek word.
			greek += 2
		default:
			other++
		}
		i += n
	}
	if greek == 0 || other == 0 && greek > 1 {
		return nil, false
	}
	for i := 0; i < len(tok); {
		r, n := utf8.DecodeRune(tok[i:])
		if 0x03B1 <= r && r <= 0x03C9 {
			dst = append(dst, greekName(r)...)
		} else {
			dst = append(dst, tok[i:i+n]...)
		}
		i += n
	}
	return dst, true
}

// Sentences returns the sentences of canonical text as the digester
// segments it (soft line breaks undone, then the sentence splitter), each
// as a locator in code points with Page 0. Evidence snippets start and end
// on these bounds, except a single sentence longer than a snippet, which is
// cut at a word boundary.
func Sentences(text string) []Locator {
	spans := sentences.Split(unwrap(text))
	out := make([]Locator, len(spans))
	cp, b := 0, 0
	advance := func(to int) {
		for b < to {
			if text[b] < utf8.RuneSelf {
				b++
			} else {
				_, n := utf8.DecodeRuneInString(text[b:])
				b += n
			}
			cp++
		}
	}
	for i, sp := range spans {
		advance(sp.Start)
		out[i].Start = cp
		advance(sp.End)
		out[i].End = cp
	}
	return out
}
