package wire

import (
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/pipeline"
)

// Payload is DigestPayload as JSON carries it: digest.Payload with each
// evidence locator in its text form (char:S-E or page:N:char:S-E). POST
// /v1/digest answers one in data.digest, and POST /v1/verify and the MCP tool
// verify_digest read one; PayloadOf and Value convert between the two.
type Payload struct {
	Version          string            `json:"version"`
	ContentType      string            `json:"content_type"`
	QueryHash        string            `json:"query_hash"`
	Summary          string            `json:"summary"`
	KeyPoints        []string          `json:"key_points"`
	EvidenceSnippets []EvidenceSnippet `json:"evidence_snippets"`
	OriginalChars    int               `json:"original_chars"`
	DigestChars      int               `json:"digest_chars"`
	CompressionRatio float64           `json:"compression_ratio"`
	SourceTextHash   string            `json:"source_text_hash"`
}

// EvidenceSnippet is digest.EvidenceSnippet with its locator as text.
type EvidenceSnippet struct {
	Text           string   `json:"text"`
	Locator        string   `json:"locator"`
	RelevanceScore float64  `json:"relevance_score"`
	Section        []string `json:"section,omitempty"`
}

// PayloadOf writes p's locators as text; nil stays nil, and so do p's nil
// lists (the validator tells a missing list from an empty one).
func PayloadOf(p *digest.Payload) *Payload {
	if p == nil {
		return nil
	}
	out := &Payload{
		Version: p.Version, ContentType: p.ContentType, QueryHash: p.QueryHash, Summary: p.Summary,
		KeyPoints: p.KeyPoints, OriginalChars: p.OriginalChars, DigestChars: p.DigestChars,
		CompressionRatio: p.CompressionRatio, SourceTextHash: p.SourceTextHash,
	}
	if p.EvidenceSnippets != nil {
		out.EvidenceSnippets = make([]EvidenceSnippet, len(p.EvidenceSnippets))
		for i, s := range p.EvidenceSnippets {
			out.EvidenceSnippets[i] = EvidenceSnippet{Text: s.Text, Locator: s.Locator.String(), RelevanceScore: s.RelevanceScore, Section: s.Section}
		}
	}
	return out
}

// Value reads p's locators, as a client sent them: one that does not parse
// becomes digest.Invalid, which digest.Validate reports among the payload's
// other problems rather than refusing the request.
func (p *Payload) Value() *digest.Payload {
	out := &digest.Payload{
		Version: p.Version, ContentType: p.ContentType, QueryHash: p.QueryHash, Summary: p.Summary,
		KeyPoints: p.KeyPoints, OriginalChars: p.OriginalChars, DigestChars: p.DigestChars,
		CompressionRatio: p.CompressionRatio, SourceTextHash: p.SourceTextHash,
	}
	if p.EvidenceSnippets != nil {
		out.EvidenceSnippets = make([]digest.EvidenceSnippet, len(p.EvidenceSnippets))
		for i, s := range p.EvidenceSnippets {
			loc, err := digest.ParseLocator(s.Locator)
			if err != nil {
				loc = digest.Invalid
			}
			out.EvidenceSnippets[i] = digest.EvidenceSnippet{Text: s.Text, Locator: loc, RelevanceScore: s.RelevanceScore, Section: s.Section}
		}
	}
	return out
}

// VerifyData is data of a successful POST /v1/verify and of verify_digest:
// the pipeline's report, with each snippet's locator as the client sent it.
type VerifyData struct {
	Valid       bool           `json:"valid"`
	Problems    []string       `json:"problems"`
	TextFound   bool           `json:"text_found"`
	HashMatches bool           `json:"hash_matches"`
	Snippets    []SnippetCheck `json:"snippets"`
	Verified    bool           `json:"verified"`
}

// SnippetCheck is the outcome of checking one snippet of a sent payload.
type SnippetCheck struct {
	Index    int    `json:"index"`
	Locator  string `json:"locator"`
	Verified bool   `json:"verified"`
	Problem  string `json:"problem,omitempty"`
}

// VerifyDataOf renders rep, the report on sent: a snippet's locator is the
// text sent, which a locator that did not parse has no other form of.
func VerifyDataOf(rep *pipeline.VerifyReport, sent *Payload) VerifyData {
	out := VerifyData{Valid: rep.Valid, Problems: rep.Problems, TextFound: rep.TextFound, HashMatches: rep.HashMatches,
		Snippets: make([]SnippetCheck, len(rep.Snippets)), Verified: rep.Verified}
	for i, c := range rep.Snippets {
		out.Snippets[i] = SnippetCheck{Index: c.Index, Locator: sent.EvidenceSnippets[c.Index].Locator, Verified: c.Verified, Problem: c.Problem}
	}
	return out
}
