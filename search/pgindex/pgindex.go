// Package pgindex is the server search engine: PostgreSQL full-text search,
// one database that every replica over a shared archive uses. A passage is
// a row of its locator and its body as a tsvector (English stems, no stop
// words, scripts written without spaces split into the terms the digester
// reads in them: search.SplitUnspaced; the text itself is not stored); a
// source is a row of its kind, time and labels. Passages indexed before
// such scripts were split so (before Thai was read by pairs of clusters)
// hold other words until `digestd reindex --all` indexes them again.
package pgindex

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"slices"
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
	cfg, err := pgxpool.ParseConfig(url)
	if err != nil {
		return nil, unavailable("open the search index", err)
	}
	// A search's cost depends on its words (how many passages hold
	// each), so each statement is planned for its own arguments, never
	// by a generic plan of a prepared statement.
	cfg.ConnConfig.RuntimeParams["plan_cache_mode"] = "force_custom_plan"
	pool, err := pgxpool.NewWithConfig(ctx, cfg)
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
			starts, ends, pages, texts = append(starts, int32(p.Start)), append(ends, int32(p.End)), append(pages, int32(p.Page)), append(texts, search.SplitUnspaced(p.Text))
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

// MatchBound bounds the passages a search ranks beyond those it returns:
// ts_rank_cd reads each passage it ranks, so ranking every passage that
// holds a query word costs in proportion to how many do (a common word is
// in a fifth of all passages, and a search took hundreds of milliseconds).
const MatchBound = 500

// Candidates implements search.Index: passages whose tsvector holds a word
// of the query, ranked by ts_rank_cd over all the query's words, from a
// bounded set of them (at most about 3 × max(n, MatchBound) passages):
//
//   - every passage holding one of the query's rarest words, as many of
//     them (rarest first) as hold a query word in at most max(n,
//     MatchBound) passages together;
//   - up to max(n, MatchBound) passages holding every other query word;
//   - only when these are fewer than n, up to max(n, MatchBound) passages
//     holding any of the other words.
//
// A passage that holds none of the rare words and not all of the common
// ones ranks low (ts_rank_cd scores a passage by how many of the query's
// words it holds, and how close together), so the set holds the best
// passages but for a question of common words only. The total is exact
// when no word is common; otherwise it is PostgreSQL's estimate from the
// column's statistics (the bounded set's count with a filter).
func (x *Index) Candidates(ctx context.Context, text string, f search.Filter, n int) ([]search.Candidate, int, error) {
	words := strings.FieldsFunc(search.SplitUnspaced(text), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsDigit(r) && !unicode.Is(unicode.Mn, r) })
	if len(words) == 0 {
		return []search.Candidate{}, 0, nil
	}
	bound := max(n, MatchBound)
	// The query's lexemes (quoted as tsquery operands; the words are
	// letters, digits and marks only), each with how many passages hold it,
	// counted up to bound+1.
	rows, err := x.pool.Query(ctx, `
		SELECT quote_literal(t.lexeme), (SELECT count(*) FROM (
			SELECT 1 FROM digestd_passages p WHERE p.body @@ quote_literal(t.lexeme)::tsquery LIMIT $2) c)
		FROM unnest(to_tsvector('english', $1)) t`, strings.Join(words, " "), bound+1)
	if err != nil {
		return nil, 0, unavailable("search", err)
	}
	type lexeme struct {
		quoted string
		df     int
	}
	var lexemes []lexeme
	for rows.Next() {
		var l lexeme
		if err := rows.Scan(&l.quoted, &l.df); err != nil {
			return nil, 0, unavailable("search", err)
		}
		if l.df > 0 {
			lexemes = append(lexemes, l)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, 0, unavailable("search", err)
	}
	if len(lexemes) == 0 {
		return []search.Candidate{}, 0, nil
	}
	slices.SortStableFunc(lexemes, func(a, b lexeme) int { return cmp.Compare(a.df, b.df) })
	var rare, common []string
	all := make([]string, len(lexemes))
	sum := 0
	for i, l := range lexemes {
		all[i] = l.quoted
		if sum+l.df <= bound && len(common) == 0 {
			rare = append(rare, l.quoted)
			sum += l.df
		} else {
			common = append(common, l.quoted)
		}
	}
	query := strings.Join(all, " | ")
	var parts []string
	if len(rare) > 0 {
		parts = append(parts, strings.Join(rare, " | "))
	}
	if len(common) > 0 {
		parts = append(parts, strings.Join(common, " & "))
	}
	cands, matched, err := x.rank(ctx, f, n, bound, query, parts)
	if err != nil {
		return nil, 0, err
	}
	if len(cands) < n && len(common) > 1 {
		if cands, matched, err = x.rank(ctx, f, n, bound, query, append(parts, strings.Join(common, " | "))); err != nil {
			return nil, 0, err
		}
	}
	filtered := len(f.Kinds) > 0 || len(f.Sources) > 0 || len(f.Labels) > 0 || !f.AddedAfter.IsZero() || !f.AddedBefore.IsZero()
	total := matched
	if len(common) > 0 && !filtered {
		var plan []byte
		if err := x.pool.QueryRow(ctx, `EXPLAIN (FORMAT JSON) SELECT 1 FROM digestd_passages WHERE body @@ $1::tsquery`, query).Scan(&plan); err != nil {
			return nil, 0, unavailable("search", err)
		}
		var est []struct {
			Plan struct {
				Rows float64 `json:"Plan Rows"`
			}
		}
		if err := json.Unmarshal(plan, &est); err == nil && len(est) > 0 {
			total = max(total, int(est[0].Plan.Rows))
		}
	}
	return cands, total, nil
}

// rank returns the n passages passing f that ts_rank_cd ranks best for
// query (tsquery text) among those matching a tsquery of parts, up to
// bound passages of each, and how many passages it ranked.
func (x *Index) rank(ctx context.Context, f search.Filter, n, bound int, query string, parts []string) ([]search.Candidate, int, error) {
	var hashes [][]byte
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
	args := []any{nilIfEmpty(f.Kinds), nilIfEmptyBytes(hashes), nilIfEmpty(f.Labels), after, before, n, bound, query}
	// Each part is filtered before it is bounded, so a filter that
	// leaves few sources still finds their passages.
	var set []string
	for _, q := range parts {
		args = append(args, q)
		sel := fmt.Sprintf(`SELECT p.ctid FROM digestd_passages p JOIN digestd_sources s ON s.hash = p.source
			WHERE p.body @@ $%d::tsquery
			  AND ($1::text[] IS NULL OR s.kind = ANY($1))
			  AND ($2::bytea[] IS NULL OR s.hash = ANY($2))
			  AND ($3::text[] IS NULL OR s.labels && $3)
			  AND ($4::timestamptz IS NULL OR s.added > $4)
			  AND ($5::timestamptz IS NULL OR s.added < $5)`, len(args))
		set = append(set, "("+sel+" LIMIT $7)")
	}
	rows, err := x.pool.Query(ctx, `
		SELECT p.source, p.start_cp, p.end_cp, p.page, ts_rank_cd(p.body, $8::tsquery) AS score, count(*) OVER () AS total
		FROM digestd_passages p
		WHERE p.ctid = ANY(ARRAY(`+strings.Join(set, " UNION ")+`))
		ORDER BY score DESC, p.source, p.start_cp
		LIMIT $6`, args...)
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

// Frequencies implements search.Index: each word is read as
// to_tsvector('english', …) reads it (a word it reads as nothing is -1)
// and counted as the passages holding any of its lexemes.
func (x *Index) Frequencies(ctx context.Context, words []string) ([]int, int, error) {
	split := make([]string, len(words))
	for i, w := range words {
		split[i] = search.SplitUnspaced(w)
	}
	var n int
	if err := x.pool.QueryRow(ctx, `SELECT count(*) FROM digestd_passages`).Scan(&n); err != nil {
		return nil, 0, unavailable("count passages", err)
	}
	rows, err := x.pool.Query(ctx, `
		SELECT CASE WHEN length(v) = 0 THEN -1 ELSE (SELECT count(*) FROM digestd_passages p
			WHERE p.body @@ (SELECT string_agg(quote_literal(lexeme), ' | ') FROM unnest(v))::tsquery) END
		FROM (SELECT to_tsvector('english', w) AS v, o FROM unnest($1::text[]) WITH ORDINALITY AS t(w, o)) q
		ORDER BY o`, split)
	if err != nil {
		return nil, 0, unavailable("count passages", err)
	}
	out := make([]int, 0, len(words))
	for rows.Next() {
		var c int
		if err := rows.Scan(&c); err != nil {
			return nil, 0, unavailable("count passages", err)
		}
		out = append(out, c)
	}
	if err := rows.Err(); err != nil {
		return nil, 0, unavailable("count passages", err)
	}
	return out, n, nil
}
