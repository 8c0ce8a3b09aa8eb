package mcpserver

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

// The text renderings are what a model reads first: compact, with every
// snippet numbered and its locator beside it. The structured content holds
// the full envelope.

func renderDigest(res *pipeline.Result) string {
	var b strings.Builder
	src := res.Source
	fmt.Fprintf(&b, "Digest of %s (%s", src.ArchiveHash, src.Kind)
	if src.Title != "" {
		fmt.Fprintf(&b, ", %q", src.Title)
	}
	fmt.Fprintf(&b, ") for query_hash %s: %d code points digested to %d.\n", res.Payload.QueryHash, res.Payload.OriginalChars, res.Payload.DigestChars)
	writePayload(&b, res.Payload, "")
	for _, w := range res.Warnings {
		fmt.Fprintf(&b, "Warning %s: %s\n", w.Code, w.Message)
	}
	fmt.Fprintf(&b, "Quote or check a snippet: get_archived_text {\"hash\": %q, \"locator\": \"<locator>\"}.\n", src.ArchiveHash)
	return b.String()
}

// writePayload writes a payload's summary, key points and numbered
// snippets, each line prefixed with indent.
func writePayload(b *strings.Builder, p *digest.Payload, indent string) {
	if p.Summary != "" {
		fmt.Fprintf(b, "%sSummary: %s\n", indent, p.Summary)
	}
	if len(p.KeyPoints) > 0 {
		fmt.Fprintf(b, "%sKey points:\n", indent)
		for _, k := range p.KeyPoints {
			fmt.Fprintf(b, "%s- %s\n", indent, k)
		}
	}
	if len(p.EvidenceSnippets) > 0 {
		fmt.Fprintf(b, "%sEvidence (locator: Unicode code points into the archived text, end exclusive):\n", indent)
		for i, e := range p.EvidenceSnippets {
			fmt.Fprintf(b, "%s[%d] %s (relevance %.2f): %s\n", indent, i+1, e.Locator, e.RelevanceScore, strconv.Quote(e.Text))
		}
	}
}

func renderMany(res *pipeline.ManyResult) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d sources digested for query_hash %s; %d included (fidelity %s), %d dropped, %d failed",
		len(res.Items)+len(res.Dropped), res.QueryHash, len(res.Items), res.Fidelity, len(res.Dropped), len(res.Failed))
	if res.BudgetChars > 0 {
		fmt.Fprintf(&b, "; %d of %d budget characters used", res.UsedChars, res.BudgetChars)
	}
	b.WriteString(".\n")
	for _, it := range res.Items {
		fmt.Fprintf(&b, "\n#%d %s (%s", it.Rank, it.ID, it.Kind)
		if it.Title != "" {
			fmt.Fprintf(&b, ", %q", it.Title)
		}
		fmt.Fprintf(&b, ") score %.2f, %s, text %s\n", it.Score, it.Fidelity, it.ArchiveHash)
		switch {
		case it.Digest != nil:
			writePayload(&b, it.Digest, "  ")
		case it.Summary != nil:
			fmt.Fprintf(&b, "  Summary: %s\n", *it.Summary)
		}
	}
	if len(res.Dropped) > 0 {
		b.WriteString("\nDropped to fit the budget (read later with get_archived_text or digest_source {\"source\": {\"archive\": hash}}):\n")
		for _, it := range res.Dropped {
			fmt.Fprintf(&b, "- %s score %.2f, text %s\n", it.ID, it.Score, it.ArchiveHash)
		}
	}
	if len(res.Failed) > 0 {
		b.WriteString("\nFailed:\n")
		for _, f := range res.Failed {
			fmt.Fprintf(&b, "- %s %s: %s\n", f.ID, f.Code, f.Message)
		}
	}
	return b.String()
}

func renderSlice(s ArchivedText) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s of a text of %d code points", s.ArchiveHash, s.Locator, s.TextChars)
	if s.Page > 0 {
		fmt.Fprintf(&b, ", page %d", s.Page)
	}
	if s.Truncated {
		fmt.Fprintf(&b, " (truncated at %d code points: continue with start=%d)", MaxTextChars, s.End)
	}
	b.WriteString(":\n")
	if s.Before == "" && s.After == "" {
		b.WriteString(s.Text)
		return b.String()
	}
	fmt.Fprintf(&b, "[before] %s\n[span] %s\n[after] %s", s.Before, s.Text, s.After)
	return b.String()
}

func renderVerify(rep *pipeline.VerifyReport, hash string) string {
	var b strings.Builder
	if rep.Verified {
		fmt.Fprintf(&b, "VERIFIED: the payload is valid and all %d snippets equal the archived text %s at their locators.\n", len(rep.Snippets), hash)
		return b.String()
	}
	// The problems name every failure, each snippet's included.
	fmt.Fprintf(&b, "NOT VERIFIED (text found %t, hash matches %t):\n", rep.TextFound, rep.HashMatches)
	for _, p := range rep.Problems {
		fmt.Fprintf(&b, "- %s\n", p)
	}
	return b.String()
}

func renderListing(l SourceListing, page *wire.Pagination) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d archived sources, newest first:\n", len(l.Sources))
	for i, s := range l.Sources {
		fmt.Fprintf(&b, "%d. %s", i+1, s.ArchiveHash)
		if s.Kind != "" {
			fmt.Fprintf(&b, " %s", s.Kind)
		}
		if s.Title != "" {
			fmt.Fprintf(&b, " %q", s.Title)
		}
		if s.URL != "" {
			fmt.Fprintf(&b, " %s", s.URL)
		}
		if s.TextChars > 0 {
			fmt.Fprintf(&b, " (%d code points)", s.TextChars)
		}
		b.WriteString("\n")
	}
	if page.Cursor != nil {
		fmt.Fprintf(&b, "More follow: call list_sources with cursor %q.\n", *page.Cursor)
	}
	return b.String()
}

func renderLinks(page *pipeline.LinksPage) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d of the %d links of %s, from %d:\n", len(page.Links), page.Total, page.ArchiveHash, page.Offset)
	for i, l := range page.Links {
		fmt.Fprintf(&b, "%d. %s", page.Offset+i+1, l.URL)
		if l.Text != "" {
			fmt.Fprintf(&b, " %q", l.Text)
		}
		if l.Locator != nil {
			fmt.Fprintf(&b, " at %s", l.Locator)
		} else {
			b.WriteString(" (outside the main content)")
		}
		b.WriteString("\n")
	}
	if page.More {
		b.WriteString("More follow: call list_links with the cursor of meta.pagination.\n")
	}
	for _, w := range page.Warnings {
		b.WriteString(w.Message + ".\n")
	}
	return b.String()
}

func renderSearch(page *pipeline.SearchPage, p *wire.Pagination) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%d passages (about %d hold a query word), best first:\n", len(page.Hits), page.TotalEstimate)
	for _, h := range page.Hits {
		fmt.Fprintf(&b, "%d. score %.4f %s %s", h.Rank, h.Score, h.Source, h.LocatorString())
		if h.Title != "" {
			fmt.Fprintf(&b, " %q", h.Title)
		}
		fmt.Fprintf(&b, "\n   %s\n", h.Text)
	}
	if p != nil && p.Cursor != nil {
		fmt.Fprintf(&b, "More follow: call search_archive with the same arguments and cursor %q.\n", *p.Cursor)
	}
	return b.String()
}

func renderError(env wire.Envelope) string {
	d, _ := env.Data.(wire.ErrorData)
	msg := ""
	if env.Error != nil {
		msg = *env.Error
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Error %s (%s): %s\nRemediation: %s\nRetryable: %t", d.ErrorCode, d.ErrorType, msg, d.Remediation, d.Retryable)
	if len(d.Details) > 0 {
		if j, err := json.Marshal(d.Details); err == nil {
			fmt.Fprintf(&b, "\nDetails: %s", j)
		}
	}
	fmt.Fprintf(&b, "\nrequest_id: %s", env.Meta.RequestID)
	return b.String()
}
