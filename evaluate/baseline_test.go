package evaluate

import (
	"slices"
	"strings"
	"testing"
)

// The baselines read every script: a Russian, Greek or Arabic word is a
// term (a Greek letter alone is spelled, as the digester reads it), an
// ideograph is one, Thai is read by overlapping pairs of its clusters
// (digest.UnspacedTerms), and English keeps its
// stemming and stop words.
func TestBM25TokensEveryScript(t *testing.T) {
	for _, c := range []struct {
		text string
		want []string
	}{
		{"The bridges were designed", []string{"bridg", "design"}},
		{"Книги стояли на полке.", []string{"книги", "стояли", "на", "полке"}},
		{"Η γέφυρα σχεδιάστηκε", []string{"eta", "γέφυρα", "σχεδιάστηκε"}},
		{"صمم الجسر", []string{"صمم", "الجسر"}},
		{"東京の橋", []string{"東", "京", "の", "橋"}},
		{"สะพาน", []string{"สะ", "ะพ", "พา", "าน"}},
		{"Café crème", []string{"café", "crème"}},
	} {
		if got := bm25Tokens(c.text); !slices.Equal(got, c.want) {
			t.Errorf("bm25Tokens(%q) = %q, want %q", c.text, got, c.want)
		}
	}
}

// A window baseline finds the answer to a question asked in a script
// the old tokenizer dropped.
func TestBM25WindowsNonLatin(t *testing.T) {
	text := "Город стоит на реке. В городе есть музей. Летом здесь тепло. Зимой идёт снег. Вокзал открыли давно. " +
		"Мост через реку построили в 1931 году. Рядом находится парк."
	got := BM25Windows(text, "Когда построили мост?", 0)
	if len(got) == 0 || !strings.Contains(got[0], "1931") {
		t.Errorf("BM25Windows = %q, want the bridge's sentence first", got)
	}
}

// A question names its category in straight or curly quotes; a passage
// hits a category when it holds a run of any of its gold passages.
func TestQuestionCategory(t *testing.T) {
	for q, want := range map[string]string{
		`Highlight the parts (if any) of this contract related to "Governing Law" that should be reviewed by a lawyer.`: "governing law",
		"Which clause covers “Non-Compete” terms?":                                                                      "non-compete",
		"Who designed the bridge?": "",
		`An unclosed "quote`:       "",
	} {
		if got := questionCategory(q); got != want {
			t.Errorf("questionCategory(%q) = %q, want %q", q, got, want)
		}
	}
	cases := []EvidenceCase{
		{Question: `related to "Governing Law"`, Evidence: []string{"This Agreement shall be governed by the laws of the State of New York, without regard to its conflict of laws rules."}},
		{Question: `related to "Governing Law"`, Evidence: []string{"The laws of England and Wales govern this Agreement and any dispute arising out of it."}},
		{Question: `related to "Notice"`, Evidence: []string{"Notices shall be in writing and delivered by hand or by registered mail to the addresses above."}},
	}
	of, runs := categories(cases)
	if len(of) != 3 || of[0] != "governing law" || len(runs) != 2 {
		t.Fatalf("categories = %q, %d pools", of, len(runs))
	}
	snippets := []string{
		"Notices shall be in writing and delivered by hand or by registered mail to the addresses above.",
		"Section 9.  The laws of England and Wales govern this Agreement and any dispute arising out of it.",
	}
	if got := runs["governing law"].rank(snippets); got != 2 {
		t.Errorf("governing law ranks %d, want 2 (another contract's clause of the category)", got)
	}
	if got := runs["notice"].rank(snippets[1:]); got != 0 {
		t.Errorf("notice ranks %d in a snippet of another category, want 0", got)
	}
	if of, _ := categories(append(cases, EvidenceCase{Question: "no category"})); of != nil {
		t.Error("a set with a question naming no category is taken as one of categories")
	}
}

// The one-line view joins every line of a text with one space.
func TestOneLine(t *testing.T) {
	got := OneLine("Title\n\nFirst paragraph, line one\nline two.\f  Page two.  \n\n")
	if want := "Title First paragraph, line one line two. Page two."; got != want {
		t.Errorf("OneLine = %q, want %q", got, want)
	}
}
