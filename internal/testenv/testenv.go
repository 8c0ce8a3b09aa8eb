// Package testenv is the one place that decides what a test does when
// something it needs from the machine (a browser, node, the S3 server, the
// shared evaluation data) is missing: it skips on a developer's machine and
// fails in CI (CI=true), so that CI never passes by skipping.
package testenv

import (
	"fmt"
	"os"
	"testing"
)

// InCI reports whether the tests run in CI, where nothing may be skipped
// for want of a tool or data set.
func InCI() bool { return os.Getenv("CI") == "true" }

// Need does nothing when ok holds; otherwise it skips tb with the reason, or
// fails it in CI.
func Need(tb testing.TB, ok bool, format string, args ...any) {
	tb.Helper()
	if ok {
		return
	}
	Missing(tb, format, args...)
}

// Missing skips tb with the reason, or fails it in CI. It does not return.
func Missing(tb testing.TB, format string, args ...any) {
	tb.Helper()
	why := fmt.Sprintf(format, args...)
	if InCI() {
		tb.Fatalf("%s (CI=true forbids skipping)", why)
	}
	tb.Skip(why)
}

// FullSuite marks tb as a test of the full suite only: go test -short, the
// quick tier (unit tests and the on-disk conformance suite), skips it; the
// README's test command and CI (scripts/test.sh) run without -short, and so
// run it. what says what makes the test long.
func FullSuite(tb testing.TB, what string) {
	tb.Helper()
	if testing.Short() {
		tb.Skipf("%s: the full suite only (go test without -short)", what)
	}
}
