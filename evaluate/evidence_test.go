package evaluate

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
)

func TestSQuADNormalize(t *testing.T) {
	tests := []struct{ in, want string }{
		{"The Cat's hat, a thing!", "cats hat thing"},
		{"An answer: THE end.", "answer end"},
		{"theme and anagram", "theme and anagram"},
		{"a‐b the‐virus", "‐b ‐virus"}, // U+2010 is not ASCII punctuation but is a word boundary
		{"  many   spaces  ", "many spaces"},
		{"", ""},
	}
	for _, tt := range tests {
		if got := SQuADNormalize(tt.in); got != tt.want {
			t.Errorf("SQuADNormalize(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAnswerRank(t *testing.T) {
	snips := []string{"nothing here", "The virus spreads by droplets.", "the virus spreads by droplets and contact"}
	tests := []struct {
		answers []string
		want    int
	}{
		{[]string{"virus spreads by droplets"}, 2},
		{[]string{"droplets and contact", "spreads"}, 2},
		{[]string{"droplets and contact"}, 3},
		{[]string{"absent"}, 0},
		{[]string{"the"}, 0}, // normalises to nothing
	}
	for _, tt := range tests {
		if got := AnswerRank(snips, tt.answers); got != tt.want {
			t.Errorf("AnswerRank(%q) = %d, want %d", tt.answers, got, tt.want)
		}
	}
}

func TestEvidenceRank(t *testing.T) {
	gold := strings.Repeat("x", 10) + " the gold paragraph holds a long shared run of text that is quoted verbatim here " + strings.Repeat("y", 10)
	tests := []struct {
		snips []string
		want  int
	}{
		{[]string{"unrelated", "prefix  the gold paragraph holds a long   shared run of text that is quoted"}, 2},
		{[]string{"the gold paragraph holds a long"}, 0}, // fewer than 50 shared characters
		{[]string{"short gold"}, 0},
	}
	for _, tt := range tests {
		if got := EvidenceRank(tt.snips, []string{gold}); got != tt.want {
			t.Errorf("EvidenceRank(%q) = %d, want %d", tt.snips, got, tt.want)
		}
	}
	if got := EvidenceRank([]string{"a short gold text, whole"}, []string{"short gold"}); got != 1 {
		t.Errorf("short gold paragraph: rank %d, want 1", got)
	}
}

func TestEvidence(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ev-set")
	doc := "Alpha beta here. Gamma delta there."
	writeFile(t, filepath.Join(dir, "cases.jsonl"), []byte(
		`{"id":"q1","doc":"docs/a.txt","question":"q1","answers":["alpha beta"]}`+"\n"+
			`{"id":"q2","doc":"docs/a.txt","question":"q2","answers":["gamma"],"evidence":["Gamma delta there."]}`+"\n"+
			`{"id":"q3","doc":"docs/missing.txt","question":"q3","answers":["x"]}`+"\n"+
			`{"id":"q4","doc":"docs/a.txt","question":"fail","answers":["x"]}`+"\n"))
	writeFile(t, filepath.Join(dir, "docs", "a.txt"), []byte(doc))
	fn := func(_ context.Context, text, q string) (EvidenceDigest, error) {
		if text != doc {
			t.Errorf("text %q, want the file's content", text)
		}
		p := &digest.Payload{}
		var warns []fault.Warning
		switch q {
		case "q1":
			// Whole first sentence, then a cut one that overlaps it.
			p.EvidenceSnippets = []digest.EvidenceSnippet{{Text: "Alpha beta here.", Locator: digest.Locator{Start: 0, End: 16}, RelevanceScore: 0.9}, {Text: "beta", Locator: digest.Locator{Start: 6, End: 10}, RelevanceScore: 0.1}}
			p.KeyPoints = []string{"The rain fell.", "Snow fell too.", "the rain fell"}
		case "q2":
			p.EvidenceSnippets = []digest.EvidenceSnippet{{Text: "Alpha beta here.", Locator: digest.Locator{Start: 0, End: 16}, RelevanceScore: 0.3}, {Text: "Gamma delta there.", Locator: digest.Locator{Start: 17, End: 35}, RelevanceScore: 0.2}}
			warns = []fault.Warning{fault.QueryFallback}
		case "q3":
			p.EvidenceSnippets = []digest.EvidenceSnippet{{Text: "Gamma", Locator: digest.Locator{Start: 17, End: 22}, RelevanceScore: 0.6}}
			warns = []fault.Warning{"OTHER", fault.NoQueryMatch}
		case "fail":
			return EvidenceDigest{}, errors.New("boom")
		}
		return EvidenceDigest{Payload: p, Canonical: text, Warnings: warns}, nil
	}
	rep, err := Evidence(context.Background(), dir, fn)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "evidence" || rep.Set != "ev-set" || rep.Cases != 4 || rep.Errors != 2 {
		t.Errorf("report %+v", rep)
	}
	want := map[string]float64{
		"answer_recall_at_10": 0.5, "hit_at_1": 0.25, "mrr_at_10": (1 + 0.5) / 4,
		"evidence_hit_at_10": 1, "evidence_hit_at_1": 0, "evidence_mrr_at_10": 0.5,
		"snippet_overlap_share": 0.5, "snippet_aligned_share": 3.0 / 4, "evidence_chars_per_question": (16 + 4 + 16 + 18) / 2.0,
		"answered_top_ge_0_5_share": 0.5, "duplicate_key_points": 1,
		// q3's document is missing, so it is asked of docs/a.txt, whose
		// digest scores 0.6 at the top.
		"unanswerable_top_ge_0_5_share": 1,
		// q2's digest falls back, and so does q3's of docs/a.txt.
		"no_query_match_digests": 2, "no_query_match_max_score": 0.6,
		// docs/a.txt is in half 0 (q1, q2 and the failing q4), the
		// missing document in half 1 (q3).
		"half0_answer_recall_at_10": 2.0 / 3, "half0_hit_at_1": 1.0 / 3, "half0_mrr_at_10": 0.5,
		"half1_answer_recall_at_10": 0, "half0_evidence_hit_at_10": 1, "half0_bm25_window_answer_recall_at_10": 0,
		"bm25_window_answer_recall_at_10": 0, "bm25_window_evidence_hit_at_10": 0,
		// The baseline reports the same figures as the digests.
		"bm25_window_evidence_hit_at_1": 0, "bm25_window_evidence_mrr_at_10": 0,
		"half0_bm25_window_evidence_hit_at_1": 0, "half0_bm25_window_evidence_mrr_at_10": 0,
		// So does the baseline bounded as snippets are.
		"bm25_window500_answer_recall_at_10": 0, "bm25_window500_evidence_hit_at_10": 0,
		"half0_bm25_window500_hit_at_1": 0,
	}
	for k, v := range want {
		if got, ok := rep.Metrics[k]; !ok || !near(got, v) {
			t.Errorf("%s = %v (present %t), want %v", k, got, ok, v)
		}
	}
	if _, ok := rep.Metrics["half1_evidence_hit_at_10"]; ok {
		t.Error("half1_evidence_hit_at_10 reported for a half without evidence cases")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Evidence(ctx, dir, fn); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled run: %v", err)
	}
}

func TestDocHalf(t *testing.T) {
	// FNV-1a 32 of "docs/a.txt" is even, of "docs/b.txt" odd.
	if DocHalf("docs/a.txt") != 0 || DocHalf("docs/b.txt") != 1 {
		t.Errorf("DocHalf = %d, %d, want 0, 1", DocHalf("docs/a.txt"), DocHalf("docs/b.txt"))
	}
}

func TestBM25Baselines(t *testing.T) {
	text := "Cats sleep a lot. Dogs bark at night.\nThe moon is bright at night. Birds sing in the morning."
	got := BM25Windows(text, "When do dogs bark?", 0)
	if len(got) != 1 || !strings.HasPrefix(got[0], "Cats sleep a lot. Dogs bark at night.") {
		t.Errorf("BM25Windows = %q, want the window holding the dogs sentence", got)
	}
	// Bounded, the window starting at the dogs sentence leaves out the
	// sentences that do not fit, and a sentence longer than the bound is
	// cut at it.
	got = BM25Windows(text, "When do dogs bark?", 30)
	if len(got) == 0 || got[0] != "Dogs bark at night." {
		t.Errorf("BM25Windows bounded to 30 = %q, want the dogs sentence alone first", got)
	}
	for _, w := range BM25Windows(text, "When do birds sing?", 12) {
		if n := utf8.RuneCountInString(w); n > 12 {
			t.Errorf("BM25Windows bounded to 12 gave %q, %d code points", w, n)
		}
	}
	docs := []string{"nothing relevant here", "dogs bark and bark", "a dog barked once among many other words of a long text"}
	if got := bm25Order(docs, "Why do dogs bark?"); !slices.Equal(got, []int{1, 2, 0}) {
		t.Errorf("bm25Order = %v, want [1 2 0]", got)
	}
}

func TestSources(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "src-set")
	var lines []string
	for i := range 12 {
		name := fmt.Sprintf("docs/d%02d.txt", i)
		writeFile(t, filepath.Join(dir, name), []byte(fmt.Sprintf("document %d talks about topic%d", i, i)))
		lines = append(lines, fmt.Sprintf(`{"id":"q%d","doc":"%s","question":"what about topic%d?"}`, i, name, i))
	}
	writeFile(t, filepath.Join(dir, "cases.jsonl"), []byte(strings.Join(lines, "\n")))
	var draws [][]string
	// A ranker that puts the first document first: right only when the
	// draw put the case's document there.
	fn := func(_ context.Context, texts []string, q string) ([]int, error) {
		if len(texts) != SourcesK {
			t.Errorf("%d texts, want %d", len(texts), SourcesK)
		}
		draws = append(draws, texts)
		order := make([]int, len(texts))
		for i := range order {
			order[i] = i
		}
		return order, nil
	}
	rep, err := Sources(context.Background(), dir, fn)
	if err != nil {
		t.Fatal(err)
	}
	first := 0
	var halfFirst, halfN [2]int
	for i, d := range draws {
		h := DocHalf(fmt.Sprintf("docs/d%02d.txt", i))
		halfN[h]++
		if strings.HasSuffix(d[0], fmt.Sprintf("topic%d", i)) {
			first++
			halfFirst[h]++
		}
	}
	if want := float64(first) / 12; !near(rep.Metrics["sources_p_at_1"], want) {
		t.Errorf("sources_p_at_1 = %v, want %v", rep.Metrics["sources_p_at_1"], want)
	}
	for h := range halfN {
		key := fmt.Sprintf("half%d_sources_p_at_1", h)
		if halfN[h] == 0 {
			t.Fatalf("no case in half %d", h)
		}
		if want := float64(halfFirst[h]) / float64(halfN[h]); !near(rep.Metrics[key], want) {
			t.Errorf("%s = %v, want %v", key, rep.Metrics[key], want)
		}
		if k := fmt.Sprintf("half%d_bm25_doc_p_at_1", h); rep.Metrics[k] != 1 {
			t.Errorf("%s = %v, want 1", k, rep.Metrics[k])
		}
	}
	if rep.Metrics["bm25_doc_p_at_1"] != 1 || rep.Metrics["bm25_doc_mrr"] != 1 {
		t.Errorf("bm25 figures %v, want 1", rep.Metrics)
	}
	// The draw is deterministic.
	again := draws
	draws = nil
	if _, err := Sources(context.Background(), dir, fn); err != nil {
		t.Fatal(err)
	}
	for i := range again {
		if !slices.Equal(again[i], draws[i]) {
			t.Fatalf("draw %d differs between runs", i)
		}
	}
}

func TestSummaryRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sum-set")
	writeFile(t, filepath.Join(dir, "cases.jsonl"), []byte(
		`{"id":"s1","doc":"docs/a.txt","reference":"one two three"}`+"\n"+
			`{"id":"s2","doc":"docs/b.txt","reference":"four five"}`+"\n"+
			`{"id":"s3","doc":"docs/c.txt","reference":"four five"}`+"\n"+
			`{"id":"s4","doc":"docs/d.txt","reference":"four five"}`+"\n"))
	writeFile(t, filepath.Join(dir, "docs", "a.txt"), []byte("a"))
	writeFile(t, filepath.Join(dir, "docs", "b.txt"), []byte("b"))
	writeFile(t, filepath.Join(dir, "docs", "c.txt"), []byte("words without a summary"))
	writeFile(t, filepath.Join(dir, "docs", "d.txt"), []byte(" . "))
	fn := func(_ context.Context, text, q string) (*digest.Payload, error) {
		if q != "" {
			t.Errorf("query %q, want empty", q)
		}
		switch text {
		case "a":
			return &digest.Payload{Summary: "One two three."}, nil
		case "b":
			return &digest.Payload{Summary: "Nothing alike."}, nil
		}
		return &digest.Payload{}, nil
	}
	rep, err := Summary(context.Background(), dir, fn)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "summary" || rep.Cases != 4 || rep.Errors != 0 {
		t.Errorf("report %+v", rep)
	}
	for _, k := range []string{"rouge1", "rouge2", "rougeL", "rouge1_lead3", "rouge2_lead3", "rougeL_lead3"} {
		if !near(rep.Metrics[k], 0.25) {
			t.Errorf("%s = %v, want 0.25", k, rep.Metrics[k])
		}
	}
	// Only the document with words counts as an empty summary.
	if got := rep.Metrics["empty_summaries"]; got != 1 {
		t.Errorf("empty_summaries = %v, want 1", got)
	}
}

func TestSBDRun(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "sbd-set")
	writeFile(t, filepath.Join(dir, "cases.jsonl"), []byte(
		`{"id":"a","text":"A b. C d.","sentences":["A b.","C d. "]}`+"\n"+
			`{"id":"b","text":"Dr. X came.","sentences":["Dr. X came."]}`+"\n"))
	split := func(s string) []string { return strings.SplitAfter(s, ". ") }
	rep, err := SBD(context.Background(), dir, split)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Kind != "sbd" || rep.Cases != 2 || !near(rep.Metrics["sbd_accuracy"], 0.5) {
		t.Errorf("report %+v", rep)
	}
}
