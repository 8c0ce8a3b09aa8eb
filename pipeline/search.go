package pipeline

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/search"
)

// Labels: a source may carry short labels (a project, a research session),
// kept beside its record under labelRefPrefix+<text hex> as a JSON list
// blob; they are never part of a content address. Every upload that names
// labels adds them to the source's set.
const (
	labelRefPrefix = "source-labels/"
	// MaxLabels is the most labels one source carries, and one request
	// names.
	MaxLabels = 20
	// MaxLabelChars bounds one label, in code points.
	MaxLabelChars = 64
)

// Search bounds.
const (
	// DefaultSearchLimit and MaxSearchLimit bound a page of Search.
	DefaultSearchLimit = 10
	MaxSearchLimit     = 50
	// MaxSearchQueryChars bounds a search query, in code points.
	MaxSearchQueryChars = digest.MaxQueryChars
)

// CheckLabels returns labels sorted without repeats, or a VALIDATION_ERROR
// naming field when one is empty, too long, holds a control character or
// there are more than MaxLabels.
func CheckLabels(field string, labels []string) ([]string, error) {
	if len(labels) > MaxLabels {
		return nil, fault.E(fault.ValidationError, fmt.Sprintf("%s: at most %d labels", field, MaxLabels)).With("field", field)
	}
	out := slices.Clone(labels)
	for _, l := range out {
		n := utf8.RuneCountInString(l)
		if n == 0 || n > MaxLabelChars || !utf8.ValidString(l) || strings.ContainsFunc(l, func(r rune) bool { return r < 0x20 || r == 0x7f }) || strings.TrimSpace(l) != l {
			return nil, fault.E(fault.ValidationError, fmt.Sprintf("%s: a label is 1 to %d characters without control characters or surrounding spaces", field, MaxLabelChars)).With("field", field)
		}
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}

// Labels returns the labels of an archived source, sorted (none is an
// empty list).
func (p *Pipeline) Labels(ctx context.Context, text archive.Hash) ([]string, error) {
	d, err := p.Store.Ref(ctx, labelRefPrefix+text.Hex())
	if errors.Is(err, fs.ErrNotExist) {
		return []string{}, nil
	}
	if err != nil {
		return nil, archiveFault("read the source's labels", err)
	}
	b, err := p.readBlob(ctx, d, 64<<10)
	if err != nil {
		return nil, archiveFault("read the source's labels", err)
	}
	var labels []string
	if err := json.Unmarshal(b, &labels); err != nil {
		return nil, fault.Wrap(fault.Internal, "decode the source's labels", err)
	}
	return labels, nil
}

// addLabels adds labels (checked by CheckLabels) to the source's set and
// returns the set; no change writes nothing.
func (p *Pipeline) addLabels(ctx context.Context, text archive.Hash, labels []string) ([]string, error) {
	have, err := p.Labels(ctx, text)
	if err != nil {
		return nil, err
	}
	if len(labels) == 0 {
		return have, nil
	}
	all := append(slices.Clone(have), labels...)
	slices.Sort(all)
	all = slices.Compact(all)
	if len(all) > MaxLabels {
		return nil, fault.E(fault.ValidationError, fmt.Sprintf("labels: a source carries at most %d labels", MaxLabels)).With("field", "labels")
	}
	if slices.Equal(all, have) {
		return have, nil
	}
	b, _ := json.Marshal(all)
	d, _, err := p.putOnce(ctx, archive.NewBlob(string(b)))
	if err != nil {
		return nil, archiveFault("store the source's labels", err)
	}
	if err := p.Store.SetRef(ctx, labelRefPrefix+text.Hex(), d); err != nil {
		return nil, archiveFault("store the source's labels", err)
	}
	return all, nil
}

// ReindexReport counts what Reindex did.
type ReindexReport struct {
	Sources int `json:"sources"`
	Indexed int `json:"indexed"`
	// Relabeled counts indexed sources whose labels the index had not
	// caught up with.
	Relabeled int `json:"relabeled"`
	Removed   int `json:"removed"`
	Failed    int `json:"failed"`
}

// Reindex brings the search index in line with the archive: every archived
// source (one with a source reference) that the index lacks is indexed —
// every one when all is set (a rebuild) —, every indexed source whose
// labels differ from the archive's takes the archive's, and every indexed
// source that is no longer archived is removed. Reindexing is what makes
// the index derived data: a source acknowledged before a crash (its
// reference written, its indexing queued or not yet on disk) is searchable
// after the reconcile at start. Until it has indexed them, searches and
// the index's health say how many archived sources the index lacks (and,
// while it lists them, that it does not know yet).
func (p *Pipeline) Reindex(ctx context.Context, all bool) (ReindexReport, error) {
	var rep ReindexReport
	if p.Index == nil {
		return rep, fault.E(fault.FeatureDisabled, "search is not enabled")
	}
	ix := &p.indexer
	ix.reconcileBegin()
	// left counts the sources this reconcile found lacking and has not
	// indexed; whatever is left when it ends is no longer counted as
	// catching up (its failures are counted as failures).
	listed, left := false, 0
	defer func() {
		if !listed {
			ix.reconcileListed(0)
		}
		ix.reconcileIndexed(left)
	}()
	indexed := map[archive.Hash][]string{}
	if err := p.Index.Sources(ctx, func(s search.Source) error { indexed[s.Hash] = s.Labels; return nil }); err != nil {
		return rep, indexFault("list the indexed sources", err)
	}
	// A source's labels blob is the JSON of its sorted labels, so the
	// index's labels need not be read back from the archive to compare.
	labelBlobs := map[archive.Hash]archive.Hash{}
	err := p.Store.ListRefs(ctx, labelRefPrefix, func(name string, d archive.Hash) error {
		if h, err := archive.ParseHash(strings.TrimPrefix(name, labelRefPrefix)); err == nil {
			labelBlobs[h] = d
		}
		return nil
	})
	if err != nil {
		return rep, archiveFault("list the sources' labels", err)
	}
	archived := map[archive.Hash]bool{}
	// The sources to index are listed first, so that searches can be told
	// how many the index lacks while they are indexed.
	var todo []archive.Hash
	err = p.Store.ListRefs(ctx, sourceRefPrefix, func(name string, _ archive.Hash) error {
		h, err := archive.ParseHash(strings.TrimPrefix(name, sourceRefPrefix))
		if err != nil {
			return nil
		}
		archived[h] = true
		rep.Sources++
		if have, ok := indexed[h]; ok && !all {
			relabeled, err := p.relabel(ctx, h, have, labelBlobs[h])
			switch {
			case ctx.Err() != nil:
				return ctx.Err()
			case err != nil:
				rep.Failed++
			case relabeled:
				rep.Relabeled++
			}
			return nil
		}
		todo = append(todo, h)
		if _, ok := indexed[h]; !ok {
			left++
		}
		return nil
	})
	if err != nil {
		return rep, archiveFault("list the archived sources", err)
	}
	listed = true
	ix.reconcileListed(left)
	var (
		docs    []search.Document
		bytes   int
		lacking int // of docs, those the index lacked
	)
	flush := func() error {
		if len(docs) == 0 {
			return nil
		}
		if err := p.Index.Put(ctx, docs...); err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			rep.Failed += len(docs)
		} else {
			rep.Indexed += len(docs)
		}
		ix.reconcileIndexed(lacking)
		left -= lacking
		docs, bytes, lacking = docs[:0], 0, 0
		return nil
	}
	for _, h := range todo {
		doc, err := p.indexDocument(ctx, h)
		if err != nil {
			if ctx.Err() != nil {
				return rep, archiveFault("list the archived sources", ctx.Err())
			}
			rep.Failed++
			continue
		}
		docs = append(docs, doc)
		if _, ok := indexed[h]; !ok {
			lacking++
		}
		for _, ps := range doc.Passages {
			bytes += len(ps.Text)
		}
		if len(docs) == putTexts || bytes >= maxQueuedBytes {
			if err := flush(); err != nil {
				return rep, archiveFault("list the archived sources", err)
			}
		}
	}
	if err := flush(); err != nil {
		return rep, archiveFault("list the archived sources", err)
	}
	for h := range indexed {
		if archived[h] {
			continue
		}
		if err := p.Index.Remove(ctx, h); err != nil {
			return rep, indexFault("remove a source from the index", err)
		}
		p.forgetIndexed(h)
		rep.Removed++
	}
	return rep, nil
}

// relabel gives an indexed source the labels the archive holds for it when
// they differ from have, the index's; blob is the source's labels blob
// (zero for none).
func (p *Pipeline) relabel(ctx context.Context, h archive.Hash, have []string, blob archive.Hash) (bool, error) {
	var haveBlob archive.Hash
	if len(have) > 0 {
		b, _ := json.Marshal(have)
		haveBlob = archive.SumString(string(b))
	}
	if haveBlob == blob {
		return false, nil
	}
	labels, err := p.Labels(ctx, h)
	if err != nil {
		return false, err
	}
	if slices.Equal(labels, have) {
		return false, nil
	}
	p.forgetIndexed(h)
	return true, p.Index.SetLabels(ctx, h, labels)
}

// indexDocument returns what the index takes of one archived source, timed
// by its text blob's time in the archive.
func (p *Pipeline) indexDocument(ctx context.Context, h archive.Hash) (search.Document, error) {
	text, rec, _, err := p.Archived(ctx, h)
	if err != nil {
		return search.Document{}, err
	}
	labels, err := p.Labels(ctx, h)
	if err != nil {
		return search.Document{}, err
	}
	added := p.now()
	if bi, err := p.Store.Stat(ctx, h); err == nil {
		added = bi.ModTime
	}
	kind := ""
	if rec != nil {
		kind = rec.Kind
	}
	src := search.Source{Hash: h, Kind: kind, Added: added.UTC().Truncate(time.Second), Labels: labels}
	return search.Document{Source: src, Passages: search.PassagesOf(text.String())}, nil
}

// indexFault classifies a search engine's error.
func indexFault(op string, err error) error {
	var fe *fault.Error
	if errors.As(err, &fe) {
		// An index that classifies its own error (another process holds
		// it: FEATURE_DISABLED naming the holder) is answered as it says.
		return &fault.Error{Code: fe.Code, Msg: op + ": " + fe.Msg, Details: fe.Details, Err: fe.Err}
	}
	if errors.Is(err, search.ErrUnavailable) || errors.Is(err, context.DeadlineExceeded) {
		return fault.Wrap(fault.Unavailable, op+": the search index is unavailable", err)
	}
	return fault.Wrap(fault.Internal, op, err)
}

// SearchRequest is one search across the archive.
type SearchRequest struct {
	Query         string
	Filter        search.Filter
	GroupBySource bool
	// Offset is where the page starts (0 for the first; a cursor carries
	// it); Limit is 0 for DefaultSearchLimit.
	Offset, Limit int
}

// SearchHit is one ranked passage with what is known of its source.
type SearchHit struct {
	search.Hit
	Kind  string
	Title string
	URL   string
	// Paged reports a text with pages: its locator takes the page form.
	Paged bool
}

// LocatorString returns the hit's locator as the service writes it.
func (h SearchHit) LocatorString() string {
	l := h.Locator
	if !h.Paged {
		l.Page = 0
	}
	return l.String()
}

// SearchPage is a page of a search.
type SearchPage struct {
	Hits          []SearchHit
	TotalEstimate int
	// More reports whether hits follow; Next is the offset to continue
	// at (the edges carry it in a signed cursor).
	More bool
	Next int
	// Corrupt names the sources the search found and left out because
	// their archived text failed its integrity check (each is noted for
	// health and repair).
	Corrupt []archive.Hash
	// Unsearchable counts the archived sources the index is known to
	// lack while a reconcile indexes them; Reconciling reports a
	// reconcile still finding out how many (see Reindex).
	Unsearchable int
	Reconciling  bool
}

// CheckSearchLimit refuses a page size outside 1–MaxSearchLimit (0 stands
// for DefaultSearchLimit) with VALIDATION_ERROR naming the field. It is the
// one rule of a page's size: Search applies it to every caller, and the
// edges as they read a request, before its other fields.
func CheckSearchLimit(limit int) error {
	if limit < 0 || limit > MaxSearchLimit {
		return fault.E(fault.ValidationError, fmt.Sprintf("limit: must be an integer between 1 and %d", MaxSearchLimit)).With("field", "limit")
	}
	return nil
}

// Search answers a question across the archived sources that pass the
// filter: ranked passages, each verified against its canonical text (see
// search.Search). An empty or over-long query, a limit outside 1–
// MaxSearchLimit or an offset past search.MaxResults is VALIDATION_ERROR;
// no index is FEATURE_DISABLED; an engine that cannot be reached is
// UNAVAILABLE.
func (p *Pipeline) Search(ctx context.Context, req SearchRequest) (*SearchPage, error) {
	if p.Index == nil {
		return nil, fault.E(fault.FeatureDisabled, "search is not enabled on this service: it keeps no search index (it was started with --index off, or with an S3 archive and no --index)")
	}
	q := strings.TrimSpace(req.Query)
	if q == "" {
		return nil, fault.E(fault.MissingRequired, "query: required, a question or words to search for").With("field", "query")
	}
	if utf8.RuneCountInString(q) > MaxSearchQueryChars {
		return nil, fault.E(fault.ValidationError, fmt.Sprintf("query: exceeds maximum length of %d characters", MaxSearchQueryChars)).With("field", "query")
	}
	if err := CheckSearchLimit(req.Limit); err != nil {
		return nil, err
	}
	if req.Limit == 0 {
		req.Limit = DefaultSearchLimit
	}
	if req.Offset < 0 || req.Offset >= search.MaxResults {
		return nil, fault.E(fault.InvalidCursor, "cursor: not a cursor this search issued").With("field", "cursor")
	}
	// What was archived before the search is searchable: wait for the
	// texts still queued for the index.
	if err := p.WaitIndexed(ctx); err != nil {
		return nil, indexFault("search", err)
	}
	for _, l := range req.Filter.Labels {
		ok, err := p.Index.HasLabel(ctx, l)
		if err != nil {
			return nil, indexFault("search", err)
		}
		if !ok {
			return nil, fault.E(fault.NotFound, "filter.labels: no archived source carries the label "+strconv.Quote(l)).With("field", "filter.labels").With("label", l)
		}
	}
	kinds := map[archive.Hash]*SearchHit{}
	textOf := func(ctx context.Context, h archive.Hash) (string, error) {
		t, rec, _, err := p.Archived(ctx, h)
		if fault.CodeOf(err) == fault.NotFound {
			return "", fs.ErrNotExist
		}
		if err != nil {
			return "", err
		}
		info := &SearchHit{Kind: "text"}
		if rec != nil {
			info.Kind, info.Title, info.URL = rec.Kind, rec.Title, rec.FinalURL
		}
		info.Paged = format.Paginated(info.Kind)
		kinds[h] = info
		return t.String(), nil
	}
	res, err := search.Search(ctx, p.Index, textOf, search.Request{Query: q, Filter: req.Filter, GroupBySource: req.GroupBySource})
	if err != nil {
		var fe *fault.Error
		if errors.As(err, &fe) {
			return nil, err // reading a text failed: the archive's fault
		}
		return nil, indexFault("search", err)
	}
	page := &SearchPage{Hits: []SearchHit{}, TotalEstimate: res.TotalEstimate, Corrupt: res.Corrupt}
	page.Reconciling, page.Unsearchable = p.indexer.lag()
	for i := req.Offset; i < len(res.Hits) && len(page.Hits) < req.Limit; i++ {
		h := res.Hits[i]
		info := kinds[h.Source]
		page.Hits = append(page.Hits, SearchHit{Hit: h, Kind: info.Kind, Title: info.Title, URL: info.URL, Paged: info.Paged})
	}
	if next := req.Offset + len(page.Hits); next < len(res.Hits) {
		page.More, page.Next = true, next
	}
	return page, nil
}

// IndexProbe is the search index's health probe: healthy when the engine
// answers, degraded when it does not, when texts failed to enter it, or
// while it lags the archive (a reconcile lists what it lacks, or indexes
// unsearchable_sources archived sources).
func (p *Pipeline) IndexProbe(ctx context.Context) (string, map[string]any) {
	listing, lagging := p.indexer.lag()
	details := map[string]any{"failed_since_start": p.indexFailures.Load(), "unsearchable_sources": lagging}
	if listing {
		details["reconciling"] = true
	}
	if _, _, err := p.Index.Candidates(ctx, "probe", search.Filter{}, 1); err != nil {
		details["error"] = "the search index does not answer"
		return Degraded, details
	}
	if p.indexFailures.Load() > 0 || listing || lagging > 0 {
		return Degraded, details
	}
	return Healthy, details
}
