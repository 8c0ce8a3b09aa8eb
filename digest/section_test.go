package digest

import (
	"context"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
)

// TestSectionHeading: a heading over the bound is cut to a prefix that
// ends a word, and one within it is kept whole.
func TestSectionHeading(t *testing.T) {
	short := "3.2 Data"
	if got := SectionHeading(short); got != short {
		t.Errorf("SectionHeading(%q) = %q", short, got)
	}
	long := strings.Repeat("wörd ", MaxSectionHeadingChars/5) + "tail"
	got := SectionHeading(long)
	if n := utf8.RuneCountInString(got); n > MaxSectionHeadingChars || n < MaxSectionHeadingChars/2 {
		t.Errorf("cut to %d code points, want at most %d and more than half", n, MaxSectionHeadingChars)
	}
	if !strings.HasPrefix(long, got) || strings.HasSuffix(got, " ") || !strings.HasSuffix(got, "wörd") {
		t.Errorf("SectionHeading cut to %q, want a prefix ending a word", got)
	}
	// A heading without a space in its second half is cut at the bound.
	unbroken := strings.Repeat("x", 2*MaxSectionHeadingChars)
	if got := SectionHeading(unbroken); got != unbroken[:MaxSectionHeadingChars] {
		t.Errorf("an unbroken heading cut to %d code points", utf8.RuneCountInString(got))
	}
}

// TestVerifySections: a section whose headings begin blocks of the text, in
// order, at or before the snippet verifies; a heading the text does not
// hold, one that only appears inside a block, one out of order or one after
// its snippet does not.
func TestVerifySections(t *testing.T) {
	text := "Paper\nIntro text.\n3 Method\nWe used 3.2 Data here.\n3.2 Data\nThe data came from a survey."
	start := utf8.RuneCountInString(text[:strings.Index(text, "The data")])
	snip := EvidenceSnippet{Text: "The data came from a survey.", Locator: Locator{Start: start, End: start + 28}, RelevanceScore: 0.5}
	intro := EvidenceSnippet{Text: "Intro text.", Locator: Locator{Start: 6, End: 17}, RelevanceScore: 0.4}
	for _, tc := range []struct {
		name    string
		section []string
		ok      bool
	}{
		{"the path", []string{"Paper", "3 Method", "3.2 Data"}, true},
		{"a cut heading", []string{"Paper", "3 Meth"}, true},
		{"no section", nil, true},
		{"a forged heading", []string{"Paper", "4 Results"}, false},
		{"text inside a block", []string{"Intro"}, true},
		{"a heading only inside a block", []string{"Data here."}, false},
		{"out of order", []string{"3.2 Data", "3 Method"}, false},
	} {
		s := snip
		s.Section = tc.section
		errs, err := VerifySections(context.Background(), text, []EvidenceSnippet{intro, s})
		if err != nil {
			t.Fatal(err)
		}
		if errs[0] != nil || (errs[1] == nil) != tc.ok {
			t.Errorf("%s: %v", tc.name, errs)
		}
	}
	// A heading after its snippet.
	late := intro
	late.Section = []string{"3 Method"}
	if errs, _ := VerifySections(context.Background(), text, []EvidenceSnippet{late}); errs[0] == nil {
		t.Error("a heading after its snippet verified")
	}
	// Verify reports a forged section on the snippet.
	p := validPayload()
	p.SourceTextHash = SourceTextHash(text)
	p.EvidenceSnippets = []EvidenceSnippet{snip}
	p.EvidenceSnippets[0].Section = []string{"Paper", "3 Method"}
	p.OriginalChars = utf8.RuneCountInString(text)
	p.DigestChars = CountDigestChars(p)
	p.CompressionRatio = Ratio(p.DigestChars, p.OriginalChars)
	if _, err := Verify(p, archive.NewBlob(text)); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	p.EvidenceSnippets[0].Section[1] = "3 Methods and materials"
	if checks, err := Verify(p, archive.NewBlob(text)); err == nil || checks[0].Verified || !strings.Contains(checks[0].Problem, "section[1]") {
		t.Errorf("a forged section: %v %+v", err, checks)
	}
}
