package digest

import (
	"cmp"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/digest/sentences"
	"github.com/digestd/digestd/normalize"
)

// Weights of summary sentence selection: a lead prior exp(-k/decay) over
// the k-th summary-worthy sentence, plus centrality as its rank share among
// the document's sentences (see rankShares) and query score over the
// document's best.
const (
	summaryLeadDecay  = 20
	summaryCentrality = 0.3
	summaryQuery      = 0.5
)

// minSummaryWords is the fewest words a sentence needs to enter a summary or
// key points; shorter ones are headings, captions and labels.
const minSummaryWords = 3

// minKeyPointWords is the fewest words a key point needs: shorter
// sentences are labels and fragments more often than statements.
const minKeyPointWords = 5

// shortBlockWords: a text of fewer words, all capitalised, is a heading,
// a byline or a label even when a stop ends it.
const shortBlockWords = 8

// keyPointParts is the number of equal parts of a text over which key
// points are spread: each part gets its share before any gets more.
const keyPointParts = 5

// duplicateShare is the share of the smaller of two texts' content terms
// the other must hold for the two to say the same thing.
const duplicateShare = 0.8

// summaryShare is the share of a short text its summary may take: a text
// of fewer than SummaryMaxChars·summaryShare code points gets a summary of
// at most a third of its length, and never less than its opening sentence.
const summaryShare = 3

// fallbackEvidence is the most snippets a digest shows for a query that
// matches nothing in particular: the few windows that best say what the
// text is about, not the whole text.
const fallbackEvidence = 3

// summaryPart is the summary Build chose: its text and the sentences of d
// it holds (none when it is the lead's prefix or empty).
type summaryPart struct {
	text   string
	chosen []int
	ok     []bool // the sentences that may enter a summary or key point
}

// summarize returns the digest's extractive summary, chosen before and
// apart from the evidence: a reader reads it first. It holds at most
// summaryBound code points (see pickSummary), opens with the text's
// opening sentence (its own abstract or summary where it has one, else its
// lead) when that sentence qualifies and fits, and may quote a sentence a
// snippet also shows (the sentence then counts once toward digest_chars:
// see CountDigestChars). A text where no sentence qualifies (no
// punctuation, headings only) gets the longest prefix of its lead that
// fits; the summary is "" only for a text without words.
func summarize(d *document, scores []float64, opts Options) summaryPart {
	boiler := boilerplate(d)
	cased := hasUpper(d.text)
	ok := make([]bool, len(d.sents))
	for i := range d.sents {
		ok[i] = !boiler[i] && summaryWorthy(d, &d.sents[i], cased)
	}
	bound := summaryBound(d, opts, ok)
	chosen := pickOpenSummary(d, scores, bound, ok)
	var b strings.Builder
	for k, i := range chosen {
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(sentenceText(d, i))
	}
	summary := b.String()
	if summary == "" {
		summary = leadPrefix(d, boiler, bound)
		if summary == "" {
			summary = leadPrefix(d, nil, bound)
		}
	}
	return summaryPart{text: summary, chosen: chosen, ok: ok}
}

// summaryBound returns the most code points the summary of d may take:
// SummaryMaxChars, and for a short text a summaryShare-th of it, or its
// opening sentence when that is longer.
func summaryBound(d *document, opts Options, ok []bool) int {
	n := 0
	if len(d.sents) > 0 {
		n = d.sents[len(d.sents)-1].cend
	}
	bound := n / summaryShare
	if o := openingSentence(d, ok); o >= 0 {
		bound = max(bound, utf8.RuneCountInString(sentenceText(d, o)))
	}
	return max(1, min(opts.SummaryMaxChars, bound))
}

// openingSentence returns the sentence a summary opens with when it can:
// the first that qualifies at or after the document's own summary (an
// abstract), or from the start; -1 when none qualifies.
func openingSentence(d *document, ok []bool) int {
	from := max(0, openingStart(d))
	for i := from; i < len(d.sents); i++ {
		if ok[i] {
			return i
		}
	}
	return -1
}

// fitEvidence returns the snippets, and their features, that fit beside
// a summary in a digest of at most limit code points (counted as
// CountDigestChars counts them): when they do not all fit, snippets that
// only repeat summary sentences go first, then the lowest-ranked ones. The
// best snippet always stays.
func fitEvidence(summary string, snips []EvidenceSnippet, feats [][snippetFeatures]float64, limit int) ([]EvidenceSnippet, [][snippetFeatures]float64) {
	said := summarySentences(summary)
	cost := make([]int, len(snips))
	total := utf8.RuneCountInString(summary)
	for k, s := range snips {
		cost[k] = snippetChars(s.Text, said)
		total += cost[k]
	}
	if total <= limit {
		return snips, feats
	}
	keep := make([]bool, len(snips))
	for k := range keep {
		keep[k] = k == 0 || cost[k] > 0
	}
	for k := len(snips) - 1; k > 0 && total > limit; k-- {
		if keep[k] {
			keep[k] = false
			total -= cost[k]
		}
	}
	var outS []EvidenceSnippet
	var outF [][snippetFeatures]float64
	for k := range snips {
		if keep[k] {
			outS = append(outS, snips[k])
			outF = append(outF, feats[k])
		}
	}
	return outS, outF
}

// keyPoints returns up to MaxKeyPoints key points of at most budget code
// points together: the highest-scoring remaining sentences, at most one
// per block, in document order. A key point repeats neither a snippet, nor
// another key point, nor the summary, and is always a complete sentence;
// a text where none qualifies gets none.
func keyPoints(d *document, scores []float64, opts Options, sum summaryPart, evidence []EvidenceSnippet, budget int) []string {
	if opts.MaxKeyPoints <= 0 {
		return []string{}
	}
	used := make([]bool, len(d.sents))
	ok := sum.ok
	// Texts a key point must not repeat: the summary's sentences and the
	// evidence snippets.
	words := newWordIDs()
	var said [][]int32
	for _, i := range sum.chosen {
		used[i] = true
		text := sentenceText(d, i)
		said = append(said, words.contentTerms(text))
		if strings.Contains(text, "\n") {
			// A sentence that runs over lines (the items of a list
			// without stops) shows each line too: a key point that
			// holds one of them repeats the summary.
			for _, line := range strings.Split(text, "\n") {
				said = append(said, words.contentTerms(line))
			}
		}
	}
	if len(sum.chosen) == 0 {
		for _, sp := range sentences.Split(sum.text) {
			said = append(said, words.contentTerms(sum.text[sp.Start:sp.End]))
		}
	}
	// A snippet is compared sentence by sentence: a long one holds most
	// words of many sentences it does not contain.
	for _, e := range evidence {
		for _, sp := range sentences.Split(e.Text) {
			said = append(said, words.contentTerms(e.Text[sp.Start:sp.End]))
		}
	}
	var cands []int
	for i := range d.sents {
		if !used[i] && ok[i] && keyPointWorthy(d, &d.sents[i]) {
			cands = append(cands, i)
		}
	}
	// Best score first, ties in document order.
	slices.SortFunc(cands, func(a, b int) int {
		if c := cmp.Compare(scores[b], scores[a]); c != 0 {
			return c
		}
		return a - b
	})
	// One key point per block, and at first no more than a fair share
	// per fifth of the text, spread them over the document's sections.
	blocks := map[int]bool{}
	var picked []int
	share := (opts.MaxKeyPoints + keyPointParts - 1) / keyPointParts
	perPart := make([]int, keyPointParts)
	end := 1
	if len(d.sents) > 0 {
		end = max(1, d.sents[len(d.sents)-1].cend)
	}
	for pass := 0; pass < 2; pass++ {
		for _, i := range cands {
			if len(picked) == opts.MaxKeyPoints {
				break
			}
			part := min(keyPointParts-1, d.sents[i].cstart*keyPointParts/end)
			if blocks[d.sents[i].block] || pass == 0 && perPart[part] >= share {
				continue
			}
			l := utf8.RuneCountInString(sentenceText(d, i))
			if l > budget {
				continue
			}
			terms := words.contentTerms(sentenceText(d, i))
			if words.repeats(terms, said) {
				continue
			}
			blocks[d.sents[i].block] = true
			perPart[part]++
			said = append(said, terms)
			picked = append(picked, i)
			budget -= l
		}
	}
	sort.Ints(picked)
	kps := make([]string, 0, len(picked))
	for _, i := range picked {
		kps = append(kps, sentenceText(d, i))
	}
	if len(kps) == 0 {
		if i := fallbackKeyPoint(d, scores, ok, used); i >= 0 {
			if kp := sentenceText(d, i); utf8.RuneCountInString(kp) <= budget && !words.repeats(words.contentTerms(kp), said) {
				kps = append(kps, kp)
			}
		}
	}
	return kps
}

// fallbackKeyPoint returns the key point of a text where none qualifies:
// the best summary-worthy sentence outside the summary, or -1 when there is
// none (a key point is a sentence or nothing).
func fallbackKeyPoint(d *document, scores []float64, ok, used []bool) int {
	best := -1
	for i := range d.sents {
		if !used[i] && ok[i] && d.sents[i].chars() <= MaxKeyPointChars && (best < 0 || scores[i] > scores[best]) {
			best = i
		}
	}
	return best
}

// keyPointWorthy reports whether s, a summary-worthy sentence, can also
// stand as a key point: at least minKeyPointWords words, a statement
// rather than a question, not leaning on the sentence before it, not a
// title-cased label.
func keyPointWorthy(d *document, s *sentence) bool {
	if s.words < minKeyPointWords || s.chars() > MaxKeyPointChars {
		return false
	}
	str := d.text[s.start:s.end]
	// A question asks rather than states: an FAQ's heading, a prompt.
	if q, _ := utf8.DecodeLastRuneInString(strings.TrimRight(str, "\"'”’)]")); q == '?' || q == '？' {
		return false
	}
	return !anaphoric(str) && !titleCased(str)
}

// titleCased reports a text whose every word of letters starts with a
// capital: a heading or a name, not a statement.
func titleCased(s string) bool {
	words := 0
	for w, rest := nextField(s); w != ""; w, rest = nextField(rest) {
		r, _ := utf8.DecodeRuneInString(strings.TrimLeftFunc(w, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }))
		if !unicode.IsLetter(r) {
			continue
		}
		if !unicode.IsUpper(r) {
			return false
		}
		words++
	}
	return words > 0
}

// hasUpper reports whether s holds an upper-case letter.
func hasUpper(s string) bool {
	return strings.IndexFunc(s, unicode.IsUpper) >= 0
}

// wordIDs numbers the lower-cased content words of the texts it is given,
// so that comparing the words of two texts compares small integers.
type wordIDs struct {
	ids   map[string]int32
	buf   []byte  // tokenize's scratch space
	mark  []int32 // repeats' scratch space: word id → stamp
	stamp int32
}

func newWordIDs() *wordIDs {
	return &wordIDs{ids: map[string]int32{}}
}

// contentTerms returns the numbers of the distinct lower-cased content
// words of s, in order of first appearance.
func (w *wordIDs) contentTerms(s string) []int32 {
	var out []int32
	w.buf = tokenize(s, w.buf, func(tok []byte, stop bool, _ int) {
		if stop {
			return
		}
		id, ok := w.ids[string(tok)]
		if !ok {
			id = int32(len(w.ids))
			w.ids[string(tok)] = id
		}
		if !slices.Contains(out, id) {
			out = append(out, id)
		}
	})
	return out
}

// repeats reports whether the text with content terms t says what one of
// said does: at least duplicateShare of the smaller term set is shared.
func (w *wordIDs) repeats(t []int32, said [][]int32) bool {
	if len(t) == 0 {
		return false
	}
	// Mark t's words, then count the marked words of each said text.
	w.stamp++
	for len(w.mark) < len(w.ids) {
		w.mark = append(w.mark, 0)
	}
	for _, id := range t {
		w.mark[id] = w.stamp
	}
	for _, o := range said {
		if len(o) == 0 {
			continue
		}
		shared := 0
		for _, id := range o {
			if w.mark[id] == w.stamp {
				shared++
			}
		}
		if float64(shared) >= duplicateShare*float64(min(len(t), len(o))) {
			return true
		}
	}
	return false
}

// leadPrefix returns the text's opening that fits in max code points, for
// when no sentence qualifies: from the first sentence not in skip (nil
// skips none) that holds words, preferring one of at least minSummaryWords
// words, whole sentences while they fit,
// else the longest prefix of that sentence ending at a clause or word
// boundary. It returns "" only when no sentence outside skip has words.
func leadPrefix(d *document, skip []bool, max int) string {
	first := -1
	for i := range d.sents {
		if skip != nil && skip[i] || d.sents[i].words == 0 {
			continue
		}
		if first < 0 {
			first = i
		}
		if d.sents[i].words >= minSummaryWords {
			first = i
			break
		}
	}
	if first < 0 {
		return ""
	}
	var b strings.Builder
	total := 0
	for i := first; i < len(d.sents); i++ {
		s := &d.sents[i]
		if skip != nil && skip[i] || s.words == 0 {
			continue
		}
		sep := min(total, 1)
		if total+sep+s.chars() > max {
			break
		}
		if sep > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(d.text[s.start:s.end])
		total += sep + s.chars()
	}
	if b.Len() > 0 {
		return b.String()
	}
	return clausePrefix(d.text[d.sents[first].start:d.sents[first].end], max)
}

// clausePrefix returns the longest prefix of s of at most max code points
// that ends at a word boundary, or at a clause boundary (a comma,
// semicolon, colon or dash) when that keeps most of it; a first word longer
// than max is cut at max.
func clausePrefix(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	cut, n := 0, 0
	word, clause := -1, -1
	for i, r := range s {
		if n == max {
			cut = i
			break
		}
		if unicode.IsSpace(r) {
			word = i
			if i > 0 {
				if p, _ := utf8.DecodeLastRuneInString(s[:i]); p == ',' || p == ';' || p == ':' || p == '—' || p == '–' {
					clause = i
				}
			}
		}
		n++
	}
	// A space right after the limit makes the whole limit a word.
	if r, _ := utf8.DecodeRuneInString(s[cut:]); unicode.IsSpace(r) {
		word = cut
	}
	switch {
	case clause > 0 && clause*3 >= word*2:
		cut = clause
	case word > 0:
		cut = word
	}
	return strings.TrimRightFunc(s[:cut], func(r rune) bool {
		return unicode.IsSpace(r) || r == ',' || r == ';' || r == ':' || r == '—' || r == '–'
	})
}

// pickSummary chooses the summary's sentences, returned in document order:
// the best by a lead-position prior plus centrality (how much of the
// document's salient vocabulary a sentence holds, as a rank share) plus the
// query score, that fit together in max code points. Boilerplate never enters; the lead
// prior counts from the document's own summary (an abstract, an executive
// summary) where it has one. A sentence that points back at the one before
// it enters only with it.
func pickSummary(d *document, scores []float64, max int, ok []bool) []int {
	var worthy []int
	for i := range d.sents {
		if ok[i] {
			worthy = append(worthy, i)
		}
	}
	if len(worthy) == 0 {
		return nil
	}
	origin := 0
	if o := openingStart(d); o >= 0 {
		origin, _ = slices.BinarySearch(worthy, o)
	}
	n := len(d.sents)
	tf := make([]float64, len(d.df))
	for i := range d.sents {
		for _, t := range d.sents[i].terms {
			tf[t]++
		}
	}
	for t := range tf {
		tf[t] *= idf(int(d.df[t]), n)
	}
	cent := make([]float64, len(worthy))
	maxQ := 0.0
	// seen[t] is 1 + the last worthy sentence counted for term t.
	seen := make([]int32, len(d.df))
	for k, i := range worthy {
		var c float64
		for _, t := range d.sents[i].terms {
			if seen[t] != int32(k)+1 {
				seen[t] = int32(k) + 1
				c += tf[t]
			}
		}
		cent[k] = c / math.Sqrt(float64(len(d.sents[i].terms))+1)
		maxQ = math.Max(maxQ, scores[i])
	}
	rankShares(cent)
	type scored struct {
		i int
		v float64
	}
	all := make([]scored, len(worthy))
	for k, i := range worthy {
		// Before the document's own summary comes front matter: it
		// ranks after everything else.
		rank := k - origin
		if k < origin {
			rank = len(worthy) - origin + k
		}
		v := math.Exp(-float64(rank) / summaryLeadDecay)
		v += summaryCentrality * cent[k]
		if maxQ > 0 {
			v += summaryQuery * scores[i] / maxQ
		}
		all[k] = scored{i, v}
	}
	// Best value first, ties in document order; but the opening sentence
	// (the abstract's or the lead's first) before all: a reader of news,
	// a report or an encyclopedia page expects the summary to open where
	// the text does.
	slices.SortFunc(all, func(a, b scored) int {
		if c := cmp.Compare(b.v, a.v); c != 0 {
			return c
		}
		return a.i - b.i
	})
	if origin < len(worthy) {
		k := slices.IndexFunc(all, func(c scored) bool { return c.i == worthy[origin] })
		first := all[k]
		copy(all[1:k+1], all[:k])
		all[0] = first
	}
	var picked []int
	in := map[int]bool{}
	var said [][]int32
	total := 0
	add := func(i int) {
		total += min(total, 1) + d.sents[i].chars()
		picked = append(picked, i)
		in[i] = true
	}
	for _, c := range all {
		if in[c.i] {
			continue
		}
		l := d.sents[c.i].chars()
		sep := min(total, 1)
		terms := d.sents[c.i].terms
		if slices.ContainsFunc(said, func(o []int32) bool { return slices.Equal(o, terms) }) {
			continue
		}
		if prev := c.i - 1; leans(d, c.i) && !in[prev] {
			// Take its antecedent along, or leave it.
			if prev < 0 || !sameBlock(d, prev, c.i) || !ok[prev] || total+sep+d.sents[prev].chars()+1+l > max {
				continue
			}
			add(prev)
			said = append(said, d.sents[prev].terms)
		} else if total+sep+l > max {
			continue
		}
		add(c.i)
		said = append(said, terms)
	}
	sort.Ints(picked)
	return picked
}

// rankShares replaces each of v by its mid-rank among them as a share in
// (0,1): the smallest of n distinct values becomes 0.5/n, the largest
// (n-0.5)/n, and equal values share their mean rank. A share spreads
// evenly over the range whatever the values' distribution, where scaling
// by the largest bunches them (on the summary sets, centrality over the
// document's best has a standard deviation of 0.13-0.22 against a share's
// 0.29), leaving the lead prior to decide almost alone.
func rankShares(v []float64) {
	order := make([]int, len(v))
	for k := range order {
		order[k] = k
	}
	slices.SortStableFunc(order, func(a, b int) int { return cmp.Compare(v[a], v[b]) })
	shares := make([]float64, len(v))
	for lo := 0; lo < len(order); {
		hi := lo + 1
		for hi < len(order) && v[order[hi]] == v[order[lo]] {
			hi++
		}
		// Ranks lo..hi-1 (0-based) share their mean, (lo+hi-1)/2.
		share := (float64(lo+hi-1)/2 + 0.5) / float64(len(v))
		for _, k := range order[lo:hi] {
			shares[k] = share
		}
		lo = hi
	}
	copy(v, shares)
}

// pickOpenSummary is pickSummary whose summary opens with a sentence that
// reads on its own (not anaphoric), unless the text itself opens with that
// sentence: a sentence that would open it pointing back is left out and
// the choice made again.
func pickOpenSummary(d *document, scores []float64, max int, ok []bool) []int {
	var own []bool
	for {
		picked := pickSummary(d, scores, max, ok)
		if len(picked) == 0 || picked[0] == 0 || !anaphoric(d.text[d.sents[picked[0]].start:d.sents[picked[0]].end]) {
			return picked
		}
		if own == nil {
			own = slices.Clone(ok)
			ok = own
		}
		ok[picked[0]] = false
	}
}

// leans reports whether sentence i of d points back at the one before it
// (see connective), so that a summary takes it only with that one.
func leans(d *document, i int) bool {
	return connective(d.text[d.sents[i].start:d.sents[i].end])
}

// summaryWorthy reports whether s reads as a sentence: enough words, a
// letter to start and a stop to end; in a cased text (one with capitals)
// no lower-case start, which marks a fragment left by a wrong split or a
// lost line.
func summaryWorthy(d *document, s *sentence, cased bool) bool {
	if s.words < minSummaryWords {
		return false
	}
	str := labelLines(d.text[s.start:s.end])
	// Opening quotes, brackets and dashes may come first ("(CNN) --",
	// tokenised "-lrb- cnn -rrb-", "`` quoted"); then a letter or digit.
	r, _ := utf8.DecodeRuneInString(strings.TrimLeft(str, "\"“‘'`([«-–— "))
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
		return false
	}
	if cased && unicode.IsLower(r) {
		return false
	}
	if cased && s.words < shortBlockWords && titleCased(str) {
		// A heading, a byline or a name with a stop.
		return false
	}
	if _, value, ok := strings.Cut(str, ":"); ok && cased && s.words < shortBlockWords && titleCased(value) {
		// A field and its names: a credit or a byline ("Photo by:
		// Ann Roe.", "Autor: Max Muster.").
		return false
	}
	// After a field label ("Text: response to …") the same holds.
	if k := strings.IndexByte(str, ':'); cased && k > 0 && k < 16 && !strings.Contains(str[:k], " ") {
		if r, _ := utf8.DecodeRuneInString(strings.TrimSpace(str[k+1:])); unicode.IsLower(r) {
			return false
		}
	}
	end := strings.TrimRight(str, "\"'”’)]")
	if s.words < shortBlockWords && (strings.HasSuffix(end, "..") || strings.HasSuffix(end, "…")) {
		// A short line trailing off is a teaser or a control's state
		// ("Loading..."), not a statement.
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(end)
	return last == '.' || last == '!' || last == '?' || last == '。' || last == '！' || last == '？'
}

// sentenceText returns the text of sentence i as a summary or key point
// shows it: without heading or formula lines a line break ran into it.
func sentenceText(d *document, i int) string {
	return labelLines(d.text[d.sents[i].start:d.sents[i].end])
}

// anaphoric reports a sentence that opens by pointing back at the one
// before it ("However, …", "Similarly, …", "These results …", "It …"),
// so that it does not read on its own.
func anaphoric(s string) bool {
	var buf [32]byte
	switch string(lowerInto(buf[:], strings.TrimRight(firstWords(s, 1), ",;:"))) {
	case "however", "similarly", "likewise", "moreover", "furthermore", "additionally", "also", "thus", "hence",
		"therefore", "consequently", "nevertheless", "nonetheless", "besides", "instead", "otherwise", "meanwhile",
		"accordingly", "conversely", "still", "then", "yet", "but", "and", "or", "so", "it", "its", "they", "their",
		"them", "he", "she", "his", "her", "such", "both", "second", "secondly", "third", "thirdly", "finally", "lastly",
		// German connectives and pronouns that point back ("Damit …",
		// "Er …").
		"er", "jedoch", "außerdem", "daher", "deshalb", "damit", "dadurch", "dabei", "zudem", "allerdings":
		return true
	case "this", "these", "those", "that", "dies", "diese", "dieser", "dieses":
		return !namesDocument(firstWords(s, 3))
	case "in", "on", "as", "for", "by":
		// "In addition, …", "On the other hand, …", "As a result, …",
		// "For example, …", "By contrast, …", "In this case, …".
		two := strings.ToLower(strings.TrimRight(firstWords(s, 2), ","))
		three := strings.ToLower(strings.TrimRight(firstWords(s, 3), ","))
		switch two {
		case "in addition", "in contrast", "by contrast":
			return !strings.HasSuffix(three, " to")
		case "in turn", "as such", "for example", "for instance", "in particular", "as previously", "as noted", "as discussed",
			"as mentioned", "as described", "as shown", "as stated", "as explained", "as indicated", "as above", "as before":
			return true
		case "in this", "in these", "on this", "for this", "for these", "as this":
			return !namesDocument(firstWords(s, 3)[len(firstWords(s, 1))+1:])
		}
		return three == "as a result" || strings.ToLower(strings.TrimRight(firstWords(s, 4), ",")) == "on the other hand"
	}
	return false
}

// namesDocument reports a demonstrative phrase ("this paper", "these
// guidelines", "This Endorsement Agreement": one capitalised word may name
// its kind) that names the document itself rather than something said
// before.
func namesDocument(phrase string) bool {
	f := strings.Fields(phrase)
	if len(f) < 2 {
		return false
	}
	if documentNoun(f[1]) {
		return true
	}
	r, _ := utf8.DecodeRuneInString(f[1])
	return len(f) > 2 && unicode.IsUpper(r) && documentNoun(f[2])
}

// documentNoun reports a word that names a kind of document.
func documentNoun(w string) bool {
	switch strings.ToLower(strings.TrimRight(w, ",;:.")) {
	case "paper", "study", "report", "article", "work", "document", "chapter", "review", "thesis", "book",
		"survey", "guide", "manual", "letter", "note", "section", "analysis", "testimony", "statement", "guidance", "guidelines", "publication",
		"post", "page", "agreement", "contract", "amendment", "policy", "license", "licence", "lease",
		"beitrag", "artikel", "bericht", "studie", "text", "seite", "vertrag", "vereinbarung":
		return true
	}
	return false
}

// connective reports an anaphoric opening other than a personal pronoun
// ("However", "These results"): a summary takes such a sentence only with
// the one before it. A sentence opening with "It" or "They" is left free:
// the pronoun is as often expletive, or names the document's own subject.
func connective(s string) bool {
	if !anaphoric(s) {
		return false
	}
	var buf [32]byte
	switch string(lowerInto(buf[:], strings.TrimRight(firstWords(s, 1), ",;:"))) {
	case "it", "its", "they", "their", "them", "he", "she", "his", "her":
		return false
	}
	return true
}

// firstWords returns the first n space-separated words of s, joined by
// single spaces. Punctuation before the first word (the mark that opens a
// quotation or a bracket: "“However", "(It") is not part of it.
func firstWords(s string, n int) string {
	s = strings.TrimLeftFunc(s, func(r rune) bool { return unicode.IsPunct(r) || unicode.IsSpace(r) })
	// Most texts separate their first words by single spaces: then the
	// words are a slice of s.
	t := s
	for t != "" && wordSep(t[0]) {
		t = t[1:]
	}
	end := 0
	for k := 0; k < n && end < len(t); k++ {
		if k > 0 {
			if t[end] != ' ' || end+1 == len(t) || wordSep(t[end+1]) {
				return joinFirstWords(s, n)
			}
			end++
		}
		for end < len(t) && !wordSep(t[end]) {
			end++
		}
	}
	return t[:end]
}

// joinFirstWords is firstWords for any separators.
func joinFirstWords(s string, n int) string {
	var b strings.Builder
	for k := 0; k < n; k++ {
		s = strings.TrimLeft(s, " \t\n"+normalize.PageBreak)
		if s == "" {
			break
		}
		end := strings.IndexAny(s, " \t\n"+normalize.PageBreak)
		if end < 0 {
			end = len(s)
		}
		if k > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(s[:end])
		s = s[end:]
	}
	return b.String()
}

// fitSummary returns the longest opening of summary, whole sentences
// while any fits, else a prefix ending at a clause or word boundary, that
// makes a digest of it and the snippets at most limit code points. It is
// the last resort of a tiny text whose summary and best snippet overlap
// in a way the summary's own segmentation does not show.
func fitSummary(summary string, snips []EvidenceSnippet, limit int) string {
	fits := func(s string) bool {
		p := Payload{Summary: s, EvidenceSnippets: snips}
		return CountDigestChars(&p) <= limit
	}
	spans := sentences.Split(summary)
	for k := len(spans) - 1; k >= 1; k-- {
		if s := summary[:spans[k-1].End]; fits(s) {
			return s
		}
	}
	for n := utf8.RuneCountInString(summary) - 1; n > 0; n-- {
		if s := clausePrefix(summary, n); fits(s) {
			return s
		}
	}
	return ""
}
