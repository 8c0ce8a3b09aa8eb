package mcpserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/digestd/digestd/wire"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/digestd/digestd/locate"
	"github.com/digestd/digestd/pipeline"
)

// LocateQuotesInput is the input of locate_quotes.
type LocateQuotesInput struct {
	Sources       []SourceInput `json:"sources"`
	Quotes        []string      `json:"quotes"`
	MinSimilarity float64       `json:"min_similarity,omitempty"`
}

// CheckCitationsInput is the input of check_citations.
type CheckCitationsInput struct {
	Report        string        `json:"report"`
	Sources       []SourceInput `json:"sources,omitempty"`
	MinSimilarity float64       `json:"min_similarity,omitempty"`
}

func locateBounds(s *jsonschema.Schema) {
	src := at(s, "sources")
	one, most := 1, pipeline.MaxLocateSources
	src.MinItems, src.MaxItems = &one, &most
	describe(src, "The sources to look in, %d-%d: archived texts by archive hash (sha256:<64 hex>), or any source digest_source takes. "+
		"Give each an id; the answer names the source of each match by it (default source-1, source-2, ...).", one, most)
	sourceBounds(src.Items)
	q := at(s, "quotes")
	mq := pipeline.MaxQuotes
	q.MinItems, q.MaxItems = &one, &mq
	maxLen(q.Items, pipeline.MaxQuoteChars)
	describe(q, "The quotes to locate, %d-%d, each at most %d code points.", one, mq, pipeline.MaxQuoteChars)
	intRange(at(s, "min_similarity"), 0, 1)
	describe(at(s, "min_similarity"), "Least similarity of a fuzzy match, %d-%d (default %g): 1 − word edit distance / the larger word count; "+
		"one word in ten changed or dropped gives nine tenths.", 0, 1, locate.DefaultMinSimilarity)
}

func checkBounds(s *jsonschema.Schema) {
	src := at(s, "sources")
	most := pipeline.MaxLocateSources
	src.MaxItems = &most
	describe(src, "The sources the report's [id] citations name (%d-%d), each with its id; citations by hash need none.", 0, most)
	sourceBounds(src.Items)
	maxLen(at(s, "report"), pipeline.MaxReportChars)
	describe(at(s, "report"), "The report, markdown or plain text, at most %d code points. "+
		"Citations: [sha256:<hex>] or [sha256:<hex>#char:S-E] (archived text and cited span), [id] or [id#char:S-E] (a source given in sources; [1] is the id 1), "+
		"or footnotes [^n] with a line [^n]: REF \"quote\". Quotes are text in double quotes in the citing sentence before the marker.", pipeline.MaxReportChars)
	intRange(at(s, "min_similarity"), 0, 1)
	describe(at(s, "min_similarity"), "Least similarity of a fuzzy quote match, %d-%d (default %g).", 0, 1, locate.DefaultMinSimilarity)
}

// registerLocate adds locate_quotes and check_citations.
func (t *tools) registerLocate(srv *mcp.Server) {
	no := false
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "locate_quotes",
		Title: "Locate quotes in sources",
		Description: "Find where quotes are in archived (or given) sources, to cite them with a locator anyone can check. For each quote, the best span over all sources: " +
			"match exact, normalized (equal after folding case, white space, quote marks, dashes, ligatures, Unicode compatibility forms and hyphenation at line ends), " +
			"fuzzy (the most similar span, similarity ≥ min_similarity), or not_found. locator is char:S-E (page:N:char:S-E for PDFs) in Unicode code points, " +
			"and text is always text[S:E] of the archived canonical text, never the quote itself.",
		InputSchema:  mustInputSchema[LocateQuotesInput](locateBounds),
		OutputSchema: envelopeSchema("{results: [{quote_index, match, source_id, locator, text, similarity}] (one per quote, in order; source_id, locator and text null when not_found), counts: {exact, normalized, fuzzy, not_found}, sources: [{id, archive_hash, kind, title?}]}"),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: false, IdempotentHint: true, OpenWorldHint: &no},
	}, t.locateQuotes)
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "check_citations",
		Title: "Check a report's citations",
		Description: "Check every citation of a finished report against the archived source it names. Each citation is supported (the quote is at the cited place, or in the source when no place is cited), " +
			"moved (it is elsewhere in the source: locator gives the right place), not_found, or unknown_source. A citation without a quote is checked by its sentence: " +
			"support gives the source's best-supporting span and a lexical score in [0,1] (supported from 0.5). data.counts counts the statuses; one warning per problem class.",
		InputSchema:  mustInputSchema[CheckCitationsInput](checkBounds),
		OutputSchema: envelopeSchema("{citations: [{index, marker, report_locator, sentence, ref, source_id, archive_hash, cited_locator, quote, status, match, similarity, locator, text, support?: {locator, text, score}}], counts: {supported, moved, not_found, unknown_source}, sources}"),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: false, IdempotentHint: true, OpenWorldHint: &no},
	}, t.checkCitations)
}

func specs(in []SourceInput) []wire.SourceSpec {
	out := make([]wire.SourceSpec, 0, len(in))
	for _, s := range in {
		out = append(out, *s.spec())
	}
	return out
}

// writeFailures adds a line per failed source to a tool's text answer.
func writeFailures(b *strings.Builder, failed []pipeline.Failure) {
	for _, f := range failed {
		fmt.Fprintf(b, "source %s failed: %s (%s)\n", f.ID, f.Message, f.Code)
	}
}

func warningsMeta(ws []pipeline.Warning, failed []pipeline.Failure) wire.Meta {
	var meta wire.Meta
	meta.AddWarnings(ws)
	meta.AddFailures(failed)
	return meta
}

func (t *tools) locateQuotes(ctx context.Context, _ *mcp.CallToolRequest, in LocateQuotesInput) (*mcp.CallToolResult, wire.Envelope, error) {
	c := newCall("locate_quotes")
	srcs, failed, err := wire.LocateSources(specs(in.Sources))
	if err != nil {
		return c.fail(t.log, err)
	}
	res, err := t.pipe.Locate(ctx, pipeline.LocateRequest{Sources: srcs, Failed: failed, Quotes: in.Quotes, MinSimilarity: in.MinSimilarity})
	if err != nil {
		return c.fail(t.log, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d quotes: %d exact, %d normalized, %d fuzzy, %d not found.\n", len(res.Results),
		res.Counts["exact"], res.Counts["normalized"], res.Counts["fuzzy"], res.Counts["not_found"])
	for _, r := range res.Results {
		if r.Locator == nil {
			fmt.Fprintf(&b, "[%d] not found\n", r.QuoteIndex)
			continue
		}
		fmt.Fprintf(&b, "[%d] %s in %s at %s (similarity %.2f): %q\n", r.QuoteIndex, r.Match, *r.SourceID, *r.Locator, r.Similarity, *r.Text)
	}
	writeFailures(&b, res.Failed)
	return c.ok(wire.Success(res, warningsMeta(res.Warnings, res.Failed), c.id, c.start), b.String())
}

func (t *tools) checkCitations(ctx context.Context, _ *mcp.CallToolRequest, in CheckCitationsInput) (*mcp.CallToolResult, wire.Envelope, error) {
	c := newCall("check_citations")
	srcs, failed, err := wire.LocateSources(specs(in.Sources))
	if err != nil {
		return c.fail(t.log, err)
	}
	res, err := t.pipe.Check(ctx, pipeline.CheckRequest{Report: in.Report, Sources: srcs, Failed: failed, MinSimilarity: in.MinSimilarity})
	if err != nil {
		return c.fail(t.log, err)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d citations: %d supported, %d moved, %d not found, %d unknown source.\n", len(res.Citations),
		res.Counts["supported"], res.Counts["moved"], res.Counts["not_found"], res.Counts["unknown_source"])
	for _, cr := range res.Citations {
		fmt.Fprintf(&b, "[%d] %s %s", cr.Index, cr.Marker, cr.Status)
		if cr.Locator != nil {
			fmt.Fprintf(&b, " at %s", *cr.Locator)
		}
		if cr.Support != nil && cr.Quote == nil {
			fmt.Fprintf(&b, " (support %.2f)", cr.Support.Score)
		}
		b.WriteString("\n")
	}
	writeFailures(&b, res.Failed)
	return c.ok(wire.Success(res, warningsMeta(res.Warnings, res.Failed), c.id, c.start), b.String())
}
