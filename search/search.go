// Package search answers a question across every archived text: an Index
// holds the texts' passages (the digester's whole-sentence windows, see
// digest.Passages) with what filters need of each source, and a Searcher
// takes the engine's candidates and re-ranks them with the digester's own
// passage scorer (digest.Evidence), so that every engine gives the same
// results and scores on the same scale as relevance_score.
//
// The index is derived data: whatever it holds can be rebuilt from the
// archive. Engines live in their own packages (bleveindex, the embedded
// default on local disk) and pass the conformance suite in searchtest.
package search

import (
	"context"
	"errors"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
)

// ErrUnavailable means the engine could not be reached or written; retrying
// later may succeed. Engines wrap it (test with errors.Is).
var ErrUnavailable = errors.New("search: index unavailable")

// Source is what the index keeps of an archived text besides its passages:
// what filters select on.
type Source struct {
	Hash archive.Hash
	// Kind is the source record's kind (text, html, pdf, …).
	Kind string
	// Added is when the text was first archived, to the second.
	Added time.Time
	// Labels are the source's labels, sorted, without repeats.
	Labels []string
}

// Passage is one passage of a text: a locator into its canonical text
// (code points; Page is 0 for a text without pages) and the passage's text.
type Passage struct {
	digest.Locator
	Text string
}

// MaxPassageIndexBytes bounds the text of a passage an engine analyses: a
// passage is at most a snippet long unless it is one long sentence, and a
// hostile text can be one sentence of megabytes, whose analysis would take
// memory in proportion. Results never show this text (the digester's
// snippets do), so only words past the bound go unsearched.
const MaxPassageIndexBytes = 4 << 10

// PassagesOf returns the passages of canonical text as the index holds them
// (digest.Passages, with their text cut at a character boundary to at most
// MaxPassageIndexBytes).
func PassagesOf(text string) []Passage {
	locs := digest.Passages(text)
	out := make([]Passage, len(locs))
	// Offsets are in code points: walk the text once.
	cp, b := 0, 0
	byteAt := func(to int) int {
		for cp < to {
			_, n := utf8.DecodeRuneInString(text[b:])
			b += n
			cp++
		}
		return b
	}
	for i, l := range locs {
		from := byteAt(l.Start)
		body := text[from:byteAt(l.End)]
		if len(body) > MaxPassageIndexBytes {
			cut := MaxPassageIndexBytes
			for cut > 0 && !utf8.RuneStart(body[cut]) {
				cut--
			}
			body = body[:cut]
		}
		out[i] = Passage{Locator: l, Text: body}
	}
	return out
}

// SplitUnspaced returns s with each run of a script written without
// spaces (digest.Unspaced) replaced by the terms the digester reads in it
// (digest.UnspacedTerms), each with a space on either side, so that an
// engine that finds words between spaces reads such text as the digester
// does; s itself when it holds none.
func SplitUnspaced(s string) string {
	i := strings.IndexFunc(s, digest.Unspaced)
	if i < 0 {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + len(s)/2)
	from := 0 // the start of the text not yet written
	for i < len(s) {
		j := digest.UnspacedRun(s, i)
		if j == i {
			_, n := utf8.DecodeRuneInString(s[i:])
			i += n
			continue
		}
		b.WriteString(s[from:i])
		run := s[i:j]
		digest.UnspacedTerms(run, func(start, end int) {
			b.WriteByte(' ')
			b.WriteString(run[start:end])
			b.WriteByte(' ')
		})
		from, i = j, j
	}
	b.WriteString(s[from:])
	return b.String()
}

// Document is what the index takes of one source: the source and its
// passages (PassagesOf its canonical text).
type Document struct {
	Source   Source
	Passages []Passage
}

// LastPerSource returns docs with only the last document of each source,
// in the order of those last documents.
func LastPerSource(docs []Document) []Document {
	last := make(map[archive.Hash]int, len(docs))
	for i, d := range docs {
		last[d.Source.Hash] = i
	}
	if len(last) == len(docs) {
		return docs
	}
	out := make([]Document, 0, len(last))
	for i, d := range docs {
		if last[d.Source.Hash] == i {
			out = append(out, d)
		}
	}
	return out
}

// Filter narrows a search to some sources; a zero field does not narrow.
// A source must match every field that is set, and one of the values of a
// list.
type Filter struct {
	Kinds       []string
	Sources     []archive.Hash
	Labels      []string
	AddedAfter  time.Time // exclusive
	AddedBefore time.Time // exclusive
}

// Matches reports whether src passes f.
func (f Filter) Matches(src Source) bool {
	if len(f.Kinds) > 0 && !slices.Contains(f.Kinds, src.Kind) {
		return false
	}
	if len(f.Sources) > 0 && !slices.Contains(f.Sources, src.Hash) {
		return false
	}
	if len(f.Labels) > 0 && !slices.ContainsFunc(f.Labels, func(l string) bool { return slices.Contains(src.Labels, l) }) {
		return false
	}
	if !f.AddedAfter.IsZero() && !src.Added.After(f.AddedAfter) {
		return false
	}
	if !f.AddedBefore.IsZero() && !src.Added.Before(f.AddedBefore) {
		return false
	}
	return true
}

// Candidate is a passage the engine found for a query, with the engine's
// own score (comparable only within one answer).
type Candidate struct {
	Source archive.Hash
	digest.Locator
	Score float64
}

// Index is a search engine's store of passages. Implementations are safe
// for concurrent use. An engine that cannot be reached wraps
// ErrUnavailable.
type Index interface {
	// Put indexes each document, replacing whatever the index held for
	// its source (a source given twice is indexed once, as its last
	// document); it is idempotent, and once it returns the sources are
	// searchable. An engine indexes several documents at a time at less
	// cost than each alone. A source the index holds has all its
	// passages, whatever stops Put midway.
	Put(ctx context.Context, docs ...Document) error
	// SetLabels replaces the labels of an indexed source; a source the
	// index does not hold is fs.ErrNotExist.
	SetLabels(ctx context.Context, h archive.Hash, labels []string) error
	// HasLabel reports whether some indexed source carries label.
	HasLabel(ctx context.Context, label string) (bool, error)
	// Remove deletes a source and its passages; removing a source the
	// index does not hold succeeds.
	Remove(ctx context.Context, h archive.Hash) error
	// Source returns what the index holds of one source, or
	// fs.ErrNotExist.
	Source(ctx context.Context, h archive.Hash) (Source, error)
	// Sources calls fn for every indexed source, in no set order, until
	// fn returns an error, which Sources returns.
	Sources(ctx context.Context, fn func(Source) error) error
	// Candidates returns up to n passages of sources passing f that hold
	// a word of query, best first by the engine's scoring, and an
	// estimate of how many passages hold one.
	Candidates(ctx context.Context, query string, f Filter, n int) ([]Candidate, int, error)
	// Frequencies returns, for each of words, how many indexed passages
	// hold it as the engine reads the word (its stem), or -1 for a word
	// the engine does not index (a stop word, or one that reads as
	// nothing), and how many passages the index holds: what a word tells
	// apart across the whole corpus, whatever the filter of a search.
	Frequencies(ctx context.Context, words []string) ([]int, int, error)
	// Close releases the engine; the index is not used after.
	Close() error
}
