//go:build !unix

package batch

import "os"

// lockFile is a no-op where flock(2) is not available.
func lockFile(f *os.File) error { return nil }
