package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/archive/s3store"
	"github.com/digestd/digestd/search"
	"github.com/digestd/digestd/search/bleveindex"
	"github.com/digestd/digestd/search/pgindex"
)

// Backends register by the scheme of their location, as restic's location
// registry does: "scheme://…" is opened by the backend of that scheme, and a
// location with no scheme is a directory of the embedded backend (file for
// the archive, bleve for the index). Every command, eval and the tests
// open an archive or an index through these two tables.

// storeBackend opens an archive at a location of its scheme.
type storeBackend struct {
	scheme string
	open   func(ctx context.Context, loc string) (archive.Store, error)
}

// storeBackends are the archive's backends.
var storeBackends = []storeBackend{
	{"file", func(_ context.Context, loc string) (archive.Store, error) {
		return fsstore.Open(strings.TrimPrefix(loc, "file://"))
	}},
	{"s3", func(ctx context.Context, loc string) (archive.Store, error) {
		cfg, err := s3store.ConfigFromURL(loc, os.Getenv)
		if err != nil {
			return nil, err
		}
		return s3store.Open(ctx, cfg)
	}},
}

// indexBackend opens a search index at a location of its scheme. An
// embedded index is one process's at a time: open takes its lock for
// command and returns it (nil for an index every process shares). size
// returns the index's bytes on disk (nil when the backend cannot tell).
// shared: the index is a server's, which every process shares.
type indexBackend struct {
	scheme string
	open   func(ctx context.Context, loc, command string) (search.Index, *indexLock, error)
	size   func(loc string) (int64, error)
	shared bool
}

// indexBackends are the search index's backends.
var indexBackends = []indexBackend{
	{"bleve", openBleve, func(loc string) (int64, error) { return bleveindex.Size(strings.TrimPrefix(loc, "bleve://")) }, false},
	{"postgres", openPostgres, nil, true},
	{"postgresql", openPostgres, nil, true},
}

// schemeOf returns loc's URL scheme, or dir when loc has none.
func schemeOf(loc, dir string) string {
	if i := strings.Index(loc, "://"); i > 0 {
		return loc[:i]
	}
	return dir
}

// openStore opens the archive at loc.
func openStore(ctx context.Context, loc string) (archive.Store, error) {
	scheme := schemeOf(loc, "file")
	for _, b := range storeBackends {
		if b.scheme == scheme {
			return b.open(ctx, loc)
		}
	}
	return nil, fmt.Errorf("no archive backend for %s://", scheme)
}

// indexBackendOf returns the backend of the index at loc.
func indexBackendOf(loc string) (indexBackend, error) {
	scheme := schemeOf(loc, "bleve")
	for _, b := range indexBackends {
		if b.scheme == scheme {
			return b, nil
		}
	}
	return indexBackend{}, fmt.Errorf("no search index backend for %s://", scheme)
}

// openIndexAt opens the index at loc for command (see indexBackend).
func openIndexAt(ctx context.Context, loc, command string) (search.Index, *indexLock, error) {
	b, err := indexBackendOf(loc)
	if err != nil {
		return nil, nil, err
	}
	return b.open(ctx, loc, command)
}

// openPostgres opens the server engine, which every process and replica
// shares.
func openPostgres(ctx context.Context, loc, _ string) (search.Index, *indexLock, error) {
	idx, err := pgindex.Open(ctx, loc)
	return idx, nil, err
}

// openBleve opens the embedded engine in a directory, holding its lock:
// when another process holds it the error is an *indexHeldError naming
// that process.
func openBleve(_ context.Context, loc, command string) (search.Index, *indexLock, error) {
	dir := strings.TrimPrefix(loc, "bleve://")
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return nil, nil, err
	}
	lock, err := lockIndex(dir, command)
	if err != nil {
		return nil, nil, err
	}
	idx, err := bleveindex.Open(dir)
	if err != nil {
		lock.Close()
		return nil, nil, err
	}
	return lockedIndex{idx, lock}, lock, nil
}
