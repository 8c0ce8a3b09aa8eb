package digest

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/digest/sentences"
)

// newsArticle is a short news text of n sentences, about 130 code points
// each, whose first sentence is its lead.
func newsArticle(n int) []string {
	sents := []string{"Flood waters forced the evacuation of two hundred families from the lower town of Kessel on Friday, officials said."}
	topics := []string{"the school", "the bridge", "the clinic", "the market", "the station", "the harbour", "the library"}
	for i := 1; i < n; i++ {
		sents = append(sents, fmt.Sprintf("Volunteers from the county worked through the night at %s, and crews counted %d homes that had lost power by the morning.", topics[i%len(topics)], 10*i))
	}
	return sents
}

// TestSummaryOnEverySource: a source with at least two sentences gets a
// summary, whatever the question and the script, and the digest still
// fits its source: fitting it trims evidence, never the summary.
func TestSummaryOnEverySource(t *testing.T) {
	news := strings.Join(newsArticle(14), " ")
	tests := []struct {
		name, text, query string
	}{
		{"two sentences", "Mother-to-child transmission (MTCT) is the main cause of HIV-1 infection in children. Placental DC-SIGNR plays a crucial role in MTCT.", "what causes MTCT?"},
		{"three scripts", strings.Repeat("Un café crème, s’il vous plaît. 東京の喫茶店でcafé crème を飲んだ。 Emoji 👩🏽‍🔬 test: the café crème was hot. ", 20), "café crème"},
		{"three scripts, no question", strings.Repeat("Un café crème, s’il vous plaît. 東京の喫茶店でcafé crème を飲んだ。 Emoji 👩🏽‍🔬 test: the café crème was hot. ", 20), ""},
		{"short news, generic question", news, "What happened?"},
		{"short news, a question for its last sentence", news, "how many homes lost power at the school?"},
		{"short news, summary question", news, "summary"},
		{"German", "Die Stadt Kessel hat am Freitag zweihundert Familien aus der Unterstadt evakuiert. Das Hochwasser erreichte am Abend die Brücke. Die Feuerwehr pumpte die Keller bis zum Morgen aus.", "Hochwasser Brücke"},
		{"lower-cased, tokenised", strings.ToLower(strings.ReplaceAll(news, ",", " ,")), "what happened ?"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if len(Sentences(tt.text)) < 2 {
				t.Fatalf("fixture has fewer than two sentences")
			}
			p, _, err := Build(tt.text, tt.query, Options{})
			if err != nil {
				t.Fatal(err)
			}
			checkPayload(t, tt.text, tt.query, Options{}, p)
			if strings.TrimSpace(p.Summary) == "" {
				t.Fatalf("empty summary; snippets %d, key points %d", len(p.EvidenceSnippets), len(p.KeyPoints))
			}
			if len(p.EvidenceSnippets) == 0 {
				t.Errorf("no evidence snippet")
			}
			if p.DigestChars > p.OriginalChars {
				t.Errorf("digest of %d code points for a text of %d", p.DigestChars, p.OriginalChars)
			}
		})
	}
}

// TestSummaryKeepsTheLead: on a short news text the summary opens with
// the text's first sentence, whatever the question picks as evidence, and
// the best snippet stays; a question that matches nothing in particular
// gets the few best windows, not the whole text.
func TestSummaryKeepsTheLead(t *testing.T) {
	sents := newsArticle(14)
	text := strings.Join(sents, " ")
	for _, q := range []string{"What happened?", "", "how many homes lost power at the library?", "summary"} {
		p, _, err := Build(text, q, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkPayload(t, text, q, Options{}, p)
		if !strings.HasPrefix(p.Summary, sents[0]) {
			t.Errorf("%q: summary does not open with the lead: %q", q, p.Summary)
		}
		if n := utf8.RuneCountInString(p.Summary); n*2 > p.OriginalChars {
			t.Errorf("%q: summary of %d code points for a text of %d", q, n, p.OriginalChars)
		}
		shown := 0
		for _, e := range p.EvidenceSnippets {
			shown += utf8.RuneCountInString(e.Text)
		}
		if q != "how many homes lost power at the library?" && len(p.EvidenceSnippets) > fallbackEvidence {
			t.Errorf("%q: %d snippets (%d of %d code points) for a question that matches nothing in particular", q, len(p.EvidenceSnippets), shown, p.OriginalChars)
		}
	}
	// The best snippet of a specific question stays, even on a text
	// the digest must fit.
	p, _, err := Build(text, "how many homes lost power at the library?", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.EvidenceSnippets) == 0 || !strings.Contains(p.EvidenceSnippets[0].Text, "the library") {
		t.Errorf("best snippet lost: %+v", p.EvidenceSnippets)
	}
}

// TestFitEvidence: when the parts do not fit, snippets that only repeat
// the summary go first, then the lowest-ranked; the best always stays.
func TestFitEvidence(t *testing.T) {
	summary := "The lead sentence of the text is here. The second sentence follows it."
	snip := func(text string) EvidenceSnippet { return EvidenceSnippet{Text: text} }
	snips := []EvidenceSnippet{
		snip("The lead sentence of the text is here."),         // best, in the summary: costs 0
		snip("A third sentence adds something new here."),      // 42
		snip("The second sentence follows it."),                // in the summary: costs 0
		snip("A fourth sentence adds even more to the text."),  // 45
		snip("A fifth sentence is the least relevant of all."), // 46
	}
	feats := make([][snippetFeatures]float64, len(snips))
	sum := utf8.RuneCountInString(summary)
	tests := []struct {
		limit int
		want  []int // indexes of the snippets kept
	}{
		{sum + 42 + 45 + 46, []int{0, 1, 2, 3, 4}},
		{sum + 42 + 45, []int{0, 1, 3}},
		{sum + 42, []int{0, 1}},
		{sum, []int{0}},
		{0, []int{0}},
	}
	for _, tt := range tests {
		got, gotF := fitEvidence(summary, snips, feats, tt.limit)
		var idx []int
		for _, g := range got {
			for k, s := range snips {
				if s.Text == g.Text {
					idx = append(idx, k)
				}
			}
		}
		if fmt.Sprint(idx) != fmt.Sprint(tt.want) || len(gotF) != len(got) {
			t.Errorf("limit %d: kept %v, want %v", tt.limit, idx, tt.want)
		}
	}
}

// TestCountDigestCharsOnce: a summary sentence a snippet shows verbatim
// counts once toward digest_chars; anything else counts in full.
func TestCountDigestCharsOnce(t *testing.T) {
	a, b, c := "Alpha is the first letter.", "Beta comes second in line.", "Gamma is third."
	tests := []struct {
		summary  string
		snippets []string
		want     int
	}{
		{"", []string{a + " " + b}, len(a + " " + b)},
		{a, []string{a + " " + b}, len(a) + len(" "+b)},
		{a + " " + b, []string{a + " " + b}, len(a + " " + b)},
		{a + " " + c, []string{b + " " + c, a}, len(a+" "+c) + len(b+" ")},
		{a, []string{b}, len(a) + len(b)},
	}
	for _, tt := range tests {
		p := &Payload{Summary: tt.summary, KeyPoints: []string{}}
		for _, s := range tt.snippets {
			p.EvidenceSnippets = append(p.EvidenceSnippets, EvidenceSnippet{Text: s})
		}
		if got := CountDigestChars(p); got != tt.want {
			t.Errorf("summary %q, snippets %q: %d, want %d", tt.summary, tt.snippets, got, tt.want)
		}
	}
	if len(sentences.Strings(a+" "+b)) != 2 {
		t.Fatal("fixture: the summary is not two sentences")
	}
}
