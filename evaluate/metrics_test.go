package evaluate

import (
	"math"
	"reflect"
	"testing"
)

func near(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

func TestTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"", nil},
		{"Grüße, naïve 東京 x_1 -- 3.5", []string{"Grüße", "naïve", "東京", "x_1", "3", "5"}},
		{"Ελληνικά—кириллица٣", []string{"Ελληνικά", "кириллица٣"}},
		{"  end", []string{"end"}},
	}
	for _, tt := range tests {
		if got := Tokens(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("Tokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestShingleMatch(t *testing.T) {
	tests := []struct {
		name, pred, ref string
		tp, fp, fn      float64
	}{
		{"one differs", "a b c d e", "a b c d f", 1.0 / 3, 1.0 / 3, 1.0 / 3},
		{"extra shingle", "a b c d e f", "a b c d e", 2.0 / 3, 1.0 / 3, 0},
		{"short exact", "a b", "a, b!", 1, 0, 0},
		{"short differs", "a b", "a c", 0, 0.5, 0.5},
		{"empty prediction", "", "a b c d e", 0, 1.0 / 3, 2.0 / 3},
		{"non-ASCII", "Grüße aus München heute Abend", "Grüße aus München heute Morgen", 1.0 / 3, 1.0 / 3, 1.0 / 3},
		{"case-sensitive", "grüße aus München heute", "Grüße aus München heute", 0, 0.5, 0.5},
		{"multiset", "a b c d a b c d", "a b c d", 1.0 / 5, 4.0 / 5, 0},
	}
	for _, tt := range tests {
		m := ShingleMatch(tt.pred, tt.ref)
		if !near(m.TP, tt.tp) || !near(m.FP, tt.fp) || !near(m.FN, tt.fn) {
			t.Errorf("%s: ShingleMatch = %+v, want tp=%v fp=%v fn=%v", tt.name, m, tt.tp, tt.fp, tt.fn)
		}
	}
}

func TestShingleScore(t *testing.T) {
	docs := []Match{
		ShingleMatch("a b c d e", "a b c d f"),   // P 1/2, R 1/2
		ShingleMatch("a b c d e f", "a b c d e"), // P 2/3, R 1
	}
	s := ShingleScore(docs)
	if !near(s.Precision, 7.0/12) || !near(s.Recall, 0.75) || !near(s.F1, 0.65625) {
		t.Errorf("ShingleScore = %+v, want P=7/12 R=3/4 F1=0.65625", s)
	}
	if got := DocShingleF1(docs[1]); !near(got, 0.8) {
		t.Errorf("DocShingleF1 = %v, want 0.8", got)
	}
	if s := ShingleScore(nil); s != (PRF{}) {
		t.Errorf("ShingleScore(nil) = %+v, want zero", s)
	}
}

func TestSnippetCounts(t *testing.T) {
	var c SnippetCounts
	c.Add("Hello   world.\nSecond para", []string{"Hello world.", "world. Second", "missing"}, []string{"Second\tpara", "nope"})
	c.Add("Straße in Köln", []string{"Straße  in"}, []string{"strasse"})
	if c != (SnippetCounts{TP: 3, FP: 1, FN: 1}) {
		t.Fatalf("counts = %+v", c)
	}
	s := c.Score()
	if !near(s.Precision, 0.75) || !near(s.Recall, 0.75) || !near(s.F1, 6.0/8) {
		t.Errorf("Score = %+v", s)
	}
	if s := (SnippetCounts{}).Score(); s != (PRF{}) {
		t.Errorf("empty Score = %+v", s)
	}
}

func TestWordF1(t *testing.T) {
	tests := []struct {
		pred, ref string
		want      float64
	}{
		{"a a b c", "a b b d", 0.5},
		{"ß ß é", "ß é é x", 2 * (2.0 / 3) * (2.0 / 4) / (2.0/3 + 2.0/4)},
		{"", "", 1},
		{"", "a", 0},
		{"same text", "same, text", 1},
	}
	for _, tt := range tests {
		if got := WordF1(tt.pred, tt.ref); !near(got, tt.want) {
			t.Errorf("WordF1(%q, %q) = %v, want %v", tt.pred, tt.ref, got, tt.want)
		}
	}
}

func TestLowerTokens(t *testing.T) {
	tests := []struct {
		in   string
		want []string
	}{
		{"Grüße, NAÏVE x_1 ½ ²", []string{"grüße", "naïve", "x_1", "½", "²"}},
		// Python's \w holds no combining marks: a virama splits the word.
		{"नमस्ते", []string{"नमस", "त"}},
		// str.lower() maps İ to i + combining dot, which splits the token.
		{"İSTANBUL", []string{"i", "stanbul"}},
		{"ΟΔΟΣ ΣΑ Σ", []string{"οδος", "σα", "σ"}},
	}
	for _, tt := range tests {
		if got := LowerTokens(tt.in); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("LowerTokens(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	if got := pythonLower("ΟΔΟΣ"); got != "οδος" {
		t.Errorf("final sigma: %q", got)
	}
}

func TestLowerWordPRF(t *testing.T) {
	tests := []struct {
		name, pred, ref string
		want            PRF
	}{
		{"case folded", "The cat sat", "the CAT sat", PRF{1, 1, 1}},
		{"extra words", "a b c d", "a b", PRF{0.5, 1, 2.0 / 3}},
		{"multiset", "a a a", "a b", PRF{1.0 / 3, 0.5, 0.4}},
		{"empty both", "", " ... ", PRF{1, 1, 1}},
		{"empty reference", "x", "", PRF{}},
		{"empty output", "", "a", PRF{}},
	}
	for _, tt := range tests {
		got := LowerWordPRF(tt.pred, tt.ref)
		if !near(got.Precision, tt.want.Precision) || !near(got.Recall, tt.want.Recall) || !near(got.F1, tt.want.F1) {
			t.Errorf("%s: LowerWordPRF = %+v, want %+v", tt.name, got, tt.want)
		}
	}
}
