package digest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/normalize"
)

var (
	queryHashRE  = regexp.MustCompile(QueryHashPattern)
	sourceHashRE = regexp.MustCompile(SourceHashPattern)
)

// ValidationError lists every rule a payload breaks, each naming the field
// and the rule ("key_points[3]: exceeds maximum length of 500 characters").
type ValidationError struct {
	Problems []string
}

func (e *ValidationError) Error() string {
	if len(e.Problems) == 1 {
		return "invalid digest payload: " + e.Problems[0]
	}
	return fmt.Sprintf("invalid digest payload: %s (and %d more)", e.Problems[0], len(e.Problems)-1)
}

// Validate checks every bound and pattern of DigestPayload (of any version
// of PayloadVersions). It is the one
// validator: used on every payload the service emits and on payloads clients
// send back for verification. It checks the payload alone; Verify also checks
// the locators against the canonical text.
func Validate(p *Payload) error {
	var probs []string
	bad := func(format string, args ...any) { probs = append(probs, fmt.Sprintf(format, args...)) }
	tooLong := func(field string, s string, max int) {
		if n := utf8.RuneCountInString(s); n > max {
			bad("%s: exceeds maximum length of %d characters (has %d)", field, max, n)
		}
	}
	unit := func(field string, v float64) {
		if math.IsNaN(v) || v < 0 || v > 1 {
			bad("%s: must be in [0, 1]", field)
		}
	}

	if !slices.Contains(PayloadVersions, p.Version) {
		bad("version: must be one of %q", PayloadVersions)
	}
	if p.ContentType != ContentType {
		bad("content_type: must be %q", ContentType)
	}
	if !queryHashRE.MatchString(p.QueryHash) {
		bad("query_hash: must match %s", QueryHashPattern)
	}
	if !sourceHashRE.MatchString(p.SourceTextHash) {
		bad("source_text_hash: must match %s", SourceHashPattern)
	}
	if !utf8.ValidString(p.Summary) {
		bad("summary: must be valid UTF-8")
	}
	tooLong("summary", p.Summary, MaxSummaryChars)
	if p.KeyPoints == nil {
		bad("key_points: is required (may be empty)")
	}
	if len(p.KeyPoints) > MaxKeyPoints {
		bad("key_points: exceeds maximum of %d items (has %d)", MaxKeyPoints, len(p.KeyPoints))
	}
	// Over the item bound the payload is already invalid: its items are
	// not examined one by one, so an oversized payload costs no more.
	for i, kp := range p.KeyPoints[:min(len(p.KeyPoints), MaxKeyPoints)] {
		tooLong(fmt.Sprintf("key_points[%d]", i), kp, MaxKeyPointChars)
		if kp == "" {
			bad("key_points[%d]: must not be empty", i)
		}
	}
	if p.EvidenceSnippets == nil {
		bad("evidence_snippets: is required (may be empty)")
	}
	if len(p.EvidenceSnippets) > MaxEvidence {
		bad("evidence_snippets: exceeds maximum of %d items (has %d)", MaxEvidence, len(p.EvidenceSnippets))
	}
	for i, s := range p.EvidenceSnippets[:min(len(p.EvidenceSnippets), MaxEvidence)] {
		field := fmt.Sprintf("evidence_snippets[%d]", i)
		tooLong(field+".text", s.Text, MaxSnippetChars)
		if s.Text == "" {
			bad("%s.text: must not be empty", field)
		}
		unit(field+".relevance_score", s.RelevanceScore)
		if i > 0 && s.RelevanceScore > p.EvidenceSnippets[i-1].RelevanceScore {
			bad("%s.relevance_score: must not exceed the previous snippet's score", field)
		}
		loc := s.Locator
		if !loc.Valid() {
			bad("%s.locator: must match %s with start ≤ end and page ≥ 1", field, LocatorPattern)
			continue
		}
		if loc.Len() != utf8.RuneCountInString(s.Text) {
			bad("%s.locator: span length %d differs from text length %d", field, loc.Len(), utf8.RuneCountInString(s.Text))
		}
	}
	// A version that predates sections (an unknown one is reported above).
	v := slices.Index(PayloadVersions, p.Version)
	noSections := v >= 0 && v < slices.Index(PayloadVersions, sectionSince)
	for i, s := range p.EvidenceSnippets[:min(len(p.EvidenceSnippets), MaxEvidence)] {
		if s.Section == nil {
			continue
		}
		field := fmt.Sprintf("evidence_snippets[%d].section", i)
		switch {
		case noSections:
			bad("%s: a DigestPayload %s has no sections (they are %s's)", field, p.Version, sectionSince)
		case len(s.Section) == 0:
			bad("%s: must not be empty when present", field)
		case len(s.Section) > MaxSectionDepth:
			bad("%s: exceeds maximum depth of %d headings (has %d)", field, MaxSectionDepth, len(s.Section))
		}
		for k, h := range s.Section[:min(len(s.Section), MaxSectionDepth)] {
			if problem := headingProblem(h); problem != "" {
				bad("%s[%d]: %s", field, k, problem)
			}
		}
	}
	if p.OriginalChars < 0 {
		bad("original_chars: must be ≥ 0")
	}
	if p.DigestChars < 0 {
		bad("digest_chars: must be ≥ 0")
	}
	if p.DigestChars > p.OriginalChars && p.OriginalChars >= 0 {
		bad("digest_chars: must not exceed original_chars (%d > %d): a digest is never longer than its source", p.DigestChars, p.OriginalChars)
	}
	unit("compression_ratio", p.CompressionRatio)
	// The derived numbers must agree with what they derive from.
	if n := CountDigestChars(p); p.DigestChars != n {
		bad("digest_chars: must be %d, the code points of the summary, key points and snippets (is %d)", n, p.DigestChars)
	}
	if r := Ratio(p.DigestChars, p.OriginalChars); math.Abs(p.CompressionRatio-r) > 1e-9 {
		bad("compression_ratio: must be %v, digest_chars / original_chars (is %v)", r, p.CompressionRatio)
	}
	if len(probs) > 0 {
		return &ValidationError{Problems: probs}
	}
	return nil
}

// headingProblem says what keeps h from being a heading of a section path
// ("" for nothing): a heading is one block's text, or a prefix of it.
func headingProblem(h string) string {
	switch {
	case !utf8.ValidString(h):
		return "must be valid UTF-8"
	case h == "":
		return "must not be empty"
	case utf8.RuneCountInString(h) > MaxSectionHeadingChars:
		return fmt.Sprintf("exceeds maximum length of %d characters (has %d)", MaxSectionHeadingChars, utf8.RuneCountInString(h))
	case strings.ContainsAny(h, "\n"+string(normalize.PageSeparator)):
		return "must lie in one block (no line break or page separator)"
	case strings.TrimSpace(h) != h:
		return "must not start or end with white space"
	}
	return ""
}

// SnippetCheck is the outcome of checking the locator of snippet Index of a
// payload against the canonical text; Problem says why it failed.
type SnippetCheck struct {
	Index    int
	Locator  Locator
	Verified bool
	Problem  string
}

// ErrNotVerified is returned by Verify when some locator does not slice to
// its snippet's text.
var ErrNotVerified = errors.New("evidence locators do not verify")

// Verify validates p and checks every snippet's locator by slicing text
// and its section by VerifySections. text must be the canonical text
// p.SourceTextHash names: the hash text
// carries (made once, when the text came in or was read from the archive)
// is compared, not computed again. It returns the per-snippet outcome and
// an error if anything fails.
func Verify(p *Payload, text archive.Blob) ([]SnippetCheck, error) {
	if err := Validate(p); err != nil {
		return nil, err
	}
	if text.Hash().String() != p.SourceTextHash {
		return nil, fmt.Errorf("source_text_hash: does not match the text")
	}
	checks := make([]SnippetCheck, len(p.EvidenceSnippets))
	locs := make([]Locator, len(p.EvidenceSnippets))
	snips := make([]string, len(p.EvidenceSnippets))
	for i, s := range p.EvidenceSnippets {
		locs[i] = s.Locator
		snips[i] = s.Text
	}
	errs, _ := VerifySpans(context.Background(), text.String(), locs, snips)
	sections, _ := VerifySections(context.Background(), text.String(), p.EvidenceSnippets)
	var failed error
	for i, s := range p.EvidenceSnippets {
		err := errs[i]
		if err == nil {
			err = sections[i]
		}
		checks[i] = SnippetCheck{Index: i, Locator: s.Locator, Verified: err == nil}
		if err != nil {
			checks[i].Problem = err.Error()
			failed = ErrNotVerified
		}
	}
	return checks, failed
}
