package porter

import "testing"

// TestStem checks examples of each step of the algorithm, the "logi" and
// "ll" rules that look past the suffix, and NLTK's irregular forms.
func TestStem(t *testing.T) {
	tests := []struct{ word, want string }{
		{"caresses", "caress"}, {"ponies", "poni"}, {"ties", "tie"}, {"cats", "cat"},
		{"feed", "feed"}, {"agreed", "agre"}, {"plastered", "plaster"}, {"motoring", "motor"},
		{"sing", "sing"}, {"conflated", "conflat"}, {"troubled", "troubl"}, {"sized", "size"},
		{"hopping", "hop"}, {"falling", "fall"}, {"hissing", "hiss"}, {"filing", "file"},
		{"happy", "happi"}, {"relational", "relat"}, {"conditional", "condit"},
		{"digitizer", "digit"}, {"radicalli", "radic"}, {"differentli", "differ"},
		{"vietnamization", "vietnam"}, {"operator", "oper"}, {"feudalism", "feudal"},
		{"hopefulness", "hope"}, {"sensitiviti", "sensit"}, {"triplicate", "triplic"},
		{"electrical", "electr"}, {"goodness", "good"}, {"allowance", "allow"},
		{"adjustable", "adjust"}, {"replacement", "replac"}, {"adoption", "adopt"},
		{"effective", "effect"}, {"cease", "ceas"}, {"controll", "control"}, {"roll", "roll"},
		{"archaeology", "archaeolog"}, {"generalizations", "gener"},
		{"sky", "sky"}, {"skies", "sky"}, {"dying", "die"}, {"news", "news"},
		{"is", "is"}, {"a", "a"},
	}
	for _, tt := range tests {
		if got := Stem(tt.word); got != tt.want {
			t.Errorf("Stem(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

// TestStemLeavesInputAlone checks that stemming never changes the bytes of
// its argument's backing array seen by the caller.
func TestStemLeavesInputAlone(t *testing.T) {
	b := []byte("generalizations")
	w := string(b)
	Stem(w)
	if w != "generalizations" {
		t.Errorf("input changed to %q", w)
	}
}

func BenchmarkStem(b *testing.B) {
	words := []string{"generalizations", "infections", "transmission", "coronavirus", "hopping", "relational", "the"}
	for b.Loop() {
		for _, w := range words {
			Stem(w)
		}
	}
}
