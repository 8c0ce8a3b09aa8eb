// Package bleveindex is the embedded search engine: a bleve index on local
// disk beside the archive. A passage is a document whose id is its locator
// ("p:<hex>:<start>:<end>:<page>"), so nothing of its text is stored; a
// source is a document "s:<hex>" holding the fields filters need. Batches
// return once they are searchable; they reach the disk a moment later.
package bleveindex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/search"
)

// Index is a bleve index in one directory.
type Index struct {
	b     bleve.Index
	close sync.Once
	// put lets one Put analyse at a time, so that the memory indexing
	// takes is one batch's (see batchPassages), whatever the number of
	// callers indexing at once.
	put sync.Mutex
}

// batchPassages is the most passages one bleve batch takes: a long text is
// indexed in several, its source document in the last, so that a source
// the index holds has all its passages. Each batch is a segment that
// bleve's merger later merges into larger ones, at a cost that grows with
// the number of segments: several sources to a batch cost less than one
// each.
const batchPassages = 500

var _ search.Index = (*Index)(nil)

// Document types (the mapping's type field).
const (
	typePassage = "p"
	typeSource  = "s"
)

// Open opens the index in dir, creating it when dir does not exist.
func Open(dir string) (*Index, error) {
	// Another process holding the index makes opening fail after a
	// moment instead of waiting for it. A batch returns once it is
	// searchable, before it is on disk (unsafe_batch): waiting for each
	// source's fsync made a batch run three times slower, and what a crash
	// loses before it is on disk the reconcile at start indexes again (a
	// source's passages and its document are one segment, on disk whole
	// or not at all).
	config := map[string]any{"bolt_timeout": "2s", "unsafe_batch": true}
	b, err := bleve.OpenUsing(dir, config)
	if err == nil && analyzerOf(b) != bodyAnalyzer {
		// An index made with another analysis is rebuilt: it is derived
		// data, and the reconcile at start indexes every archived source
		// an empty index lacks.
		if err := b.Close(); err != nil {
			return nil, fmt.Errorf("close the search index to rebuild it: %w: %w", search.ErrUnavailable, err)
		}
		if err := os.RemoveAll(dir); err != nil {
			return nil, fmt.Errorf("remove the search index to rebuild it: %w: %w", search.ErrUnavailable, err)
		}
		b, err = nil, bleve.ErrorIndexPathDoesNotExist
	}
	if errors.Is(err, bleve.ErrorIndexPathDoesNotExist) {
		b, err = bleve.NewUsing(dir, indexMapping(), scorch.Name, scorch.Name, config)
	}
	if err != nil {
		return nil, fmt.Errorf("open search index: %w: %w", search.ErrUnavailable, err)
	}
	return &Index{b: b}, nil
}

// indexMapping declares the two document types: a passage's body is
// analysed by bodyAnalyzer (English stop words dropped, Porter stems,
// scripts without spaces read as the digester reads them: digest.UnspacedTerms) and stored nowhere; its source, kind, labels and time are indexed for filters; a
// source stores its fields so that Source and Sources can read them.
func indexMapping() mapping.IndexMapping {
	keywordField := func(store bool) *mapping.FieldMapping {
		f := mapping.NewKeywordFieldMapping()
		f.Analyzer = keyword.Name
		f.Store = store
		f.IncludeInAll = false
		f.IncludeTermVectors = false
		f.DocValues = false
		return f
	}
	numberField := func(store bool) *mapping.FieldMapping {
		f := mapping.NewNumericFieldMapping()
		f.Store = store
		f.IncludeInAll = false
		f.DocValues = false
		return f
	}
	body := mapping.NewTextFieldMapping()
	body.Analyzer = bodyAnalyzer
	body.Store = false
	body.IncludeTermVectors = false
	body.IncludeInAll = false
	body.DocValues = false

	passage := mapping.NewDocumentMapping()
	passage.Dynamic = false
	passage.AddFieldMappingsAt("body", body)
	passage.AddFieldMappingsAt("src", keywordField(false))
	passage.AddFieldMappingsAt("kind", keywordField(false))
	passage.AddFieldMappingsAt("added", numberField(false))

	source := mapping.NewDocumentMapping()
	source.Dynamic = false
	source.AddFieldMappingsAt("type", keywordField(false))
	source.AddFieldMappingsAt("src", keywordField(true))
	source.AddFieldMappingsAt("kind", keywordField(true))
	source.AddFieldMappingsAt("labels", keywordField(true))
	source.AddFieldMappingsAt("added", numberField(true))

	m := bleve.NewIndexMapping()
	m.TypeField = "type"
	m.DefaultMapping = mapping.NewDocumentDisabledMapping()
	m.AddDocumentMapping(typePassage, passage)
	m.AddDocumentMapping(typeSource, source)
	m.StoreDynamic = false
	m.IndexDynamic = false
	m.DocValuesDynamic = false
	return m
}

// analyzerOf returns the analyzer of the passages' bodies in b's mapping,
// or "" when it names none.
func analyzerOf(b bleve.Index) string {
	m, ok := b.Mapping().(*mapping.IndexMappingImpl)
	if !ok {
		return ""
	}
	dm := m.TypeMapping[typePassage]
	if dm == nil || dm.Properties["body"] == nil || len(dm.Properties["body"].Fields) == 0 {
		return ""
	}
	return dm.Properties["body"].Fields[0].Analyzer
}

func sourceID(h archive.Hash) string { return "s:" + h.Hex() }

func passageID(h archive.Hash, l digest.Locator) string {
	return fmt.Sprintf("p:%s:%d:%d:%d", h.Hex(), l.Start, l.End, l.Page)
}

// parsePassageID is the inverse of passageID.
func parsePassageID(id string) (archive.Hash, digest.Locator, bool) {
	parts := strings.Split(id, ":")
	if len(parts) != 5 || parts[0] != "p" {
		return archive.Hash{}, digest.Locator{}, false
	}
	h, err := archive.ParseHash(parts[1])
	if err != nil {
		return archive.Hash{}, digest.Locator{}, false
	}
	var n [3]int
	for i := range n {
		if n[i], err = strconv.Atoi(parts[2+i]); err != nil {
			return archive.Hash{}, digest.Locator{}, false
		}
	}
	return h, digest.Locator{Start: n[0], End: n[1], Page: n[2]}, true
}

func unavailable(op string, err error) error {
	return fmt.Errorf("%s: %w: %w", op, search.ErrUnavailable, err)
}

// sourceFields are the filterable fields of src, on its source document
// and on each of its passages.
func sourceFields(typ string, src search.Source) map[string]any {
	return map[string]any{
		"type":   typ,
		"src":    src.Hash.Hex(),
		"kind":   src.Kind,
		"labels": slices.Clone(src.Labels),
		"added":  float64(src.Added.Unix()),
	}
}

// Put implements search.Index: the documents go in bleve batches of at
// most batchPassages passages, several sources to a batch, each source's
// document in the batch of its last passages; what the index held of the
// sources is deleted in the first.
func (x *Index) Put(ctx context.Context, docs ...search.Document) error {
	x.put.Lock()
	defer x.put.Unlock()
	docs = search.LastPerSource(docs)
	hashes := make([]archive.Hash, len(docs))
	for i, d := range docs {
		hashes[i] = d.Source.Hash
	}
	old, err := x.idsOf(ctx, hashes...)
	if err != nil {
		return err
	}
	b := x.b.NewBatch()
	for _, id := range old {
		b.Delete(id)
	}
	n := 0
	for _, d := range docs {
		for _, p := range d.Passages {
			doc := sourceFields(typePassage, d.Source)
			delete(doc, "labels")
			doc["body"] = p.Text
			if err := b.Index(passageID(d.Source.Hash, p.Locator), doc); err != nil {
				return unavailable("index a passage", err)
			}
			if n++; n == batchPassages {
				if err := x.b.Batch(b); err != nil {
					return unavailable("index passages", err)
				}
				b, n = x.b.NewBatch(), 0
			}
		}
		if err := b.Index(sourceID(d.Source.Hash), sourceFields(typeSource, d.Source)); err != nil {
			return unavailable("index a source", err)
		}
	}
	if b.Size() > 0 {
		if err := x.b.Batch(b); err != nil {
			return unavailable("index sources", err)
		}
	}
	return nil
}

// SetLabels implements search.Index: labels live on the source's document
// alone (a filter by label resolves to the sources that hold one), so
// relabelling rewrites one document.
func (x *Index) SetLabels(ctx context.Context, h archive.Hash, labels []string) error {
	src, err := x.Source(ctx, h)
	if err != nil {
		return err
	}
	src.Labels = labels
	if err := x.b.Index(sourceID(h), sourceFields(typeSource, src)); err != nil {
		return unavailable("label a source", err)
	}
	return nil
}

// Remove implements search.Index.
func (x *Index) Remove(ctx context.Context, h archive.Hash) error {
	ids, err := x.idsOf(ctx, h)
	if err != nil || len(ids) == 0 {
		return err
	}
	b := x.b.NewBatch()
	for _, id := range ids {
		b.Delete(id)
	}
	if err := x.b.Batch(b); err != nil {
		return unavailable("remove a source", err)
	}
	return nil
}

// idsOf returns the ids of every document of the sources hs.
func (x *Index) idsOf(ctx context.Context, hs ...archive.Hash) ([]string, error) {
	if len(hs) == 0 {
		return nil, nil
	}
	var d []query.Query
	for _, h := range hs {
		q := bleve.NewTermQuery(h.Hex())
		q.SetField("src")
		d = append(d, q)
	}
	var ids []string
	err := x.each(ctx, bleve.NewDisjunctionQuery(d...), nil, func(id string, _ map[string]any) error {
		ids = append(ids, id)
		return nil
	})
	return ids, err
}

// each calls fn for every document matching q, in id order, with the
// stored fields asked for.
func (x *Index) each(ctx context.Context, q query.Query, fields []string, fn func(id string, fields map[string]any) error) error {
	const page = 1000
	var after []string
	for {
		req := bleve.NewSearchRequestOptions(q, page, 0, false)
		req.SortBy([]string{"_id"})
		req.Fields = fields
		if after != nil {
			req.SetSearchAfter(after)
		}
		res, err := x.b.SearchInContext(ctx, req)
		if err != nil {
			return unavailable("read the search index", err)
		}
		for _, hit := range res.Hits {
			if err := fn(hit.ID, hit.Fields); err != nil {
				return err
			}
		}
		if len(res.Hits) < page {
			return nil
		}
		after = []string{res.Hits[len(res.Hits)-1].ID}
	}
}

// Source implements search.Index.
func (x *Index) Source(ctx context.Context, h archive.Hash) (search.Source, error) {
	var out search.Source
	found := false
	err := x.each(ctx, bleve.NewDocIDQuery([]string{sourceID(h)}), []string{"src", "kind", "labels", "added"}, func(_ string, f map[string]any) error {
		out, found = sourceOf(f)
		return nil
	})
	if err != nil {
		return search.Source{}, err
	}
	if !found {
		return search.Source{}, fs.ErrNotExist
	}
	return out, nil
}

// Sources implements search.Index.
func (x *Index) Sources(ctx context.Context, fn func(search.Source) error) error {
	q := bleve.NewTermQuery(typeSource)
	q.SetField("type")
	return x.each(ctx, q, []string{"src", "kind", "labels", "added"}, func(id string, f map[string]any) error {
		if !strings.HasPrefix(id, "s:") {
			return nil
		}
		if src, ok := sourceOf(f); ok {
			return fn(src)
		}
		return nil
	})
}

// sourceOf reads a source document's stored fields.
func sourceOf(f map[string]any) (search.Source, bool) {
	hex, _ := f["src"].(string)
	h, err := archive.ParseHash(hex)
	if err != nil {
		return search.Source{}, false
	}
	src := search.Source{Hash: h, Labels: []string{}}
	src.Kind, _ = f["kind"].(string)
	if t, ok := f["added"].(float64); ok {
		src.Added = time.Unix(int64(t), 0).UTC()
	}
	switch l := f["labels"].(type) {
	case string:
		src.Labels = []string{l}
	case []any:
		for _, v := range l {
			if s, ok := v.(string); ok {
				src.Labels = append(src.Labels, s)
			}
		}
	}
	slices.Sort(src.Labels)
	return src, true
}

// Candidates implements search.Index: BM25 (bleve's default scoring) over
// the passages' bodies, any query word matching.
func (x *Index) Candidates(ctx context.Context, text string, f search.Filter, n int) ([]search.Candidate, int, error) {
	body := bleve.NewMatchQuery(text)
	body.SetField("body")
	qs := []query.Query{body}
	anyOf := func(field string, values []string) {
		if len(values) == 0 {
			return
		}
		var d []query.Query
		for _, v := range values {
			t := bleve.NewTermQuery(v)
			t.SetField(field)
			d = append(d, t)
		}
		qs = append(qs, bleve.NewDisjunctionQuery(d...))
	}
	anyOf("kind", f.Kinds)
	if len(f.Labels) > 0 {
		// Labels are on the sources' documents: the filter is the
		// sources that hold one.
		labelled, err := x.labelled(ctx, f.Labels)
		if err != nil {
			return nil, 0, err
		}
		if len(labelled) == 0 {
			return []search.Candidate{}, 0, nil
		}
		anyOf("src", labelled)
	}
	var hexes []string
	for _, h := range f.Sources {
		hexes = append(hexes, h.Hex())
	}
	anyOf("src", hexes)
	if !f.AddedAfter.IsZero() || !f.AddedBefore.IsZero() {
		var lo, hi *float64
		no := false
		if !f.AddedAfter.IsZero() {
			v := float64(f.AddedAfter.Unix())
			lo = &v
		}
		if !f.AddedBefore.IsZero() {
			v := float64(f.AddedBefore.Unix())
			hi = &v
		}
		r := bleve.NewNumericRangeInclusiveQuery(lo, hi, &no, &no)
		r.SetField("added")
		qs = append(qs, r)
	}
	req := bleve.NewSearchRequestOptions(bleve.NewConjunctionQuery(qs...), n, 0, false)
	res, err := x.b.SearchInContext(ctx, req)
	if err != nil {
		return nil, 0, unavailable("search", err)
	}
	out := make([]search.Candidate, 0, len(res.Hits))
	for _, hit := range res.Hits {
		h, l, ok := parsePassageID(hit.ID)
		if !ok {
			continue
		}
		out = append(out, search.Candidate{Source: h, Locator: l, Score: hit.Score})
	}
	return out, int(res.Total), nil
}

// HasLabel implements search.Index.
func (x *Index) HasLabel(ctx context.Context, label string) (bool, error) {
	q := bleve.NewTermQuery(label)
	q.SetField("labels")
	res, err := x.b.SearchInContext(ctx, bleve.NewSearchRequestOptions(q, 1, 0, false))
	if err != nil {
		return false, unavailable("read the search index", err)
	}
	return res.Total > 0, nil
}

// labelled returns the hex hashes of the sources with one of labels.
func (x *Index) labelled(ctx context.Context, labels []string) ([]string, error) {
	var d []query.Query
	for _, l := range labels {
		t := bleve.NewTermQuery(l)
		t.SetField("labels")
		d = append(d, t)
	}
	var out []string
	err := x.each(ctx, bleve.NewDisjunctionQuery(d...), nil, func(id string, _ map[string]any) error {
		if hex, ok := strings.CutPrefix(id, "s:"); ok {
			out = append(out, hex)
		}
		return nil
	})
	return out, err
}

// Close implements search.Index; closing again does nothing.
func (x *Index) Close() error {
	var err error
	x.close.Do(func() { err = x.b.Close() })
	return err
}

// Size returns the bytes the index in dir takes on disk.
func Size(dir string) (int64, error) {
	var n int64
	err := fs.WalkDir(os.DirFS(dir), ".", func(_ string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		info, err := d.Info()
		if err == nil {
			n += info.Size()
		}
		return err
	})
	return n, err
}

// Frequencies implements search.Index: each word is read by the body's
// analysis (a word it reads as nothing is -1) and counted as the passages
// holding any of its terms.
func (x *Index) Frequencies(ctx context.Context, words []string) ([]int, int, error) {
	an := x.b.Mapping().AnalyzerNamed(bodyAnalyzer)
	if an == nil {
		return nil, 0, fmt.Errorf("bleveindex: no analyzer %s", bodyAnalyzer)
	}
	count := func(q query.Query) (int, error) {
		res, err := x.b.SearchInContext(ctx, bleve.NewSearchRequestOptions(q, 0, 0, false))
		if err != nil {
			return 0, unavailable("count passages", err)
		}
		return int(res.Total), nil
	}
	// Only the sources' documents index their type: the passages are
	// the others.
	docs, err := x.b.DocCount()
	if err != nil {
		return nil, 0, unavailable("count passages", err)
	}
	srcs := bleve.NewTermQuery(typeSource)
	srcs.SetField("type")
	ns, err := count(srcs)
	if err != nil {
		return nil, 0, err
	}
	n := int(docs) - ns
	out := make([]int, len(words))
	for i, w := range words {
		if len(an.Analyze([]byte(w))) == 0 {
			out[i] = -1
			continue
		}
		body := bleve.NewMatchQuery(w)
		body.SetField("body")
		if out[i], err = count(body); err != nil {
			return nil, 0, err
		}
	}
	return out, n, nil
}
