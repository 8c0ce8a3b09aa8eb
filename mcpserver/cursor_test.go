package mcpserver

import (
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
)

func TestCursor(t *testing.T) {
	for _, c := range []struct {
		name, cursor, want string
		ok                 bool
	}{
		{"empty is the first page", "", "", true},
		{"a position", encodeCursor("sources-by-time/09223372036854775807-" + strings.Repeat("a", 64)), "sources-by-time/09223372036854775807-" + strings.Repeat("a", 64), true},
		{"not base64url", "a+b/", "", false},
		{"padded", encodeCursor("abc") + "=", "", false},
		{"markup inside", encodeCursor("<script>"), "", false},
		{"control characters inside", encodeCursor("a\x00b"), "", false},
		{"too long", encodeCursor(strings.Repeat("a", maxCursorBytes+1)), "", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := decodeCursor(c.cursor)
			if c.ok != (err == nil) || got != c.want {
				t.Fatalf("decodeCursor(%q) = %q, %v", c.cursor, got, err)
			}
			if err != nil && fault.CodeOf(err) != fault.InvalidCursor {
				t.Errorf("code %s, want INVALID_CURSOR", fault.CodeOf(err))
			}
		})
	}
}

func FuzzDecodeCursor(f *testing.F) {
	f.Add("")
	f.Add(encodeCursor("sources-by-time/00000000000000000001-" + strings.Repeat("f", 64)))
	f.Add("!!")
	f.Fuzz(func(t *testing.T, s string) {
		pos, err := decodeCursor(s)
		if err != nil {
			if fault.CodeOf(err) != fault.InvalidCursor {
				t.Fatalf("error code %s", fault.CodeOf(err))
			}
			return
		}
		// What decodes is a plain position that encodes back to the cursor.
		if !cursorPattern.MatchString(pos) && pos != "" || len(pos) > maxCursorBytes || encodeCursor(pos) != s {
			t.Fatalf("decodeCursor(%q) = %q", s, pos)
		}
	})
}
