package digest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/digest/sentences"
)

// TestSummaryWithinSource: whatever its punctuation, a text with words gets
// a digest that says something and is never longer than the text; a text
// that holds the summary at its bound beside the snippets always gets a
// summary of its own words.
func TestSummaryWithinSource(t *testing.T) {
	long := strings.Repeat("the storm moved north , officials said , and the roads stayed closed ", 40)
	roomy := Options{MaxEvidence: 1, SnippetMaxChars: 50, SummaryMaxChars: 200, MaxKeyPoints: NoKeyPoints}
	tests := []struct {
		name string
		text string
		opts Options
	}{
		{"one line without a stop", "hello there, this is a text about cats", Options{}},
		{"lines without stops", "cats sleep a lot\nthey like warm places\ndogs bark", Options{}},
		{"two words", "hello cats", Options{}},
		{"one long sentence", long, Options{}},
		{"one long sentence, room for a summary", long, roomy},
		{"a short summary bound", "The committee met on Tuesday to discuss the budget, and it approved the plan.", Options{SummaryMaxChars: 40}},
		{"a bound shorter than the first word", "Extraordinarily long words come first here.", Options{SummaryMaxChars: 5}},
		{"headings only", "Introduction\nMethods\nResults", Options{}},
		{"headings only, room for a summary", strings.Repeat("Introduction\nMethods and materials of the survey\nResults\n", 20), roomy},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, _, err := Build(tt.text, "", tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			checkPayload(t, tt.text, "", tt.opts, p)
			if p.DigestChars > p.OriginalChars || p.DigestChars == 0 {
				t.Fatalf("digest of %d code points for a text of %d", p.DigestChars, p.OriginalChars)
			}
			opts := tt.opts.WithDefaults()
			room := p.OriginalChars
			for _, e := range p.EvidenceSnippets {
				room -= utf8.RuneCountInString(e.Text)
			}
			if room >= opts.SummaryMaxChars+max(0, opts.MaxKeyPoints)*MaxKeyPointChars && strings.TrimSpace(p.Summary) == "" {
				t.Fatalf("empty summary for %q", tt.text)
			}
			// The summary is the text's own words: a prefix of some
			// sentence run, cut at a word boundary.
			if !strings.Contains(strings.Join(strings.Fields(tt.text), " "), strings.Join(strings.Fields(p.Summary), " ")) {
				t.Errorf("summary %q is not text of the source", p.Summary)
			}
			if utf8.RuneCountInString(p.Summary) > opts.SummaryMaxChars {
				t.Errorf("summary longer than %d", opts.SummaryMaxChars)
			}
		})
	}
}

// TestSummaryLowerCasedTokenised: lower-cased, tokenised news text gets
// a summary of whole sentences, not one run-on prefix.
func TestSummaryLowerCasedTokenised(t *testing.T) {
	var b strings.Builder
	for i := 0; i < 30; i++ {
		b.WriteString("the council voted on the new bridge plan , and residents said the cost was too high . ")
		b.WriteString("work on the road will start next spring , officials said . ")
	}
	text := b.String()
	p, _, err := Build(text, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkPayload(t, text, "", Options{}, p)
	if !strings.HasSuffix(p.Summary, " .") || utf8.RuneCountInString(p.Summary) > 2000 || strings.Count(p.Summary, " . ") < 1 {
		t.Errorf("summary is not whole sentences: %q", p.Summary)
	}
}

// TestSummaryTokenisedLead: a tokenised news lead that opens with a
// bracket token ("-lrb- cnn -rrb- --") or a quote token leads the summary.
func TestSummaryTokenisedLead(t *testing.T) {
	text := "-lrb- cnn -rrb- -- the city council approved the new budget on friday after a long debate . " +
		"`` it is a fair budget , '' the mayor said after the vote . " +
		strings.Repeat("members spent weeks reviewing the plan for roads and schools . ", 40)
	p, _, err := Build(text, "", Options{SummaryMaxChars: 300, MaxKeyPoints: NoKeyPoints})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Summary, "-lrb- cnn -rrb- -- the city council approved") {
		t.Errorf("summary does not open with the lead: %q", p.Summary)
	}
}

func TestClausePrefix(t *testing.T) {
	tests := []struct {
		s    string
		max  int
		want string
	}{
		{"short enough", 20, "short enough"},
		{"one two three four", 12, "one two"},
		{"one two three four", 13, "one two three"},
		{"alpha beta, gamma delta epsilon", 24, "alpha beta, gamma delta"},
		{"first clause here, then a much longer tail of words", 24, "first clause here"},
		{"x, then many more words in one run", 30, "x, then many more words in one"},
		{"Unbreakable", 4, "Unbr"},
	}
	for _, tt := range tests {
		if got := clausePrefix(tt.s, tt.max); got != tt.want {
			t.Errorf("clausePrefix(%q, %d) = %q, want %q", tt.s, tt.max, got, tt.want)
		}
	}
}

// TestRankShares: values become their mid-rank share in (0,1), equal values
// share one, and one outlier does not bunch the rest.
func TestRankShares(t *testing.T) {
	v := []float64{3, 100, 1, 2, 2}
	rankShares(v)
	want := []float64{0.7, 0.9, 0.1, 0.4, 0.4}
	for k := range v {
		if d := v[k] - want[k]; d > 1e-9 || d < -1e-9 {
			t.Fatalf("rankShares = %v, want %v", v, want)
		}
	}
	one := []float64{5}
	if rankShares(one); one[0] != 0.5 {
		t.Errorf("rankShares of one value = %v, want 0.5", one[0])
	}
}

// TestKeyPointsDistinct: key points never repeat one another, the summary or
// an evidence snippet, and are complete sentences.
func TestKeyPointsDistinct(t *testing.T) {
	text := strings.Join([]string{
		"The river flooded the lower town after three days of heavy rain.",
		"Emergency crews moved two hundred families to the school on the hill.",
		"The mayor said the water treatment plant would stay closed for a week.",
		"Space Vizzion Concept.",
		"Farmers upstream lost most of the wheat they had planted in spring.",
		"The mayor said the water treatment plant would stay closed for a week.",
		"however the bridge on the north road reopened on Friday morning.",
		"Insurance claims are expected to reach record levels this year.",
		"Farmers upstream lost most of the wheat they had planted in the spring.",
	}, "\n")
	p, _, err := Build(text, "water treatment plant", Options{MaxEvidence: 1, SnippetMaxChars: 80, SummaryMaxChars: 70})
	if err != nil {
		t.Fatal(err)
	}
	words := newWordIDs()
	said := [][]int32{words.contentTerms(p.Summary)}
	for _, e := range p.EvidenceSnippets {
		said = append(said, words.contentTerms(e.Text))
	}
	if len(p.KeyPoints) < 2 {
		t.Fatalf("want several key points, got %q", p.KeyPoints)
	}
	for _, k := range p.KeyPoints {
		if words.repeats(words.contentTerms(k), said) {
			t.Errorf("key point %q repeats the summary, a snippet or another key point (%q)", k, p.KeyPoints)
		}
		if k == "Space Vizzion Concept." || strings.HasPrefix(k, "however") {
			t.Errorf("fragment %q chosen as a key point", k)
		}
		said = append(said, words.contentTerms(k))
	}
}

func TestAnaphoric(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"However, the effect was small.", true},
		{"Similarly, if you run the tool twice it fails.", true},
		{"These results suggest a link.", true},
		{"This is why it failed.", true},
		{"This paper presents a new method.", false},
		{"In this paper we present a method.", false},
		{"In this case the model fails.", true},
		{"In addition, costs rose.", true},
		{"In addition to costs, delays grew.", false},
		{"As a result, prices fell.", true},
		{"As a rule, prices fall in winter.", false},
		{"On the other hand, demand grew.", true},
		{"The agency reported a loss.", false},
		{"Here we show a new result.", false},
		{"As previously discussed, the act changed.", true},
		{"As a rule, costs fall.", false},
		// A quotation opens with its quotation mark.
		{"“However, the threat could grow.”", true},
		{"\"It works,\" she said.", true},
		{"“The agency reported a loss.”", false},
	}
	for _, tt := range tests {
		// A quotation's pronoun is as free as a bare one, and its
		// connective as bound.
		if got, bare := connective(tt.s), connective(strings.Trim(tt.s, "“”\"")); got != bare {
			t.Errorf("connective(%q) = %v, but %v without the quotation marks", tt.s, got, bare)
		}
		if got := anaphoric(tt.s); got != tt.want {
			t.Errorf("anaphoric(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

// TestKeyPointsSpread: key points come from all over the text, not only
// from the part that scores best.
func TestKeyPointsSpread(t *testing.T) {
	places := strings.Fields("river bridge school market harbour airport library stadium hospital museum " +
		"station garden prison factory castle chapel bakery theatre quarry lighthouse")
	groups := strings.Fields("smokers athletes nurses mothers farmers children travellers teachers patients veterans " +
		"miners sailors drivers students bakers pilots singers welders clerks divers")
	levels := strings.Fields("lower stable doubled rising fading robust uneven peak modest durable " +
		"weak strong brief lasting mixed steady falling high low variable")
	var lines []string
	for i := 0; i < 20; i++ {
		lines = append(lines, "The vaccine trial near the "+places[i]+" found "+groups[i]+" with "+levels[i]+" antibody levels.")
	}
	for i := 0; i < 80; i++ {
		lines = append(lines, "Officials described the "+places[i%20]+" project for "+groups[(i*7)%20]+" in a "+levels[(i*3)%20]+" budget note.")
	}
	text := strings.Join(lines, "\n")
	p, _, err := Build(text, "vaccine trial antibody", Options{MaxEvidence: 1, SummaryMaxChars: 100})
	if err != nil {
		t.Fatal(err)
	}
	early := 0
	for _, k := range p.KeyPoints {
		if i := strings.Index(text, k); i < len(text)/5 {
			early++
		}
	}
	if len(p.KeyPoints) < 8 || early > 3 {
		t.Errorf("%d of %d key points in the first fifth: %q", early, len(p.KeyPoints), p.KeyPoints)
	}
}

// TestFallbackKeyPointIsASentence: when the summary and the snippets
// hold every sentence that qualifies, the text gets no key point rather
// than a byline scrap or a repeat.
func TestFallbackKeyPointIsASentence(t *testing.T) {
	text := "By . Ann Roe . PUBLISHED: . 10:42 EST, 2 June 2013 . | . " +
		"A fire destroyed a row of shops in the town centre on Saturday night, police said. " +
		"No one was injured in the blaze."
	p, _, err := Build(text, "", Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkPayload(t, text, "", Options{}, p)
	for _, k := range p.KeyPoints {
		if !strings.HasSuffix(k, ".") || len(strings.Fields(k)) < minKeyPointWords || strings.Contains(p.Summary, k) {
			t.Errorf("key point %q is not a sentence of its own (summary %q)", k, p.Summary)
		}
	}
}

// TestDigestWithinSource: the evidence snippets come first; the summary
// and key points take only sentences no snippet holds, never repeat one
// another, and together with the snippets never outgrow the text.
func TestDigestWithinSource(t *testing.T) {
	text := strings.Join([]string{
		"How the river flooded",
		"The river flooded the lower town after three days of heavy rain.",
		"Emergency crews moved two hundred families to the school on the hill.",
		"What happens next",
		"The mayor said the water treatment plant would stay closed for a week.",
		"Insurance claims are expected to reach record levels this year.",
	}, "\n")
	for _, opts := range []Options{{}, {MaxEvidence: 1, SnippetMaxChars: 80}, {MaxEvidence: 2, SnippetMaxChars: 140}} {
		p, _, err := Build(text, "water treatment plant", opts)
		if err != nil {
			t.Fatal(err)
		}
		checkPayload(t, text, "water treatment plant", opts, p)
		if p.DigestChars > p.OriginalChars {
			t.Errorf("%+v: digest of %d code points for a text of %d", opts, p.DigestChars, p.OriginalChars)
		}
		var parts []string
		for _, e := range p.EvidenceSnippets {
			parts = append(parts, e.Text)
		}
		for _, k := range append([]string{p.Summary}, p.KeyPoints...) {
			for _, part := range parts {
				if k != "" && (strings.Contains(part, k) || strings.Contains(k, part)) {
					t.Errorf("%+v: %q repeats %q", opts, k, part)
				}
			}
			if k != "" {
				parts = append(parts, k)
			}
		}
		for _, k := range p.KeyPoints {
			if k == "What happens next" || k == "How the river flooded" {
				t.Errorf("%+v: heading %q as a key point", opts, k)
			}
		}
	}
}

// TestSummaryOpensOnItsOwn: a summary never opens with a sentence that
// points back at one it left out, unless the text opens with it.
func TestSummaryOpensOnItsOwn(t *testing.T) {
	body := strings.Repeat("Farmers in the valley planted wheat and barley on the terraces. ", 30)
	tests := []struct {
		name, text, wantPrefix string
	}{
		{"pronoun after a left-out sentence", "Release 5.2 on 5.11.2019, 10:00 UTC.\nIt is the first release that reads the new format. " + body, "Farmers"},
		{"German connective", "Stand: 4. 2. 2022.\nDamit profitieren die Kunden von einer neuen Schnittstelle. " + body, "Farmers"},
		{"the text opens with it", "It rained for three days in the valley before the river rose. " + body, "It rained"},
	}
	for _, tt := range tests {
		p, _, err := Build(tt.text, "", Options{MaxEvidence: 1, SnippetMaxChars: 50, SummaryMaxChars: 300, MaxKeyPoints: NoKeyPoints})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.HasPrefix(p.Summary, tt.wantPrefix) {
			t.Errorf("%s: summary %q", tt.name, p.Summary)
		}
	}
}

// TestRepeatedLinesStayOut: a short line a page shows more than once (a
// button, a notice) is neither summary nor key point, even with a stop.
func TestRepeatedLinesStayOut(t *testing.T) {
	notice := "You added an item to your cart."
	body := strings.Repeat("The blend is roasted slowly in small batches to keep its sweet aroma. ", 30)
	text := notice + "\n" + body + "\n" + notice + "\nEach batch is tasted by two roasters before it is packed and shipped."
	p, _, err := Build(text, "", Options{MaxEvidence: 1, SnippetMaxChars: 50})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(p.Summary, notice) || slices.Contains(p.KeyPoints, notice) {
		t.Errorf("repeated notice in summary %q or key points %q", p.Summary, p.KeyPoints)
	}
}

// TestKeyPointsAreStatements: a question (an FAQ's heading) is no key
// point, and a credit or byline set as a field and names ("Photo by: Ann
// Roe.") enters neither the summary nor the key points.
func TestKeyPointsAreStatements(t *testing.T) {
	tests := []struct {
		sentence        string
		summary, keyPnt bool
	}{
		{"Can I import my data from other accounting apps?", true, false},
		{"Photo by: 'Ann Roe'.", false, false},
		{"Autor: Max Muster.", false, false},
		{"Von Deutscher Tennis Bund 4. 2. 2022.", false, false},
		{"Our servers are protected physically and electronically.", true, true},
		{"Note: The servers are protected physically and electronically.", true, true},
	}
	for _, tt := range tests {
		d := analyze("A first line of the page.\n" + tt.sentence)
		s := &d.sents[len(d.sents)-1]
		sum := summaryWorthy(d, s, true)
		kp := sum && keyPointWorthy(d, s)
		if sum != tt.summary || kp != tt.keyPnt {
			t.Errorf("%q: summary %v, key point %v; want %v, %v", tt.sentence, sum, kp, tt.summary, tt.keyPnt)
		}
	}
}

// TestKeyPointRepeatsNoSummaryLine: a summary sentence that runs over the
// lines of a list shows each line, so a key point holding one of those
// lines repeats the summary and is left out.
func TestKeyPointRepeatsNoSummaryLine(t *testing.T) {
	var b strings.Builder
	b.WriteString("Snacks for Monday: 2 satsumas or easy peelers\n1 apple\na small handful of unsalted peanuts\n1 pot of plain yogurt.\n")
	for i, food := range []string{"lentil soup", "jacket potato", "bean chilli", "vegetable curry", "fish pie", "chicken traybake", "mushroom frittata", "barley risotto"} {
		fmt.Fprintf(&b, "Dinner on day %d is %s with peas, a portion of peanuts on the side and fruit for dessert.\n", i+1, food)
	}
	b.WriteString("Snacks for Friday: 1 carrot cut into sticks\na small handful of unsalted peanuts\n2 satsumas.\n")
	text := b.String()
	d := analyze(text)
	// The Monday list scores best and makes the summary; the Friday
	// list, which holds one of its lines, scores next.
	scores := make([]float64, len(d.sents))
	for i := range d.sents {
		switch {
		case strings.Contains(d.text[d.sents[i].start:d.sents[i].end], "Monday"):
			scores[i] = 3
		case strings.Contains(d.text[d.sents[i].start:d.sents[i].end], "Friday"):
			scores[i] = 2
		default:
			scores[i] = 1
		}
	}
	opts := Options{SummaryMaxChars: 130, MaxKeyPoints: 3}.WithDefaults()
	sum := summarize(d, scores, opts)
	summary, kps := sum.text, keyPoints(d, scores, opts, sum, nil, len(text))
	if !strings.Contains(summary, "Monday") {
		t.Fatalf("summary %q, want the Monday list", summary)
	}
	p := &Payload{Summary: summary, KeyPoints: kps}
	lines := map[string]bool{}
	for _, s := range sentences.Strings(p.Summary) {
		for _, l := range strings.Split(s, "\n") {
			lines[strings.TrimSpace(l)] = true
		}
	}
	for _, k := range p.KeyPoints {
		for _, l := range strings.Split(k, "\n") {
			if len(strings.Fields(l)) >= 4 && lines[strings.TrimSpace(l)] {
				t.Errorf("key point %q repeats the summary's line %q (summary %q)", k, l, p.Summary)
			}
		}
	}
}
