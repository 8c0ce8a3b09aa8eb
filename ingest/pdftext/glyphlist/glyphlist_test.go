package glyphlist

import "testing"

func TestLookup(t *testing.T) {
	tests := []struct {
		name string
		want string
		ok   bool
	}{
		{"A", "A", true},
		{"element", "∈", true},
		{"universal", "∀", true},
		{"braceleft", "{", true},
		{"alpha", "α", true},
		{"Delta", "Δ", true},
		{"ffi", "ffi", true},
		{"epsilon1", "ϵ", true},
		{"dalethatafpatah", "\u05d3\u05b2", true},
		{"integraldisplay", "∫", true},
		{"parenleftBig", "(", true},
		{"Asmall", "", false},      // private use in the list
		{"suppress", "", false},    // draws no text
		{"nosuchglyph", "", false}, // unknown
	}
	for _, tt := range tests {
		got, ok := LookupVariant(tt.name)
		if got != tt.want || ok != tt.ok {
			t.Errorf("LookupVariant(%q) = %q, %v; want %q, %v", tt.name, got, ok, tt.want, tt.ok)
		}
	}
}
