package pipeline

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/normalize"
)

// VerifyReport is the outcome of checking a payload against the archive
// (wire.VerifyData renders it). Valid is true exactly when Problems is
// empty: the payload passes the validator, its text is archived, and every
// snippet equals the text at its locator, under a section of that text. Problems names each failure, a
// snippet's as "evidence_snippets[i]: …". Verified says the same as Valid,
// for clients that read it.
type VerifyReport struct {
	Valid       bool
	Problems    []string
	TextFound   bool
	HashMatches bool
	Snippets    []digest.SnippetCheck
	Verified    bool
}

// Verify validates a payload with the one validator, fetches the archived
// text its source_text_hash names, and checks every snippet by slicing, and
// its section by digest.VerifySections.
func (p *Pipeline) Verify(ctx context.Context, pl *digest.Payload) (*VerifyReport, error) {
	rep := &VerifyReport{Problems: []string{}, Snippets: []digest.SnippetCheck{}}
	if err := digest.Validate(pl); err != nil {
		var ve *digest.ValidationError
		if errors.As(err, &ve) {
			rep.Problems = ve.Problems
		} else {
			rep.Problems = []string{err.Error()}
		}
	}
	d, err := archive.ParseHash(pl.SourceTextHash)
	if err != nil {
		rep.Snippets = uncheckedSnippets(pl, rep.Problems, "not checked: the payload is invalid (see problems)")
		return rep, nil
	}
	blob, err := p.readText(ctx, d)
	if errors.Is(err, fs.ErrNotExist) {
		rep.Problems = append(rep.Problems, "source_text_hash: no archived text has that hash")
		rep.Snippets = uncheckedSnippets(pl, rep.Problems, "not checked: no archived text has the payload's source_text_hash")
		return rep, nil
	}
	if err != nil {
		return nil, archiveFault("read the archived text", err)
	}
	text := blob.String()
	rep.TextFound = true
	// The text was verified against d as it was read: its hash is d, named
	// here as the payload must name it.
	rep.HashMatches = blob.Hash().String() == pl.SourceTextHash
	if n := utf8.RuneCountInString(text); rep.HashMatches && n != pl.OriginalChars {
		rep.Problems = append(rep.Problems, fmt.Sprintf("original_chars: must be %d, the code points of the archived text (is %d)", n, pl.OriginalChars))
	}
	if len(rep.Problems) > 0 {
		// The payload is invalid: the locators are not checked, so a
		// payload over its bounds costs no more than a valid one.
		rep.Snippets = uncheckedSnippets(pl, rep.Problems, "not checked: the payload is invalid (see problems)")
		return rep, nil
	}
	locs := make([]digest.Locator, len(pl.EvidenceSnippets))
	snips := make([]string, len(pl.EvidenceSnippets))
	for i, s := range pl.EvidenceSnippets {
		locs[i] = s.Locator
		snips[i] = s.Text
	}
	errs, err := digest.VerifySpans(ctx, text, locs, snips)
	if err != nil {
		return nil, fault.Wrap(fault.Unavailable, "the verification was cancelled", err)
	}
	sections, err := digest.VerifySections(ctx, text, pl.EvidenceSnippets)
	if err != nil {
		return nil, fault.Wrap(fault.Unavailable, "the verification was cancelled", err)
	}
	for i, s := range pl.EvidenceSnippets {
		err := errs[i]
		if err == nil {
			err = sections[i]
		}
		c := digest.SnippetCheck{Index: i, Locator: s.Locator, Verified: err == nil}
		if err != nil {
			c.Problem = err.Error()
			rep.Problems = append(rep.Problems, fmt.Sprintf("evidence_snippets[%d]: %s", i, c.Problem))
		}
		rep.Snippets = append(rep.Snippets, c)
	}
	rep.Valid = len(rep.Problems) == 0
	rep.Verified = rep.Valid
	return rep, nil
}

// uncheckedSnippets reports every snippet of a payload whose locators were
// not sliced: each with the problems that name it (evidence_snippets[i]…),
// or with why when none does. A payload with more snippets than the bound
// gets none listed: its problems say so, and its answer stays small.
func uncheckedSnippets(pl *digest.Payload, problems []string, why string) []digest.SnippetCheck {
	if len(pl.EvidenceSnippets) > digest.MaxEvidence {
		return []digest.SnippetCheck{}
	}
	const prefix = "evidence_snippets["
	byIndex := map[int][]string{}
	for _, pr := range problems {
		rest, ok := strings.CutPrefix(pr, prefix)
		if !ok {
			continue
		}
		n, _, ok := strings.Cut(rest, "]")
		if i, err := strconv.Atoi(n); ok && err == nil {
			byIndex[i] = append(byIndex[i], pr)
		}
	}
	out := make([]digest.SnippetCheck, len(pl.EvidenceSnippets))
	for i, s := range pl.EvidenceSnippets {
		out[i] = digest.SnippetCheck{Index: i, Locator: s.Locator, Problem: why}
		if ps := byIndex[i]; len(ps) > 0 {
			out[i].Problem = strings.Join(ps, "; ")
		}
	}
	return out
}

// Slice is a span of an archived text.
type Slice struct {
	ArchiveHash archive.Hash   `json:"archive_hash"`
	Locator     digest.Locator `json:"locator"`
	Start       int            `json:"start"`
	End         int            `json:"end"`
	Page        int            `json:"page,omitempty"`
	Text        string         `json:"text"`
	Before      string         `json:"context_before,omitempty"`
	After       string         `json:"context_after,omitempty"`
	TextChars   int            `json:"text_chars"`
}

// MaxSliceContext bounds the context characters a slice may ask for.
const MaxSliceContext = 5000

// SliceText returns loc's span of the archived text d, with up to context
// code points on each side. A span outside the text is
// RANGE_NOT_SATISFIABLE with the text's length in details.
func (p *Pipeline) SliceText(ctx context.Context, d archive.Hash, loc digest.Locator, context int) (*Slice, error) {
	b, err := p.Blob(ctx, d)
	if err != nil {
		return nil, err
	}
	if !utf8.Valid(b) {
		return nil, fault.E(fault.InvalidFormat, "the archived blob is not text")
	}
	text := string(b)
	n := utf8.RuneCount(b)
	if loc.End > n {
		return nil, fault.E(fault.RangeNotSatisfiable, fmt.Sprintf("the span %d-%d is outside the text of %d code points", loc.Start, loc.End, n)).
			With("text_chars", n)
	}
	span, err := loc.Slice(text)
	if err != nil {
		return nil, fault.Wrap(fault.ValidationError, "locator: the span is not on the page it names", err).With("text_chars", n)
	}
	s := &Slice{ArchiveHash: d, Locator: loc, Start: loc.Start, End: loc.End, Page: loc.Page, Text: span, TextChars: n}
	if pages := normalize.IndexPages(text); pages.Paged() && s.Page == 0 {
		s.Page = pages.PageOf(loc.Start)
	}
	if context > 0 {
		before := digest.Locator{Start: max(0, loc.Start-context), End: loc.Start}
		after := digest.Locator{Start: loc.End, End: min(n, loc.End+context)}
		s.Before, _ = before.Slice(text)
		s.After, _ = after.Slice(text)
	}
	return s, nil
}
