package mcpserver

import (
	"context"
	"fmt"
	"log/slog"
	"strconv"
	"time"
	"unicode/utf8"

	"github.com/digestd/digestd/wire"

	"github.com/google/jsonschema-go/jsonschema"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/pipeline"
)

// Bounds of the tools' inputs and answers.
const (
	// MaxSources is the most sources one digest_sources call takes (the
	// HTTP API's bound).
	MaxSources = wire.MaxSources
	// MaxTextChars is the most code points of archived text one
	// get_archived_text answer carries; longer texts and spans are cut there
	// and marked truncated.
	MaxTextChars = 50_000
	// DefaultListLimit and MaxListLimit bound a list_sources page.
	DefaultListLimit = pipeline.DefaultListLimit
	MaxListLimit     = pipeline.MaxListLimit
)

// SourceInput is one source as the tools take it: exactly one of URL, HTML,
// PDFBase64, FileBase64, Text and Archive.
type SourceInput struct {
	ID           string   `json:"id,omitempty" jsonschema:"Your name for the source, echoed back in the answer (optional; unique within one call)."`
	URL          string   `json:"url,omitempty" jsonschema:"An absolute public http(s) URL to fetch; it may be any source kind file_base64 takes. Private, loopback and link-local addresses are refused (FETCH_BLOCKED)."`
	HTML         string   `json:"html,omitempty" jsonschema:"An HTML document; its main content is extracted."`
	PDFBase64    string   `json:"pdf_base64,omitempty" jsonschema:"A PDF file in standard base64 (RFC 4648 with padding). Pages are joined by U+000C in the canonical text and snippets get page:N:char:S-E locators."`
	FileBase64   string   `json:"file_base64,omitempty"`
	FileName     string   `json:"file_name,omitempty" jsonschema:"The file name of file_base64 (optional; its extension helps tell the kind)."`
	Text         string   `json:"text,omitempty" jsonschema:"Plain UTF-8 text."`
	Archive      string   `json:"archive,omitempty" jsonschema:"The hash (sha256:<64 hex>) of a canonical text archived earlier (a source_text_hash or archive_hash): digests it again, for a new query, without sending it again."`
	ContentType  string   `json:"content_type,omitempty" jsonschema:"The Content-Type of html when it names a charset other than UTF-8, or of file_base64 (optional)."`
	Render       string   `json:"render,omitempty"`
	OCR          string   `json:"ocr,omitempty"`
	OCRLanguages []string `json:"ocr_languages,omitempty"`
	Labels       []string `json:"labels,omitempty" jsonschema:"Labels added to the source's (a project, a research session); list_sources and search_archive filter by them. Never part of the source's hash."`
}

// spec converts the input into the HTTP API's source spec, so the same
// checks (exactly one field, base64, hash syntax) apply.
func (s SourceInput) spec() *wire.SourceSpec {
	return &wire.SourceSpec{ID: s.ID, URL: s.URL, HTML: s.HTML, PDFBase64: s.PDFBase64, FileBase64: s.FileBase64, FileName: s.FileName,
		Text: s.Text, Archive: s.Archive, ContentType: s.ContentType, Render: s.Render, OCR: s.OCR, OCRLanguages: s.OCRLanguages, Labels: s.Labels}
}

// OptionsInput bounds one digest; omitted fields take the payload maxima,
// given ones are used as given (max_key_points 0: no key points). The
// descriptions of its fields, and of every bounded field, are written by
// the schema's bounds functions from the constants (see describe).
type OptionsInput struct {
	MaxEvidence     *int `json:"max_evidence,omitempty"`
	MaxKeyPoints    *int `json:"max_key_points,omitempty"`
	SnippetMaxChars *int `json:"snippet_max_chars,omitempty"`
	SummaryMaxChars *int `json:"summary_max_chars,omitempty"`
}

// spec converts the input into the HTTP API's options, so the same range
// checks apply.
func (o *OptionsInput) spec() *wire.OptionsSpec {
	if o == nil {
		return nil
	}
	return &wire.OptionsSpec{MaxEvidence: o.MaxEvidence, MaxKeyPoints: o.MaxKeyPoints, SnippetMaxChars: o.SnippetMaxChars, SummaryMaxChars: o.SummaryMaxChars}
}

// DigestSourceInput is the input of digest_source.
type DigestSourceInput struct {
	Query   string        `json:"query"`
	Source  SourceInput   `json:"source" jsonschema:"The source: exactly one of url, html, pdf_base64, file_base64, text or archive."`
	Options *OptionsInput `json:"options,omitempty" jsonschema:"Size bounds of the digest (optional)."`
	Fields  []string      `json:"fields,omitempty"`
}

// BudgetInput bounds a digest_sources answer.
type BudgetInput struct {
	MaxChars  int `json:"max_chars,omitempty" jsonschema:"Most characters of the digests' JSON in the answer (0 or omitted: no bound)."`
	MaxTokens int `json:"max_tokens,omitempty"`
}

// DigestSourcesInput is the input of digest_sources.
type DigestSourcesInput struct {
	Query   string        `json:"query"`
	Sources []SourceInput `json:"sources"`
	Budget  *BudgetInput  `json:"budget,omitempty" jsonschema:"Size bound of the answer. Digests are ranked by how well they answer the query and packed best first; one that does not fit whole is cut to its summary, then to a reference (hashes only), then dropped. Dropped sources keep their archive hashes in meta.content_archive_hashes."`
	Detail  string        `json:"detail,omitempty" jsonschema:"The disclosure level, the most each digest may carry: full (default: summary, key points, evidence, source), summary or preview (the summary), metadata (title, url, kind, counts, fidelity) or ids_only (id, rank, score and hashes)."`
	Fields  []string      `json:"fields,omitempty" jsonschema:"The item fields to return, from the detail level's whitelist (optional); others give INVALID_FIELDS with details.allowed_fields."`
	Options *OptionsInput `json:"options,omitempty" jsonschema:"Size bounds of each digest (optional)."`
}

// GetArchivedTextInput is the input of get_archived_text.
type GetArchivedTextInput struct {
	Hash    string `json:"hash" jsonschema:"The text's archive hash: sha256:<64 hex>, as in source_text_hash or archive_hash."`
	Locator string `json:"locator,omitempty" jsonschema:"A snippet's locator: char:S-E, or page:N:char:S-E for a PDF (N = 1-based page, S-E offsets into the whole text). S and E are Unicode code points, end exclusive: the span is text[S:E] as Python slices a str."`
	Start   *int   `json:"start,omitempty" jsonschema:"Start of the span in Unicode code points (inclusive); give end too. Ignored when locator is given."`
	End     *int   `json:"end,omitempty" jsonschema:"End of the span in Unicode code points (exclusive)."`
	Context int    `json:"context,omitempty"`
}

// VerifyDigestInput is the input of verify_digest.
type VerifyDigestInput struct {
	Payload wire.Payload `json:"payload" jsonschema:"A DigestPayload exactly as digest_source or digest_sources returned it (data.digest)."`
}

// ListLinksInput is the input of list_links.
type ListLinksInput struct {
	Hash   string `json:"hash" jsonschema:"The source's archive hash: sha256:<64 hex>, as in archive_hash or source_text_hash."`
	Limit  int    `json:"limit,omitempty"`
	Cursor string `json:"cursor,omitempty" jsonschema:"The meta.pagination.cursor of the previous page; omit for the first page."`
}

// ListSourcesInput is the input of list_sources.
type ListSourcesInput struct {
	Limit  int    `json:"limit,omitempty"`
	Cursor string `json:"cursor,omitempty" jsonschema:"The meta.pagination.cursor of the previous page; omit for the first page."`
	Label  string `json:"label,omitempty" jsonschema:"Only sources that carry this label (labels are given with a source when it is digested)."`
	Kind   string `json:"kind,omitempty" jsonschema:"Only sources of this kind."`
}

// tools holds what the tool handlers share.
type tools struct {
	pipe    *pipeline.Pipeline
	log     *slog.Logger
	monitor *wire.Monitor
	cursors *wire.Cursors
}

// ServiceHealthInput is the input of get_service_health (none).
type ServiceHealthInput struct{}

// CacheStatsInput is the input of get_cache_stats (none).
type CacheStatsInput struct{}

// ToolNames lists the tools the server offers, in the order register adds
// them: the one list help texts and documentation name them from
// (TestListTools holds it to tools/list).
func ToolNames() []string {
	return []string{
		wire.ToolDigestSource, wire.ToolDigestSources, wire.ToolGetArchivedText, wire.ToolVerifyDigest, wire.ToolListSources,
		wire.ToolListLinks, wire.ToolSearchArchive, wire.ToolLocateQuotes, wire.ToolCheckCitations, wire.ToolServiceHealth, wire.ToolCacheStats,
	}
}

func (t *tools) register(srv *mcp.Server) {
	yes, no := true, false
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "digest_source",
		Title: "Digest one source",
		Description: fmt.Sprintf("Digest one source (a URL, HTML, a base64 PDF, plain text, or the hash of an archived text) for a research question. "+
			"The answer's data.digest is a DigestPayload v%s: summary (≤ %d code points), ≤ %d key points (≤ %d each), ≤ %d evidence snippets (≤ %d each) "+
			"with relevance_score in [0,1], best first, a locator into the archived canonical text named by source_text_hash, "+
			"and, where the source has headings, its section: the heading path it lies in (≤ %d headings of ≤ %d code points; the page's title is data.source.title). "+
			"Offsets are Unicode code points; text[S:E] equals each snippet exactly. The canonical text is archived: read it with get_archived_text or the resource digestd://archive/<hash>.",
			digest.PayloadVersion, digest.MaxSummaryChars, digest.MaxKeyPoints, digest.MaxKeyPointChars, digest.MaxEvidence, digest.MaxSnippetChars,
			digest.MaxSectionDepth, digest.MaxSectionHeadingChars),
		InputSchema:  mustInputSchema[DigestSourceInput](digestSourceBounds),
		OutputSchema: envelopeSchema("{digest: DigestPayload, source: {id, archive_hash, record_hash, kind, title, canonicalizer, record, links?: [{url, text, in_main, locator}]}, digest_hash}"),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: false, IdempotentHint: true, OpenWorldHint: &yes},
	}, t.digestSource)
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "digest_sources",
		Title: "Digest several sources within a budget",
		Description: fmt.Sprintf("Digest up to %d sources for one research question, rank them by how well they answer it, and pack the best into a size budget. "+
			"data.digests lists the included sources best first, with the fields of the detail level (ids_only, metadata, summary, full); data.failed lists sources that could not be digested, with their error_code. "+
			"meta.content_fidelity is full when nothing was cut; meta.dropped_content_ids names sources left out, and meta.content_archive_hashes maps every digested source's id to the sha256 hash of its full digest (read it with the HTTP API's GET /v1/archive/{hash}; its payload names the text by source_text_hash).", MaxSources),
		InputSchema:  mustInputSchema[DigestSourcesInput](digestSourcesBounds),
		OutputSchema: envelopeSchema("{query, query_hash, digests: [{id, rank, score, archive_hash, digest_hash, fidelity?, kind?, title?, url?, original_chars?, page_count?, summary?, digest?, source?} (the fields of the detail level)], total_sources, included, dropped, failed: [{id, error_code, message}]}"),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: false, IdempotentHint: true, OpenWorldHint: &yes},
	}, t.digestSources)
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "get_archived_text",
		Title: "Read archived canonical text",
		Description: fmt.Sprintf("Read an archived canonical text by its hash: a snippet's span (locator, or start and end), with optional context on each side, or the whole text when no span is given. "+
			"Offsets are Unicode code points. At most %d code points are returned: a longer text or span is cut there and marked truncated; ask for the rest with start and end.", MaxTextChars),
		InputSchema:  mustInputSchema[GetArchivedTextInput](archivedTextBounds),
		OutputSchema: envelopeSchema("{archive_hash, locator, start, end, page?, text, context_before?, context_after?, text_chars, truncated, resource_uri}"),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, t.getArchivedText)
	mcp.AddTool(srv, &mcp.Tool{
		Name:  "verify_digest",
		Title: "Verify a digest",
		Description: "Check a DigestPayload against the archive: every bound and pattern of the payload, that the text named by source_text_hash is archived, " +
			"and that every evidence snippet equals the archived text at its locator. data.valid (and data.verified, the same) is true only when all of these hold; data.problems names each failure, a snippet's as evidence_snippets[i].",
		InputSchema:  mustInputSchema[VerifyDigestInput](verifyBounds),
		OutputSchema: envelopeSchema("{verified, valid, problems: [string], text_found, hash_matches, snippets: [{index, locator, verified, problem?}]}"),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, t.verifyDigest)
	mcp.AddTool(srv, &mcp.Tool{
		Name:         "list_sources",
		Title:        "List archived sources",
		Description:  "List the sources archived on this server, newest first, with their archive hashes, kind, title, URL and labels; label and kind select some. Page with limit and the cursor from meta.pagination.",
		InputSchema:  mustInputSchema[ListSourcesInput](listBounds),
		OutputSchema: envelopeSchema("{sources: [{archive_hash, record_hash, kind, title, url, text_chars, page_count, fetched_at, labels, resource_uri}]}; meta.pagination has the cursor of the next page"),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: false, OpenWorldHint: &no},
	}, t.listSources)
	mcp.AddTool(srv, &mcp.Tool{
		Name:  wire.ToolListLinks,
		Title: "List a source's links",
		Description: fmt.Sprintf("List the links of an archived source, a page at a time: each with its absolute url, its anchor text, in_main (the link is in the canonical text, the main content) and "+
			"its locator there (null for a link the page holds outside it: navigation, footers), the main content's links in text order first, then the page's others, each target once. "+
			"At most %d a page; page with the cursor from meta.pagination. Links that are not known (a source archived without its structure, or a page archived before its outside links were kept) are said by a NO_STRUCTURE warning; "+
			"outside counts a page's links outside its main content, total and listed (the first, which its archive keeps), and a CONTENT_TRUNCATED warning with context.reason %s says when some were not kept.", pipeline.MaxLinksLimit, pipeline.ReasonOutsideLinks),
		InputSchema:  mustInputSchema[ListLinksInput](linksBounds),
		OutputSchema: envelopeSchema("{archive_hash, record_hash, total, offset, links: [{url, text, in_main, locator}], outside?: {total, listed}}; meta.pagination has the cursor of the next page"),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, t.listLinks)
	mcp.AddTool(srv, &mcp.Tool{
		Name:  wire.ToolSearchArchive,
		Title: "Search the archive",
		Description: fmt.Sprintf("Ask a question across every source archived on this server (or those a filter selects by kind, archive hash, label or time archived) "+
			"and get ranked passages: each a verbatim slice of its source's canonical text at a verified locator, with the source's archive_hash, "+
			"a score (the chance that it answers, on the scale of relevance_score) and a ranking context (matched_terms, matched_field, relevance_score, source_score). "+
			"detail and fields as in digest_sources (ids_only, metadata, summary or preview, full); group_by source gives the best passage of each source. "+
			"At most %d results a page; page with the cursor from meta.pagination, with the same query and filter.", pipeline.MaxSearchLimit),
		InputSchema:  mustInputSchema[wire.SearchRequest](searchBounds),
		OutputSchema: envelopeSchema("{query, results: [{rank, score, archive_hash, locator, kind?, title?, url?, ranking?, text?, labels?} (the fields of the detail level)], total_estimate, group_by?}; meta.pagination has the cursor of the next page"),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: true, OpenWorldHint: &no},
	}, t.searchArchive)
	t.registerLocate(srv)
	t.registerMonitoring(srv)
}

func (t *tools) registerMonitoring(srv *mcp.Server) {
	no := false
	mcp.AddTool(srv, &mcp.Tool{
		Name:         wire.ToolServiceHealth,
		Title:        "Service health",
		Description:  "The health of the service and each component (archive, PDF workers, fetcher): status healthy, degraded or unhealthy, healthy_services of total_services. An unhealthy service is a tool error UNAVAILABLE whose data still holds the component statuses.",
		InputSchema:  mustInputSchema[ServiceHealthInput](func(*jsonschema.Schema) {}),
		OutputSchema: envelopeSchema("{status, version, uptime_seconds, healthy_services, total_services, components: {name: {status, details?}}}"),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: false, OpenWorldHint: &no},
	}, t.serviceHealth)
	mcp.AddTool(srv, &mcp.Tool{
		Name:         wire.ToolCacheStats,
		Title:        "Digest cache statistics",
		Description:  "The digest cache's counters since the server started: total_requests (digest lookups), cache_hits, cache_misses and hit_rate.",
		InputSchema:  mustInputSchema[CacheStatsInput](func(*jsonschema.Schema) {}),
		OutputSchema: envelopeSchema("{total_requests, cache_hits, cache_misses, hit_rate}"),
		Annotations:  &mcp.ToolAnnotations{ReadOnlyHint: true, IdempotentHint: false, OpenWorldHint: &no},
	}, t.cacheStats)
}

func (t *tools) serviceHealth(ctx context.Context, _ *mcp.CallToolRequest, _ ServiceHealthInput) (*mcp.CallToolResult, wire.Envelope, error) {
	c := newCall(wire.ToolServiceHealth)
	h := t.monitor.Health(ctx)
	text := fmt.Sprintf("%s: %d of %d services healthy", h.Status, h.HealthyServices, h.TotalServices)
	if h.Status == "unhealthy" {
		res, env, err := c.fail(t.log, t.monitor.HealthError(h))
		env.Data = wire.UnhealthyData{ErrorData: env.Data.(wire.ErrorData), HealthData: h}
		return res, env, err
	}
	return c.ok(wire.Success(h, wire.Meta{}, c.id, c.start), text)
}

func (t *tools) cacheStats(ctx context.Context, _ *mcp.CallToolRequest, _ CacheStatsInput) (*mcp.CallToolResult, wire.Envelope, error) {
	c := newCall(wire.ToolCacheStats)
	cs := t.monitor.CacheStats()
	text := fmt.Sprintf("%d digest requests since start: %d cache hits, %d misses (hit rate %.2f)", cs.TotalRequests, cs.CacheHits, cs.CacheMisses, cs.HitRate)
	return c.ok(wire.Success(cs, wire.Meta{}, c.id, c.start), text)
}

// call is one tool call's request id and start time.
type call struct {
	id    string
	start time.Time
	tool  string
}

func newCall(tool string) call { return call{id: wire.NewRequestID(), start: time.Now(), tool: tool} }

// ok answers a successful call: the envelope as structured content, text
// (and any links) as content.
func (c call) ok(env wire.Envelope, text string, links ...mcp.Content) (*mcp.CallToolResult, wire.Envelope, error) {
	env.Meta.ToolID = c.tool
	content := append([]mcp.Content{&mcp.TextContent{Text: text}}, links...)
	return &mcp.CallToolResult{Content: content}, env, nil
}

// fail answers a failed call with the error envelope the HTTP API would
// send, as a tool error. Internal causes are logged, never sent.
func (c call) fail(log *slog.Logger, err error) (*mcp.CallToolResult, wire.Envelope, error) {
	env, status := wire.Failure(err, wire.Meta{}, c.id, c.start)
	env.Meta.ToolID = c.tool
	code := env.Data.(wire.ErrorData).ErrorCode
	if status >= 500 {
		log.Error("tool call failed", "tool", c.tool, "request_id", c.id, "code", code, "err", err)
	} else {
		log.Info("tool call rejected", "tool", c.tool, "request_id", c.id, "code", code, "err", err)
	}
	return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: renderError(env)}}}, env, nil
}

func (t *tools) digestSource(ctx context.Context, _ *mcp.CallToolRequest, in DigestSourceInput) (*mcp.CallToolResult, wire.Envelope, error) {
	c := newCall("digest_source")
	opts, err := in.Options.spec().Options()
	if err != nil {
		return c.fail(t.log, err)
	}
	req, err := in.Source.spec().Request(in.Query, opts)
	if err != nil {
		return c.fail(t.log, err)
	}
	if req.Links, err = wire.SourceFieldsOf(in.Fields); err != nil {
		return c.fail(t.log, err)
	}
	res, err := t.pipe.Digest(ctx, req)
	if err != nil {
		return c.fail(t.log, err)
	}
	env, _ := wire.ResultEnvelope(res, nil, c.id, c.start)
	return c.ok(env, renderDigest(res), archiveLink(res.Source.ArchiveHash.String(), res.Source.Title))
}

func (t *tools) digestSources(ctx context.Context, _ *mcp.CallToolRequest, in DigestSourcesInput) (*mcp.CallToolResult, wire.Envelope, error) {
	c := newCall("digest_sources")
	body := &wire.DigestsRequest{Query: in.Query, Detail: in.Detail, Fields: in.Fields}
	for _, s := range in.Sources {
		body.Sources = append(body.Sources, *s.spec())
	}
	if in.Budget != nil {
		body.Budget = &wire.BudgetSpec{MaxChars: in.Budget.MaxChars, MaxTokens: in.Budget.MaxTokens}
	}
	body.Options = in.Options.spec()
	// The HTTP API's own checks and conversion, so both answer alike.
	req, fields, err := body.PipelineRequest()
	if err != nil {
		return c.fail(t.log, err)
	}
	res, err := t.pipe.DigestMany(ctx, req)
	if err != nil {
		return c.fail(t.log, err)
	}
	return c.ok(wire.DigestsEnvelope(body, req, fields, res, wire.Meta{}, c.id, c.start), renderMany(res))
}

// ArchivedText is data of a get_archived_text answer: the span, with
// whether it was cut at MaxTextChars and the text's resource URI.
type ArchivedText struct {
	*pipeline.Slice
	Truncated   bool   `json:"truncated"`
	ResourceURI string `json:"resource_uri"`
}

func (t *tools) getArchivedText(ctx context.Context, _ *mcp.CallToolRequest, in GetArchivedTextInput) (*mcp.CallToolResult, wire.Envelope, error) {
	c := newCall("get_archived_text")
	d, err := parseHash(in.Hash)
	if err != nil {
		return c.fail(t.log, err)
	}
	if in.Context < 0 || in.Context > pipeline.MaxSliceContext {
		return c.fail(t.log, fault.E(fault.ValidationError, fmt.Sprintf("context: must be between 0 and %d", pipeline.MaxSliceContext)).With("field", "context"))
	}
	var out ArchivedText
	if in.Locator == "" && in.Start == nil && in.End == nil {
		out, err = t.wholeText(ctx, d)
	} else {
		out, err = t.span(ctx, d, in)
	}
	if err != nil {
		return c.fail(t.log, err)
	}
	out.ResourceURI = ArchiveURI(d.String())
	var meta wire.Meta
	if out.Truncated {
		meta.AddWarning(fault.ContentTruncated,
			fmt.Sprintf("only %d code points are returned at once; ask for the next span with start=%d", MaxTextChars, out.End),
			map[string]any{"text_chars": out.TextChars, "returned": out.Locator})
	}
	return c.ok(wire.Success(out, meta, c.id, c.start), renderSlice(out))
}

// wholeText returns the archived text d, cut at MaxTextChars.
func (t *tools) wholeText(ctx context.Context, d archive.Hash) (ArchivedText, error) {
	b, err := t.pipe.Blob(ctx, d)
	if err != nil {
		return ArchivedText{}, err
	}
	if !utf8.Valid(b) {
		return ArchivedText{}, fault.E(fault.InvalidFormat, "the archived blob is not text")
	}
	text := string(b)
	n := utf8.RuneCount(b)
	out := ArchivedText{Slice: &pipeline.Slice{ArchiveHash: d, TextChars: n}}
	end := n
	if n > MaxTextChars {
		end = MaxTextChars
		out.Truncated = true
		text = cutRunes(text, end)
	}
	loc := digest.Locator{Start: 0, End: end}
	out.Locator, out.Start, out.End, out.Text = loc, 0, end, text
	return out, nil
}

// span returns the span in asks for, cut at MaxTextChars.
func (t *tools) span(ctx context.Context, d archive.Hash, in GetArchivedTextInput) (ArchivedText, error) {
	var start, end string
	if in.Start != nil {
		start = strconv.Itoa(*in.Start)
	}
	if in.End != nil {
		end = strconv.Itoa(*in.End)
	}
	loc, err := wire.ParseSpan(in.Locator, start, end)
	if err != nil {
		return ArchivedText{}, err
	}
	truncated := false
	if loc.Len() > MaxTextChars {
		loc.End = loc.Start + MaxTextChars
		truncated = true
	}
	s, err := t.pipe.SliceText(ctx, d, loc, in.Context)
	if err != nil {
		return ArchivedText{}, err
	}
	return ArchivedText{Slice: s, Truncated: truncated}, nil
}

// cutRunes returns the first n code points of s.
func cutRunes(s string, n int) string {
	i := 0
	for b := range s {
		if i == n {
			return s[:b]
		}
		i++
	}
	return s
}

func (t *tools) verifyDigest(ctx context.Context, _ *mcp.CallToolRequest, in VerifyDigestInput) (*mcp.CallToolResult, wire.Envelope, error) {
	c := newCall("verify_digest")
	rep, err := t.pipe.Verify(ctx, in.Payload.Value())
	if err != nil {
		return c.fail(t.log, err)
	}
	return c.ok(wire.Success(wire.VerifyDataOf(rep, &in.Payload), wire.Meta{}, c.id, c.start), renderVerify(rep, in.Payload.SourceTextHash))
}

// SourceListing is data of a list_sources answer.
type SourceListing struct {
	Sources []ListedSource `json:"sources"`
}

// ListedSource is one archived source in a listing: what GET /v1/sources
// lists, and the text's resource URI.
type ListedSource struct {
	wire.SourceListItem
	ResourceURI string `json:"resource_uri"`
}

func (t *tools) listSources(ctx context.Context, _ *mcp.CallToolRequest, in ListSourcesInput) (*mcp.CallToolResult, wire.Envelope, error) {
	c := newCall("list_sources")
	var after string
	if in.Cursor != "" {
		var err error
		if after, err = t.cursors.Decode(wire.ListingSources, in.Cursor); err != nil {
			return c.fail(t.log, err)
		}
	}
	listed, err := t.pipe.ListSourcesWhere(ctx, pipeline.ListFilter{Label: in.Label, Kind: in.Kind}, after, in.Limit) // 0: the default
	if err != nil {
		return c.fail(t.log, err)
	}
	out := SourceListing{Sources: []ListedSource{}}
	for _, e := range listed.Sources {
		out.Sources = append(out.Sources, ListedSource{SourceListItem: e, ResourceURI: ArchiveURI(e.ArchiveHash.String())})
	}
	page := &wire.Pagination{HasMore: listed.More, PageSize: len(out.Sources)}
	if listed.More {
		cur := t.cursors.Encode(wire.ListingSources, listed.Next)
		page.Cursor = &cur
	}
	return c.ok(wire.Success(out, wire.Meta{Pagination: page}, c.id, c.start), renderListing(out, page))
}

func (t *tools) listLinks(ctx context.Context, _ *mcp.CallToolRequest, in ListLinksInput) (*mcp.CallToolResult, wire.Envelope, error) {
	c := newCall(wire.ToolListLinks)
	d, err := parseHash(in.Hash)
	if err != nil {
		return c.fail(t.log, err)
	}
	env, page, err := wire.ListLinks(ctx, t.pipe, t.cursors, wire.LinksRequest{Hash: d, Limit: in.Limit, Cursor: in.Cursor}, wire.Meta{}, c.id, c.start)
	if err != nil {
		return c.fail(t.log, err)
	}
	return c.ok(env, renderLinks(page))
}

func (t *tools) searchArchive(ctx context.Context, _ *mcp.CallToolRequest, in wire.SearchRequest) (*mcp.CallToolResult, wire.Envelope, error) {
	c := newCall(wire.ToolSearchArchive)
	req, fields, err := in.PipelineRequest(t.cursors)
	if err != nil {
		return c.fail(t.log, err)
	}
	page, err := t.pipe.Search(ctx, req)
	if err != nil {
		return c.fail(t.log, err)
	}
	env, err := wire.SearchEnvelope(ctx, &in, fields, page, t.pipe.Labels, t.cursors, wire.Meta{}, c.id, c.start)
	if err != nil {
		return c.fail(t.log, err)
	}
	return c.ok(env, renderSearch(page, env.Meta.Pagination))
}

// parseHash reads an archive hash given to a tool.
func parseHash(s string) (archive.Hash, error) {
	d, err := archive.ParseHash(s)
	if err != nil {
		return archive.Hash{}, fault.E(fault.ValidationError, "hash: must be sha256:<64 hex digits>").With("field", "hash")
	}
	return d, nil
}
