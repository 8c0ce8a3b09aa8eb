// Package locate finds quotes in a canonical text and checks citations
// against it. It answers with spans in Unicode code points of the text it
// was given, so a span's text is always text[Start:End] of that text: a
// span is found, never invented.
//
// A quote is looked for in three ways, in order: exactly as given; equal
// after the normalized folding (see Fold: case, white space, quote marks,
// dashes, ligatures and other compatibility forms, hyphenation at line
// ends); and fuzzily, as the span whose words are most similar to the
// quote's (see Similarity), when that similarity reaches the threshold.
package locate

import (
	"sort"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/normalize"
)

// Kind says how a quote was found.
type Kind string

// The match kinds, best first.
const (
	Exact      Kind = "exact"
	Normalized Kind = "normalized"
	Fuzzy      Kind = "fuzzy"
	NotFound   Kind = "not_found"
)

// Rank orders kinds: a lower rank is a better match.
func (k Kind) Rank() int {
	switch k {
	case Exact:
		return 0
	case Normalized:
		return 1
	case Fuzzy:
		return 2
	}
	return 3
}

// DefaultMinSimilarity is the similarity a fuzzy match must reach when the
// caller names none: one word in ten changed, added or dropped passes.
const DefaultMinSimilarity = 0.85

// Match is where a quote was found: text[Start:End] in code points. For
// NotFound, Start and End are 0 and Similarity is the best similarity seen
// below the threshold (0 when no candidate span shared a word pair).
type Match struct {
	Kind       Kind
	Start, End int
	// Similarity is 1 for exact and normalized matches.
	Similarity float64
}

// token is a word of the folded text: its id in the index's vocabulary and
// its span in code points of the original text.
type token struct {
	id         int32
	start, end int32
	// frune is the index of the token's first rune in the folded text.
	frune int32
}

// Index is a text prepared for locating quotes: built once per text (see
// Cache) and safe for concurrent use.
type Index struct {
	text     string
	runeByte []int32 // runeByte[i]: byte offset of code point i; runeByte[n] = len(text)
	folded   string
	// fStart/fEnd: for each byte of folded, the code point span of the
	// original rune that produced it.
	fStart, fEnd []int32
	tokens       []token
	vocab        map[string]int32 // ids from 1
	words        []string         // words[id]: the word's key
	postings     [][]int32        // postings[id]: token positions
	pages        normalize.PageIndex

	sentOnce sync.Once
	sents    *sentenceIndex
}

// NewIndex prepares text for locating quotes.
func NewIndex(text string) *Index {
	ix := &Index{text: text, vocab: map[string]int32{}}
	ix.runeByte = make([]int32, 0, len(text)+1)
	for b := range text {
		ix.runeByte = append(ix.runeByte, int32(b))
	}
	ix.pages = normalize.IndexPages(text)
	ix.runeByte = append(ix.runeByte, int32(len(text)))

	f := fold(text)
	var sb strings.Builder
	sb.Grow(len(f.runes) + 16)
	ix.fStart = make([]int32, 0, len(f.runes)+16)
	ix.fEnd = make([]int32, 0, len(f.runes)+16)
	foldedByte := make([]int32, len(f.runes))
	for k, r := range f.runes {
		foldedByte[k] = int32(sb.Len())
		n, _ := sb.WriteRune(r)
		for j := 0; j < n; j++ {
			ix.fStart = append(ix.fStart, f.src[k])
			ix.fEnd = append(ix.fEnd, f.src[k]+1)
		}
	}
	ix.folded = sb.String()

	ix.postings = [][]int32{nil}
	ix.words = []string{""}
	ix.tokens = tokenize(f, func(key []byte) int32 {
		id, ok := ix.vocab[string(key)]
		if !ok {
			w := string(key)
			id = int32(len(ix.postings))
			ix.vocab[w] = id
			ix.postings = append(ix.postings, nil)
			ix.words = append(ix.words, w)
		}
		return id
	})
	for p, t := range ix.tokens {
		ix.postings[t.id] = append(ix.postings[t.id], int32(p))
		ix.tokens[p].frune = foldedByte[t.frune] // from here on, a byte offset
	}
	return ix
}

// tokenize splits a folded text into words: runs of non-space runes
// holding at least one letter or digit, each keyed by its letters and
// digits alone ("(rsv)," is the word "rsv", "well-tolerated" the word
// "welltolerated"), named with id(key). A word's span covers its first to
// its last letter or digit; frune is where the whole run starts.
// id gets the key's UTF-8 bytes, valid only during the call.
func tokenize(f folded, id func([]byte) int32) []token {
	toks := make([]token, 0, len(f.runes)/6+1)
	var key []byte
	first, last, runStart := -1, -1, 0
	for k := 0; k <= len(f.runes); k++ {
		if k < len(f.runes) && f.runes[k] != ' ' {
			if isWordRune(f.runes[k]) {
				key = utf8.AppendRune(key, f.runes[k])
				if first < 0 {
					first = k
				}
				last = k
			}
			continue
		}
		if len(key) > 0 {
			toks = append(toks, token{id: id(key), start: f.src[first], end: f.src[last] + 1, frune: int32(runStart)})
		}
		key, first, last, runStart = key[:0], -1, -1, k+1
	}
	return toks
}

// Text is the indexed text.
func (ix *Index) Text() string { return ix.text }

// Len is the text's length in code points.
func (ix *Index) Len() int { return len(ix.runeByte) - 1 }

// Slice returns text[start:end] in code points; out-of-range offsets are
// clamped.
func (ix *Index) Slice(start, end int) string {
	n := ix.Len()
	start = max(0, min(start, n))
	end = max(start, min(end, n))
	return ix.text[ix.runeByte[start]:ix.runeByte[end]]
}

// Size estimates the index's memory in bytes (for the cache's bound).
func (ix *Index) Size() int64 {
	return int64(len(ix.text) + len(ix.folded) + 4*len(ix.runeByte) + 8*len(ix.fStart) + 16*len(ix.tokens) + 48*len(ix.vocab))
}

// Locator returns the locator of a span: page:N:char:S-E when paginated
// (the text of a PDF) and the span lies on one page, else char:S-E.
func (ix *Index) Locator(start, end int, paginated bool) digest.Locator {
	loc := digest.Locator{Start: start, End: end}
	if !paginated {
		return loc
	}
	if page, onePage := ix.pages.Span(start, end); onePage {
		loc.Page = page
	}
	return loc
}

// cpOfByte returns the code point offset of byte offset b of the text (b at
// a rune boundary).
func (ix *Index) cpOfByte(b int) int {
	return sort.Search(len(ix.runeByte), func(i int) bool { return int(ix.runeByte[i]) >= b })
}

// Locate finds quote in the text: exactly, then after folding, then
// fuzzily with at least minSim similarity (minSim ≤ 0 means
// DefaultMinSimilarity). The quote is trimmed of surrounding white space
// first; an empty quote is not found. Of several equal matches the first in
// the text is returned.
func (ix *Index) Locate(quote string, minSim float64) Match {
	if minSim <= 0 {
		minSim = DefaultMinSimilarity
	}
	quote = strings.TrimSpace(quote)
	if quote == "" {
		return Match{Kind: NotFound}
	}
	fq := fold(quote)
	if len(fq.runes) == 0 {
		return Match{Kind: NotFound}
	}
	fs := string(fq.runes)
	if m, ok := ix.exactOrNormalized(quote, fq, fs); ok {
		return m
	}
	return ix.fuzzy(fq, minSim)
}

// exactOrNormalized finds the first exact occurrence of quote, else the
// first occurrence of its folding fs. A quote with a whole word inside it
// (not its first or last, which may be parts of words) is looked for only
// where the rarest such word occurs; others by scanning the text.
func (ix *Index) exactOrNormalized(quote string, fq folded, fs string) (Match, bool) {
	qtoks := tokenize(fq, func(w []byte) int32 { return ix.vocab[string(w)] })
	if len(qtoks) < 3 {
		if b := strings.Index(ix.text, quote); b >= 0 {
			s := ix.cpOfByte(b)
			return Match{Kind: Exact, Start: s, End: s + utf8.RuneCountInString(quote), Similarity: 1}, true
		}
		if b := strings.Index(ix.folded, fs); b >= 0 {
			return ix.normalizedAt(b, len(fs)), true
		}
		return Match{}, false
	}
	rare := -1
	for i := 1; i+1 < len(qtoks); i++ {
		if qtoks[i].id == 0 {
			return Match{}, false // a whole word the text lacks
		}
		if rare < 0 || len(ix.postings[qtoks[i].id]) < len(ix.postings[qtoks[rare].id]) {
			rare = i
		}
	}
	off := len(string(fq.runes[:qtoks[rare].frune])) // its byte offset in fs
	var first Match
	found := false
	for _, p := range ix.postings[qtoks[rare].id] {
		b := int(ix.tokens[p].frune) - off
		if b < 0 || b+len(fs) > len(ix.folded) || ix.folded[b:b+len(fs)] != fs {
			continue
		}
		s := int(ix.fStart[b])
		if tb := int(ix.runeByte[s]); strings.HasPrefix(ix.text[tb:], quote) {
			return Match{Kind: Exact, Start: s, End: s + utf8.RuneCountInString(quote), Similarity: 1}, true
		}
		if !found {
			first, found = ix.normalizedAt(b, len(fs)), true
		}
	}
	return first, found
}

// normalizedAt is the match of a folded quote of n bytes found at byte b
// of the folded text.
func (ix *Index) normalizedAt(b, n int) Match {
	return Match{Kind: Normalized, Start: int(ix.fStart[b]), End: int(ix.fEnd[b+n-1]), Similarity: 1}
}

// Fold returns s after the normalized folding Locate uses; two quotes that
// fold equal are the same quote to Locate.
func Fold(s string) string { return string(fold(s).runes) }
