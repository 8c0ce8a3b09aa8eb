package evaluate

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/digest"
)

// writeSet writes a set of text documents (name → text) with the given
// cases.jsonl lines into a fresh folder.
func writeSet(t *testing.T, docs map[string]string, cases []map[string]any) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "docs"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, text := range docs {
		if err := os.WriteFile(filepath.Join(dir, "docs", name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var b strings.Builder
	for _, c := range cases {
		line, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	if err := os.WriteFile(filepath.Join(dir, "cases.jsonl"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// TestHygieneCounts: each count of the hygiene report sees the fault it
// names, from payloads made to hold exactly one of each.
func TestHygieneCounts(t *testing.T) {
	const menu = "Home\nShop\nSubscribe to our newsletter\n"
	docs := map[string]string{
		"a.txt": menu + "The river flooded the town after three days of rain.\nIt rose by two metres overnight.\nRead more",
		"b.txt": menu + "The council met on Monday to discuss the budget.\nThe plan was approved after a long debate about roads, schools and the harbour.",
		"c.txt": menu + "Wheat yields fell by a third in the dry spring.",
		"d.txt": "",
	}
	// Each document is digested once, however many questions it has.
	cases := []map[string]any{
		{"id": "1", "doc": "docs/a.txt", "question": "how high did the river rise?"},
		{"id": "2", "doc": "docs/a.txt", "question": "when did it flood?"},
		{"id": "3", "doc": "docs/b.txt", "question": "what did the council do?"},
		{"id": "4", "doc": "docs/c.txt", "question": "what happened to wheat?"},
		{"id": "5", "doc": "docs/missing.txt", "question": "anything?"},
	}
	dir := writeSet(t, docs, cases)
	payloads := map[string]*digest.Payload{
		// A key point that is a short block without a stop, a summary
		// opening with a pronoun the text does not open with, and a
		// summary sentence a snippet repeats.
		"a": {Summary: "It rose by two metres overnight.", KeyPoints: []string{"Read more"},
			EvidenceSnippets: []digest.EvidenceSnippet{{Text: "It rose by two metres overnight."}}},
		// Boilerplate found on three documents, and a key point that
		// repeats the summary.
		"b": {Summary: "The council met on Monday to discuss the budget.", KeyPoints: []string{"Subscribe to our newsletter", "The council met on Monday to discuss the budget."}},
		// A digest longer than its source.
		"c": {Summary: "Wheat yields fell by a third in the dry spring.", KeyPoints: []string{"Wheat yields fell by a third in the dry spring, farmers said, and more."}},
	}
	var asked []string
	fn := func(_ context.Context, text, query string) (EvidenceDigest, error) {
		asked = append(asked, query)
		var p *digest.Payload
		for name, d := range docs {
			if d == text && d != "" {
				p = payloads[strings.TrimSuffix(name, ".txt")]
			}
		}
		if p == nil {
			return EvidenceDigest{}, errors.New("no words")
		}
		p.OriginalChars = utf8.RuneCountInString(text)
		p.DigestChars = digest.CountDigestChars(p)
		return EvidenceDigest{Payload: p, Canonical: text}, nil
	}
	rep, err := Hygiene(context.Background(), dir, nil, fn)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Cases != 4 || rep.Errors != 1 || len(asked) != 3 || asked[0] != "how high did the river rise?" {
		t.Errorf("cases %d, errors %d, questions asked %q", rep.Cases, rep.Errors, asked)
	}
	want := map[string]float64{
		"hygiene_documents":            3,
		"hygiene_key_points":           4,
		"hygiene_summary_sentences":    3,
		"key_points_not_sentences":     2, // "Read more" and "Subscribe to our newsletter"
		"boilerplate_lines":            1, // "Subscribe to our newsletter", on three documents
		"dangling_summary_openers":     1,
		"key_points_repeating_summary": 1,
		"repeated_sentences":           1,
		"digests_longer_than_source":   1,
		"empty_summaries":              0,
	}
	for k, v := range want {
		if rep.Metrics[k] != v {
			t.Errorf("%s = %v, want %v", k, rep.Metrics[k], v)
		}
	}
	if got := rep.Metrics["boilerplate_share"]; got != 1.0/7 {
		t.Errorf("boilerplate_share = %v, want 1/7", got)
	}
}

func TestNotASentence(t *testing.T) {
	tests := []struct {
		s    string
		want bool
	}{
		{"What lowers the risk", true},
		{"WebAkte kostenfrei testen", true},
		{"The plan was approved.", false},
		{"Is it safe?", false},
		{"„Wir sind bereit.“", false},
		{"a long line of eight words without any stop", false},
	}
	for _, tt := range tests {
		if got := notASentence(tt.s); got != tt.want {
			t.Errorf("notASentence(%q) = %v, want %v", tt.s, got, tt.want)
		}
	}
}

func TestDanglingOpener(t *testing.T) {
	tests := []struct {
		summary, text string
		want          bool
	}{
		{"It is the first version.", "Version 5 came out. It is the first version.", true},
		{"It is the first version.", "It is the first version. More follows.", false},
		{"This paper presents a method.", "Title\nThis paper presents a method.", false},
		{"Damit profitieren Kunden.", "Neu: eine Schnittstelle. Damit profitieren Kunden.", true},
		{"Es gibt viele Gründe.", "Titel\nEs gibt viele Gründe.", false},
		{"The plan was approved.", "The council met. The plan was approved.", false},
	}
	for _, tt := range tests {
		if got := danglingOpener(tt.summary, tt.text); got != tt.want {
			t.Errorf("danglingOpener(%q) = %v, want %v", tt.summary, got, tt.want)
		}
	}
}

func TestRepeats(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"The plan was approved.", "The plan was approved.", true},
		{"The plan was approved on Monday after a debate.", "The plan was approved on Monday", true},
		{"We do not include or offer third-party products or services on our website.", "We do not", false},
		{"63. Why did the kid bring a ladder?", "3.", false},
		{"The plan was approved.", "", false},
	}
	for _, tt := range tests {
		if got := repeats(tt.a, tt.b); got != tt.want {
			t.Errorf("repeats(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
		if got := repeats(tt.b, tt.a); got != tt.want {
			t.Errorf("repeats(%q, %q) = %v, want %v", tt.b, tt.a, got, tt.want)
		}
	}
}

func TestCopies(t *testing.T) {
	nav := "Home About Contact"
	article := "A long paragraph that carries the article's own statements about one thing."
	other := "Another paragraph with statements about something else entirely, at some length."
	docs := [][]string{
		{nav, article, "Posted in March."},     // 0
		{nav, other},                           // 1: shares only the menu with 0
		{article, nav, "Posted in March."},     // 2: 0 from another producer
		{nav, "A third page's own paragraph."}, // 3
		{article, "An added closing paragraph, as long as the article's own one is."}, // 4: half of it is 0's
	}
	got := copies(docs)
	want := []int{0, 1, 0, 3, 4}
	if !slices.Equal(got, want) {
		t.Errorf("copies = %v, want %v", got, want)
	}
}

// TestShortView: the short-text view cuts a long text at a sentence end
// within its bounds, and leaves short texts out.
func TestShortView(t *testing.T) {
	long := strings.Repeat("The river rose above the old stone bridge in the night. ", 200)
	for i := range 5 {
		cut := shortView(long, i)
		n := utf8.RuneCountInString(cut)
		if n > shortViewMax || n < shortViewMin-100 || !strings.HasSuffix(cut, ".") || !strings.HasPrefix(long, cut) {
			t.Errorf("document %d: cut of %d code points ending %q", i, n, cut[max(0, len(cut)-10):])
		}
	}
	if cut := shortView(long[:shortViewMin], 0); cut != "" {
		t.Errorf("a text of %d code points is cut to %d", shortViewMin, len(cut))
	}
}
