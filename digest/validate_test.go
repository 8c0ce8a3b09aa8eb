package digest

import (
	"errors"
	"strings"
	"testing"

	"github.com/digestd/digestd/archive"
)

func validPayload() *Payload {
	return &Payload{
		Version: PayloadVersion, ContentType: ContentType, QueryHash: "0123abcd",
		Summary: "A summary.", KeyPoints: []string{"One."},
		EvidenceSnippets: []EvidenceSnippet{
			{Text: "abc", Locator: Locator{Start: 0, End: 3}, RelevanceScore: 0.9},
			{Text: "de", Locator: Locator{Page: 1, Start: 3, End: 5}, RelevanceScore: 0.5},
		},
		OriginalChars: 100, DigestChars: 19, CompressionRatio: 0.19,
		SourceTextHash: "sha256:" + strings.Repeat("a", 64),
	}
}

func TestValidate(t *testing.T) {
	if err := Validate(validPayload()); err != nil {
		t.Fatalf("valid payload rejected: %v", err)
	}
	tests := []struct {
		name   string
		mutate func(p *Payload)
		want   string
	}{
		{"version", func(p *Payload) { p.Version = "2.0" }, "version: must be"},
		{"content type", func(p *Payload) { p.ContentType = "digest/v2" }, "content_type"},
		{"query hash", func(p *Payload) { p.QueryHash = "0123ABCD" }, "query_hash: must match"},
		{"source hash", func(p *Payload) { p.SourceTextHash = "sha256:abc" }, "source_text_hash: must match"},
		{"summary length", func(p *Payload) { p.Summary = strings.Repeat("é", 2001) }, "summary: exceeds maximum length of 2000 characters"},
		{"summary at bound in code points", nil, ""},
		{"too many key points", func(p *Payload) { p.KeyPoints = make([]string, 11); fill(p.KeyPoints) }, "key_points: exceeds maximum of 10 items"},
		{"key point length", func(p *Payload) { p.KeyPoints = []string{"a", "b", "c", strings.Repeat("x", 501)} }, "key_points[3]: exceeds maximum length of 500 characters"},
		{"nil key points", func(p *Payload) { p.KeyPoints = nil }, "key_points: is required"},
		{"too many snippets", func(p *Payload) {
			p.EvidenceSnippets = nil
			for i := 0; i < 11; i++ {
				p.EvidenceSnippets = append(p.EvidenceSnippets, EvidenceSnippet{Text: "a", Locator: Locator{Start: 0, End: 1}})
			}
		}, "evidence_snippets: exceeds maximum of 10 items"},
		{"snippet length", func(p *Payload) {
			p.EvidenceSnippets[0].Text = strings.Repeat("x", 501)
			p.EvidenceSnippets[0].Locator = Locator{Start: 0, End: 501}
		}, "evidence_snippets[0].text: exceeds maximum length of 500"},
		{"score range", func(p *Payload) { p.EvidenceSnippets[0].RelevanceScore = 1.5 }, "evidence_snippets[0].relevance_score: must be in [0, 1]"},
		{"score order", func(p *Payload) { p.EvidenceSnippets[1].RelevanceScore = 0.95 }, "evidence_snippets[1].relevance_score: must not exceed"},
		{"start after end", func(p *Payload) { p.EvidenceSnippets[0].Locator = Locator{Start: 3, End: 0} }, "evidence_snippets[0].locator: must match"},
		{"negative page", func(p *Payload) { p.EvidenceSnippets[1].Locator = Locator{Page: -1, Start: 3, End: 5} }, "evidence_snippets[1].locator"},
		{"locator that did not parse", func(p *Payload) { p.EvidenceSnippets[0].Locator = Invalid }, "evidence_snippets[0].locator: must match"},
		{"locator length", func(p *Payload) { p.EvidenceSnippets[0].Locator = Locator{Start: 0, End: 4} }, "span length 4 differs from text length 3"},
		{"section too deep", func(p *Payload) { p.EvidenceSnippets[0].Section = strings.Split("a b c d e f g", " ") }, "evidence_snippets[0].section: exceeds maximum depth of 6 headings"},
		{"section heading length", func(p *Payload) { p.EvidenceSnippets[1].Section = []string{"A", strings.Repeat("é", 101)} }, "evidence_snippets[1].section[1]: exceeds maximum length of 100 characters"},
		{"empty section heading", func(p *Payload) { p.EvidenceSnippets[0].Section = []string{""} }, "evidence_snippets[0].section[0]: must not be empty"},
		{"empty section", func(p *Payload) { p.EvidenceSnippets[0].Section = []string{} }, "evidence_snippets[0].section: must not be empty when present"},
		{"section heading across blocks", func(p *Payload) { p.EvidenceSnippets[0].Section = []string{"Two\nblocks"} }, "must lie in one block"},
		{"section heading padded", func(p *Payload) { p.EvidenceSnippets[0].Section = []string{"Methods "} }, "must not start or end with white space"},
		{"section in a 1.0 payload", func(p *Payload) { p.Version = "1.0"; p.EvidenceSnippets[0].Section = []string{"Methods"} }, "a DigestPayload 1.0 has no sections"},
		{"negative chars", func(p *Payload) { p.OriginalChars = -1 }, "original_chars: must be ≥ 0"},
		{"ratio", func(p *Payload) { p.CompressionRatio = 1.01 }, "compression_ratio: must be in [0, 1]"},
		{"digest chars not the count", func(p *Payload) { p.DigestChars = 18 }, "digest_chars: must be 19"},
		{"ratio not derived", func(p *Payload) { p.CompressionRatio = 0.5 }, "compression_ratio: must be 0.19"},
		{"digest longer than its source", func(p *Payload) { p.OriginalChars = 10; p.CompressionRatio = 1 }, "digest_chars: must not exceed original_chars"},
		// The ratio is never clamped: a clamped one hides a digest longer
		// than its source.
		{"clamped ratio", func(p *Payload) { p.OriginalChars = 10; p.CompressionRatio = 1 }, "compression_ratio: must be 1.9"},
	}
	// A payload of every version read validates; 1.0's has no sections.
	for _, v := range PayloadVersions {
		p := validPayload()
		p.Version = v
		if err := Validate(p); err != nil {
			t.Errorf("version %s: %v", v, err)
		}
	}
	p := validPayload()
	p.EvidenceSnippets[0].Section = []string{"3 Method", strings.Repeat("é", MaxSectionHeadingChars)}
	if err := Validate(p); err != nil {
		t.Errorf("a section at its bounds: %v", err)
	}
	for _, tc := range tests {
		if tc.mutate == nil {
			p := validPayload()
			p.Summary = strings.Repeat("é", 2000)
			p.OriginalChars = 5000
			p.DigestChars = CountDigestChars(p)
			p.CompressionRatio = Ratio(p.DigestChars, p.OriginalChars)
			if err := Validate(p); err != nil {
				t.Errorf("%s: %v", tc.name, err)
			}
			continue
		}
		p := validPayload()
		tc.mutate(p)
		err := Validate(p)
		var ve *ValidationError
		if !errors.As(err, &ve) {
			t.Errorf("%s: got %v, want a ValidationError", tc.name, err)
			continue
		}
		if !strings.Contains(strings.Join(ve.Problems, "; "), tc.want) {
			t.Errorf("%s: problems %q do not mention %q", tc.name, ve.Problems, tc.want)
		}
	}
}

func fill(s []string) {
	for i := range s {
		s[i] = "point"
	}
}

func TestVerify(t *testing.T) {
	text := "abcde and more"
	p := validPayload()
	p.SourceTextHash = SourceTextHash(text)
	if _, err := Verify(p, archive.NewBlob(text)); err != nil {
		t.Fatalf("Verify: %v", err)
	}
	p.EvidenceSnippets[1].Text = "xy"
	checks, err := Verify(p, archive.NewBlob(text))
	if !errors.Is(err, ErrNotVerified) || checks[0].Verified != true || checks[1].Verified {
		t.Errorf("tampered snippet: %v %+v", err, checks)
	}
	if _, err := Verify(validPayload(), archive.NewBlob(text)); err == nil {
		t.Error("a payload for another text verified")
	}
}
