package fault

import (
	"errors"
	"testing"
)

// An error carried into a fault under the same code says its code and
// message once (issue 47: "FETCH_BLOCKED: …: FETCH_BLOCKED: …").
func TestErrorSaysItsCodeOnce(t *testing.T) {
	cause := errors.New("127.0.0.1 is not a permitted destination")
	for _, c := range []struct {
		err  error
		want string
	}{
		{E(FetchBlocked, "destination not allowed"), "FETCH_BLOCKED: destination not allowed"},
		{Wrap(FetchBlocked, "destination not allowed", cause), "FETCH_BLOCKED: destination not allowed: 127.0.0.1 is not a permitted destination"},
		{Wrap(FetchBlocked, "destination not allowed", Wrap(FetchBlocked, "destination not allowed", cause)), "FETCH_BLOCKED: destination not allowed: 127.0.0.1 is not a permitted destination"},
		{Wrap(FetchBlocked, "destination not allowed", E(FetchBlocked, "destination not allowed")), "FETCH_BLOCKED: destination not allowed"},
		{Wrap(Unavailable, "search: the index is unavailable", E(Unavailable, "the engine is down")), "UNAVAILABLE: search: the index is unavailable: the engine is down"},
		{Wrap(Internal, "read the record", E(ArchiveCorrupt, "the blob is corrupt")), "INTERNAL_ERROR: read the record: ARCHIVE_CORRUPT: the blob is corrupt"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("Error() = %q, want %q", got, c.want)
		}
	}
}
