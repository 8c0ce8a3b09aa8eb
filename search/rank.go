package search

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"runtime"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/sync/errgroup"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/normalize"
)

// Re-ranking depth.
const (
	// CandidatePassages is how many passages the engine is asked for.
	CandidatePassages = 200
	// RerankSources is how many sources, in the order of their best
	// candidate passage, the digester scores.
	RerankSources = 10
	// MaxResults is the deepest result a search reaches (pages of a
	// cursor included): the digester gives at most digest.MaxEvidence
	// passages of each source it scores.
	MaxResults = 200
)

// TextFunc returns the canonical text of an archived source; a source no
// longer archived is fs.ErrNotExist and is left out of the results, and so
// is one whose text fails its integrity check (an error wrapping
// archive.ErrCorrupt), which Results.Corrupt names.
type TextFunc func(ctx context.Context, h archive.Hash) (string, error)

// Request is one search.
type Request struct {
	Query  string
	Filter Filter
	// GroupBySource asks for the best passage of each source, the sources
	// ranked by how likely each is to answer the query.
	GroupBySource bool
}

// Hit is one ranked passage.
type Hit struct {
	Source archive.Hash
	// Locator is verified against the source's canonical text; it has a
	// page for a text with pages.
	Locator digest.Locator
	Text    string
	// Score is the chance that the passage answers the query, on the
	// scale of relevance_score: Relevance times SourceScore, each a
	// calibrated chance (the passage answers if its source does; the
	// source does), rounded to 4 places.
	Score float64
	// Relevance is the passage's relevance_score for the query as the
	// digester scores the excerpt of its source (see excerptOf; the whole
	// source when the excerpt is all of it).
	Relevance float64
	// SourceScore is the calibrated chance that the passage's source
	// answers the query (digest.RankSources over the sources scored).
	SourceScore float64
	// Rank is the 1-based rank in the whole answer.
	Rank int
	// MatchedTerms are the query's words the passage holds (as the
	// digester stems them), in query order.
	MatchedTerms []string
}

// Results is a search's answer: every hit up to MaxResults, best first.
type Results struct {
	Hits []Hit
	// TotalEstimate is the engine's estimate of the passages that hold
	// a query word.
	TotalEstimate int
	// Corrupt names the candidate sources left out because their text
	// failed its integrity check, in the engine's order.
	Corrupt []archive.Hash
}

// Search runs req against idx: the engine's CandidatePassages best
// passages name the sources; the first RerankSources of them are scored by
// the digester (digest.Evidence over the excerpt of each canonical text,
// read with text, around its candidate passages; see excerptOf), and their
// passages ranked by score, the source's score breaking ties.
func Search(ctx context.Context, idx Index, text TextFunc, req Request) (Results, error) {
	cands, total, err := idx.Candidates(ctx, req.Query, req.Filter, CandidatePassages)
	if err != nil {
		return Results{}, err
	}
	var order []archive.Hash
	found := map[archive.Hash][]digest.Locator{}
	for _, c := range cands {
		if !slices.Contains(order, c.Source) {
			if len(order) == RerankSources {
				continue
			}
			order = append(order, c.Source)
		}
		found[c.Source] = append(found[c.Source], c.Locator)
	}
	type scored struct {
		hash  archive.Hash
		snips []digest.EvidenceSnippet
		match *digest.Match
		text  string
	}
	var (
		srcs    []scored
		corrupt []archive.Hash
	)
	for _, h := range order {
		if err := ctx.Err(); err != nil {
			return Results{}, err
		}
		t, err := text(ctx, h)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if errors.Is(err, archive.ErrCorrupt) {
			// One damaged source does not fail the search: the others
			// are answered, and the answer says which was left out.
			corrupt = append(corrupt, h)
			continue
		}
		if err != nil {
			return Results{}, fmt.Errorf("search: read %s: %w", h, err)
		}
		srcs = append(srcs, scored{hash: h, text: t})
	}
	// The texts are scored at once, as many at a time as there are
	// processors: scoring is most of a search's time.
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range srcs {
		g.Go(func() error {
			if err := gctx.Err(); err != nil {
				return err
			}
			s := &srcs[i]
			ex := excerptOf(s.text, found[s.hash])
			snips, match, err := digest.Evidence(ex.text, req.Query, digest.Options{})
			if err != nil {
				return fmt.Errorf("search: score %s: %w", s.hash, err)
			}
			for k := range snips {
				snips[k].Locator = ex.locate(snips[k].Locator)
			}
			s.snips, s.match = snips, match
			return nil
		})
	}
	if err := g.Wait(); err != nil {
		return Results{}, err
	}
	matches := make([]*digest.Match, len(srcs))
	tops := make([]float64, len(srcs))
	for i, s := range srcs {
		matches[i] = s.match
		if len(s.snips) > 0 {
			tops[i] = s.snips[0].RelevanceScore
		}
	}
	srcScore := digest.RankSources(matches, tops)
	words := queryWords(req.Query)
	var hits []Hit
	for i, s := range srcs {
		for k, sn := range s.snips {
			if req.GroupBySource && k > 0 {
				break
			}
			loc := sn.Locator
			if err := loc.Verify(s.text, sn.Text); err != nil {
				return Results{}, fmt.Errorf("search: %s: %w", s.hash, err)
			}
			hits = append(hits, Hit{
				Source: s.hash, Locator: loc, Text: sn.Text,
				Score:     math.Round(sn.RelevanceScore*srcScore[i]*1e4) / 1e4,
				Relevance: sn.RelevanceScore, SourceScore: srcScore[i],
				MatchedTerms: matchedTerms(words, s.match, sn.Text),
			})
		}
	}
	slices.SortStableFunc(hits, func(a, b Hit) int {
		if req.GroupBySource {
			return cmp.Or(cmp.Compare(b.SourceScore, a.SourceScore), cmp.Compare(b.Relevance, a.Relevance))
		}
		return cmp.Or(cmp.Compare(b.Relevance*b.SourceScore, a.Relevance*a.SourceScore), cmp.Compare(b.SourceScore, a.SourceScore))
	})
	hits = hits[:min(len(hits), MaxResults)]
	for i := range hits {
		hits[i].Rank = i + 1
	}
	return Results{Hits: hits, TotalEstimate: max(total, len(hits)), Corrupt: corrupt}, nil
}

// queryWords returns the query's words, lower-cased, without repeats.
func queryWords(query string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(query), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) }) {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}

// matchedTerms returns the words of words whose stem (a term of m, the
// query's content terms as the digester stems them) starts a word of text.
func matchedTerms(words []string, m *digest.Match, text string) []string {
	out := []string{}
	if m == nil {
		return out
	}
	lower := strings.ToLower(text)
	for _, w := range words {
		for _, t := range m.Terms {
			if t != "" && strings.HasPrefix(w, t) && holdsWordPrefix(lower, t) {
				out = append(out, w)
				break
			}
		}
	}
	return out
}

// holdsWordPrefix reports whether p starts a word of s.
func holdsWordPrefix(s, p string) bool {
	for i := 0; ; {
		j := strings.Index(s[i:], p)
		if j < 0 {
			return false
		}
		at := i + j
		r, _ := utf8.DecodeLastRuneInString(s[:at])
		if at == 0 || !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return true
		}
		i = at + 1
	}
}

// ExcerptContext is how much text, in code points, before and after each
// candidate passage the digester scores with it (whole sentences within
// that reach; two passages at most): the digester's time grows with the
// text it reads, and the passages far from every candidate seldom answer.
// The context lets it find an answer beside the passage the engine found
// (a definition, the next sentences) and weigh a word by how many
// sentences around hold it. Measured on covidqa: candidate passages alone
// lose a tenth of the answers the whole text finds (recall@10 0.7428,
// MRR 0.5606, below BM25's); with context they lose none.
const ExcerptContext = 2 * digest.MaxSnippetChars

// excerpt is the part of a text the digester scores: runs of whole
// sentences, each run a page of its own, so that no window of the
// digester runs from one into the next.
type excerpt struct {
	text string
	// runs are the runs' locators in the whole text; at[i] is where run i
	// starts in the excerpt, in code points.
	runs []digest.Locator
	at   []int
}

// excerptOf returns the excerpt of text around the passages at locs
// (candidates of text's source, whole sentences of one page): each with
// the whole sentences of its page within ExcerptContext code points before
// and after it, or the whole text when that is all of it.
func excerptOf(text string, locs []digest.Locator) excerpt {
	locs = slices.Clone(locs)
	slices.SortFunc(locs, func(a, b digest.Locator) int { return cmp.Compare(a.Start, b.Start) })
	// Byte offsets of the code points where context may begin and end,
	// in one walk over the text.
	var points []int
	for _, l := range locs {
		points = append(points, max(0, l.Start-ExcerptContext), l.Start, l.End, l.End+ExcerptContext)
	}
	slices.Sort(points)
	points = slices.Compact(points)
	bytes := make(map[int]int, len(points))
	cp, off := 0, 0
	for _, p := range points {
		for cp < p && off < len(text) {
			_, n := utf8.DecodeRuneInString(text[off:])
			off += n
			cp++
		}
		bytes[p] = off
	}
	// Each candidate's run, in bytes: its passage, with the sentences
	// before it that end within reach (the first sentence of the reach
	// may be cut, so it is left out unless the reach starts its page)
	// and those after it.
	type run struct{ from, to, page int }
	var runs []run
	for _, l := range locs {
		from, to := bytes[l.Start], bytes[l.End]
		lo := bytes[max(0, l.Start-ExcerptContext)]
		before := text[lo:from]
		whole := lo == 0
		if i := strings.LastIndexByte(before, normalize.PageSeparator); i >= 0 {
			before, whole = before[i+1:], true
		}
		if sents := digest.Sentences(before); len(sents) > 0 {
			if !whole {
				sents = sents[1:]
			}
			if len(sents) > 0 {
				from -= len(before) - byteOf(before, sents[0].Start)
			}
		}
		hi := bytes[l.End+ExcerptContext]
		after := text[to:hi]
		whole = hi == len(text)
		if i := strings.IndexByte(after, normalize.PageSeparator); i >= 0 {
			after, whole = after[:i], true
		}
		if sents := digest.Sentences(after); len(sents) > 0 {
			if !whole {
				sents = sents[:len(sents)-1]
			}
			if len(sents) > 0 {
				to += byteOf(after, sents[len(sents)-1].End)
			}
		}
		if n := len(runs); n > 0 && from <= runs[n-1].to && !strings.ContainsRune(text[runs[n-1].from:to], normalize.PageSeparator) {
			runs[n-1].to = max(runs[n-1].to, to)
			continue
		}
		runs = append(runs, run{from, to, l.Page})
	}
	if len(runs) == 1 && strings.TrimSpace(text[:runs[0].from]) == "" && strings.TrimSpace(text[runs[0].to:]) == "" {
		return excerpt{text: text}
	}
	var ex excerpt
	var b strings.Builder
	cp, off = 0, 0
	at := 0
	for i, r := range runs {
		if i > 0 {
			b.WriteString(normalize.PageBreak)
			at++
		}
		cp += utf8.RuneCountInString(text[off:r.from])
		n := utf8.RuneCountInString(text[r.from:r.to])
		ex.runs = append(ex.runs, digest.Locator{Page: r.page, Start: cp, End: cp + n})
		ex.at = append(ex.at, at)
		b.WriteString(text[r.from:r.to])
		cp += n
		off = r.to
		at += n
	}
	ex.text = b.String()
	return ex
}

// byteOf returns the byte offset in s of code point cp.
func byteOf(s string, cp int) int {
	for i := range s {
		if cp == 0 {
			return i
		}
		cp--
	}
	return len(s)
}

// locate returns the locator in the whole text of l, a locator of the
// digester's in the excerpt (in the page form when the excerpt has several
// runs, the run being the page); the digester's windows keep to one page.
func (ex excerpt) locate(l digest.Locator) digest.Locator {
	if ex.runs == nil {
		return l
	}
	r := ex.runs[max(l.Page, 1)-1]
	shift := r.Start - ex.at[max(l.Page, 1)-1]
	return digest.Locator{Page: r.Page, Start: l.Start + shift, End: l.End + shift}
}
