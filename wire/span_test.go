package wire_test

import (
	"testing"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/wire"
)

// TestParseSpan reads the slice endpoint's span arguments.
func TestParseSpan(t *testing.T) {
	tests := []struct {
		locator, start, end string
		want                digest.Locator
		code                fault.Code // "" when it parses
	}{
		{"char:3-9", "", "", digest.Locator{Start: 3, End: 9}, ""},
		{"page:2:char:3-9", "", "", digest.Locator{Page: 2, Start: 3, End: 9}, ""},
		{"char:5-5", "", "", digest.Locator{Start: 5, End: 5}, ""},
		{"", "3", "9", digest.Locator{Start: 3, End: 9}, ""},
		{"", "0", "0", digest.Locator{}, ""},
		{"char:3-9", "1", "2", digest.Locator{Start: 3, End: 9}, ""}, // the locator wins
		{"char:9-3", "", "", digest.Locator{}, fault.ValidationError},
		{"chars:3-9", "", "", digest.Locator{}, fault.ValidationError},
		{"page:0:char:3-9", "", "", digest.Locator{}, fault.ValidationError},
		{"", "3", "", digest.Locator{}, fault.MissingRequired},
		{"", "", "", digest.Locator{}, fault.MissingRequired},
		{"", "-1", "4", digest.Locator{}, fault.ValidationError},
		{"", "9", "3", digest.Locator{}, fault.ValidationError},
		{"", "x", "3", digest.Locator{}, fault.ValidationError},
		{"", "0", "99999999999999999", digest.Locator{}, fault.ValidationError},
	}
	for _, tt := range tests {
		got, err := wire.ParseSpan(tt.locator, tt.start, tt.end)
		switch {
		case tt.code == "" && (err != nil || got != tt.want):
			t.Errorf("%q %q %q: %+v, %v; want %+v", tt.locator, tt.start, tt.end, got, err, tt.want)
		case tt.code != "" && fault.CodeOf(err) != tt.code:
			t.Errorf("%q %q %q: error %v, want %s", tt.locator, tt.start, tt.end, err, tt.code)
		}
	}
}
