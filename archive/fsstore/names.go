package fsstore

import "context"

// ListRefNames implements archive.RefNamer: the names under prefix, from
// the directory alone, without reading what each points at.
func (s *Store) ListRefNames(ctx context.Context, prefix string, fn func(name string) error) error {
	return s.walkRefs(ctx, "list ref names", prefix, func(name, _ string) error { return fn(name) })
}
