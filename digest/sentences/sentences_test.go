package sentences

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

func TestStrings(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"", nil},
		{"One sentence", []string{"One sentence"}},
		{"First one. Second one! Third one? Fourth", []string{"First one.", "Second one!", "Third one?", "Fourth"}},
		{"Prof. Jones met Dr. Brown at St. Mary's.", []string{"Prof. Jones met Dr. Brown at St. Mary's."}},
		{"Cells grew (see Fig. 3) in 2.5 h. Then they died.", []string{"Cells grew (see Fig. 3) in 2.5 h.", "Then they died."}},
		{"Trials, e.g. phase II, ended. Results follow.", []string{"Trials, e.g. phase II, ended.", "Results follow."}},
		{"Smith et al. reported it. Others agreed.", []string{"Smith et al. reported it.", "Others agreed."}},
		{"It was made in the U.S. by them. Then sold.", []string{"It was made in the U.S. by them.", "Then sold."}},
		{"Written by A. B. Carter in 1999. Reprinted later.", []string{"Written by A. B. Carter in 1999.", "Reprinted later."}},
		{"Version 2.0.1 shipped. It works.", []string{"Version 2.0.1 shipped.", "It works."}},
		{"See https://example.org/a.b.html for more. Thanks.", []string{"See https://example.org/a.b.html for more.", "Thanks."}},
		{"Mail jo.doe@example.com today. Bye.", []string{"Mail jo.doe@example.com today.", "Bye."}},
		{"He said \"Stop. Now.\" Then he left.", []string{"He said \"Stop. Now.\"", "Then he left."}},
		{"It is rare.[12] Most cases are mild.", []string{"It is rare.[12]", "Most cases are mild."}},
		{"Wait... what? No.", []string{"Wait... what?", "No."}},
		{"We met at 9 a.m. The talk began.", []string{"We met at 9 a.m.", "The talk began."}},
		{"Results\nPatients improved. Few relapsed.\fPage two heading", []string{"Results", "Patients improved.", "Few relapsed.", "Page two heading"}},
		{"東京は大きい。大阪も大きい。", []string{"東京は大きい。", "大阪も大きい。"}},
		{"Ça va. Élodie est là.", []string{"Ça va.", "Élodie est là."}},
		{"Really?! Yes.", []string{"Really?!", "Yes."}},
		{"Findings [25] • The assay is fast • It is cheap. • Done", []string{"Findings [25]", "• The assay is fast", "• It is cheap.", "• Done"}},
		{"• Only item", []string{"• Only item"}},
		{"Items A•B and C ● D", []string{"Items A•B and C", "● D"}},
	}
	for _, tt := range tests {
		got := Strings(tt.text)
		if strings.Join(got, "|") != strings.Join(tt.want, "|") || len(got) != len(tt.want) {
			t.Errorf("Strings(%q)\n got  %q\n want %q", tt.text, got, tt.want)
		}
	}
}

// checkSpans asserts Split's contract on text.
func checkSpans(t *testing.T, text string) {
	t.Helper()
	prev := 0
	for _, s := range Split(text) {
		if s.Start < prev || s.End <= s.Start || s.End > len(text) {
			t.Fatalf("%q: bad span %+v after %d", text, s, prev)
		}
		if !utf8.ValidString(text[s.Start:s.End]) && utf8.ValidString(text) {
			t.Fatalf("%q: span %+v splits a character", text, s)
		}
		gap := text[prev:s.Start]
		if strings.TrimFunc(gap, unicode.IsSpace) != "" {
			t.Fatalf("%q: text %q lies outside every sentence", text, gap)
		}
		sent := text[s.Start:s.End]
		if strings.ContainsAny(sent, "\n\f") {
			t.Fatalf("%q: sentence %q holds a block break", text, sent)
		}
		r, _ := utf8.DecodeRuneInString(sent)
		l, _ := utf8.DecodeLastRuneInString(sent)
		if unicode.IsSpace(r) || unicode.IsSpace(l) {
			t.Fatalf("%q: sentence %q is not trimmed", text, sent)
		}
		prev = s.End
	}
	if strings.TrimFunc(text[prev:], unicode.IsSpace) != "" {
		t.Fatalf("%q: trailing text outside every sentence", text)
	}
}

func FuzzSplit(f *testing.F) {
	for _, s := range []string{"A. B. C.", "Dr. X (see [1]. \"Yes.\") ok... Fine!", "e\u0301. 😀? 東京。", "\f\n . . .", "''  ' .[1] [2]"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		if !utf8.ValidString(text) {
			return
		}
		checkSpans(t, text)
	})
}

// The one-pass quote count agrees with counting the tokens before every
// stop afresh.
func TestQuoteTokensOnePass(t *testing.T) {
	naive := func(block string, ts, te int) bool {
		if ts == 0 || block[ts-1] != ' ' || block[ts:te] != "." {
			return false
		}
		n := 0
		for _, f := range strings.Fields(block[:ts]) {
			if strings.Trim(f, "'\"`") == "" {
				n++
			}
		}
		return n%2 == 0
	}
	tokens := []string{"word", ".", "''", "``", "\"", "'", "it", "said", "`", "x.", "\t", "”"}
	rng := rand.New(rand.NewPCG(7, 9))
	for range 2000 {
		var b strings.Builder
		for n := rng.IntN(30); n > 0; n-- {
			b.WriteString(tokens[rng.IntN(len(tokens))])
			b.WriteByte(' ')
		}
		block := b.String()
		q := quoteTokens{block: block}
		for i := 0; i < len(block); i++ {
			if block[i] != '.' {
				continue
			}
			if got, want := q.opens(i, i+1), naive(block, i, i+1); got != want {
				t.Fatalf("%q at %d: %v, want %v", block, i, got, want)
			}
		}
	}
}
