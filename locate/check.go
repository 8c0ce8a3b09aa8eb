package locate

import (
	"math"
	"sort"
	"strings"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/digest/sentences"
)

// Status is the outcome of checking one citation.
type Status string

// The statuses a citation can have.
const (
	// StatusSupported: the quote is inside the cited span (or, with no span
	// cited, in the source); without a quote, the cited span (or the best
	// span of the source) supports the sentence (see SupportThreshold).
	StatusSupported Status = "supported"
	// StatusMoved: the quote, or the sentence's support, is in the source but
	// not at the cited span; Verdict.Start/End give where.
	StatusMoved Status = "moved"
	// StatusNotFound: the quote is not in the source, or nothing in it supports
	// the sentence.
	StatusNotFound Status = "not_found"
	// StatusUnknownSource: the citation names no source of the request and no
	// archived text.
	StatusUnknownSource Status = "unknown_source"
)

// maxCitedSpan bounds the cited spans (in code points) a quote is looked
// for in on their own, so a report cannot make the checker index the whole
// text once per citation.
const maxCitedSpan = 20_000

// SupportThreshold is the support score at which a span supports a
// sentence cited without a quote (see Support).
const SupportThreshold = 0.5

// Verdict is the check of one citation against its source's index.
type Verdict struct {
	Status Status
	// Match is how the quote was found (Kind NotFound without a quote).
	Match Match
	// Found reports whether Start/End name a span: the quote's, or for an
	// unquoted citation the supporting span.
	Found      bool
	Start, End int
	// SupportStart/End and Score: for a citation without a quote, the
	// best-supporting span of the source and its support score.
	HasSupport               bool
	SupportStart, SupportEnd int
	Score                    float64
}

// CheckCitation classifies c against the index of its source. The cited
// locator, when present, is checked against the text; a locator that does
// not parse or lies outside the text is a wrong place.
func (ix *Index) CheckCitation(c Citation, minSim float64) Verdict {
	var cited *digest.Locator
	if c.Cited != nil && c.Cited.End <= ix.Len() {
		if _, err := c.Cited.Slice(ix.text); err == nil {
			cited = c.Cited
		}
	}
	hasLocator := c.Locator != ""
	if c.Quote != "" {
		v := Verdict{}
		m := ix.Locate(c.Quote, minSim)
		if cited != nil {
			if m.Kind != NotFound && m.Start >= cited.Start && m.End <= cited.End {
				return Verdict{Status: StatusSupported, Match: m, Found: true, Start: m.Start, End: m.End}
			}
			// The quote may also be inside the cited span when its first
			// place in the text is elsewhere: look in the span alone (a
			// small index; long spans rely on the first place).
			if cited.Len() <= maxCitedSpan {
				sub := NewIndex(ix.Slice(cited.Start, cited.End))
				if sm := sub.Locate(c.Quote, minSim); sm.Kind != NotFound && sm.Kind.Rank() <= m.Kind.Rank() {
					sm.Start += cited.Start
					sm.End += cited.Start
					return Verdict{Status: StatusSupported, Match: sm, Found: true, Start: sm.Start, End: sm.End}
				}
			}
		}
		v.Match = m
		switch {
		case m.Kind == NotFound:
			v.Status = StatusNotFound
		case hasLocator:
			v.Status, v.Found, v.Start, v.End = StatusMoved, true, m.Start, m.End
		default:
			v.Status, v.Found, v.Start, v.End = StatusSupported, true, m.Start, m.End
		}
		return v
	}
	v := Verdict{Match: Match{Kind: NotFound}}
	s, e, score := ix.Support(c.Sentence)
	v.HasSupport, v.SupportStart, v.SupportEnd, v.Score = score > 0, s, e, score
	if cited != nil {
		if cs := ix.supportScore(c.Sentence, cited.Start, cited.End); cs >= SupportThreshold {
			v.Status, v.Found, v.Start, v.End = StatusSupported, true, cited.Start, cited.End
			return v
		}
	}
	switch {
	case score < SupportThreshold:
		v.Status = StatusNotFound
	case hasLocator:
		v.Status, v.Found, v.Start, v.End = StatusMoved, true, s, e
	default:
		v.Status, v.Found, v.Start, v.End = StatusSupported, true, s, e
	}
	return v
}

// sentenceIndex holds the text's sentences for Support.
type sentenceIndex struct {
	spans []struct{ start, end int } // code points
	// firstTok[i]: index of the first token of sentence i; tokens are in
	// text order, so sentence i holds tokens firstTok[i]..firstTok[i+1]-1.
	firstTok []int
	df       map[int32]int
}

func (ix *Index) sentenceIndex() *sentenceIndex {
	ix.sentOnce.Do(func() {
		si := &sentenceIndex{df: map[int32]int{}}
		t := 0
		for _, sp := range sentences.Split(ix.text) {
			s, e := ix.cpOfByte(sp.Start), ix.cpOfByte(sp.End)
			for t < len(ix.tokens) && int(ix.tokens[t].start) < s {
				t++
			}
			si.spans = append(si.spans, struct{ start, end int }{s, e})
			si.firstTok = append(si.firstTok, t)
			seen := map[int32]bool{}
			for u := t; u < len(ix.tokens) && int(ix.tokens[u].end) <= e; u++ {
				if !seen[ix.tokens[u].id] {
					seen[ix.tokens[u].id] = true
					si.df[ix.tokens[u].id]++
				}
			}
		}
		si.firstTok = append(si.firstTok, len(ix.tokens))
		ix.sents = si
	})
	return ix.sents
}

// stopWords are words too common to count as support.
var stopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an and are as at be been but by can could did do does for from had has have he her his
		how i if in into is it its may might more most no not of on or our she should so such than that the their
		them then there these they this those to was we were what when where which while who will with would you also
		both each many much other some were been being however thus therefore`) {
		stopWords[w] = true
	}
}

// sentenceTerms are the distinct content words of a sentence with their
// weights: idf over the text's sentences, ln(1 + N/df), and ln(1 + N) for a
// word the text lacks.
func (ix *Index) sentenceTerms(sentence string) (ids []int32, weights []float64) {
	si := ix.sentenceIndex()
	n := float64(len(si.spans))
	seen := map[string]bool{}
	f := fold(sentence)
	var words []string
	tokenize(f, func(w []byte) int32 { words = append(words, string(w)); return 0 })
	for _, w := range words {
		if seen[w] || stopWords[w] || len([]rune(w)) < 2 {
			continue
		}
		seen[w] = true
		id := ix.vocab[w]
		df := float64(si.df[id])
		if id == 0 {
			df = 0
		}
		ids = append(ids, id)
		weights = append(weights, math.Log(1+(n+1)/(df+1)))
	}
	return ids, weights
}

// Support returns the span of the text that best supports sentence, by the
// support score, and the score. Candidate spans are the text's sentences
// and pairs of neighbouring sentences; the score of a span is the share
// of the sentence's content-word weight (idf over the text's sentences;
// stop words and one-letter words left out) found among the span's words,
// in [0,1]. Ties go to the shorter span, then the earlier. Deterministic:
// the same text and sentence give the same answer.
func (ix *Index) Support(sentence string) (start, end int, score float64) {
	ids, weights := ix.sentenceTerms(sentence)
	si := ix.sentenceIndex()
	if len(ids) == 0 || len(si.spans) == 0 {
		return 0, 0, 0
	}
	total := 0.0
	want := map[int32]float64{}
	for i, id := range ids {
		total += weights[i]
		if id != 0 {
			want[id] = weights[i]
		}
	}
	// Per sentence, the set of wanted words it has.
	has := make([]map[int32]bool, len(si.spans))
	for i := range si.spans {
		for u := si.firstTok[i]; u < si.firstTok[i+1] && u < len(ix.tokens); u++ {
			if int(ix.tokens[u].end) > si.spans[i].end {
				break
			}
			if _, ok := want[ix.tokens[u].id]; ok {
				if has[i] == nil {
					has[i] = map[int32]bool{}
				}
				has[i][ix.tokens[u].id] = true
			}
		}
	}
	bestScore, bestS, bestE := -1.0, 0, 0
	consider := func(sc float64, s, e int) {
		sc = math.Round(sc/total*10000) / 10000
		if sc > bestScore || sc == bestScore && e-s < bestE-bestS {
			bestScore, bestS, bestE = sc, s, e
		}
	}
	for i := range si.spans {
		one := 0.0
		for id := range has[i] {
			one += want[id]
		}
		consider(one, si.spans[i].start, si.spans[i].end)
		if i+1 < len(si.spans) && !ix.crossesPage(si.spans[i].start, si.spans[i+1].end) {
			two := one
			for id := range has[i+1] {
				if !has[i][id] {
					two += want[id]
				}
			}
			consider(two, si.spans[i].start, si.spans[i+1].end)
		}
	}
	return bestS, bestE, bestScore
}

// supportScore is the support score of the span [start, end).
func (ix *Index) supportScore(sentence string, start, end int) float64 {
	ids, weights := ix.sentenceTerms(sentence)
	if len(ids) == 0 {
		return 0
	}
	lo := sort.Search(len(ix.tokens), func(i int) bool { return int(ix.tokens[i].start) >= start })
	present := map[int32]bool{}
	for u := lo; u < len(ix.tokens) && int(ix.tokens[u].end) <= end; u++ {
		present[ix.tokens[u].id] = true
	}
	got, total := 0.0, 0.0
	for i, id := range ids {
		total += weights[i]
		if id != 0 && present[id] {
			got += weights[i]
		}
	}
	return math.Round(got/total*10000) / 10000
}

func (ix *Index) crossesPage(start, end int) bool {
	_, onePage := ix.pages.Span(start, end)
	return !onePage
}
