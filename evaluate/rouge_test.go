package evaluate

import "testing"

func TestPorterStem(t *testing.T) {
	tests := []struct{ in, want string }{
		{"caresses", "caress"}, {"ponies", "poni"}, {"ties", "tie"}, {"caress", "caress"}, {"cats", "cat"},
		{"feed", "feed"}, {"agreed", "agre"}, {"plastered", "plaster"}, {"bled", "bled"},
		{"motoring", "motor"}, {"sing", "sing"}, {"conflated", "conflat"}, {"troubled", "troubl"},
		{"sized", "size"}, {"hopping", "hop"}, {"tanned", "tan"}, {"falling", "fall"}, {"hissing", "hiss"},
		{"fizzed", "fizz"}, {"failing", "fail"}, {"filing", "file"}, {"happy", "happi"}, {"sky", "sky"},
		{"enjoy", "enjoy"}, {"relational", "relat"}, {"conditional", "condit"}, {"rational", "ration"},
		{"generalization", "gener"}, {"running", "run"}, {"university", "univers"}, {"died", "die"},
		{"spied", "spi"}, {"dying", "die"}, {"news", "news"}, {"radically", "radic"}, {"hopeful", "hope"},
		{"goodness", "good"}, {"adjustment", "adjust"}, {"adoption", "adopt"}, {"controll", "control"},
		{"effective", "effect"}, {"probate", "probat"}, {"rate", "rate"}, {"cease", "ceas"},
		{"analogously", "analog"}, {"triplicate", "triplic"}, {"electrical", "electr"}, {"by", "by"},
	}
	for _, tt := range tests {
		if got := PorterStem(tt.in); got != tt.want {
			t.Errorf("PorterStem(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestRougeTokens(t *testing.T) {
	got := RougeTokens("The Running dogs, naïve café-au-lait 2024!")
	want := []string{"the", "run", "dog", "na", "ve", "caf", "au", "lait", "2024"}
	if len(got) != len(want) {
		t.Fatalf("RougeTokens = %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("RougeTokens = %q, want %q", got, want)
		}
	}
}

func TestRouge(t *testing.T) {
	tests := []struct {
		pred, ref      string
		r1, r2, rl     float64
		r1p, r1r, rlF1 float64
	}{
		// Unigrams 5/6 each way; bigrams 3 of 5; LCS "the cat on the mat".
		{"the cat sat on the mat", "the cat is on the mat", 5.0 / 6, 0.6, 5.0 / 6, 5.0 / 6, 5.0 / 6, 5.0 / 6},
		// Stemming: running→run, dogs→dog, runs→run. P=1, R=2/3.
		{"running dogs", "the dog runs", 0.8, 0, 0.4, 1, 2.0 / 3, 0.4},
		{"", "anything here", 0, 0, 0, 0, 0, 0},
	}
	for _, tt := range tests {
		p, r := RougeTokens(tt.pred), RougeTokens(tt.ref)
		r1 := RougeN(p, r, 1)
		if !near(r1.F1, tt.r1) || !near(r1.Precision, tt.r1p) || !near(r1.Recall, tt.r1r) {
			t.Errorf("%q: rouge1 = %+v, want F1 %v P %v R %v", tt.pred, r1, tt.r1, tt.r1p, tt.r1r)
		}
		if got := RougeN(p, r, 2).F1; !near(got, tt.r2) {
			t.Errorf("%q: rouge2 = %v, want %v", tt.pred, got, tt.r2)
		}
		if got := RougeL(p, r).F1; !near(got, tt.rl) {
			t.Errorf("%q: rougeL = %v, want %v", tt.pred, got, tt.rl)
		}
	}
}

func TestSummaryScoresLead(t *testing.T) {
	s := SummaryScores("One two. Three four. Five six. Seven eight.", "one two three four five six")
	if !near(s["rouge1_lead3"], 1) {
		t.Errorf("rouge1_lead3 = %v, want 1", s["rouge1_lead3"])
	}
	// Whole summary: 6 of 8 predicted unigrams match, all 6 reference ones.
	if want := 2 * 0.75 * 1 / 1.75; !near(s["rouge1"], want) {
		t.Errorf("rouge1 = %v, want %v", s["rouge1"], want)
	}
}
