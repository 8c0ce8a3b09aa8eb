package digest

import (
	"bytes"
	"encoding/json"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
)

// checkPayload asserts the contract every payload Build returns must meet.
func checkPayload(t *testing.T, text, query string, opts Options, p *Payload) {
	t.Helper()
	if _, err := Verify(p, archive.NewBlob(text)); err != nil {
		var ve *ValidationError
		if errors.As(err, &ve) {
			t.Fatalf("payload invalid: %v", ve.Problems)
		}
		t.Fatalf("payload does not verify: %v", err)
	}
	opts = opts.WithDefaults()
	if len(p.EvidenceSnippets) > opts.MaxEvidence {
		t.Errorf("%d snippets, max %d", len(p.EvidenceSnippets), opts.MaxEvidence)
	}
	if len(p.KeyPoints) > max(0, opts.MaxKeyPoints) {
		t.Errorf("%d key points, max %d", len(p.KeyPoints), opts.MaxKeyPoints)
	}
	if n := utf8.RuneCountInString(p.Summary); n > opts.SummaryMaxChars {
		t.Errorf("summary has %d chars, max %d", n, opts.SummaryMaxChars)
	}
	paged := strings.Contains(text, "\f")
	for i, s := range p.EvidenceSnippets {
		if n := utf8.RuneCountInString(s.Text); n > opts.SnippetMaxChars {
			t.Errorf("snippet %d has %d chars, max %d", i, n, opts.SnippetMaxChars)
		}
		l := s.Locator
		if !l.Valid() {
			t.Fatalf("snippet %d: invalid locator %+v", i, l)
		}
		if paged != (l.Page > 0) {
			t.Errorf("snippet %d: locator %s for paged=%v text", i, s.Locator, paged)
		}
		if strings.ContainsAny(s.Text, "\f") {
			t.Errorf("snippet %d crosses a page", i)
		}
	}
	if p.OriginalChars != utf8.RuneCountInString(text) {
		t.Errorf("original_chars %d, want %d", p.OriginalChars, utf8.RuneCountInString(text))
	}
	if p.QueryHash != QueryHash(query) || p.SourceTextHash != SourceTextHash(text) {
		t.Errorf("hashes do not match the inputs")
	}
}

func TestBuildEmpty(t *testing.T) {
	p, _, err := Build("", "anything", Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkPayload(t, "", "anything", Options{}, p)
	if p.Summary != "" || len(p.EvidenceSnippets) != 0 || p.CompressionRatio != 0 {
		t.Errorf("empty text gave a non-empty payload: %+v", p)
	}
}

func TestBuildDeterministic(t *testing.T) {
	text := sampleText(rand.New(rand.NewPCG(1, 2)), 40, true)
	var prev []byte
	for i := 0; i < 3; i++ {
		p, _, err := Build(text, "vaccine trial efficacy", Options{})
		if err != nil {
			t.Fatal(err)
		}
		b, err := json.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if prev != nil && !bytes.Equal(prev, b) {
			t.Fatalf("run %d differs from the previous one", i)
		}
		prev = b
	}
}

func TestBuildFindsEvidence(t *testing.T) {
	text := "Introduction\nThe weather was mild all week. Markets were calm.\n" +
		"The vaccine reduced hospital admissions by 80 percent in the trial. Side effects were rare.\n" +
		"Nothing else of note happened. The end came quickly."
	p, warns, err := Build(text, "How much did the vaccine reduce admissions?", Options{})
	if err != nil {
		t.Fatal(err)
	}
	checkPayload(t, text, "How much did the vaccine reduce admissions?", Options{}, p)
	if len(warns) != 0 {
		t.Errorf("unexpected warnings %v", warns)
	}
	if len(p.EvidenceSnippets) == 0 || !strings.Contains(p.EvidenceSnippets[0].Text, "80 percent") {
		t.Fatalf("top snippet misses the answer: %+v", p.EvidenceSnippets)
	}
}

func TestBuildQueryFallback(t *testing.T) {
	text := "Alpha beta gamma delta epsilon. Gamma delta rules here.\nDelta gamma and more gamma text follows."
	for _, q := range []string{"", "   ", "what is the"} {
		p, warns, err := Build(text, q, Options{})
		if err != nil {
			t.Fatal(err)
		}
		checkPayload(t, text, q, Options{}, p)
		if len(warns) == 0 || warns[0].Code != fault.QueryFallback {
			t.Errorf("query %q: warnings %v, want %s", q, warns, fault.QueryFallback)
		}
		if len(p.EvidenceSnippets) == 0 {
			t.Errorf("query %q: no document-level evidence", q)
		}
	}
}

var sampleWords = []string{"vaccine", "trial", "efficacy", "the", "of", "virus", "Dr.", "e.g.", "U.S.", "3.5",
	"café", "naïve", "東京", "ウイルス", "😀", "e\u0301", "résumé", "data", "cells", "patients", "(see", "Fig.", "1)",
	"https://example.org/a.b", "ü", "İstanbul", "ß", "…", "?", "!", "and", "in", "was"}

// sampleText returns random sentences in blocks, with pages when paged.
func sampleText(r *rand.Rand, sentences int, paged bool) string {
	var b strings.Builder
	for i := 0; i < sentences; i++ {
		if i > 0 {
			switch k := r.IntN(10); {
			case k == 0 && paged:
				b.WriteString("\f")
			case k < 3:
				b.WriteString("\n")
			default:
				b.WriteString(" ")
			}
		}
		n := 1 + r.IntN(30)
		for j := 0; j < n; j++ {
			if j > 0 {
				b.WriteString(" ")
			}
			w := sampleWords[r.IntN(len(sampleWords))]
			if j == 0 {
				r, n := utf8.DecodeRuneInString(w)
				w = strings.ToUpper(string(r)) + w[n:]
			}
			b.WriteString(w)
		}
		b.WriteString(".")
	}
	return b.String()
}

func TestBuildRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 11))
	for i := 0; i < 200; i++ {
		text := sampleText(r, r.IntN(80), i%2 == 0)
		query := strings.Join([]string{sampleWords[r.IntN(len(sampleWords))], sampleWords[r.IntN(len(sampleWords))]}, " ")
		opts := Options{MaxEvidence: 1 + r.IntN(10), MaxKeyPoints: r.IntN(11), SnippetMaxChars: 50 + r.IntN(451), SummaryMaxChars: 1 + r.IntN(2000)}
		p, _, err := Build(text, query, opts)
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		checkPayload(t, text, query, opts, p)
	}
}

func FuzzBuild(f *testing.F) {
	f.Add("Hello world. Second sentence here.\nA heading\nMore text about café and 東京.", "café", 200)
	f.Add("Page one text.\fPage two text with e\u0301 and 😀.\f\fLast page.", "page text", 50)
	f.Add("", "", 500)
	f.Add("x", "x", 60)
	f.Fuzz(func(t *testing.T, text, query string, snippet int) {
		if !utf8.ValidString(text) {
			return
		}
		opts := Options{SnippetMaxChars: 50 + abs(snippet)%451}
		p, _, err := Build(text, query, opts)
		if err != nil {
			t.Fatal(err)
		}
		checkPayload(t, text, query, opts, p)
	})
}

func abs(n int) int {
	if n < 0 {
		if n == -n {
			return 0
		}
		return -n
	}
	return n
}
