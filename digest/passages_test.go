package digest_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/normalize"
)

// Passages group the digester's sentences in order, each sentence in one
// passage, no passage across a page or longer than a snippet unless it is
// one sentence, at most four sentences each.
func TestPassages(t *testing.T) {
	long := strings.Repeat("word ", 150) + "end."
	text := "First sentence here. Second one follows. Third is short. Fourth too. Fifth starts a new passage.\n" +
		long + normalize.PageBreak + "Page two opens. It closes."
	sents := digest.Sentences(text)
	ps := digest.Passages(text)
	if len(ps) == 0 {
		t.Fatal("no passages")
	}
	k := 0
	for i, p := range ps {
		n := 0
		for k < len(sents) && sents[k].End <= p.End {
			if sents[k].Start < p.Start {
				t.Fatalf("sentence %d starts before passage %d", k, i)
			}
			k++
			n++
		}
		if n == 0 || n > 4 {
			t.Errorf("passage %d holds %d sentences", i, n)
		}
		if p.End-p.Start > digest.MaxSnippetChars && n > 1 {
			t.Errorf("passage %d is %d code points over %d sentences", i, p.End-p.Start, n)
		}
		if p.Page < 1 || strings.Contains(string([]rune(text)[p.Start:p.End]), normalize.PageBreak) {
			t.Errorf("passage %d: page %d, or it crosses a page", i, p.Page)
		}
	}
	if k != len(sents) {
		t.Errorf("passages cover %d of %d sentences", k, len(sents))
	}
	if last := ps[len(ps)-1]; last.Page != 2 {
		t.Errorf("the last passage is on page %d, want 2", last.Page)
	}
	if ps := digest.Passages("One sentence. Two sentences."); len(ps) != 1 || ps[0].Page != 0 {
		t.Errorf("a text without pages: %+v", ps)
	}
}

// Evidence returns what Build's evidence snippets are, without the rest.
func TestEvidenceIsBuildsEvidence(t *testing.T) {
	text := "Mother-to-child transmission (MTCT) is the main cause of HIV-1 infection in children. Placental DC-SIGNR plays a crucial role in MTCT.\nThe weather was fine."
	for _, q := range []string{"what causes MTCT?", "weather", "zebra", ""} {
		p, _, err := digest.Build(text, q, digest.Options{})
		if err != nil {
			t.Fatal(err)
		}
		got, m, err := digest.Evidence(text, q, digest.Options{})
		if err != nil || m == nil {
			t.Fatal(err)
		}
		want := p.EvidenceSnippets
		if q == "zebra" || q == "" {
			want = []digest.EvidenceSnippet{} // a fallback digest's snippets describe, not answer
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%q: Evidence %+v, Build %+v", q, got, want)
		}
	}
}
