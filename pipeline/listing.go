package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
)

// The listing of archived sources is an index of references, newest first.
// A source's position is "<inverted nanoseconds, 20 digits>-<text hex>", so
// that byte order is newest first. Its reference is sharded by the digits
// ("sources-index/DDDDD/DD/DD/DD/DDDDDDDDD-<hex>": about 11.6 days, 2.8
// hours, 100 seconds, then seconds), so that no directory but the last
// holds more than 100 entries and a page reads the few on its way, never
// the whole index. Archives written before the index kept
// flat names under sources-by-time/, which are still listed.
const (
	sourceIndexPrefix  = "sources-index/"
	legacySourcePrefix = "sources-by-time/"
	positionDigits     = 20
	positionChars      = positionDigits + 1 + 64
)

// DefaultListLimit and MaxListLimit bound a page of ListSources.
const (
	DefaultListLimit = 20
	MaxListLimit     = 100
)

// sourcePosition is a source's place in the listing, archived at at.
func sourcePosition(at time.Time, text archive.Hash) string {
	return fmt.Sprintf("%0*d-%s", positionDigits, uint64(1<<63-1)-uint64(at.UnixNano()), text.Hex())
}

// indexName is the index reference of a position.
func indexName(pos string) string {
	return sourceIndexPrefix + pos[:5] + "/" + pos[5:7] + "/" + pos[7:9] + "/" + pos[9:11] + "/" + pos[11:]
}

// indexPosition is the inverse of indexName; ok is false for a name that is
// not one.
func indexPosition(name string) (string, bool) {
	pos := strings.ReplaceAll(strings.TrimPrefix(name, sourceIndexPrefix), "/", "")
	return pos, validPosition(pos) && indexName(pos) == name
}

func validPosition(pos string) bool {
	if len(pos) != positionChars || pos[positionDigits] != '-' {
		return false
	}
	_, err := archive.ParseHash(pos[positionDigits+1:])
	return err == nil && strings.Trim(pos[:positionDigits], "0123456789") == ""
}

// positionName returns the reference of a position under prefix.
func positionName(prefix, pos string) string {
	if prefix == sourceIndexPrefix {
		return indexName(pos)
	}
	return prefix + pos
}

// ListedSource is one archived source in a listing, with what its record
// says (a record that is there but cannot be read leaves the entry bare:
// the listing still names the text).
type ListedSource struct {
	ArchiveHash archive.Hash `json:"archive_hash"`
	RecordHash  archive.Hash `json:"record_hash"`
	Kind        string       `json:"kind,omitempty"`
	Title       string       `json:"title,omitempty"`
	URL         string       `json:"url,omitempty"`
	TextChars   int          `json:"text_chars"`
	PageCount   int          `json:"page_count,omitempty"`
	FetchedAt   string       `json:"fetched_at,omitempty"`
	Labels      []string     `json:"labels"`
}

// SourcePage is a page of the listing.
type SourcePage struct {
	Sources []ListedSource
	// More reports whether sources follow; Next is then the position to
	// continue after (the edges carry it in a signed cursor).
	More bool
	Next string
}

// ListSources returns up to limit archived sources (0 means
// DefaultListLimit; beyond 1-MaxListLimit is VALIDATION_ERROR), newest
// first, after position after (empty for the first page). A text is listed
// once, at its newest entry. A page reads its own entries and the index
// directories on its way, whatever the size of the archive, on a store
// that lists names in order (archive.RefPager); on any other store it reads
// every name of the index.
func (p *Pipeline) ListSources(ctx context.Context, after string, limit int) (*SourcePage, error) {
	return p.ListSourcesWhere(ctx, ListFilter{}, after, limit)
}

// ListFilter narrows a listing: a source passes with the label (when set)
// among its labels and of the kind (when set).
type ListFilter struct {
	Label string
	Kind  string
}

// ListSourcesWhere is ListSources with only the sources that pass f; a
// page then reads entries until it is full or the listing ends. A label no
// archived source carries is NOT_FOUND, as it is to search, told when the
// first page reads the whole listing without meeting it.
func (p *Pipeline) ListSourcesWhere(ctx context.Context, f ListFilter, after string, limit int) (*SourcePage, error) {
	if f.Label != "" {
		if _, err := CheckLabels("label", []string{f.Label}); err != nil {
			return nil, err
		}
	}
	if limit == 0 {
		limit = DefaultListLimit
	}
	if limit < 1 || limit > MaxListLimit {
		return nil, fault.E(fault.ValidationError, fmt.Sprintf("limit: must be an integer between 1 and %d", MaxListLimit)).With("field", "limit")
	}
	if after != "" && !validPosition(after) {
		return nil, fault.E(fault.InvalidCursor, "cursor: not a cursor this listing issued").With("field", "cursor")
	}
	streams := []*positionStream{p.positions(sourceIndexPrefix, after, limit+1), p.positions(legacySourcePrefix, after, limit+1)}
	// The listing shows a text once: concurrent first uploads of one text
	// may each have indexed it, a moment apart, so a page skips a text it
	// holds already or that ended the page before.
	seen := map[string]bool{}
	if after != "" {
		seen[after[positionDigits+1:]] = true
	}
	page := &SourcePage{Sources: []ListedSource{}}
	labelSeen := false
	for {
		pos, prefix, err := nextPosition(ctx, streams)
		if err != nil {
			return nil, archiveFault("list sources", err)
		}
		if pos == "" {
			if f.Label != "" && after == "" && !labelSeen {
				return nil, fault.E(fault.NotFound, "label: no archived source carries the label "+strconv.Quote(f.Label)).With("field", "label").With("label", f.Label)
			}
			return page, nil
		}
		hex := pos[positionDigits+1:]
		if seen[hex] {
			continue
		}
		if len(page.Sources) == limit {
			page.More = true
			return page, nil
		}
		seen[hex] = true
		e, err := p.listedSource(ctx, prefix, pos)
		if errors.Is(err, errUnacknowledged) {
			continue
		}
		if err != nil {
			return nil, err
		}
		page.Next = pos
		labelSeen = labelSeen || f.Label != "" && slices.Contains(e.Labels, f.Label)
		if f.Kind != "" && e.Kind != f.Kind || f.Label != "" && !slices.Contains(e.Labels, f.Label) {
			continue
		}
		page.Sources = append(page.Sources, e)
	}
}

// errUnacknowledged is listedSource's answer for an index entry whose source
// has no record: an upload cut short between writing the entry and the
// source's reference (or the record's blob gone). It is not listed, as
// GET /v1/sources/{id} does not find it; the next upload of the text
// completes the entry and reuses it.
var errUnacknowledged = errors.New("pipeline: an index entry without a source")

// listedSource reads what the listing shows of the source at pos, or
// errUnacknowledged.
func (p *Pipeline) listedSource(ctx context.Context, prefix, pos string) (ListedSource, error) {
	text, _ := archive.ParseHash(pos[positionDigits+1:]) // validPosition checked it
	labels, err := p.Labels(ctx, text)
	if err != nil {
		return ListedSource{}, err
	}
	e := ListedSource{ArchiveHash: text, Labels: labels}
	rec, recHash, err := p.Record(ctx, text)
	if err == nil {
		e.RecordHash = recHash
		e.Kind, e.Title, e.TextChars, e.PageCount, e.URL = rec.Kind, rec.Title, rec.TextChars, rec.PageCount, rec.FinalURL
		if !rec.FetchedAt.IsZero() {
			e.FetchedAt = rec.FetchedAt.UTC().Format(time.RFC3339)
		}
		return e, nil
	}
	if errors.Is(err, fs.ErrNotExist) {
		return e, errUnacknowledged
	}
	// A record that cannot be read (damaged, or the archive failing): the
	// entry names the record its index entry points at, if any.
	d, err := p.Store.Ref(ctx, positionName(prefix, pos))
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		return e, archiveFault("list sources", err)
	}
	if d.Valid() {
		e.RecordHash = d
	}
	return e, nil
}

// positionStream yields the positions of one index prefix in order, a batch
// at a time.
type positionStream struct {
	prefix string
	fetch  func(ctx context.Context, after string, n int) ([]string, error)
	batch  int
	buf    []string
	last   string
	done   bool
}

// positions streams the positions under prefix after after.
func (p *Pipeline) positions(prefix, after string, batch int) *positionStream {
	s := &positionStream{prefix: prefix, last: after, batch: batch}
	s.fetch = func(ctx context.Context, after string, n int) ([]string, error) {
		return p.namesAfter(ctx, prefix, after, n)
	}
	return s
}

// peek returns the stream's next position, or "" at its end.
func (s *positionStream) peek(ctx context.Context) (string, error) {
	if len(s.buf) == 0 && !s.done {
		got, err := s.fetch(ctx, s.last, s.batch)
		if err != nil {
			return "", err
		}
		s.buf, s.done = got, len(got) < s.batch
		if len(got) > 0 {
			s.last = got[len(got)-1]
		}
	}
	if len(s.buf) == 0 {
		return "", nil
	}
	return s.buf[0], nil
}

// nextPosition takes the least next position of the streams, and the
// prefix of the stream it came from; "" when every stream has ended.
func nextPosition(ctx context.Context, streams []*positionStream) (string, string, error) {
	var best *positionStream
	bestPos := ""
	for _, s := range streams {
		pos, err := s.peek(ctx)
		if err != nil {
			return "", "", err
		}
		if pos != "" && (best == nil || pos < bestPos) {
			best, bestPos = s, pos
		}
	}
	if best == nil {
		return "", "", nil
	}
	best.buf = best.buf[1:]
	return bestPos, best.prefix, nil
}

// errPageFull ends a listing of names once a batch is full.
var errPageFull = errors.New("page full")

// namesAfter returns up to n positions under prefix after after, in order.
func (p *Pipeline) namesAfter(ctx context.Context, prefix, after string, n int) ([]string, error) {
	var out []string
	add := func(name string) error {
		pos, ok := "", false
		if prefix == sourceIndexPrefix {
			pos, ok = indexPosition(name)
		} else {
			pos = strings.TrimPrefix(name, prefix)
			ok = validPosition(pos)
		}
		if ok && pos > after {
			out = append(out, pos)
		}
		return nil
	}
	if pager, ok := p.Store.(archive.RefPager); ok {
		from := ""
		if after != "" {
			from = positionName(prefix, after)
		}
		err := pager.ListRefNamesAfter(ctx, prefix, from, func(name string) error {
			add(name)
			if len(out) == n {
				return errPageFull
			}
			return nil
		})
		if err != nil && !errors.Is(err, errPageFull) {
			return nil, err
		}
		return out, nil
	}
	// A store that cannot seek: every name, sorted.
	var err error
	if rn, ok := p.Store.(archive.RefNamer); ok {
		err = rn.ListRefNames(ctx, prefix, add)
	} else {
		err = p.Store.ListRefs(ctx, prefix, func(name string, _ archive.Hash) error { return add(name) })
	}
	if err != nil {
		return nil, err
	}
	sort.Strings(out)
	return out[:min(n, len(out))], nil
}

// indexSource enters a text archived for the first time into the listing,
// pointing at its record. If an earlier upload of the text indexed it and
// was cut short before its source reference (retried may be any number of
// uploads later), its entry is reused, so the text is listed once; finding
// it reads the whole index, which only a text whose bytes were archived
// before without a source reference pays.
func (p *Pipeline) indexSource(ctx context.Context, text, record archive.Hash, seenBefore bool) error {
	name := indexName(sourcePosition(p.now(), text))
	if seenBefore {
		if prev, err := p.findIndexed(ctx, text); err != nil {
			return err
		} else if prev != "" {
			name = prev
		}
	}
	return p.Store.SetRef(ctx, name, record)
}

// errFound ends findIndexed's walk.
var errFound = errors.New("found")

// findIndexed returns the index reference of text, or "" if it has none.
func (p *Pipeline) findIndexed(ctx context.Context, text archive.Hash) (string, error) {
	suffix := "-" + text.Hex()
	found := ""
	visit := func(name string) error {
		if strings.HasSuffix(name, suffix) {
			found = name
			return errFound
		}
		return nil
	}
	for _, prefix := range []string{sourceIndexPrefix, legacySourcePrefix} {
		var err error
		if rn, ok := p.Store.(archive.RefNamer); ok {
			err = rn.ListRefNames(ctx, prefix, visit)
		} else {
			err = p.Store.ListRefs(ctx, prefix, func(name string, _ archive.Hash) error { return visit(name) })
		}
		if errors.Is(err, errFound) {
			return found, nil
		}
		if err != nil {
			return "", err
		}
	}
	return "", nil
}
