package sentences

import (
	"math/rand/v2"
	"testing"
)

// TestNextLabelIsFirstCandidate checks nextLabel against its definition,
// byte by byte, on random strings of the bytes it looks at.
func TestNextLabelIsFirstCandidate(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	alphabet := "a1Z. )(-\n•"
	for n := 0; n < 2000; n++ {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		block := string(b)
		for from := 0; from <= len(block); from++ {
			want := len(block)
			for i := from; i < len(block); i++ {
				delim := func(k int) bool { return k < len(block) && (block[k] == '.' || block[k] == ')') }
				if alnumByte[block[i]] && (i == 0 || !alnumByte[block[i-1]]) && (delim(i+1) || delim(i+2)) {
					want = i
					break
				}
			}
			if got := nextLabel(block, from); got != want {
				t.Fatalf("nextLabel(%q, %d) = %d, want %d", block, from, got, want)
			}
		}
	}
}

// TestSkip checks skip against a byte-by-byte scan.
func TestSkip(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	alphabet := "ab .(\n\xc3\xa9"
	for n := 0; n < 500; n++ {
		b := make([]byte, r.IntN(40))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		s := string(b)
		for _, stop := range []*[256]uint8{&blockEnd, &terminalByte, &enclosing, &nonASCII, &labelDelim} {
			for from := 0; from <= len(s); from++ {
				want := from
				for want < len(s) && stop[s[want]] == 0 {
					want++
				}
				if got := skip(s, from, stop); got != want {
					t.Fatalf("skip(%q, %d) = %d, want %d", s, from, got, want)
				}
			}
		}
	}
}
