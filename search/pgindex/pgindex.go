// Package pgindex is the server search engine: PostgreSQL full-text search,
// one database that every replica over a shared archive uses. A passage is
// a row of its locator and its body as a tsvector (English stems, no stop
// words; the text itself is not stored); a source is a row of its kind,
// time and labels.
package pgindex

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"time"
	"unicode"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/search"
)

// Index is a search index in a PostgreSQL database.
type Index struct {
	pool *pgxpool.Pool
}

var _ search.Index = (*Index)(nil)

// schema creates the tables once; statements are idempotent.
const schema = `
CREATE TABLE IF NOT EXISTS digestd_sources (
	hash   bytea PRIMARY KEY,
	kind   text NOT NULL,
	added  timestamptz NOT NULL,
	labels text[] NOT NULL DEFAULT '{}'
);
CREATE TABLE IF NOT EXISTS digestd_passages (
	source   bytea NOT NULL REFERENCES digestd_sources(hash) ON DELETE CASCADE,
	start_cp integer NOT NULL,
	end_cp   integer NOT NULL,
	page     integer NOT NULL,
	body     tsvector NOT NULL,
	PRIMARY KEY (source, start_cp)
);
CREATE INDEX IF NOT EXISTS digestd_passages_body ON digestd_passages USING gin (body);
CREATE INDEX IF NOT EXISTS digestd_sources_labels ON digestd_sources USING gin (labels);
`

// Open connects to the database at url (postgres://…) and creates the
// tables if they are missing.
func Open(ctx context.Context, url string) (*Index, error) {
	pool, err := pgxpool.New(ctx, url)
	if err != nil {
		return nil, unavailable("open the search index", err)
	}
	if _, err := pool.Exec(ctx, schema); err != nil {
		pool.Close()
		return nil, unavailable("create the search index", err)
	}
	return &Index{pool: pool}, nil
}

// unavailable wraps a database error: whatever fails here is the engine
// not answering as it should, which a later try may mend.
func unavailable(op string, err error) error {
	return fmt.Errorf("%s: %w: %w", op, search.ErrUnavailable, err)
}

// Put implements search.Index: one transaction for every document.
func (x *Index) Put(ctx context.Context, docs ...search.Document) error {
	docs = search.LastPerSource(docs)
	if len(docs) == 0 {
		return nil
	}
	tx, err := x.pool.Begin(ctx)
	if err != nil {
		return unavailable("index sources", err)
	}
	defer tx.Rollback(ctx)
	var (
		hashes              [][]byte
		kinds               []string
		added               []time.Time
		labels              []string // each source's labels as an array literal
		sources             [][]byte
		starts, ends, pages []int32
		texts               []string
	)
	for _, d := range docs {
		src := d.Source
		hashes = append(hashes, src.Hash[:])
		kinds = append(kinds, src.Kind)
		added = append(added, src.Added.UTC())
		labels = append(labels, arrayLiteral(src.Labels))
		for _, p := range d.Passages {
			sources = append(sources, src.Hash[:])
			starts, ends, pages, texts = append(starts, int32(p.Start)), append(ends, int32(p.End)), append(pages, int32(p.Page)), append(texts, p.Text)
		}
	}
	if _, err := tx.Exec(ctx, `INSERT INTO digestd_sources (hash, kind, added, labels)
		SELECT h, k, a, l::text[] FROM unnest($1::bytea[], $2::text[], $3::timestamptz[], $4::text[]) AS x(h, k, a, l)
		ON CONFLICT (hash) DO UPDATE SET kind = EXCLUDED.kind, added = EXCLUDED.added, labels = EXCLUDED.labels`,
		hashes, kinds, added, labels); err != nil {
		return unavailable("index sources", err)
	}
	if _, err := tx.Exec(ctx, `DELETE FROM digestd_passages WHERE source = ANY($1::bytea[])`, hashes); err != nil {
		return unavailable("index sources", err)
	}
	if _, err := tx.Exec(ctx, `INSERT INTO digestd_passages (source, start_cp, end_cp, page, body)
		SELECT h, s, e, p, to_tsvector('english', t) FROM unnest($1::bytea[], $2::integer[], $3::integer[], $4::integer[], $5::text[]) AS x(h, s, e, p, t)`,
		sources, starts, ends, pages, texts); err != nil {
		return unavailable("index passages", err)
	}
	if err := tx.Commit(ctx); err != nil {
		return unavailable("index sources", err)
	}
	return nil
}

// arrayLiteral writes labels as a PostgreSQL array literal ({"a","b"}):
// unnest cannot take an array of arrays of different lengths, so each
// source's labels travel as one text and are cast back.
func arrayLiteral(labels []string) string {
	var b strings.Builder
	b.WriteByte('{')
	for i, l := range labels {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteByte('"')
		for _, r := range l {
			if r == '"' || r == '\\' {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
		b.WriteByte('"')
	}
	b.WriteByte('}')
	return b.String()
}

// SetLabels implements search.Index.
func (x *Index) SetLabels(ctx context.Context, h archive.Hash, labels []string) error {
	if labels == nil {
		labels = []string{}
	}
	tag, err := x.pool.Exec(ctx, `UPDATE digestd_sources SET labels = $2 WHERE hash = $1`, h[:], labels)
	if err != nil {
		return unavailable("label a source", err)
	}
	if tag.RowsAffected() == 0 {
		return fs.ErrNotExist
	}
	return nil
}

// HasLabel implements search.Index.
func (x *Index) HasLabel(ctx context.Context, label string) (bool, error) {
	var ok bool
	if err := x.pool.QueryRow(ctx, `SELECT EXISTS (SELECT 1 FROM digestd_sources WHERE labels @> ARRAY[$1::text])`, label).Scan(&ok); err != nil {
		return false, unavailable("read the search index", err)
	}
	return ok, nil
}

// Remove implements search.Index; the passages go with their source.
func (x *Index) Remove(ctx context.Context, h archive.Hash) error {
	if _, err := x.pool.Exec(ctx, `DELETE FROM digestd_sources WHERE hash = $1`, h[:]); err != nil {
		return unavailable("remove a source", err)
	}
	return nil
}

// Source implements search.Index.
func (x *Index) Source(ctx context.Context, h archive.Hash) (search.Source, error) {
	src := search.Source{Hash: h}
	err := x.pool.QueryRow(ctx, `SELECT kind, added, labels FROM digestd_sources WHERE hash = $1`, h[:]).Scan(&src.Kind, &src.Added, &src.Labels)
	if errors.Is(err, pgx.ErrNoRows) {
		return search.Source{}, fs.ErrNotExist
	}
	if err != nil {
		return search.Source{}, unavailable("read the search index", err)
	}
	src.Added = src.Added.UTC()
	return src, nil
}

// Sources implements search.Index.
func (x *Index) Sources(ctx context.Context, fn func(search.Source) error) error {
	rows, err := x.pool.Query(ctx, `SELECT hash, kind, added, labels FROM digestd_sources`)
	if err != nil {
		return unavailable("read the search index", err)
	}
	defer rows.Close()
	var all []search.Source
	for rows.Next() {
		var raw []byte
		var src search.Source
		if err := rows.Scan(&raw, &src.Kind, &src.Added, &src.Labels); err != nil {
			return unavailable("read the search index", err)
		}
		copy(src.Hash[:], raw)
		src.Added = src.Added.UTC()
		all = append(all, src)
	}
	if err := rows.Err(); err != nil {
		return unavailable("read the search index", err)
	}
	rows.Close()
	for _, src := range all {
		if err := fn(src); err != nil {
			return err
		}
	}
	return nil
}

// Candidates implements search.Index: the passages whose tsvector holds a
// word of the query (any of them), ranked by ts_rank_cd.
func (x *Index) Candidates(ctx context.Context, text string, f search.Filter, n int) ([]search.Candidate, int, error) {
	words := strings.FieldsFunc(text, func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) })
	if len(words) == 0 {
		return []search.Candidate{}, 0, nil
	}
	var kinds, labels []string
	var hashes [][]byte
	kinds, labels = f.Kinds, f.Labels
	for _, h := range f.Sources {
		hashes = append(hashes, h[:])
	}
	var after, before *time.Time
	if !f.AddedAfter.IsZero() {
		after = &f.AddedAfter
	}
	if !f.AddedBefore.IsZero() {
		before = &f.AddedBefore
	}
	rows, err := x.pool.Query(ctx, `
		WITH q AS (SELECT to_tsquery('english', $1) AS q)
		SELECT p.source, p.start_cp, p.end_cp, p.page, ts_rank_cd(p.body, q.q) AS score, count(*) OVER () AS total
		FROM digestd_passages p JOIN digestd_sources s ON s.hash = p.source, q
		WHERE p.body @@ q.q
		  AND ($2::text[] IS NULL OR s.kind = ANY($2))
		  AND ($3::bytea[] IS NULL OR s.hash = ANY($3))
		  AND ($4::text[] IS NULL OR s.labels && $4)
		  AND ($5::timestamptz IS NULL OR s.added > $5)
		  AND ($6::timestamptz IS NULL OR s.added < $6)
		ORDER BY score DESC, p.source, p.start_cp
		LIMIT $7`,
		strings.Join(words, " | "), nilIfEmpty(kinds), nilIfEmptyBytes(hashes), nilIfEmpty(labels), after, before, n)
	if err != nil {
		return nil, 0, unavailable("search", err)
	}
	defer rows.Close()
	out := []search.Candidate{}
	total := 0
	for rows.Next() {
		var raw []byte
		var s, e, page int32
		var score float32
		var t int64
		if err := rows.Scan(&raw, &s, &e, &page, &score, &t); err != nil {
			return nil, 0, unavailable("search", err)
		}
		var h archive.Hash
		copy(h[:], raw)
		out = append(out, search.Candidate{Source: h, Locator: digest.Locator{Start: int(s), End: int(e), Page: int(page)}, Score: float64(score)})
		total = int(t)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, unavailable("search", err)
	}
	return out, total, nil
}

func nilIfEmpty(v []string) []string {
	if len(v) == 0 {
		return nil
	}
	return v
}

func nilIfEmptyBytes(v [][]byte) [][]byte {
	if len(v) == 0 {
		return nil
	}
	return v
}

// Close implements search.Index.
func (x *Index) Close() error {
	x.pool.Close()
	return nil
}
