package pipeline

import (
	"context"
	"fmt"
	"maps"
	"sort"

	"golang.org/x/sync/errgroup"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
)

// Fidelity levels of a digest in a multi-source response, from most to
// least content.
const (
	FidelityFull          = "full"
	FidelitySummary       = "summary"
	FidelityReferenceOnly = "reference_only"
	FidelityDropped       = "dropped"
	// FidelityPartial describes a response in which items were degraded
	// to different levels or dropped.
	FidelityPartial = "partial"
)

// Budget bounds the size of a multi-source response. MaxChars counts the
// characters of the items' JSON; MaxTokens is converted at CharsPerToken.
// Zero fields mean no bound. The edges take one of the two.
type Budget struct {
	MaxChars  int `json:"max_chars,omitempty"`
	MaxTokens int `json:"max_tokens,omitempty"`
}

// CharsPerToken is the conversion used for token budgets and estimates.
const CharsPerToken = 4

// chars returns the budget in characters, or 0 when unbounded.
func (b Budget) chars() int {
	switch {
	case b.MaxChars > 0 && b.MaxTokens > 0:
		return min(b.MaxChars, b.MaxTokens*CharsPerToken)
	case b.MaxChars > 0:
		return b.MaxChars
	}
	return b.MaxTokens * CharsPerToken
}

// ManyRequest digests several sources for one query within one budget.
type ManyRequest struct {
	Query   string
	Sources []Request
	Budget  Budget
	// Detail is the most an item may carry: FidelityFull (default),
	// FidelitySummary or FidelityReferenceOnly.
	Detail string
	// Cost is what an item costs against the budget: the code points of
	// the JSON an edge sends it as (wire.ItemChars with the fields the
	// client selected). nil: an item costs nothing, and no budget binds.
	Cost    func(Item) int
	Options digest.Options
	// Links asks for each source's links (Item.Links).
	Links bool
	// Failed are sources the caller already found failing (an archive hash
	// that cannot exist); they are listed in the result's Failed.
	Failed []Failure
	// Concurrency bounds how many sources are ingested at once (default 4).
	Concurrency int
}

// Item is one source's place in a multi-source response; wire.RenderItem
// gives its shape on the wire.
type Item struct {
	ID          string
	Fidelity    string
	Rank        int
	Score       float64
	ArchiveHash archive.Hash
	DigestHash  archive.Hash
	Kind        string
	Title       string
	URL         string
	// OriginalChars and PageCount describe the source's canonical text.
	OriginalChars int
	PageCount     int
	Summary       *string
	Digest        *digest.Payload
	Source        *SourceInfo
	// Links are the source's first MaxSourceLinks links, when the request
	// asks for them (ManyRequest.Links); a full item's only.
	Links    *[]Link
	CacheHit bool
}

// Failure is a source that could not be digested.
type Failure struct {
	ID      string         `json:"id"`
	Code    string         `json:"error_code"`
	Message string         `json:"message"`
	Details map[string]any `json:"details,omitempty"`
}

// everyFailed is the error of a request whose every source failed: the
// first failure's code and message, and every failure in details.failed.
func everyFailed(failed []Failure) error {
	f := failed[0]
	return (&fault.Error{Code: fault.Code(f.Code), Msg: "every source failed: " + f.Message, Details: maps.Clone(f.Details)}).
		With("failed", failed)
}

// ArchiveRef names where a source's text and full digest can be fetched.
type ArchiveRef struct {
	TextHash   archive.Hash
	DigestHash archive.Hash
}

// ManyResult is the packed outcome of a multi-source request; wire renders
// it (DigestsEnvelope).
type ManyResult struct {
	QueryHash string
	// Items are the included digests, best first.
	Items []Item
	// Dropped are the digested sources that did not fit, best first.
	Dropped []Item
	Failed  []Failure
	// Fidelity is full when nothing was degraded or dropped.
	Fidelity string
	// ArchiveHashes has an entry for every digested source, included or
	// dropped.
	ArchiveHashes map[string]ArchiveRef
	// BudgetChars is the budget applied, 0 when unbounded.
	BudgetChars int
	// LinkWarnings say, for each source whose links the request asked
	// for, what its links leave out (a CONTENT_TRUNCATED or NO_STRUCTURE
	// warning whose context names the source's id).
	LinkWarnings []Warning
	// leastChars is what the smallest dropped item takes at the lowest
	// level it may be sent at.
	leastChars int
	UsedChars  int
	AllCached  bool
}

// DigestMany ingests and digests every source concurrently, ranks the
// digests by the calibrated chance that each answers the query
// (digest.RankSources: the best snippet's relevance_score with BM25 and
// query-term coverage over the whole documents), and packs them into the
// budget in that order: an item that does not fit whole is degraded (full → summary →
// reference only) before it is dropped. A source that fails is listed in
// Failed; only when every source fails is DigestMany an error.
func (p *Pipeline) DigestMany(ctx context.Context, req ManyRequest) (*ManyResult, error) {
	if len(req.Sources) == 0 && len(req.Failed) == 0 {
		return nil, fault.E(fault.MissingRequired, "sources: at least one source is required")
	}
	if err := req.Options.Validate(); err != nil {
		return nil, fault.Wrap(fault.ValidationError, err.Error(), err)
	}
	detail := req.Detail
	if detail == "" {
		detail = FidelityFull
	}
	conc := req.Concurrency
	if conc <= 0 {
		conc = 4
	}
	results := make([]*Result, len(req.Sources))
	errs := make([]error, len(req.Sources))
	g, gctx := errgroup.WithContext(ctx)
	g.SetLimit(conc)
	for i, src := range req.Sources {
		src.Query = req.Query
		src.Options = req.Options
		src.Links = req.Links
		g.Go(func() error {
			results[i], errs[i] = p.Digest(gctx, src)
			return nil // one source's failure never fails the others
		})
	}
	g.Wait()
	if err := ctx.Err(); err != nil {
		return nil, fault.Wrap(fault.Unavailable, "the request was cancelled", err)
	}

	out := &ManyResult{
		QueryHash:     digest.QueryHash(req.Query),
		ArchiveHashes: map[string]ArchiveRef{},
		BudgetChars:   req.Budget.chars(),
		AllCached:     true,
		Failed:        append([]Failure(nil), req.Failed...),
	}
	var items []Item
	var matches []*digest.Match
	var tops []float64
	for i, res := range results {
		id := sourceID(req.Sources[i], i)
		if errs[i] != nil {
			fe := fault.As(errs[i])
			out.Failed = append(out.Failed, Failure{ID: id, Code: string(fe.Code), Message: fe.Msg, Details: fe.Details})
			continue
		}
		res.Source.ID = id
		out.AllCached = out.AllCached && res.CacheHit
		out.ArchiveHashes[id] = ArchiveRef{TextHash: res.Source.ArchiveHash, DigestHash: res.DigestHash}
		src := res.Source
		// The links go on the item, not twice.
		srcLinks := src.Links
		src.Links = nil
		for _, w := range res.Warnings {
			if w.Context["field"] == "links" {
				w.Context = maps.Clone(w.Context)
				w.Context["id"] = id
				w.Message = id + ": " + w.Message
				out.LinkWarnings = append(out.LinkWarnings, w)
			}
		}
		items = append(items, Item{
			ID:            id,
			ArchiveHash:   res.Source.ArchiveHash,
			DigestHash:    res.DigestHash,
			Kind:          res.Source.Kind,
			Title:         res.Source.Title,
			OriginalChars: res.Payload.OriginalChars,
			Digest:        res.Payload,
			Source:        &src,
			Links:         srcLinks,
			CacheHit:      res.CacheHit,
		})
		matches = append(matches, res.Match)
		top := 0.0
		if len(res.Payload.EvidenceSnippets) > 0 {
			top = res.Payload.EvidenceSnippets[0].RelevanceScore
		}
		tops = append(tops, top)
	}
	if len(items) == 0 {
		return nil, everyFailed(out.Failed)
	}
	for i, s := range digest.RankSources(matches, tops) {
		items[i].Score = s
	}
	// Best answer first; ties keep the request's order.
	sort.SliceStable(items, func(a, b int) bool { return items[a].Score > items[b].Score })
	for i := range items {
		if rec := items[i].Source.Record; rec != nil {
			items[i].URL, items[i].PageCount = rec.FinalURL, rec.PageCount
		}
	}
	out.pack(items, detail, req.Cost)
	if len(out.Items) == 0 {
		return nil, out.noneFits()
	}
	return out, nil
}

// noneFits is the error of a budget that holds no digest, not even at the
// lowest level the request allows: an answer with nothing in it is not a
// success. The digests are made and cached, and details name them, so the
// same request with a budget of details.min_budget_chars is cheap.
func (out *ManyResult) noneFits() error {
	hashes := map[string]string{}
	for id, ref := range out.ArchiveHashes {
		hashes[id] = ref.DigestHash.String()
	}
	tokens := (out.leastChars + CharsPerToken - 1) / CharsPerToken
	return fault.E(fault.ValidationError, fmt.Sprintf("budget: %d characters hold none of the %d digests, not even as a reference; the smallest takes %d characters (%d tokens)",
		out.BudgetChars, len(out.Dropped), out.leastChars, tokens)).
		With("field", "budget").With("budget_chars", out.BudgetChars).With("min_budget_chars", out.leastChars).With("min_budget_tokens", tokens).
		With("content_archive_hashes", hashes).With("failed", out.Failed)
}

func sourceID(r Request, i int) string {
	if r.ID != "" {
		return r.ID
	}
	return DefaultSourceID(i)
}

// DefaultSourceID names the i-th (0-based) source of a request that gave it
// no id.
func DefaultSourceID(i int) string { return fmt.Sprintf("source-%d", i+1) }

// pack fits items into the budget in rank order, degrading before dropping.
func (out *ManyResult) pack(items []Item, detail string, cost func(Item) int) {
	if cost == nil {
		cost = func(Item) int { return 0 }
	}
	levels := []string{FidelityFull, FidelitySummary, FidelityReferenceOnly}
	switch detail {
	case FidelitySummary:
		levels = levels[1:]
	case FidelityReferenceOnly:
		levels = levels[2:]
	}
	remaining := out.BudgetChars
	degraded := false
	for rank, it := range items {
		it.Rank = rank + 1
		placed := false
		for _, level := range levels {
			cand := at(it, level)
			chars := cost(cand)
			if out.BudgetChars == 0 || chars <= remaining {
				remaining -= chars
				out.UsedChars += chars
				out.Items = append(out.Items, cand)
				placed = true
				degraded = degraded || level != levels[0]
				break
			}
		}
		if !placed {
			if least := cost(at(it, levels[len(levels)-1])); out.leastChars == 0 || least < out.leastChars {
				out.leastChars = least
			}
			it.Fidelity = FidelityDropped
			it.Digest, it.Source, it.Links = nil, nil, nil
			out.Dropped = append(out.Dropped, it)
		}
	}
	out.Fidelity = FidelityFull
	switch {
	case len(out.Dropped) > 0 || degraded && mixed(out.Items):
		out.Fidelity = FidelityPartial
	case degraded || detail != FidelityFull:
		out.Fidelity = out.Items[0].Fidelity
	}
}

func mixed(items []Item) bool {
	for _, it := range items[1:] {
		if it.Fidelity != items[0].Fidelity {
			return true
		}
	}
	return false
}

// at returns it cut down to level.
func at(it Item, level string) Item {
	it.Fidelity = level
	switch level {
	case FidelitySummary:
		s := it.Digest.Summary
		it.Summary = &s
		it.Digest, it.Source, it.Links = nil, nil, nil
	case FidelityReferenceOnly:
		it.Digest, it.Source, it.Links = nil, nil, nil
	}
	return it
}
