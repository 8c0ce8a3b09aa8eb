package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"unicode/utf8"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest/format"

	"golang.org/x/sync/errgroup"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/locate"
)

// Bounds of a locate or check request.
const (
	// MaxLocateSources bounds the sources of one locate or check request.
	MaxLocateSources = 50
	// MaxQuotes bounds the quotes of one locate request.
	MaxQuotes = 100
	// MaxQuoteChars bounds one quote, in code points.
	MaxQuoteChars = 5000
	// MaxReportChars bounds a report to check, in code points.
	MaxReportChars = 200_000
	// MaxCitations bounds the citations checked in one report.
	MaxCitations = 1000
)

// Warning codes of locate and check answers: one warning per problem class.
const ()

// LocateSource is a source quotes are looked for in, as the pipeline
// loaded it.
type LocateSource struct {
	ID          string       `json:"id"`
	ArchiveHash archive.Hash `json:"archive_hash"`
	Kind        string       `json:"kind"`
	Title       string       `json:"title,omitempty"`

	ix        *locate.Index
	paginated bool
}

// LocateRequest asks where quotes are in some sources.
type LocateRequest struct {
	// Sources are archived texts (Request.Archive) or sources to ingest,
	// each with its ID.
	Sources []Request
	// Failed are sources the caller already found failing (an archive
	// hash that cannot exist); they are listed in the result's Failed.
	Failed []Failure
	Quotes []string
	// MinSimilarity is the least similarity of a fuzzy match (0:
	// locate.DefaultMinSimilarity).
	MinSimilarity float64
}

// QuoteResult is where one quote was found: the best span over all the
// sources (exact before normalized before fuzzy, then the higher
// similarity, then the earlier source). SourceID, Locator and Text are nil
// when the quote was not found; Text is always the archived text's span.
type QuoteResult struct {
	QuoteIndex int             `json:"quote_index"`
	Match      string          `json:"match"`
	SourceID   *string         `json:"source_id"`
	Locator    *digest.Locator `json:"locator"`
	Text       *string         `json:"text"`
	Similarity float64         `json:"similarity"`
}

// LocateResult is the answer to a LocateRequest.
type LocateResult struct {
	Results []QuoteResult  `json:"results"`
	Counts  map[string]int `json:"counts"`
	Sources []LocateSource `json:"sources"`
	// Failed are the sources that could not be fetched or read; the
	// quotes were looked for in the others.
	Failed   []Failure `json:"failed"`
	Warnings []Warning `json:"-"`
}

// validMinSimilarity checks a requested threshold.
func validMinSimilarity(v float64) error {
	if v < 0 || v > 1 {
		return fault.E(fault.ValidationError, "min_similarity: must be in [0, 1] (0 or absent: 0.85)")
	}
	return nil
}

// loadSources archives (or reads back) every source and returns its
// cached index. Sources load in parallel; a source that cannot be fetched
// or read is listed in failed (after known, the caller's own) and the
// others are still loaded, as DigestMany does. srcs holds the loaded
// sources in request order.
func (p *Pipeline) loadSources(ctx context.Context, reqs []Request, known []Failure) (srcs []LocateSource, failed []Failure, err error) {
	if len(reqs) == 0 && len(known) > 0 {
		return nil, nil, everyFailed(known)
	}
	if len(reqs) == 0 {
		return nil, nil, fault.E(fault.MissingRequired, "sources: at least one source is required")
	}
	if len(reqs)+len(known) > MaxLocateSources {
		return nil, nil, fault.E(fault.ValidationError, fmt.Sprintf("sources: at most %d sources per request", MaxLocateSources)).With("max_sources", MaxLocateSources)
	}
	out := make([]*LocateSource, len(reqs))
	errs := make([]error, len(reqs))
	var g errgroup.Group
	g.SetLimit(4)
	for i, r := range reqs {
		g.Go(func() error {
			out[i], errs[i] = p.loadSource(ctx, r)
			return nil // one source's failure never fails the others
		})
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, nil, fault.Wrap(fault.Unavailable, "the request was cancelled", err)
	}
	failed = append([]Failure{}, known...)
	for i, r := range reqs {
		id := r.ID
		if id == "" {
			id = DefaultSourceID(i)
		}
		if errs[i] != nil {
			fe := fault.As(errs[i])
			failed = append(failed, Failure{ID: id, Code: string(fe.Code), Message: fe.Msg, Details: fe.Details})
			continue
		}
		out[i].ID = id
		srcs = append(srcs, *out[i])
	}
	if len(srcs) == 0 {
		return nil, nil, everyFailed(failed)
	}
	return srcs, failed, nil
}

// loadSource reads an archived text, or ingests and archives a source, and
// returns it with its index (built once per text hash and cached).
func (p *Pipeline) loadSource(ctx context.Context, r Request) (*LocateSource, error) {
	var (
		text archive.Blob
		hash archive.Hash
		rec  *ingest.Record
	)
	if r.Archive.Valid() {
		t, rc, _, err := p.Archived(ctx, r.Archive)
		if err != nil {
			return nil, err
		}
		text, hash, rec = t, r.Archive, rc
	} else {
		doc, err := p.Ingester.Ingest(ctx, r.Source)
		if err != nil {
			return nil, err
		}
		h, _, err := p.store(ctx, doc, r.Labels)
		if err != nil {
			return nil, err
		}
		text, hash, rec = doc.Text, h, &doc.Record
	}
	src := &LocateSource{ArchiveHash: hash, Kind: ingest.KindText}
	if rec != nil {
		src.Kind, src.Title = rec.Kind, rec.Title
	}
	src.paginated = format.Paginated(src.Kind)
	src.ix = p.indexes.Get(hash.String(), func() *locate.Index { return locate.NewIndex(text.String()) })
	return src, nil
}

// Locate finds each quote in the sources.
func (p *Pipeline) Locate(ctx context.Context, req LocateRequest) (*LocateResult, error) {
	if len(req.Quotes) == 0 {
		return nil, fault.E(fault.MissingRequired, "quotes: at least one quote is required")
	}
	if len(req.Quotes) > MaxQuotes {
		return nil, fault.E(fault.ValidationError, fmt.Sprintf("quotes: at most %d quotes per request", MaxQuotes)).With("max_quotes", MaxQuotes)
	}
	for i, q := range req.Quotes {
		if utf8.RuneCountInString(q) > MaxQuoteChars {
			return nil, fault.E(fault.ValidationError, fmt.Sprintf("quotes[%d]: exceeds maximum length of %d characters", i, MaxQuoteChars))
		}
	}
	if err := validMinSimilarity(req.MinSimilarity); err != nil {
		return nil, err
	}
	srcs, failed, err := p.loadSources(ctx, req.Sources, req.Failed)
	if err != nil {
		return nil, err
	}
	res := &LocateResult{Sources: srcs, Failed: failed, Counts: newCounts(locate.Exact, locate.Normalized, locate.Fuzzy, locate.NotFound)}
	for i, q := range req.Quotes {
		if err := ctx.Err(); err != nil {
			return nil, fault.Wrap(fault.Unavailable, "the request was cancelled", err)
		}
		best, at := locate.Match{Kind: locate.NotFound}, -1
		for k := range srcs {
			m := srcs[k].ix.Locate(q, req.MinSimilarity)
			if m.Kind == locate.NotFound {
				best.Similarity = max(best.Similarity, m.Similarity)
				continue
			}
			if at < 0 || m.Kind.Rank() < best.Kind.Rank() || m.Kind == best.Kind && m.Similarity > best.Similarity {
				best, at = m, k
			}
		}
		qr := QuoteResult{QuoteIndex: i, Match: string(best.Kind), Similarity: best.Similarity}
		if at >= 0 {
			s := &srcs[at]
			loc := s.ix.Locator(best.Start, best.End, s.paginated)
			text := s.ix.Slice(best.Start, best.End)
			qr.SourceID, qr.Locator, qr.Text = &s.ID, &loc, &text
		}
		res.Counts[qr.Match]++
		res.Results = append(res.Results, qr)
	}
	if n := res.Counts[string(locate.NotFound)]; n > 0 {
		res.Warnings = append(res.Warnings, Warning{Code: fault.QuotesNotFound, Message: fmt.Sprintf("%d of %d quotes were not found in the sources", n, len(req.Quotes))})
	}
	return res, nil
}

func newCounts[T ~string](keys ...T) map[string]int {
	m := map[string]int{}
	for _, k := range keys {
		m[string(k)] = 0
	}
	return m
}

// CheckRequest asks whether a report's citations hold.
type CheckRequest struct {
	// Report is markdown or plain text with citations in the forms
	// locate.Citation describes.
	Report string
	// Sources are the sources [id] citations name; citations by hash need
	// none.
	Sources []Request
	// Failed are sources the caller already found failing, as in
	// LocateRequest.
	Failed        []Failure
	MinSimilarity float64
}

// Support is the span of a source that best supports a sentence cited
// without a quote, with its support score (see locate.Index.Support).
type Support struct {
	Locator digest.Locator `json:"locator"`
	Text    string         `json:"text"`
	Score   float64        `json:"score"`
}

// CitationResult is the check of one citation (one per marker and quote).
type CitationResult struct {
	Index  int    `json:"index"`
	Marker string `json:"marker"`
	// ReportLocator is the marker's span in the report.
	ReportLocator digest.Locator `json:"report_locator"`
	Sentence      string         `json:"sentence"`
	Ref           string         `json:"ref"`
	SourceID      *string        `json:"source_id"`
	ArchiveHash   *archive.Hash  `json:"archive_hash"`
	CitedLocator  *string        `json:"cited_locator"`
	Quote         *string        `json:"quote"`
	Status        string         `json:"status"`
	// Match and Similarity say how the quote was found (null without a
	// quote).
	Match      *string  `json:"match"`
	Similarity *float64 `json:"similarity"`
	// Locator and Text: where the quote (or the supporting span) is; for
	// moved citations, the right locator. Null when not found.
	Locator *digest.Locator `json:"locator"`
	Text    *string         `json:"text"`
	Support *Support        `json:"support,omitempty"`
}

// CheckResult is the answer to a CheckRequest.
type CheckResult struct {
	Citations []CitationResult `json:"citations"`
	Counts    map[string]int   `json:"counts"`
	Sources   []LocateSource   `json:"sources"`
	// Failed are the sources that could not be fetched or read; a
	// citation naming one of them is unknown_source.
	Failed   []Failure `json:"failed"`
	Warnings []Warning `json:"-"`
}

// Check checks every citation of a report against its source.
func (p *Pipeline) Check(ctx context.Context, req CheckRequest) (*CheckResult, error) {
	if req.Report == "" {
		return nil, fault.E(fault.MissingRequired, "report: is required")
	}
	if n := utf8.RuneCountInString(req.Report); n > MaxReportChars {
		return nil, fault.E(fault.ValidationError, fmt.Sprintf("report: exceeds maximum length of %d characters", MaxReportChars))
	}
	if err := validMinSimilarity(req.MinSimilarity); err != nil {
		return nil, err
	}
	srcs, failed := []LocateSource{}, []Failure{}
	if len(req.Sources)+len(req.Failed) > 0 {
		var err error
		if srcs, failed, err = p.loadSources(ctx, req.Sources, req.Failed); err != nil {
			return nil, err
		}
	}
	cites := locate.ParseCitations(req.Report)
	if len(cites) > MaxCitations {
		return nil, fault.E(fault.ValidationError, fmt.Sprintf("report: more than %d citations", MaxCitations)).With("max_citations", MaxCitations)
	}
	byRef := map[string]*LocateSource{}
	for i := range srcs {
		byRef[srcs[i].ID] = &srcs[i]
		if _, ok := byRef[srcs[i].ArchiveHash.String()]; !ok {
			byRef[srcs[i].ArchiveHash.String()] = &srcs[i]
		}
	}
	for _, r := range req.Sources {
		if u := r.Source.URL; u != "" {
			if s, ok := byRef[r.ID]; ok {
				byRef[u] = s
			}
		}
	}
	res := &CheckResult{Sources: srcs, Failed: failed, Citations: []CitationResult{},
		Counts: newCounts(locate.StatusSupported, locate.StatusMoved, locate.StatusNotFound, locate.StatusUnknownSource)}
	for i, c := range cites {
		if err := ctx.Err(); err != nil {
			return nil, fault.Wrap(fault.Unavailable, "the request was cancelled", err)
		}
		src, err := p.citedSource(ctx, c.Ref, byRef)
		if err != nil {
			return nil, err
		}
		cr := CitationResult{Index: i, Marker: c.Marker, ReportLocator: digest.Locator{Start: c.Start, End: c.End}, Sentence: c.Sentence, Ref: c.Ref}
		if c.Locator != "" {
			cr.CitedLocator = &c.Locator
		}
		if c.Quote != "" {
			cr.Quote = &c.Quote
		}
		if src == nil {
			cr.Status = string(locate.StatusUnknownSource)
		} else {
			cr.SourceID, cr.ArchiveHash = &src.ID, &src.ArchiveHash
			v := src.ix.CheckCitation(c, req.MinSimilarity)
			cr.Status = string(v.Status)
			if c.Quote != "" {
				kind, sim := string(v.Match.Kind), v.Match.Similarity
				cr.Match, cr.Similarity = &kind, &sim
			}
			if v.Found {
				loc := src.ix.Locator(v.Start, v.End, src.paginated)
				text := src.ix.Slice(v.Start, v.End)
				cr.Locator, cr.Text = &loc, &text
			}
			if v.HasSupport {
				cr.Support = &Support{Locator: src.ix.Locator(v.SupportStart, v.SupportEnd, src.paginated),
					Text: src.ix.Slice(v.SupportStart, v.SupportEnd), Score: v.Score}
			}
		}
		res.Counts[cr.Status]++
		res.Citations = append(res.Citations, cr)
	}
	for _, w := range []struct {
		status locate.Status
		code   fault.Warning
		what   string
	}{
		{locate.StatusMoved, fault.CitationsMoved, "cite a span other than where the quote or its support is (see locator)"},
		{locate.StatusNotFound, fault.CitationsNotFound, "quote or state what their source does not hold"},
		{locate.StatusUnknownSource, fault.CitationsUnknownSource, "name a source that is neither in the request nor archived"},
	} {
		if n := res.Counts[string(w.status)]; n > 0 {
			res.Warnings = append(res.Warnings, Warning{Code: w.code, Message: fmt.Sprintf("%d of %d citations %s", n, len(cites), w.what)})
		}
	}
	if len(cites) == 0 {
		res.Warnings = append(res.Warnings, Warning{Code: fault.NoCitations, Message: "the report has no citation in an accepted form"})
	}
	return res, nil
}

// citedSource resolves a citation's reference: a source of the request by
// id, URL or hash, else an archived text by hash. Nil: an unknown source.
func (p *Pipeline) citedSource(ctx context.Context, ref string, byRef map[string]*LocateSource) (*LocateSource, error) {
	if s, ok := byRef[ref]; ok {
		return s, nil
	}
	d, err := archive.ParseHash(ref)
	if err != nil || !d.Valid() {
		byRef[ref] = nil
		return nil, nil
	}
	s, err := p.loadSource(ctx, Request{Archive: d})
	if errors.Is(err, fs.ErrNotExist) || fault.CodeOf(err) == fault.NotFound {
		byRef[ref] = nil
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	s.ID = ref
	byRef[ref] = s
	return s, nil
}
