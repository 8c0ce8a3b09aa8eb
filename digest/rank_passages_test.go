package digest

import (
	"math"
	"slices"
	"strings"
	"testing"
)

// termNames returns the stems of ids, for readable failures.
func termNames(d *document, ids []int32) []string {
	inv := make(map[int32]string, len(d.vocab))
	for k, v := range d.vocab {
		inv[v] = k
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = inv[id]
	}
	return out
}

func TestAbbreviations(t *testing.T) {
	tests := []struct {
		name, text string
		want       map[string][]string // short form stem → long form stems
	}{
		{"initials", "Mother-to-child transmission (MTCT) is common. MTCT is studied.",
			map[string][]string{"mtct": {"mother", "child", "transmiss"}}},
		{"plural short form", "Respiratory tract infections (RTIs) are frequent.",
			map[string][]string{"rti": {"respiratori", "tract", "infect"}}},
		{"inner letters", "The bovine coronavirus (BCoV) genome.",
			map[string][]string{"bcov": {"bovin", "coronaviru"}}},
		{"a name in parentheses is not a short form", "Cells were lysed (Promega) and spun.", map[string][]string{}},
		{"letters that do not match", "The sample was frozen (PCR) overnight.", map[string][]string{}},
		{"lower case only", "The value (abc) was kept.", map[string][]string{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := analyze(tt.text)
			got := map[string][]string{}
			for _, a := range abbreviations(d) {
				got[termNames(d, []int32{a.short})[0]] = termNames(d, a.long)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
			for k, v := range tt.want {
				if !slices.Equal(got[k], v) {
					t.Errorf("%s: got %v, want %v", k, got[k], v)
				}
			}
		})
	}
}

func TestExpandAbbreviations(t *testing.T) {
	text := "Mother-to-child transmission (MTCT) of the virus is frequent. MTCT rates fell in 2010. Other text follows here."
	d := analyze(text)
	tests := []struct {
		query string
		add   string
	}{
		{"How did mother to child transmission change?", "mtct"},
		{"What is MTCT?", "transmiss"},
	}
	for _, tt := range tests {
		q := newQueryModel(d, d.queryTerms(tt.query))
		before := len(q.terms)
		q.expandAbbreviations(d)
		if !slices.Contains(termNames(d, q.terms[before:]), tt.add) {
			t.Errorf("%q: added %v, want %s among them", tt.query, termNames(d, q.terms[before:]), tt.add)
		}
		if len(q.terms) != len(q.weight) {
			t.Errorf("%q: %d terms, %d weights", tt.query, len(q.terms), len(q.weight))
		}
	}
}

func TestDefinitions(t *testing.T) {
	tests := []struct {
		question string
		isDef    bool
		sentence string
		defines  bool
	}{
		{"What is hepcidin?", true, "Hepcidin is a peptide hormone.", true},
		{"What are interferons?", true, "Interferons, a family of cytokines, act early.", true},
		{"What is IFITM5?", true, "IFITM5 (also BRIL) is a protein.", true},
		{"What is hepcidin?", true, "Levels of hepcidin rose.", false},
		{"How does hepcidin act?", false, "Hepcidin is a peptide hormone.", true},
		{"What type of virus is 2019-nCoV?", true, "The novel coronavirus (2019-nCoV), a betacoronavirus, spread.", true},
		{"What kind of protein is IFITM5?", true, "Levels of IFITM5 rose.", false},
	}
	for _, tt := range tests {
		if got := definitionQuestion(tt.question); got != tt.isDef {
			t.Errorf("definitionQuestion(%q) = %v", tt.question, got)
		}
		d := analyze(tt.sentence)
		q := newQueryModel(d, d.queryTerms(tt.question))
		slot := make([]int32, len(d.df))
		for i := range slot {
			slot[i] = -1
		}
		for k, id := range q.terms {
			slot[id] = int32(k)
		}
		if got := defines(d, &d.sents[0], slot); got != tt.defines {
			t.Errorf("defines(%q, %q) = %v", tt.sentence, tt.question, got)
		}
	}
}

func TestProximityPrefersCloseTerms(t *testing.T) {
	text := "Measles vaccine coverage was high. Measles cases were reported in towns far from any vaccine depot."
	d := analyze(text)
	q := newQueryModel(d, d.queryTerms("measles vaccine"))
	s := evidenceScores(d, q, "measles vaccine")
	if !(s[0] > s[1]) {
		t.Errorf("adjacent terms score %.3f, distant terms %.3f", s[0], s[1])
	}
}

// TestPickWindows checks that windows are chosen best first, that no two
// chosen windows overlap, that a window repeating a shown sentence is cut
// before it or left out when it opens with it, and that single sentences
// fill gaps only when no whole window fits.
func TestPickWindows(t *testing.T) {
	text := "Alpha beta gamma. Delta epsilon zeta. Eta theta iota. Kappa lambda mu.\nAlpha beta gamma. Nu xi omicron."
	d := analyze(text)
	if len(d.sents) != 6 {
		t.Fatalf("%d sentences, want 6", len(d.sents))
	}
	// span is a candidate over sentences [first, last].
	type span struct {
		first, last int
		score       float64
	}
	mk := func(spans ...span) []candidate {
		var cands []candidate
		for _, c := range spans {
			a, b := d.sents[c.first], d.sents[c.last]
			w := window{bstart: a.start, bend: b.end, cstart: a.cstart, cend: b.cend, page: 1}
			cands = append(cands, candidate{w: w, first: c.first, last: c.last, score: c.score, rank: c.score})
		}
		return cands
	}
	firsts := func(got []candidate) []int {
		var f []int
		for _, c := range got {
			f = append(f, c.first, c.last)
		}
		return f
	}
	tests := []struct {
		name  string
		cands []candidate
		want  []int // first and last sentence of each chosen window
	}{
		{"best first", mk(span{0, 0, 10}, span{2, 2, 2.5}, span{1, 1, 2}), []int{0, 0, 2, 2, 1, 1}},
		{"no overlap", mk(span{0, 1, 10}, span{1, 2, 9}, span{2, 3, 1}), []int{0, 1, 2, 3}},
		{"repeat cut", mk(span{0, 0, 10}, span{3, 5, 9}), []int{0, 0, 3, 3}},
		{"repeat left out", mk(span{0, 0, 10}, span{4, 5, 9}, span{2, 2, 1}), []int{0, 0, 2, 2}},
	}
	// A single sentence fills the gap no whole window fits in.
	fill := mk(span{0, 1, 10}, span{1, 2, 9}, span{2, 2, 20})
	fill[2].fill = true
	tests = append(tests, struct {
		name  string
		cands []candidate
		want  []int
	}{"fill", fill, []int{0, 1, 2, 2}})
	for _, tt := range tests {
		if got := firsts(pickWindows(d, tt.cands, 3, nil)); !slices.Equal(got, tt.want) {
			t.Errorf("%s: picked %v, want %v", tt.name, got, tt.want)
		}
	}
}

func TestExpandPrefixes(t *testing.T) {
	text := "Transmission of the virus is airborne. The virus transmits by droplets. Diagnosis is by PCR; cases were diagnosed early."
	d := analyze(text)
	tests := []struct {
		query string
		add   string
	}{
		{"How is the virus transmitted?", "transmiss"},
		{"How was the diagnosis made?", "diagnos"},
	}
	for _, tt := range tests {
		q := newQueryModel(d, d.queryTerms(tt.query))
		before := len(q.terms)
		q.expandPrefixes(d)
		added := termNames(d, q.terms[before:])
		if !slices.Contains(added, tt.add) {
			t.Errorf("%q: added %v, want %s among them", tt.query, added, tt.add)
		}
		if slices.Contains(added, "viru") {
			t.Errorf("%q: added a stem already asked: %v", tt.query, added)
		}
	}
}

// TestLongSentenceTail checks that the end of a sentence longer than a
// window can be shown whole: windows also start at its clause boundaries.
func TestLongSentenceTail(t *testing.T) {
	var b strings.Builder
	b.WriteString("The cohort study of influenza in adults")
	for i := 0; i < 40; i++ {
		b.WriteString(", with follow up of the patients")
	}
	b.WriteString(", and the vaccine efficacy against influenza was 62 percent in adults.")
	text := b.String()
	p, _, err := Build(text, "What was the vaccine efficacy against influenza?", Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkPayload(t, text, "What was the vaccine efficacy against influenza?", Options{}, p)
	for _, s := range p.EvidenceSnippets {
		if strings.Contains(s.Text, "62 percent in adults.") {
			return
		}
	}
	t.Errorf("no snippet holds the end of the long sentence")
}

// TestInsideLongSentence: a text without sentence punctuation (a table
// flattened into one line, a list with separators) is windowed inside its
// one long sentence, so that an answer deep inside it is the first snippet.
func TestInsideLongSentence(t *testing.T) {
	words := []string{"alpha", "harbour", "ledger", "meadow", "copper", "signal", "orchard", "lantern", "granite", "willow"}
	for _, sep := range []string{" | ", " ", " - "} {
		runs := make([]string, 400)
		for i := range runs {
			var run []string
			for k := range 8 {
				run = append(run, words[(i*7+k*3)%len(words)])
			}
			runs[i] = strings.Join(run, " ")
		}
		runs[300] = "the bridge over the Kessel river was designed by Hanna Lindqvist in 1931"
		text := strings.Join(runs, sep)
		const q = "Who designed the bridge over the Kessel river?"
		p, _, err := Build(text, q, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkPayload(t, text, q, Options{}, p)
		if len(p.EvidenceSnippets) == 0 || !strings.Contains(p.EvidenceSnippets[0].Text, runs[300]) {
			first := ""
			if len(p.EvidenceSnippets) > 0 {
				first = p.EvidenceSnippets[0].Text
			}
			t.Errorf("separator %q: the answer is not in the first snippet %q", sep, first)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b  string
		limit int
		want  int
	}{
		{"carageenan", "carrageenan", 2, 1},
		{"zanamavir", "zanamivir", 2, 1},
		{"infleunza", "influenza", 2, 1}, // transposed neighbours
		{"immunoglobin", "immunoglobulin", 2, 2},
		{"virus", "virus", 1, 0},
		{"vector", "victory", 1, 2}, // over the limit reads limit+1
		{"ab", "abcdef", 2, 3},
	}
	var scratch [3][]int
	for _, tt := range tests {
		if got := editDistance([]rune(tt.a), []rune(tt.b), tt.limit, &scratch); got != tt.want {
			t.Errorf("editDistance(%q, %q, %d) = %d, want %d", tt.a, tt.b, tt.limit, got, tt.want)
		}
	}
}

func TestExpandSpelling(t *testing.T) {
	text := "Carrageenan is a sulfated polymer from red seaweed. Zanamivir inhibits neuraminidase. " +
		"The binding assay used cells. Funding came from a grant."
	d := analyze(text)
	tests := []struct {
		query string
		want  []string // stems added beyond the query's own terms
	}{
		{"What is carageenan?", []string{"carrageenan"}},
		{"Does zanamavir work with carageenan?", []string{"zanamivir", "carrageenan"}},
		{"What is carrageenan?", nil},             // spelled as in the text
		{"What was the winding?", nil},            // a different first letter is another word
		{"What about 19118 cases?", nil},          // numbers are never respelled
		{"What is a polimer?", []string{"polym"}}, // five letters or more
	}
	for _, tt := range tests {
		t.Run(tt.query, func(t *testing.T) {
			q := newQueryModel(d, d.queryTerms(tt.query))
			asked := len(q.terms)
			q.expandSpelling(d, tt.query)
			got := termNames(d, q.terms[asked:])
			if len(got) != len(tt.want) || (len(got) > 0 && !slices.Equal(got, tt.want)) {
				t.Fatalf("added %v, want %v", got, tt.want)
			}
			for _, w := range q.weight[asked:] {
				if w <= 0 {
					t.Errorf("added weight %v, want > 0", w)
				}
			}
		})
	}
}

// TestNoLeadPrior: where a match stands in the text does not rank it; of
// two equal matches, the earlier comes first only as the tie-break.
func TestNoLeadPrior(t *testing.T) {
	filler := strings.Repeat("Unrelated words about weather and travel fill this part of the text. ", 40)
	text := "Measles vaccine discussed. " + filler +
		"The measles vaccine schedule gives two measles vaccine doses to every child at one and four years. " + filler +
		"The measles vaccine was approved."
	p, _, err := Build(text, "measles vaccine schedule doses", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.EvidenceSnippets) < 3 {
		t.Fatalf("got %d snippets, want at least 3", len(p.EvidenceSnippets))
	}
	if !strings.Contains(p.EvidenceSnippets[0].Text, "schedule") {
		t.Errorf("first snippet %q, want the best match, in the middle of the text", p.EvidenceSnippets[0].Text)
	}
}

// TestCutWindowKeepsHead checks that a window running into a better one
// already chosen is cut to its sentences before it, not dropped: the
// sentence that answers the question opens a window that overlaps the best
// one, and still beats a weaker match elsewhere.
func TestCutWindowKeepsHead(t *testing.T) {
	text := "The vaccine was first given in Lima in 2010. " +
		"The vaccine trial tested the vaccine in many volunteers and the vaccine was safe. " +
		"Later, other work followed on unrelated topics. " +
		"Tested methods were reviewed at a meeting elsewhere."
	p, _, err := Build(text, "Where was the vaccine tested?", Options{MaxEvidence: 2, SnippetMaxChars: 130})
	if err != nil {
		t.Fatal(err)
	}
	var texts []string
	for _, s := range p.EvidenceSnippets {
		texts = append(texts, s.Text)
	}
	want := []string{
		"The vaccine trial tested the vaccine in many volunteers and the vaccine was safe. Later, other work followed on unrelated topics.",
		"The vaccine was first given in Lima in 2010.",
	}
	if !slices.Equal(texts, want) {
		t.Errorf("snippets %q, want %q", texts, want)
	}
}

// TestHeadings finds the section heading each sentence sits under: a
// block of one short sentence without final punctuation, not a short
// sentence of running text or a line that ends in a colon.
func TestHeadings(t *testing.T) {
	d := analyze("Intro text here. More intro.\nDatasets\nWe use two corpora. Both are public.\nSee the list:\nResults and discussion\nIt works.")
	got := headings(d)
	// Sentences: 0 "Intro text here." 1 "More intro." 2 "Datasets" 3 "We
	// use…" 4 "Both…" 5 "See the list:" 6 "Results and discussion" 7 "It
	// works."
	want := []int{-1, -1, 2, 2, 2, 2, 6, 6}
	if !slices.Equal(got, want) {
		t.Errorf("headings %v, want %v", got, want)
	}
}

// TestHeadingRanksItsSection: of two passages that hold a question's
// words equally, the one under the heading that names what the question
// asks ranks first.
func TestHeadingRanksItsSection(t *testing.T) {
	text := "Introduction\nWe trained the model on news text and report results below.\nExperiments\nWe trained the model on news text for ten epochs.\nDatasets\nWe trained the model on news text from two corpora, Gigaword and CNN."
	p, _, err := Build(text, "Which datasets were the model trained on?", Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.EvidenceSnippets) == 0 || !strings.Contains(p.EvidenceSnippets[0].Text, "Gigaword") {
		t.Errorf("first snippet %+v, want the passage under Datasets", p.EvidenceSnippets)
	}
}

// TestFramingWordsWeighLess: a question's framing words ("paper",
// "propose") weigh less than its subject for evidence, and the summary's
// query weights are plain idf.
func TestFramingWordsWeighLess(t *testing.T) {
	d := analyze("The paper proposes a parser. Treebanks are scarce. The paper is short. A parser reads treebanks.")
	q := newQueryModel(d, d.queryTerms("What treebanks does the paper propose?"))
	e := q.forEvidence(d)
	w := map[string]float64{}
	for k, id := range e.terms {
		w[d.stems[id]] = e.weight[k]
		if math.Abs(q.weight[k]-idf(int(d.df[id]), len(d.sents))) > 1e-12 {
			t.Errorf("%s: plain weight %v, want its idf", d.stems[id], q.weight[k])
		}
	}
	if !(w["paper"] > 0 && w["paper"] < w["treebank"]/2) {
		t.Errorf("evidence weights %v: want paper well under treebank", w)
	}
}
