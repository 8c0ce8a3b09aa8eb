package digest

import (
	"cmp"
	"math"
	"slices"
	"strings"
	"unicode/utf8"
)

// Passage scoring and selection constants.
const (
	// anchorWeight and anchorWeight2 add the evidence scores of a window's
	// first and second sentences to the window's own: answers tend to sit
	// at or right after the sentence that matches the question.
	anchorWeight  = 1.0
	anchorWeight2 = 0.25
	// evidenceB is BM25's length normalisation for sentence evidence
	// scores; it is weaker than for documents because a long sentence
	// that holds the query is usually the one that states the answer.
	evidenceB = 0.5
	// proximityWeight scales the bonus of query terms close together in a
	// sentence (in content words, at most proximityReach apart).
	proximityWeight = 0.5
	proximityReach  = 4
	// definitionBonus raises, for "what is X" questions, sentences where a
	// query term is followed by a copula or an apposition.
	definitionBonus = 0.3
	// clauseGap is the least distance in code points between the starts
	// of two windows inside one sentence longer than a window.
	clauseGap = 250
	// rerankDepth is how many of the best candidates selection considers.
	rerankDepth = 300
	// headingWeight adds, to a window's score, that share of the evidence
	// score of the section heading the window sits under (see headings):
	// in a structured text a question often names the section that
	// answers it ("Which datasets…" under "Datasets") in words the
	// passage itself does not repeat.
	headingWeight = 1.0
	// headingWords is the most words a heading has.
	headingWords = 12
)

// windowSentences is the most whole sentences a window holds: a window is
// the sentence that matches and what follows it up to the snippet bound,
// and beyond a few sentences the rest is seldom the answer but always costs
// the reader. A variable only so that the fit (TestFitWindowWeights) can
// measure it; nothing sets it.
var windowSentences = 4

// The weights above were chosen on the three evidence dev sets pooled
// (biomedical papers, encyclopedia articles, NLP papers): each set's
// recall@10, hit@1 and MRR@10 against BM25 sentence windows, every half
// of every set counted, the characters a question kept at or under the
// baseline's; docs/evidence.md has the ablation of every signal and the
// figures with the weights chosen on two sets and scored on the third.
// Measured again on four genres (contracts added), each choice undone
// alone: the lead prior (leadWeight) came back, since it raises the
// biomedical papers and costs neither the encyclopedia articles nor the
// contracts; it costs only the NLP papers, whose labels reject the
// abstract by construction.

// candidate is a scored window of consecutive sentences [first, last] of one
// block and page.
type candidate struct {
	w           window
	first, last int
	length      int     // terms in the window
	tf          []int32 // frequency of each query term in the window
	score       float64 // the window's raw score: BM25, anchors and heading
	rank        float64 // the score selection orders by (see windowWeights)
	lead        float64 // the lead factor of rank (see weigh)
	mid         bool    // starts inside sentence first
	tail        int     // bytes after the last query term, in a window that cuts a sentence
	fill        bool    // one sentence of a longer window, chosen only when no whole window fits
}

// windowCandidates returns the scored candidate windows, best first. Every
// sentence from which a query term is within reach starts a window of the
// whole following sentences of its page (blocks included) that fit in max
// code points, at most windowSentences, or its own text clipped at a word
// boundary when even that is longer; a sentence with a query term that does not fill its window alone
// also gives a one-sentence fill candidate, and a sentence longer than max
// starts more windows at its clause boundaries. The score is BM25 over the
// window's terms plus the evidence scores of its first two sentences and of
// the heading it sits under; windows scoring zero are left out.
func windowCandidates(d *document, q queryModel, question string, max int) ([]candidate, *windowScorer) {
	if len(q.terms) == 0 || len(d.sents) == 0 {
		return nil, nil
	}
	sentScore := evidenceScores(d, q, question)
	slot := q.slots(len(d.df))
	nq := len(q.terms)
	// Per-sentence query term frequencies, flattened.
	tf := make([]int32, len(d.sents)*nq)
	hits := make([]bool, len(d.sents))
	for i := range d.sents {
		for _, t := range d.sents[i].terms {
			if k := slot[t]; k >= 0 {
				tf[i*nq+int(k)]++
				hits[i] = true
			}
		}
	}
	// pageLast[i] is the last sentence of sentence i's page. Windows may
	// run across blocks of a page: answers in papers often span a
	// paragraph break, and a window that stops at the block end would cut
	// them.
	pageLast := make([]int, len(d.sents))
	for i := len(d.sents) - 1; i >= 0; i-- {
		pageLast[i] = i
		if i+1 < len(d.sents) && d.sents[i+1].page == d.sents[i].page {
			pageLast[i] = pageLast[i+1]
		}
	}
	var cands []candidate
	wtf := make([]int32, nq)
	var tfs []int32
	// buildWindow returns the candidate that starts in sentence i at byte
	// from (code point cfrom), a word start, and ends at byte limit or
	// before, at a word boundary.
	buildWindow := func(i, from, cfrom, limit int) (candidate, bool) {
		s := &d.sents[i]
		w, ok := prefixAt(d, s, from, cfrom, limit, max)
		if !ok {
			return candidate{}, false
		}
		clear(wtf)
		length := 0
		last := i
		tail := 0
		for k := i; k <= pageLast[i] && d.sents[k].start < w.bend; k++ {
			last = k
			sk := &d.sents[k]
			if sk.end <= w.bend && sk.start >= from {
				row := tf[k*nq : (k+1)*nq]
				for x, v := range row {
					wtf[x] += v
				}
				length += len(sk.terms)
				continue
			}
			// The terms ending after from: a binary search, since a
			// sentence longer than a window has many windows.
			first, _ := slices.BinarySearchFunc(sk.ends, from-sk.start, func(e int32, b int) int {
				return cmp.Compare(int(e), b+1)
			})
			for t := first; t < len(sk.terms); t++ {
				id := sk.terms[t]
				if sk.start+int(sk.ends[t]) > w.bend {
					break
				}
				length++
				if x := slot[id]; x >= 0 {
					wtf[x]++
					tail = w.bend - (sk.start + int(sk.ends[t]))
				}
			}
		}
		if length == 0 {
			return candidate{}, false
		}
		if len(tfs) < nq {
			// The candidates' frequencies share blocks of memory.
			tfs = make([]int32, 256*nq)
		}
		c := candidate{w: w, first: i, last: last, length: length, tf: tfs[:nq:nq], tail: tail}
		tfs = tfs[nq:]
		copy(c.tf, wtf)
		return c, true
	}
	// lastFit returns the last sentence j ≥ i of sentence i's page such
	// that the text from code point cfrom (inside sentence i) to the end
	// of j fits in max code points and spans at most maxSentences
	// sentences, or i-1 when not even sentence i's rest fits.
	lastFit := func(i, cfrom int) int {
		j := i - 1
		for k := i; k <= pageLast[i] && k-i < windowSentences && d.sents[k].cend-cfrom <= max; k++ {
			j = k
		}
		return j
	}
	// limitAt is the byte offset a window starting at cfrom in sentence
	// i ends at: the end of its last whole sentence, or the end of
	// sentence i, to be cut at a word boundary, when even its rest is
	// longer than a window.
	limitAt := func(i, cfrom int) int {
		if j := lastFit(i, cfrom); j >= i {
			return d.sents[j].end
		}
		return d.sents[i].end
	}
	for i := range d.sents {
		s := &d.sents[i]
		// Skip windows that cannot reach a query term.
		reach := false
		for k := i; k <= pageLast[i] && d.sents[k].cstart < s.cstart+max; k++ {
			if hits[k] {
				reach = true
				break
			}
		}
		if !reach {
			continue
		}
		// The window holds the whole sentences from i on that fit.
		lim := limitAt(i, s.cstart)
		if c, ok := buildWindow(i, s.start, s.cstart, lim); ok {
			cands = append(cands, c)
		}
		if lim > s.end && hits[i] {
			if c, ok := buildWindow(i, s.start, s.cstart, s.end); ok {
				c.fill = true
				cands = append(cands, c)
			}
		}
		// A sentence too long for one window is windowed within itself:
		// windows also start at its clause and separator boundaries (a
		// table flattened into one line, a list with separators), and
		// where none comes for three quarters of a window, at a word
		// boundary, so that no part of it is out of every window's reach
		// (any span of up to a quarter window lies whole inside one).
		if s.chars() > max {
			str := d.text[s.start:s.end]
			gap := min(clauseGap, max/2)
			lastC, cp := 0, 0
			for b := 0; b < len(str); {
				r, n := utf8.DecodeRuneInString(str[b:])
				b += n
				cp++
				if b >= len(str) || str[b] != ' ' {
					continue
				}
				if clauseMark(r) && cp-lastC >= gap || cp-lastC >= max*3/4 {
					if c, ok := buildWindow(i, s.start+b+1, s.cstart+cp+1, limitAt(i, s.cstart+cp+1)); ok {
						c.mid = true
						cands = append(cands, c)
					}
					lastC = cp + 1
				}
			}
			// Windows also open a quarter window before each stretch of
			// query terms, so that what follows a match is shown with it
			// wherever the punctuation falls.
			// Both offsets only move forward, so a cursor keeps the
			// byte-to-code-point conversions linear in the sentence.
			last := -max
			var end, start runeCursor
			for t, id := range s.terms {
				if slot[id] < 0 {
					continue
				}
				endB := int(s.ends[t])
				endC := end.toByte(str, endB)
				if endC-last < max/2 {
					continue
				}
				// The first word start at or after a quarter window
				// before the term's end.
				from, fromC := 0, 0
				if target := endC - max/4; target > 0 {
					from = start.toRune(str, target)
					fromC = start.c // target, or past it if an earlier term's start was
					for from < endB && str[from] != ' ' {
						_, n := utf8.DecodeRuneInString(str[from:])
						from += n
						fromC++
					}
					from, fromC = from+1, fromC+1
				}
				if fromC == 0 {
					continue // the sentence's own window starts there
				}
				last = endC
				if c, ok := buildWindow(i, s.start+from, s.cstart+fromC, limitAt(i, s.cstart+fromC)); ok {
					c.mid = true
					cands = append(cands, c)
				}
			}
		}
	}
	// Length normalisation is relative to the mean candidate window.
	var sum float64
	for _, c := range cands {
		sum += float64(c.length)
	}
	sc := &windowScorer{
		q: q, tf: tf, sentScore: sentScore, heading: headings(d),
		avgw:      math.Max(sum/math.Max(float64(len(cands)), 1), 1),
		textChars: math.Max(float64(d.sents[len(d.sents)-1].cend), 1),
		sentStart: sentStarts(d),
		w:         &windowWeights,
	}
	kept := cands[:0]
	for _, c := range cands {
		sc.score(&c)
		if c.score > 0 {
			kept = append(kept, c)
		}
	}
	cands = kept
	sortCandidates(cands)
	return cands, sc
}

// sentStarts returns the code point offset of each sentence of d.
func sentStarts(d *document) []int {
	out := make([]int, len(d.sents))
	for i := range d.sents {
		out[i] = d.sents[i].cstart
	}
	return out
}

// runeCursor converts between byte and code point offsets of one string,
// moving only forward: each call starts where the last one stopped.
type runeCursor struct{ b, c int }

// toByte returns the code point offset of byte offset b (a rune boundary at
// or after the last one asked for).
func (k *runeCursor) toByte(s string, b int) int {
	k.c += utf8.RuneCountInString(s[k.b:b])
	k.b = b
	return k.c
}

// toRune returns the byte offset of code point offset c (at or after the
// last one asked for), or len(s) past its end.
func (k *runeCursor) toRune(s string, c int) int {
	for k.c < c && k.b < len(s) {
		_, n := utf8.DecodeRuneInString(s[k.b:])
		k.b += n
		k.c++
	}
	return k.b
}

// clauseMark reports a mark that ends a clause or separates the items of
// a run-on line when a space follows it: a comma, semicolon or colon, a
// table's cell bar, a bullet, a middle dot, a dash.
func clauseMark(r rune) bool {
	switch r {
	case ',', ';', ':', '|', '،', '、', '，', '；':
		return true
	}
	return false
}

// sortCandidates orders cands best first by rank, then by the room they
// leave after their last query term (of two windows of a long sentence
// that hold the same matches, the one that shows what follows them), then
// by position: a total order keeps the result deterministic.
func sortCandidates(cands []candidate) {
	slices.SortFunc(cands, func(a, b candidate) int {
		if a.rank != b.rank {
			if a.rank > b.rank {
				return -1
			}
			return 1
		}
		if a.tail != b.tail {
			return b.tail - a.tail
		}
		if a.first != b.first {
			return a.first - b.first
		}
		return a.w.cstart - b.w.cstart
	})
}

// windowScorer scores candidate windows: BM25 over the window's terms,
// length-normalised against the mean candidate, plus the evidence scores of
// its first two sentences and of its section heading.
type windowScorer struct {
	q         queryModel
	tf        []int32   // per-sentence query term frequencies, flattened
	sentScore []float64 // evidence score of each sentence
	heading   []int     // the heading each sentence sits under, or -1
	avgw      float64   // mean candidate length in terms
	textChars float64   // the text's length in code points
	sentStart []int     // the code point offset of each sentence
	w         *[windowFeatures]float64
}

// Window ranking features, in the order of windowWeights. Five more were
// measured with TestFitWindowWeights and earned nothing on the three
// evidence sets (docs/evidence.md): the later sentences' evidence, the
// evidence of the sentence before, the share of the query's weight held,
// opening a block, and the weight of query terms only the heading holds.
//
// The lead features are not added but multiply the sum of the others by
// 1 + w·x (see weigh): a prior on where in the text the window starts, which
// raises an early window by a share of its own score.
const (
	wfBM25     = iota // BM25 over the window's terms
	wfFirst           // evidence score of the window's first sentence
	wfSecond          // evidence score of its second sentence
	wfHeading         // evidence score of the heading it sits under
	wfLead            // exp(−x/(leadDecay·L)) for a window x code points into a text of L
	wfLeadNear        // exp(−x/leadReach): the first few paragraphs of any text
	windowFeatures
)

// leadWeight raises a window that starts x code points into a text of L
// by the factor 1 + leadWeight·exp(−x/(leadDecay·L)) (the wfLead feature):
// reports, papers, news and encyclopedia pages state their main points
// early, and real questions about a page are answered in its lead more
// often than anywhere else. The near lead (wfLeadNear, the first
// paragraphs of any text alone) earned less and stays off. Chosen on the
// genres whose labels accept a lead (docs/evidence.md): the NLP papers'
// labels reject the abstract by construction.
const leadWeight = 0.4

// firstLead is the power of the lead factor the first window is chosen
// by (see pickWindows): the best match nearly wherever it stands, the
// earlier of two comparable ones. A variable only so that the fit
// (TestFitWindowWeights) can measure it; nothing sets it.
var firstLead = 0.25

// leadDecay and leadReach set how fast the lead features fall with a
// window's start: over a share of the text, and over a distance in code
// points.
const (
	leadDecay = 0.3
	leadReach = 2000
)

// firstLeadFeature is the first of the multiplying features.
const firstLeadFeature = wfLead

// windowWeights weighs the window features into the rank selection
// orders windows by (see TestFitWindowWeights).
var windowWeights = [windowFeatures]float64{wfBM25: 1, wfFirst: anchorWeight, wfSecond: anchorWeight2, wfHeading: headingWeight, wfLead: leadWeight}

// features returns c's ranking features from c.tf and c.length.
func (sc *windowScorer) features(c *candidate) [windowFeatures]float64 {
	var x [windowFeatures]float64
	q := sc.q
	norm := bm25K1 * (1 - bm25B + bm25B*float64(c.length)/sc.avgw)
	for k, v := range c.tf {
		if v == 0 {
			continue
		}
		f := float64(v)
		x[wfBM25] += q.weight[k] * f * (bm25K1 + 1) / (f + norm)
	}
	x[wfFirst] = sc.sentScore[c.first]
	if c.first+1 <= c.last {
		x[wfSecond] = sc.sentScore[c.first+1]
	}
	if h := sc.heading[c.first]; h >= 0 && h != c.first {
		x[wfHeading] = sc.sentScore[h]
	}
	// The lead features read where the window's first sentence starts,
	// not the window: every window inside one long sentence stands at the
	// same place in the text, and is told apart by what it shows.
	at := float64(sc.sentStart[c.first])
	x[wfLead] = math.Exp(-at / (leadDecay * sc.textChars))
	x[wfLeadNear] = math.Exp(-at / leadReach)
	return x
}

// score sets c's score (its additive features weighed by windowWeights),
// its rank (the score times the lead factor, weighed by sc.w: the same
// weights unless a fit tries others) and the lead factor, from c.tf and
// c.length.
func (sc *windowScorer) score(c *candidate) {
	x := sc.features(c)
	c.score, c.lead = weigh(&windowWeights, &x)
	c.rank = c.score * c.lead
	if sc.w != &windowWeights {
		v, lead := weigh(sc.w, &x)
		c.rank, c.lead = v*lead, lead
	}
}

// weigh returns the sum of the additive features x weighed by w, and the
// lead factor: 1 plus the multiplying ones weighed by w. A window's score
// is the sum, which calibration reads; its rank, which selection orders
// by, is the sum times the lead factor.
func weigh(w, x *[windowFeatures]float64) (v, lead float64) {
	var f float64
	for k := range firstLeadFeature {
		v += w[k] * x[k]
	}
	for k := firstLeadFeature; k < windowFeatures; k++ {
		f += w[k] * x[k]
	}
	return v, 1 + f
}

// headings returns, for each sentence of d, the last heading at or before
// it, or -1: a heading is a block of one sentence of at most headingWords
// words that does not end in punctuation (a section title, not a line of
// running text).
func headings(d *document) []int {
	out := make([]int, len(d.sents))
	cur := -1
	for i := range d.sents {
		s := &d.sents[i]
		alone := (i == 0 || d.sents[i-1].block != s.block) && (i+1 == len(d.sents) || d.sents[i+1].block != s.block)
		if alone && s.words > 0 && s.words <= headingWords {
			t := strings.TrimSpace(d.text[s.start:s.end])
			if r, _ := utf8.DecodeLastRuneInString(t); !strings.ContainsRune(".!?:;,", r) {
				cur = i
			}
		}
		out[i] = cur
	}
	return out
}

// cutBefore returns c cut to its whole sentences before the chosen window
// o, rescored, or false when c does not start before o, starts inside a
// sentence, or keeps no query term. A nil scorer cuts nothing.
func (sc *windowScorer) cutBefore(d *document, c candidate, o *candidate) (candidate, bool) {
	j := o.first
	if sc == nil || c.fill || c.mid || j <= c.first || c.w.cstart >= o.w.cstart {
		return candidate{}, false
	}
	nq := len(sc.q.terms)
	tf := make([]int32, nq)
	length := 0
	for k := c.first; k < j; k++ {
		for x, v := range sc.tf[k*nq : (k+1)*nq] {
			tf[x] += v
		}
		length += len(d.sents[k].terms)
	}
	if length == 0 || !slices.ContainsFunc(tf, func(v int32) bool { return v > 0 }) {
		return candidate{}, false
	}
	c.last = j - 1
	c.w.bend, c.w.cend = d.sents[j-1].end, d.sents[j-1].cend
	c.tf, c.length = tf, length
	sc.score(&c)
	return c, c.score > 0
}

// pickWindows chooses up to n of the best rerankDepth candidates greedily
// by score, skipping any that repeats text a chosen window already shows
// (see trimRepeats). A candidate that overlaps a chosen window is cut to
// its whole sentences before the first such window and rescored by sc (see
// cutBefore), or skipped when nothing of it is left; the answer a window
// opens with then still has a chance when a better window starts right
// after it. When no whole window fits any more, it
// fills the gaps with single sentences (fill candidates) the same way. Ties
// go to the earlier candidate in cands' order, so the choice is
// deterministic.
func pickWindows(d *document, cands []candidate, n int, sc *windowScorer) []candidate {
	// The best rerankDepth whole windows, then the best rerankDepth
	// single sentences that fill gaps.
	pool := make([]candidate, 0, min(len(cands), 2*rerankDepth))
	for _, fill := range []bool{false, true} {
		k := 0
		for _, c := range cands {
			if c.fill == fill && k < rerankDepth {
				pool = append(pool, c)
				k++
			}
		}
	}
	cands = pool
	lim := len(cands)
	used := make([]bool, lim)
	var out []candidate
	var shownText []string
	fill := false
	for len(out) < n {
		best, bestV := -1, 0.0
		for k := range lim {
			if used[k] || cands[k].fill != fill {
				continue
			}
			c := &cands[k]
			if o := firstOverlap(out, c); o >= 0 {
				// A window that runs into a chosen one keeps its
				// sentences before it.
				cut, ok := sc.cutBefore(d, *c, &out[o])
				if !ok || overlapsAny(out, &cut) {
					used[k] = true
					continue
				}
				*c = cut
			}
			v := c.rank
			if len(out) == 0 && firstLead != 1 {
				// The first window takes the lead factor only at the
				// power firstLead: the best match nearly wherever it
				// stands, the earlier of two comparable ones.
				v /= math.Pow(c.lead, 1-firstLead)
			}
			if best < 0 || v > bestV {
				best, bestV = k, v
			}
		}
		if best < 0 {
			if fill {
				break
			}
			// No whole window fits any more: fill the gaps with single
			// sentences that hold a query term.
			fill = true
			continue
		}
		used[best] = true
		c := cands[best]
		if !trimRepeats(d, out, shownText, &c) {
			continue
		}
		out = append(out, c)
		shownText = append(shownText, foldText(d.text[c.w.bstart:c.w.bend]))
	}
	return out
}

// overlapsAny reports whether c shares text with a chosen window.
func overlapsAny(chosen []candidate, c *candidate) bool {
	return firstOverlap(chosen, c) >= 0
}

// firstOverlap returns the index of the chosen window that shares text
// with c and starts first, or -1.
func firstOverlap(chosen []candidate, c *candidate) int {
	o := -1
	for k := range chosen {
		x := &chosen[k]
		if c.w.cstart < x.w.cend && x.w.cstart < c.w.cend && (o < 0 || x.w.cstart < chosen[o].w.cstart) {
			o = k
		}
	}
	return o
}

// trimRepeats cuts c before its first sentence with the same terms as a
// sentence a chosen window shows (a repeated caption, heading or
// boilerplate line), and reports whether anything new is left: false when
// c opens with such a sentence, or when its text contains, or is contained
// in, a chosen window's text. shown holds the chosen windows' texts folded
// by foldText.
func trimRepeats(d *document, chosen []candidate, shown []string, c *candidate) bool {
	for i := c.first; i <= c.last; i++ {
		if len(d.sents[i].terms) == 0 || !shownSentence(d, chosen, &d.sents[i]) {
			continue
		}
		if i == c.first {
			return false
		}
		c.last = i - 1
		c.w.bend, c.w.cend = d.sents[i-1].end, d.sents[i-1].cend
		break
	}
	t := foldText(d.text[c.w.bstart:c.w.bend])
	for _, s := range shown {
		if strings.Contains(s, t) || strings.Contains(t, s) {
			return false
		}
	}
	return true
}

// shownSentence reports whether a chosen window holds a sentence with the
// same terms as s.
func shownSentence(d *document, chosen []candidate, s *sentence) bool {
	for _, o := range chosen {
		for j := o.first; j <= o.last; j++ {
			if slices.Equal(s.terms, d.sents[j].terms) {
				return true
			}
		}
	}
	return false
}

// foldText lower-cases s and collapses its white space runs to one space.
func foldText(s string) string {
	return strings.Join(strings.Fields(strings.ToLower(s)), " ")
}

// evidenceScores returns each sentence's evidence score for q: BM25 with
// evidenceB, plus a bonus for query terms close together, raised by
// definitionBonus for a sentence that defines a query term when the
// question asks what something is, and by typeBonus for a sentence that
// holds a token of the answer type the question asks for near a query term
// (see questionType).
func evidenceScores(d *document, q queryModel, question string) []float64 {
	scores := bm25Sentences(d, q, evidenceB)
	slot := q.slots(len(d.df))
	last := make([]int, len(q.terms))
	def := definitionQuestion(question)
	typ := questionType(question)
	var ts typeScratch
	for i, sc := range scores {
		if sc == 0 {
			continue
		}
		s := &d.sents[i]
		scores[i] += proximityWeight * proximity(s, q, slot, last)
		if def && defines(d, s, slot) {
			scores[i] *= 1 + definitionBonus
		}
		if typ != typeNone && typeNear(d, s, slot, typ, &ts) {
			scores[i] *= 1 + typeBonus
		}
	}
	return scores
}

// proximity returns the sum, over each occurrence of a query term and each
// other query term seen at most proximityReach content words before it, of
// the lesser idf of the two over the squared distance. slot maps term ids
// to query positions (-1 for other terms); last is scratch space of one
// int per query term.
func proximity(s *sentence, q queryModel, slot []int32, last []int) float64 {
	for k := range last {
		last[k] = -proximityReach - 1
	}
	var b float64
	for p, t := range s.terms {
		k := slot[t]
		if k < 0 {
			continue
		}
		for j, lp := range last {
			if j == int(k) {
				continue
			}
			if dist := p - lp; dist <= proximityReach {
				b += math.Min(q.weight[j], q.weight[k]) / float64(dist*dist)
			}
		}
		last[k] = p
	}
	return b
}

// definitionQuestion reports questions that ask what something is or
// what kind of thing it is.
func definitionQuestion(question string) bool {
	l := strings.ToLower(strings.TrimSpace(question))
	for _, p := range []string{"what is ", "what are ", "what was ", "what were ", "who is ", "who are ", "define ",
		"what type of ", "what types of ", "what kind of ", "what kinds of ", "what sort of ", "what class of "} {
		if strings.HasPrefix(l, p) {
			return true
		}
	}
	return false
}

// defines reports whether a query term in sentence s is followed by a
// copula or an apposition that introduces a definition ("X is a", "X, a",
// "X (", "X refers to").
func defines(d *document, s *sentence, slot []int32) bool {
	str := d.text[s.start:s.end]
	for k, t := range s.terms {
		if slot[t] < 0 {
			continue
		}
		// A term that ends a bracket ("X (Y), a Z") is defined after it.
		rest := strings.TrimLeft(str[s.ends[k]:], ")]")
		if len(rest) > 24 {
			rest = rest[:24]
		}
		for _, p := range [...]string{" is a ", " is an ", " is the ", " are a ", " are the ", " was a ", " was an ", " was the ", " were the ", ", a ", ", an ", " refers to", " is defined", " are defined", " is one of", " are one of", " is known as", " consists of", " is also known", " are also known", " (", ", also known", " are "} {
			if len(rest) >= len(p) && strings.EqualFold(rest[:len(p)], p) {
				return true
			}
		}
	}
	return false
}
