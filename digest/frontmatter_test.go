package digest

import (
	"strings"
	"testing"
)

func TestBoilerplateShapes(t *testing.T) {
	residue := func(s string) bool {
		d := analyze(s)
		return len(d.sents) == 1 && numericResidue(d, &d.sents[0])
	}
	tests := []struct {
		name string
		f    func(string) bool
		s    string
		want bool
	}{
		{"author list", nameList, "Authors: Roe, Ann; Poe, Bo K.; van Dijk, Jan; Li, Wei-Ming", true},
		{"affiliations", nameList, "Department of Biology, University of Lyon, Lyon, France", true},
		{"a sentence with commas", nameList, "France, Germany, Italy, and Spain reported new cases in May.", false},
		{"a short list in prose", nameList, "We thank Ann, Bo and Wei for their help.", false},
		{"dot leader", tocLine, "2.1 Methods ........................ 12", true},
		{"prose", tocLine, "The method is simple. It works.", false},
		{"figure caption", caption, "Figure 3: Mean cost per year.", true},
		{"short caption", caption, "Fig. 2. Flow of patients.", true},
		{"table caption", caption, "Table S1 – Primers used.", true},
		{"table in prose", caption, "Table 1 shows that costs rose.", false},
		{"breadcrumbs", navigation, "Home › News › Health › Vaccines", true},
		{"one bar", navigation, "Costs | Benefits", false},
		{"time stamp", residue, "09:33 est , 1 may 2013 .", true},
		{"a sentence with numbers", residue, "In 2013 the program served 4,000 families in 12 states.", false},
	}
	for _, tt := range tests {
		if got := tt.f(tt.s); got != tt.want {
			t.Errorf("%s: %q = %v, want %v", tt.name, tt.s, got, tt.want)
		}
	}
	if legalMarks("Copyright © 2020 Acme Inc. All rights reserved.") < 2 {
		t.Errorf("a copyright notice has fewer than two legal marks")
	}
	if legalMarks("The agency reviewed the grant applications.") != 0 {
		t.Errorf("prose has legal marks")
	}
}

func TestLabelLines(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1 INTRODUCTION\nthe model learns.", "the model learns."},
		{"N N∑ i=1 Li(w), (1)\nwhere L is a loss.", "where L is a loss."},
		{"The committee met on\nTuesday to vote.", "The committee met on\nTuesday to vote."},
		{"No break here.", "No break here."},
	}
	for _, tt := range tests {
		if got := labelLines(tt.in); got != tt.want {
			t.Errorf("labelLines(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// TestSummaryOpening: front matter and boilerplate never lead a summary;
// a document's abstract does, and a news lead does.
func TestSummaryOpening(t *testing.T) {
	body := strings.Repeat("The survey covered farms in four regions over two years. Yields varied with rainfall and soil. ", 8)
	paper := strings.Join([]string{
		"Rainfall and Wheat Yields in Dry Regions: A Field Survey",
		"Authors: Roe, Ann; Poe, Bo K.; van Dijk, Jan; Li, Wei-Ming",
		"Department of Agronomy, University of Lyon, Lyon, France",
		"Copyright © 2021 The Authors. All rights reserved.",
		"Permission is granted to make verbatim copies of this document for personal use.",
		"Contact the authors at ann.roe@example.org for the data.",
		"Abstract",
		"Wheat yields in dry regions fall by a third when spring rainfall fails. We surveyed 400 farms to measure the loss.",
		"1 Introduction",
		body,
		"Figure 1: Yields by region and year.",
		"References",
		"Roe, A. (2019). Dry farming. Journal of Fields, 12, 1-9.",
	}, "\n")
	p, _, err := Build(paper, "", Options{SummaryMaxChars: 200, MaxKeyPoints: NoKeyPoints})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Summary, "Wheat yields in dry regions fall") {
		t.Errorf("paper summary does not open with the abstract: %q", p.Summary)
	}
	for _, bad := range []string{"Authors", "Copyright", "Permission", "Contact", "Figure 1", "Journal of Fields", "University"} {
		if strings.Contains(p.Summary, bad) || strings.Contains(strings.Join(p.KeyPoints, " "), bad) {
			t.Errorf("boilerplate %q in summary %q or key points %q", bad, p.Summary, p.KeyPoints)
		}
	}

	news := strings.Join([]string{
		"Storm Closes Coastal Roads",
		"A winter storm closed every coastal road in the county on Monday, officials said.",
		"More than 2,000 homes lost power as winds reached 90 kilometres an hour.",
		"Crews expect to restore power by Wednesday, the utility said.",
		"Schools will stay closed until the roads reopen.",
		"However, the airport kept running on its own generators.",
		"Residents were asked to stay indoors.",
	}, "\n")
	p, _, err = Build(news, "", Options{SummaryMaxChars: 160, MaxEvidence: 1, SnippetMaxChars: 50, MaxKeyPoints: NoKeyPoints})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(p.Summary, "A winter storm closed every coastal road") {
		t.Errorf("news summary does not open with the lead: %q", p.Summary)
	}
}

// TestSummaryAnaphora: a sentence that points back enters the summary only
// with the sentence before it.
func TestSummaryAnaphora(t *testing.T) {
	text := "Budget talks stalled in March over road funding. " +
		"Similarly, the rail plan lost its funding for the coming year despite strong support for rail funding. " +
		"Rail funding and road funding remain open questions for the rail board. " +
		strings.Repeat("Members met weekly to review the plan. ", 30)
	for _, max := range []int{60, 160, 400} {
		p, _, err := Build(text, "rail funding", Options{SummaryMaxChars: max})
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(p.Summary, "Similarly") && !strings.Contains(p.Summary, "Budget talks stalled") {
			t.Errorf("max %d: anaphoric sentence without its antecedent: %q", max, p.Summary)
		}
	}
}
