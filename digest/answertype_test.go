package digest

import (
	"strings"
	"testing"
)

func TestQuestionType(t *testing.T) {
	tests := []struct {
		question string
		want     answerType
	}{
		{"How many children were infected?", typeNumber},
		{"As of 21 February, how many cases were reported?", typeNumber},
		{"What is the size of the genome?", typeNumber},
		{"What was the case fatality rate?", typeNumber},
		{"What percentage of patients tested positive?", typePercent},
		{"What proportion reported distress?", typePercent},
		{"When was the virus first identified?", typeDate},
		{"In what year did the epidemic occur?", typeDate},
		{"How long did it take to build the hospital?", typeDuration},
		{"How many days is the incubation period?", typeDuration},
		{"What is the mean incubation period of the virus?", typeDuration},
		{"What is the serum half-life of T20?", typeDuration},
		// Other forms, and other languages, have no type.
		{"What is an incubation period?", typeNone},
		{"What is the main cause of infection?", typeNone},
		{"Why is the rate rising?", typeNone},
		{"Is the drug effective when taken early?", typeNone},
		{"Combien de cas ont été signalés ?", typeNone},
		{"Wie viele Fälle wurden gemeldet?", typeNone},
		{"", typeNone},
	}
	for _, tt := range tests {
		if got := questionType(tt.question); got != tt.want {
			t.Errorf("questionType(%q) = %d, want %d", tt.question, got, tt.want)
		}
	}
}

func TestTypedTokens(t *testing.T) {
	tests := []struct {
		sentence string
		t        answerType
		want     []string // the tokens found, by the text before their ends
	}{
		{"The incubation period was 5 days [12], or a 14-day window.", typeDuration, []string{"5", "14"}},
		{"SARS-CoV-2 infected 47 people (Figure 3) [4, 5].", typeNumber, []string{"47"}},
		{"Two surface proteins, and 2019 was the year.", typeNumber, []string{"Two"}},
		{"Of the 200 patients, 34% and 12 percent recovered.", typePercent, []string{"34", "12"}},
		{"It was found in 2012 (Smith et al., 2004) and on 31 December.", typeDate, []string{"2012", "31"}},
		{"Le virus a été isolé en mars.", typeDate, nil},
	}
	for _, tt := range tests {
		_, ends := typedEnds(tt.sentence, tt.t, nil, nil)
		var got []string
		for _, e := range ends {
			i := strings.LastIndexAny(tt.sentence[:e], " -(")
			got = append(got, tt.sentence[i+1:e])
		}
		if strings.Join(got, "|") != strings.Join(tt.want, "|") {
			t.Errorf("typedEnds(%q, %d) = %q, want %q", tt.sentence, tt.t, got, tt.want)
		}
	}
}

// TestAnswerTypeRanksTypedSentence checks that of two windows with the
// same query terms, the one holding a duration next to them comes first
// for a question that asks how long, though the other opens the text; and
// that a question without a type keeps the opening window first.
func TestAnswerTypeRanksTypedSentence(t *testing.T) {
	filler := strings.Repeat("Unrelated words about weather and travel fill this part of the text. ", 12)
	text := "The incubation period of measles varies among children and is studied in many clinics. " + filler +
		"The incubation period of measles is about 12 days in most children. " + filler
	first := func(q string) string {
		p, _, err := Build(text, q, Options{SnippetMaxChars: 120})
		if err != nil {
			t.Fatal(err)
		}
		if len(p.EvidenceSnippets) == 0 {
			t.Fatalf("%q: no evidence", q)
		}
		return p.EvidenceSnippets[0].Text
	}
	if got := first("How long is the incubation period of measles in children?"); !strings.Contains(got, "12 days") {
		t.Errorf("how long: first snippet %q, want the one with the duration", got)
	}
	if got := first("Is the incubation period of measles in children studied?"); strings.Contains(got, "12 days") {
		t.Errorf("untyped: first snippet %q, want the opening one", got)
	}
}
