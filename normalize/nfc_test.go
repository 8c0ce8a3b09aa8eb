package normalize

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// Runs of more than 30 combining marks get no U+034F: canonical text is
// plain NFC, reproducible by any conforming normalizer. The wants are
// Python's unicodedata.normalize("NFC", in).
func TestNFCLongMarkRuns(t *testing.T) {
	tests := []struct{ in, want string }{
		{"a" + strings.Repeat("\u0301", 35), "\u00e1" + strings.Repeat("\u0301", 34)},
		// Marks are ordered by class (cedilla 202, grave below 220, acute
		// 230); the first cedilla composes, and so does x with its diaeresis.
		{"e" + strings.Repeat("\u0301", 20) + strings.Repeat("\u0327", 20) + strings.Repeat("\u0316", 5) + "x\u0308",
			"\u0229" + strings.Repeat("\u0327", 19) + strings.Repeat("\u0316", 5) + strings.Repeat("\u0301", 20) + "\u1e8d"},
	}
	for _, tc := range tests {
		if got := nfc(tc.in); got != tc.want {
			t.Errorf("nfc(%+q)\n = %+q\nwant %+q", tc.in, got, tc.want)
		}
		if got := Canonical(tc.in); got != tc.want {
			t.Errorf("Canonical(%+q) = %+q", tc.in, got)
		}
	}
}

// The standard algorithm agrees with x/text wherever x/text needs no
// stream-safe joining.
func TestComposeCanonicalAgreesWithXText(t *testing.T) {
	alphabet := []rune("aeiouAEOcCsSnNyY\u0300\u0301\u0302\u0303\u0308\u0327\u0316\u031b\u0345\u03b1\u03c9\u1100\u1161\u11a8\uac00\u0b47\u0b3e\u0b57\u00c5\u212b\u1e09\u0344 \u3099\u304b")
	rng := rand.New(rand.NewPCG(1, 2))
	for i := 0; i < 20000; i++ {
		var b strings.Builder
		for n := rng.IntN(12); n > 0; n-- {
			b.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		s := b.String()
		if got, want := composeCanonical(s), norm.NFC.String(s); got != want {
			t.Fatalf("composeCanonical(%+q) = %+q, x/text %+q", s, got, want)
		}
	}
}

// The ASCII fast paths of writeBlock and dropInvisible agree with the
// rune-by-rune rules they shortcut.
func TestFastPathsAgree(t *testing.T) {
	refBlock := func(line string, sep bool) string {
		var b strings.Builder
		wrote, pending := false, false
		for _, r := range line {
			if unicode.IsSpace(r) {
				pending = wrote
				continue
			}
			if !wrote && sep {
				b.WriteByte('\n')
			}
			if pending {
				b.WriteByte(' ')
				pending = false
			}
			b.WriteRune(r)
			wrote = true
		}
		return b.String()
	}
	alphabet := []rune("ab Z9.,\t\u00a0\u2003é\u200b\x01\x7f\u00adx\u3000東🎉 ")
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 20000; i++ {
		var sb strings.Builder
		for n := rng.IntN(16); n > 0; n-- {
			sb.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		s := sb.String()
		for _, sep := range []bool{false, true} {
			var b strings.Builder
			writeBlock(&b, s, sep)
			if got, want := b.String(), refBlock(s, sep); got != want {
				t.Fatalf("writeBlock(%+q, %v) = %+q, want %+q", s, sep, got, want)
			}
		}
		want := strings.Map(func(r rune) rune {
			switch {
			case isLineBreak(r) || unicode.IsSpace(r):
				return r
			case r == '\u200b' || r == '\u2060' || r == '\ufeff' || r == '\u00ad',
				unicode.IsControl(r) || r == utf8.RuneError || isNonCharacter(r):
				return -1
			}
			return r
		}, s)
		if got := dropInvisible(s); got != want {
			t.Fatalf("dropInvisible(%+q) = %+q, want %+q", s, got, want)
		}
	}
}
