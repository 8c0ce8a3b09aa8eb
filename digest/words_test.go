package digest

import (
	"strings"
	"testing"
)

// wordCases mix ASCII, other scripts, odd white space and case mappings
// that change length (İ) or leave ASCII (K, the Kelvin sign).
var wordCases = []string{
	"", " ", "One", "The cat sat.", "  The  cat\tsat\n", "Figure 3: the cells", "Fig.\u00a02. Growth",
	"ÉTÉ À Paris", "İstanbul İs", "\u212Aelvin scale", "a\vb\rc d", "trailing ", "x\u2003y\u0085z",
	"However, it rained", "In addition to this", "\n\fLead words here", "a b c d e f g", "bad \xff utf8 \xc3",
}

func TestLowerIntoIsToLower(t *testing.T) {
	var buf [8]byte
	for _, s := range wordCases {
		if got, want := string(lowerInto(buf[:], s)), strings.ToLower(s); got != want {
			t.Errorf("lowerInto(%q) = %q, want %q", s, got, want)
		}
	}
}

func TestNextFieldIsFields(t *testing.T) {
	for _, s := range wordCases {
		var got []string
		for w, rest := nextField(s); w != ""; w, rest = nextField(rest) {
			got = append(got, w)
		}
		if want := strings.Fields(s); strings.Join(got, "|") != strings.Join(want, "|") || len(got) != len(want) {
			t.Errorf("fields of %q = %q, want %q", s, got, want)
		}
	}
}

func TestFirstWordsIsJoined(t *testing.T) {
	for _, s := range wordCases {
		for n := 0; n <= 4; n++ {
			if got, want := firstWords(s, n), joinFirstWords(s, n); got != want {
				t.Errorf("firstWords(%q, %d) = %q, want %q", s, n, got, want)
			}
		}
	}
}

func TestHasLegalMarkIsLegalMarks(t *testing.T) {
	var scratch []byte
	for _, s := range append(wordCases, "Copyright © 2020 Acme", "ALL RIGHTS RESERVED", "(C) 2019 the authors",
		"see the Privacy Policy", "under the Creative Commons licence", "a warranT", "redistribution is free", "®", "x ™") {
		if got, want := hasLegalMark(&scratch, s), legalMarks(s) > 0; got != want {
			t.Errorf("hasLegalMark(%q) = %v, want %v", s, got, want)
		}
	}
}
