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
	root := filepath.Join(s.dir, "v1", "refs")
	start := root
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dirPart := prefix[:i]
		if !archive.ValidRefName(dirPart) {
			return fmt.Errorf("fsstore: list ref names: invalid prefix %q", prefix)
		}
		start = filepath.Join(root, filepath.FromSlash(dirPart))
	}
	err := filepath.WalkDir(start, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return classify(err)
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if !e.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if !strings.HasPrefix(name, prefix) || !archive.ValidRefName(name) {
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
		return fmt.Errorf("fsstore: list ref names: %w", err)
	}
	return nil
}
