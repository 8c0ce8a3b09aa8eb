package digest

import (
	"fmt"
	"math"
	"slices"
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/normalize"
)

// DigesterVersion names the digester's rules. It changes whenever Build's
// output may change for some input, and is part of the digest cache key.
const DigesterVersion = "digester/37"

// Warning is a non-fatal condition met while building a digest: Build
// reports fault.QueryFallback when the query has no content terms (empty or
// stop words only) and fault.NoQueryMatch when no sentence of the text holds
// a query term; either way the digest describes the whole document. Message
// is for people and holds no source text.
type Warning struct {
	Code    fault.Warning `json:"code"`
	Message string        `json:"message"`
}

// Build digests canonical text for query: an extractive summary, key points
// and evidence snippets, each snippet a verbatim slice of text located in
// code points. The same text, query and options always give an identical
// payload. Every payload Build returns passes Validate, and its locators
// verify against text. Options are completed with WithDefaults; invalid
// options are an error. It hashes text for the payload's source_text_hash;
// BuildMatch takes the hash that travels with the text.
func Build(text, query string, opts Options) (*Payload, []Warning, error) {
	b, err := build(archive.NewBlob(text), query, opts)
	if err != nil {
		return nil, b.warns, err
	}
	return b.payload, b.warns, nil
}

// BuildMatch is Build of a text whose hash is known (the flow's: hashed once
// on the way in, or verified as read from the archive) that also returns how
// the whole document matches the query, the document-level evidence
// RankSources weighs beside the snippets' scores.
func BuildMatch(text archive.Blob, query string, opts Options) (*Payload, *Match, []Warning, error) {
	b, err := build(text, query, opts)
	if err != nil {
		return nil, nil, b.warns, err
	}
	return b.payload, b.match, b.warns, nil
}

// built is everything build makes: the payload, its warnings, the
// document's match, and the calibration features of each snippet.
type built struct {
	payload  *Payload
	warns    []Warning
	match    *Match
	features [][snippetFeatures]float64
}

func build(blob archive.Blob, query string, opts Options) (built, error) {
	text := blob.String()
	opts = opts.WithDefaults()
	if err := opts.Validate(); err != nil {
		return built{}, fmt.Errorf("digest options: %w", err)
	}
	if !utf8.ValidString(text) {
		return built{}, fmt.Errorf("digest: text is not valid UTF-8")
	}
	p := &Payload{
		Version:          PayloadVersion,
		ContentType:      ContentType,
		QueryHash:        QueryHash(query),
		KeyPoints:        []string{},
		EvidenceSnippets: []EvidenceSnippet{},
		OriginalChars:    utf8.RuneCountInString(text),
		SourceTextHash:   blob.Hash().String(),
	}
	var warns []Warning
	d := analyze(text)

	ids := d.queryTerms(query)
	if len(ids) == 0 {
		warns = append(warns, Warning{Code: fault.QueryFallback, Message: "the query has no content words; the digest describes the whole document"})
	}
	q := newQueryModel(d, ids)
	q.expandSpelling(d, query)
	q.expandAbbreviations(d)
	q.expandPrefixes(d)
	match := matchOf(d, query)
	scores := scoreSentences(d, q)
	fallback := len(ids) == 0
	if !slices.ContainsFunc(scores, func(v float64) bool { return v > 0 }) && len(d.sents) > 0 {
		if len(ids) > 0 {
			warns = append(warns, Warning{Code: fault.NoQueryMatch, Message: "no sentence holds a query word; the digest describes the whole document"})
		}
		q = newQueryModel(d, centroidTerms(d, 12))
		scores = scoreSentences(d, q)
		fallback = true
	}

	// The summary comes first, as a reader reads it; the evidence fits
	// beside it, and the key points take what both leave of the source.
	sum := summarize(d, scores, opts)
	p.Summary = sum.text
	snips, feats := evidenceFor(d, q, query, opts, fallback)
	if fallback && len(snips) > fallbackEvidence {
		snips, feats = snips[:fallbackEvidence], feats[:fallbackEvidence]
	}
	p.EvidenceSnippets, feats = fitEvidence(p.Summary, snips, feats, p.OriginalChars)
	p.DigestChars = CountDigestChars(p)
	if p.DigestChars > p.OriginalChars {
		// The summary and the best snippet overlap where the summary's
		// own segmentation does not show it: the summary gives way.
		p.Summary = fitSummary(p.Summary, p.EvidenceSnippets, p.OriginalChars)
		p.DigestChars = CountDigestChars(p)
	}
	p.KeyPoints = keyPoints(d, scores, opts, sum, p.EvidenceSnippets, p.OriginalChars-p.DigestChars)

	p.DigestChars = CountDigestChars(p)
	p.CompressionRatio = Ratio(p.DigestChars, p.OriginalChars)
	b := built{payload: p, warns: warns, match: match, features: feats}
	if err := Validate(p); err != nil {
		return built{warns: warns}, fmt.Errorf("digest: built payload is invalid: %w", err)
	}
	return b, nil
}

// evidenceFor selects the evidence snippets of d for the query model q
// (as scoreSentences left it: the query's own terms, or the text's centroid
// when fallback).
func evidenceFor(d *document, q queryModel, query string, opts Options, fallback bool) ([]EvidenceSnippet, [][snippetFeatures]float64) {
	q = q.forEvidence(d)
	if !fallback {
		// Soft matches count toward evidence only, after the literal
		// terms decided whether the query matches the text at all.
		q.expandSemantic(d, query)
	}
	return selectEvidence(d, q, query, opts, fallback)
}

// Evidence returns the evidence snippets Build would return for text and
// query with the given options, and how the whole text matches the query,
// without building a summary or key points: it is the digester's passage
// scorer alone, for callers that rank passages of many texts (search). A
// query with no content word, or none in the text, gives no snippets and no
// error. Locators take the page form for a text with a page separator.
func Evidence(text, query string, opts Options) ([]EvidenceSnippet, *Match, error) {
	opts = opts.WithDefaults()
	if err := opts.Validate(); err != nil {
		return nil, nil, fmt.Errorf("digest options: %w", err)
	}
	if !utf8.ValidString(text) {
		return nil, nil, fmt.Errorf("digest: text is not valid UTF-8")
	}
	d := analyze(text)
	ids := d.queryTerms(query)
	match := matchOf(d, query)
	if len(ids) == 0 {
		return []EvidenceSnippet{}, match, nil
	}
	q := newQueryModel(d, ids)
	q.expandSpelling(d, query)
	q.expandAbbreviations(d)
	q.expandPrefixes(d)
	if !slices.ContainsFunc(scoreSentences(d, q), func(v float64) bool { return v > 0 }) {
		return []EvidenceSnippet{}, match, nil
	}
	snips, _ := evidenceFor(d, q, query, opts, false)
	return snips, match, nil
}

// Passages returns the passages of canonical text that a search index
// holds: the text's sentences as the digester segments them (Sentences),
// grouped in order into windows of whole sentences of one page, each
// window as many sentences as fit in MaxSnippetChars code points, at most
// windowSentences (a sentence longer than that is a passage alone). The
// passages do not overlap and cover every sentence; locators are in code
// points, with the 1-based page for a text with a page separator and 0
// otherwise.
func Passages(text string) []Locator {
	sents := Sentences(text)
	if len(sents) == 0 {
		return nil
	}
	// pageStarts are the code point offsets where pages begin.
	pageStarts := []int{0}
	paged := false
	i := 0
	for _, r := range text {
		i++
		if r == normalize.PageSeparator {
			pageStarts = append(pageStarts, i)
			paged = true
		}
	}
	pageOf := func(off int) int {
		n, _ := slices.BinarySearch(pageStarts, off+1)
		return n
	}
	var out []Locator
	cur := Locator{Page: pageOf(sents[0].Start), Start: sents[0].Start, End: sents[0].End}
	n := 1
	for _, s := range sents[1:] {
		page := pageOf(s.Start)
		if page == cur.Page && n < windowSentences && s.End-cur.Start <= MaxSnippetChars {
			cur.End = s.End
			n++
			continue
		}
		out = append(out, cur)
		cur, n = Locator{Page: page, Start: s.Start, End: s.End}, 1
	}
	out = append(out, cur)
	if !paged {
		for k := range out {
			out[k].Page = 0
		}
	}
	return out
}

// window is a candidate snippet: sentences [first, last] of one block, or a
// clipped part of one long sentence.
type window struct {
	bstart, bend int // byte offsets
	cstart, cend int // code point offsets
	page         int
}

// selectEvidence returns the best non-overlapping windows of at most
// SnippetMaxChars as snippets, each scored by the calibrated chance that it
// answers the query (see snippetScore), with the features of that score.
// Scores are made non-increasing in rank. A snippet that holds a query
// term scores its model score (at least matchFloor); one that holds none, and every
// snippet of a fallback digest (the query has no content word, or none is
// in the text), scores its model score times fallbackScore, below every
// match, so that snippets sorted by score across sources put every answer
// before anything off-topic.
func selectEvidence(d *document, q queryModel, question string, opts Options, fallback bool) ([]EvidenceSnippet, [][snippetFeatures]float64) {
	out := []EvidenceSnippet{}
	var feats [][snippetFeatures]float64
	cands, sc := windowCandidates(d, q, question, opts.SnippetMaxChars)
	best := 0.0
	for _, c := range cands {
		best = max(best, c.score)
	}
	picked := pickWindows(d, cands, opts.MaxEvidence, sc)
	// A window that holds a query term ranks before one with only soft
	// matches, so that scores, non-increasing in rank, keep every match
	// above every snippet that matches nothing.
	slices.SortStableFunc(picked, func(a, b candidate) int {
		return boolRank(q.holdsTerm(b)) - boolRank(q.holdsTerm(a))
	})
	for rank, c := range picked {
		x := q.features(c, rank, best)
		v := snippetModel.p(x[:])
		if fallback || x[featWindowCoverage] == 0 {
			v *= fallbackScore
		} else {
			v = max(v, matchFloor)
		}
		sn := EvidenceSnippet{
			Text:           d.text[c.w.bstart:c.w.bend],
			Locator:        locatorFor(d, c.w),
			RelevanceScore: math.Round(v*1e4) / 1e4,
		}
		if len(out) > 0 && sn.RelevanceScore > out[len(out)-1].RelevanceScore {
			sn.RelevanceScore = out[len(out)-1].RelevanceScore
		}
		out = append(out, sn)
		feats = append(feats, x)
	}
	return out, feats
}

// boolRank is 1 for true and 0 for false.
func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// locatorFor returns w's locator: page form for paginated texts.
func locatorFor(d *document, w window) Locator {
	l := Locator{Start: w.cstart, End: w.cend}
	if d.pages.Paged() {
		l.Page = w.page
	}
	return l
}

func sameBlock(d *document, i, j int) bool {
	return d.sents[i].block == d.sents[j].block
}

// prefixAt returns the longest text starting at byte offset from (code
// point cfrom) inside sentence s and ending at a word boundary no later than
// byte offset limit, of at most max code points.
func prefixAt(d *document, s *sentence, from, cfrom, limit, max int) (window, bool) {
	str := d.text[from:limit]
	// A text of more than 4·max bytes has more than max code points.
	if len(str) <= 4*max {
		if n := utf8.RuneCountInString(str); n <= max {
			return trimWindow(s, from, cfrom, str, n)
		}
	}
	n, lastSpace, lastSpaceCP := 0, -1, 0
	cut := len(str)
	for bi, r := range str {
		if n == max {
			cut = bi
			break
		}
		if r == ' ' {
			lastSpace, lastSpaceCP = bi, n
		}
		n++
	}
	cutCP := n
	if cut < len(str) && lastSpace > 0 {
		cut, cutCP = lastSpace, lastSpaceCP
	}
	return trimWindow(s, from, cfrom, str[:cut], cutCP)
}

// trimWindow returns the window of str, which starts at byte from (code
// point cfrom) in sentence s and holds cp code points, without its
// trailing spaces.
func trimWindow(s *sentence, from, cfrom int, str string, cp int) (window, bool) {
	trimmed := strings.TrimRight(str, " ")
	cp -= len(str) - len(trimmed)
	if trimmed == "" {
		return window{}, false
	}
	return window{
		bstart: from, bend: from + len(trimmed),
		cstart: cfrom, cend: cfrom + cp,
		page: s.page,
	}, true
}

// wordLike reports a term of at least three characters that holds a
// letter: symbols, numbers and variable names ("p", "2", "h1") say little
// of what a text is about.
func wordLike(t string) bool {
	return utf8.RuneCountInString(t) >= 3 && strings.IndexFunc(t, unicode.IsLetter) >= 0
}

// centroidTerms returns the k terms that best describe d as a whole: the
// highest total frequency times idf among terms in at least two sentences.
func centroidTerms(d *document, k int) []int32 {
	tf := make([]int, len(d.df))
	for i := range d.sents {
		for _, t := range d.sents[i].terms {
			tf[t]++
		}
	}
	n := len(d.sents)
	type cand struct {
		id int32
		w  float64
	}
	var cs []cand
	for id, f := range tf {
		if d.df[id] < 2 && n > 2 || !wordLike(d.stems[id]) {
			continue
		}
		cs = append(cs, cand{int32(id), float64(f) * idf(int(d.df[id]), n)})
	}
	sort.Slice(cs, func(a, b int) bool {
		if cs[a].w != cs[b].w {
			return cs[a].w > cs[b].w
		}
		return cs[a].id < cs[b].id
	})
	if len(cs) > k {
		cs = cs[:k]
	}
	ids := make([]int32, len(cs))
	for i, c := range cs {
		ids[i] = c.id
	}
	return ids
}

// CountDigestChars returns what digest_chars must be: the code points a
// reader reads, those of the summary, the key points and the evidence
// snippets' texts, where a summary sentence (see summarySentences) a
// snippet shows verbatim is counted once (see snippetChars).
func CountDigestChars(p *Payload) int {
	n := utf8.RuneCountInString(p.Summary)
	for _, k := range p.KeyPoints {
		n += utf8.RuneCountInString(k)
	}
	said := summarySentences(p.Summary)
	for _, s := range p.EvidenceSnippets {
		n += snippetChars(s.Text, said)
	}
	return n
}

// summarySentences returns the pieces of a summary a snippet may show
// too: its text split after each sentence-final mark (. ! ? and their
// full-width forms, closing quotes and brackets after them) that a space
// follows. A summary is whole sentences joined by single spaces, so each
// of its sentences is one piece or several; splitting is a scan, cheap
// enough for the validator of every payload.
func summarySentences(summary string) []string {
	var out []string
	start := 0
	for i := 0; i < len(summary); i++ {
		if summary[i] != ' ' || i == start {
			continue
		}
		prev := strings.TrimRight(summary[start:i], "\"'”’)]»")
		r, _ := utf8.DecodeLastRuneInString(prev)
		switch r {
		case '.', '!', '?', '。', '！', '？', '…':
			out = append(out, summary[start:i])
			start = i + 1
		}
	}
	if start < len(summary) {
		out = append(out, summary[start:])
	}
	return out
}

// snippetChars returns the code points of snippet that count toward
// digest_chars beside a summary of the sentences said: all of them, less
// those of each place where the snippet shows one of said verbatim.
func snippetChars(snippet string, said []string) int {
	n := utf8.RuneCountInString(snippet)
	if len(said) == 0 {
		return n
	}
	// covered marks the snippet's bytes inside a shown summary sentence.
	var covered []bool
	for _, s := range said {
		for off := 0; off < len(snippet); {
			k := strings.Index(snippet[off:], s)
			if k < 0 {
				break
			}
			if covered == nil {
				covered = make([]bool, len(snippet))
			}
			for b := off + k; b < off+k+len(s); b++ {
				covered[b] = true
			}
			off += k + len(s)
		}
	}
	if covered == nil {
		return n
	}
	// A run of white space between two shown sentences (or between one
	// and the snippet's edge) is the summary's own separator: it counts
	// with them.
	for lo := 0; lo < len(snippet); {
		if covered[lo] {
			lo++
			continue
		}
		hi := lo
		for hi < len(snippet) && !covered[hi] {
			hi++
		}
		if strings.TrimSpace(snippet[lo:hi]) == "" {
			for b := lo; b < hi; b++ {
				covered[b] = true
			}
		}
		lo = hi
	}
	for b := range snippet {
		if covered[b] {
			n--
		}
	}
	return n
}

// Ratio returns what compression_ratio must be: digestChars /
// originalChars, and 0 for an empty text. It is never clamped: a digest
// longer than its source (which Validate rejects) shows a ratio above 1.
func Ratio(digestChars, originalChars int) float64 {
	if originalChars <= 0 {
		return 0
	}
	return float64(digestChars) / float64(originalChars)
}
