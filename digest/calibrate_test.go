package digest

import (
	"math"
	"strings"
	"testing"

	"github.com/digestd/digestd/archive"
)

// TestFallbackScoresLow checks that digests that fall back to describing
// the whole document (no content word in the query, or none in the text)
// score every snippet at most fallbackScore.
func TestFallbackScoresLow(t *testing.T) {
	text := "Measles spreads through the air. The measles vaccine is given in two doses.\nVaccination rates fell in 2019. Outbreaks followed in several countries."
	for _, q := range []string{"", "what is the", "influenza neuraminidase inhibitors"} {
		p, warns, err := Build(text, q, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if len(warns) == 0 {
			t.Errorf("%q: no fallback warning", q)
		}
		if len(p.EvidenceSnippets) == 0 {
			t.Errorf("%q: no snippets", q)
		}
		for _, s := range p.EvidenceSnippets {
			if s.RelevanceScore > fallbackScore {
				t.Errorf("%q: snippet %q scores %v, want ≤ %v", q, s.Text, s.RelevanceScore, fallbackScore)
			}
		}
	}
}

// TestRankSources checks that a document that answers ranks above one
// that shares only a common query word, which ranks above one without any
// query word, and that scores are probabilities.
func TestRankSources(t *testing.T) {
	filler := strings.Repeat("Other matters of travel and weather fill the rest of this report. ", 5)
	docs := []string{
		filler + "The weather was mild in spring.",
		filler + "The incubation period of measles is ten to twelve days after exposure to the virus.",
		filler + "Measles is a disease.",
		strings.Repeat("Cooking pasta needs salted water and patience. ", 6),
	}
	q := "What is the incubation period of measles?"
	var matches []*Match
	var tops []float64
	for _, d := range docs {
		p, m, _, err := BuildMatch(archive.NewBlob(d), q, Options{})
		if err != nil {
			t.Fatal(err)
		}
		matches = append(matches, m)
		top := 0.0
		if len(p.EvidenceSnippets) > 0 {
			top = p.EvidenceSnippets[0].RelevanceScore
		}
		tops = append(tops, top)
	}
	s := RankSources(matches, tops)
	if !(s[1] > s[2] && s[2] > s[3] && s[2] > s[0]) {
		t.Errorf("scores %v, want answering > partial > others", s)
	}
	for _, v := range s {
		if v < 0 || v > 1 {
			t.Errorf("score %v outside [0,1]", v)
		}
	}
	if got := RankSources([]*Match{nil, matches[1]}, []float64{0, tops[1]}); got[0] >= got[1] {
		t.Errorf("a source without a match scores %v, want below %v", got[0], got[1])
	}
}

// TestRankSourcesBestSnippetOfDraw checks that the snippet evidence counts
// relative to the other sources, as BM25 does: a source whose best snippet
// is clearly the best of the draw ranks above one whose whole-document BM25
// is a little higher but whose best snippet is much weaker, and a source
// with the best snippet and the best BM25 ranks first whatever the scale
// of the draw's snippet scores.
func TestRankSourcesBestSnippetOfDraw(t *testing.T) {
	terms := []string{"incub", "period", "measl"}
	many := &Match{Terms: terms, Counts: []int{5, 5, 5}, Length: 1000}
	fewer := &Match{Terms: terms, Counts: []int{3, 3, 3}, Length: 1000}
	none := &Match{Terms: terms, Counts: []int{0, 0, 0}, Length: 1000}
	s := RankSources([]*Match{many, fewer, none}, []float64{0.25, 0.40, 0.05})
	if !(s[1] > s[0] && s[0] > s[2]) {
		t.Errorf("scores %v, want the best snippet of the draw first, then the best BM25, then no match", s)
	}
	for _, scale := range []float64{1, 0.5, 0.25} {
		s := RankSources([]*Match{fewer, many}, []float64{0.2 * scale, 0.4 * scale})
		if s[1] <= s[0] {
			t.Errorf("tops scaled by %v: scores %v, want the source with the best snippet and BM25 first", scale, s)
		}
	}
}

func TestMatchOf(t *testing.T) {
	d := analyze("Infections rose. The infection rate of measles doubled. Measles again.")
	m := matchOf(d, "How did measles infections change?")
	want := map[string]int{"measl": 2, "infect": 2, "chang": 0}
	if len(m.Terms) != len(want) {
		t.Fatalf("terms %v, want %v", m.Terms, want)
	}
	for k, term := range m.Terms {
		if m.Counts[k] != want[term] {
			t.Errorf("%s: count %d, want %d", term, m.Counts[k], want[term])
		}
	}
	if m.Length == 0 {
		t.Error("length 0")
	}
}

// TestScoresOrderAcrossSources: snippets of several sources sorted by
// score put every snippet that holds a query term, however weak, before
// every snippet of a source that matches nothing and every snippet that
// holds no query term.
func TestScoresOrderAcrossSources(t *testing.T) {
	query := "Which bridge did Hanna Lindqvist design over the Kessel river?"
	sources := []string{
		// Matches nothing: a fallback digest.
		strings.Repeat("Farmers in the valley planted wheat and barley on the terraces. The harvest was good this year. ", 6),
		// A weak match: one rare query word, once, in a long text.
		strings.Repeat("The committee discussed the budget for roads and schools at length. ", 12) +
			"A minor footnote mentions that Lindqvist once visited the town. " +
			strings.Repeat("Members spent weeks reviewing the plan for the harbour. ", 12),
		// A strong match.
		"The bridge over the Kessel river was designed by Hanna Lindqvist in 1931. It replaced a ferry.",
	}
	var matched, unmatched []float64
	for i, text := range sources {
		p, _, err := Build(text, query, Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range p.EvidenceSnippets {
			if strings.Contains(s.Text, "Lindqvist") || strings.Contains(s.Text, "Kessel") || strings.Contains(s.Text, "bridge") {
				matched = append(matched, s.RelevanceScore)
			} else {
				unmatched = append(unmatched, s.RelevanceScore)
			}
		}
		if i == 0 && len(p.EvidenceSnippets) == 0 {
			t.Fatalf("source %d: no snippets", i)
		}
	}
	if len(matched) < 2 || len(unmatched) == 0 {
		t.Fatalf("fixture: %d matching and %d other snippets", len(matched), len(unmatched))
	}
	for _, m := range matched {
		for _, u := range unmatched {
			if m <= u {
				t.Errorf("a snippet holding a query term scores %v, at most an off-topic one's %v", m, u)
			}
		}
		if m < math.Round(matchFloor*1e4)/1e4 {
			t.Errorf("a match scores %v, below %v", m, matchFloor)
		}
	}
}
