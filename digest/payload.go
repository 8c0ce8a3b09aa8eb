// Package digest defines DigestPayload v1.1 — the bounded, verifiable digest
// of one canonical text for one query — with its locators, hashes, the one
// validator every payload passes through, and the extractive digester that
// produces payloads.
package digest

import (
	"reflect"
	"strings"
)

// Payload bounds of DigestPayload v1.1. They are the single source of truth:
// the validator, the digester, openapi.yaml, the README and docs/contract.md follow them (a
// test checks openapi.yaml against these constants).
const (
	// PayloadVersion is the version of the payloads the service emits.
	// It reads every version of PayloadVersions.
	PayloadVersion    = "1.1"
	ContentType       = "digest/v1"
	MaxSummaryChars   = 2000
	MaxKeyPoints      = 10
	MaxKeyPointChars  = 500
	MaxEvidence       = 10
	MaxSnippetChars   = 500
	QueryHashPattern  = `^[a-f0-9]{8}$`
	SourceHashPattern = `^sha256:[a-f0-9]{64}$`
	LocatorPattern    = `^(char:\d+-\d+|page:[1-9]\d*:char:\d+-\d+)$`
	MaxQueryChars     = 2000
	// MaxSectionDepth bounds a snippet's section path: one heading a
	// level, as HTML's h1 to h6.
	MaxSectionDepth = 6
	// MaxSectionHeadingChars bounds each heading of a section path, in
	// code points; a longer heading is cut to a prefix (SectionHeading).
	MaxSectionHeadingChars = 100
)

// PayloadVersions are the versions of DigestPayload the validator reads,
// oldest first: 1.0 is 1.1 without evidence sections, so payloads archived
// or kept by clients before sections still validate and verify.
var PayloadVersions = []string{"1.0", PayloadVersion}

// sectionSince is the first version whose snippets may carry a section.
const sectionSince = "1.1"

// Payload is DigestPayload v1.1. All lengths and offsets are Unicode code
// points of the canonical text identified by SourceTextHash.
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

// EvidenceSnippet is a verbatim slice of the canonical text: Text equals
// canonical[Locator.Start:Locator.End] in code points.
type EvidenceSnippet struct {
	Text           string  `json:"text"`
	Locator        Locator `json:"locator"`
	RelevanceScore float64 `json:"relevance_score"`
	// Section is the heading path of the section the snippet starts in,
	// outermost first, each heading as the canonical text has it (cut to
	// MaxSectionHeadingChars); absent when the source has no headings
	// there. See VerifySections.
	Section []string `json:"section,omitempty"`
}

// RequiredFields returns the JSON names of every field of a DigestPayload,
// all of which are required (a payload sent back for verification that
// lacks one is refused, not read as zero).
func RequiredFields() []string {
	t := reflect.TypeOf(Payload{})
	names := make([]string, 0, t.NumField())
	for i := 0; i < t.NumField(); i++ {
		names = append(names, strings.Split(t.Field(i).Tag.Get("json"), ",")[0])
	}
	return names
}
