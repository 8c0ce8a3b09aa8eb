package fsstore

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"github.com/digestd/digestd/archive"
)

// ListRefNames implements archive.RefNamer: the names under prefix, from
// the directory alone, without reading what each points at.
func (s *Store) ListRefNames(ctx context.Context, prefix string, fn func(name string) error) error {
	return s.walkRefs(ctx, "list ref names", prefix, func(name, _ string) error { return fn(name) })
}

// ListRefNamesAfter implements archive.RefPager. The walk reads a directory
// only when some name in it may sort after after, so a page of names under a
// prefix whose names are sharded into fixed-width directories costs the
// directories on its path, not the whole prefix.
func (s *Store) ListRefNamesAfter(ctx context.Context, prefix, after string, fn func(name string) error) error {
	const op = "list ref names"
	root := s.refsDir()
	start := root
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dirPart := prefix[:i]
		if !archive.ValidRefName(dirPart) {
			return fmt.Errorf("fsstore: %s: invalid prefix %q", op, prefix)
		}
		start = filepath.Join(root, filepath.FromSlash(dirPart))
	}
	// WalkDir visits each directory's entries sorted by name, which is the
	// segment-by-segment order of the names.
	err := filepath.WalkDir(start, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // no such directory, or removed while walking
			}
			return classify(err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if path == start {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if e.IsDir() {
			// Every name below sorts before name+"0" ('/' < '0'), so a
			// directory whose bound is not after after holds nothing to
			// list; nor does one outside prefix.
			dir := name + "/"
			if name+"0" <= after || !strings.HasPrefix(dir, prefix) && !strings.HasPrefix(prefix, dir) {
				return fs.SkipDir
			}
			return nil
		}
		if !e.Type().IsRegular() || name <= after || !strings.HasPrefix(name, prefix) || !archive.ValidRefName(name) {
			return nil
		}
		if err := fn(name); err != nil {
			return &callbackError{err}
		}
		return nil
	})
	var ce *callbackError
	if errors.As(err, &ce) {
		return ce.err
	}
	if err != nil {
		return fmt.Errorf("fsstore: %s: %w", op, err)
	}
	return nil
}
