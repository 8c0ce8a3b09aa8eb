package digest

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
)

// TestVerifySpansAgreesWithVerify checks the one-pass verifier against
// Locator.Verify, locator by locator, on texts with pages and multi-byte
// runes, for spans in range, out of range, across pages and mismatched.
func TestVerifySpansAgreesWithVerify(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	alphabet := []rune("ab é\f漢\n")
	for round := 0; round < 200; round++ {
		var sb strings.Builder
		for range rng.IntN(60) {
			sb.WriteRune(alphabet[rng.IntN(len(alphabet))])
		}
		text := sb.String()
		runes := []rune(text)
		var locs []Locator
		var snips []string
		for range 12 {
			s := rng.IntN(len(runes) + 3)
			e := s + rng.IntN(8)
			l := Locator{Start: s, End: e, Page: rng.IntN(4)}
			snip := "zz"
			if e <= len(runes) && rng.IntN(3) > 0 {
				snip = string(runes[s:e])
			}
			locs = append(locs, l)
			snips = append(snips, snip)
		}
		errs, err := VerifySpans(context.Background(), text, locs, snips)
		if err != nil {
			t.Fatal(err)
		}
		for i, l := range locs {
			want := l.Verify(text, snips[i])
			if fmt.Sprint(want) != fmt.Sprint(errs[i]) {
				t.Fatalf("text %q %s snippet %q: got %v, want %v", text, l, snips[i], errs[i], want)
			}
		}
	}
}

func TestVerifySpansCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	text := strings.Repeat("a", 1<<17)
	if _, err := VerifySpans(ctx, text, []Locator{{Start: 1<<17 - 1, End: 1 << 17}}, []string{"a"}); err == nil {
		t.Fatal("a cancelled verification ran to the end")
	}
}

// BenchmarkVerifySpans is 20,000 locators against a text of a million code
// points: one pass, not one walk per locator.
func BenchmarkVerifySpans(b *testing.B) {
	text := strings.Repeat("word é ", 1<<20/7)
	var locs []Locator
	var snips []string
	for i := range 20000 {
		s := (i * 47) % (len(text) / 2)
		locs = append(locs, Locator{Start: s, End: s + 5})
		snips = append(snips, "x")
	}
	for b.Loop() {
		VerifySpans(context.Background(), text, locs, snips)
	}
}
