package fsstore

import (
	"context"
)

// ListRefNames implements archive.RefNamer: the names under prefix, from
// the directory alone, without reading what each points at.
func (s *Store) ListRefNames(ctx context.Context, prefix string, fn func(name string) error) error {
	return s.walkRefs(ctx, "list ref names", prefix, "", func(name, _ string) error { return fn(name) })
}

// ListRefNamesAfter implements archive.RefPager. The walk reads a directory
// only when some name in it may sort after after, so a page of names under a
// prefix whose names are sharded into fixed-width directories costs the
// directories on its path, not the whole prefix.
func (s *Store) ListRefNamesAfter(ctx context.Context, prefix, after string, fn func(name string) error) error {
	return s.walkRefs(ctx, "list ref names", prefix, after, func(name, _ string) error { return fn(name) })
}
