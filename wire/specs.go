package wire

import (
	"encoding/base64"
	"fmt"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/htmltext"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/pipeline"
)

// SourceSpec is a source as a client sends it: exactly one of URL, HTML,
// PDFBase64, FileBase64, Text and Archive.
type SourceSpec struct {
	ID        string `json:"id,omitempty"`
	URL       string `json:"url,omitempty"`
	HTML      string `json:"html,omitempty"`
	PDFBase64 string `json:"pdf_base64,omitempty"`
	// FileBase64 is a file of any kind digestd reads, its kind detected
	// from ContentType, FileName and its bytes.
	FileBase64  string `json:"file_base64,omitempty"`
	FileName    string `json:"file_name,omitempty"`
	Text        string `json:"text,omitempty"`
	Archive     string `json:"archive,omitempty"`
	ContentType string `json:"content_type,omitempty"`
	// Labels are added to the source's labels; never part of its hash.
	Labels []string `json:"labels,omitempty"`
	// Render is for a URL: never (the default), auto or always (see
	// ingest.Source.Render).
	Render string `json:"render,omitempty"`
	// OCR and OCRLanguages are for a PDF, an image or a URL: when to read
	// by OCR and in which languages (see ingest.Source.OCR).
	OCR          string   `json:"ocr,omitempty"`
	OCRLanguages []string `json:"ocr_languages,omitempty"`
}

// DigestRequest is the body of POST /v1/digest. Fields names optional
// parts of data.source to add (pipeline.SourceFields; see SourceFieldsOf).
type DigestRequest struct {
	Query   string       `json:"query"`
	Source  *SourceSpec  `json:"source"`
	Options *OptionsSpec `json:"options,omitempty"`
	Fields  []string     `json:"fields,omitempty"`
}

// DigestData is data of a successful POST /v1/digest.
type DigestData struct {
	Digest     *Payload     `json:"digest"`
	Source     Source       `json:"source"`
	DigestHash archive.Hash `json:"digest_hash"`
}

// Source is what is known of a digested source as it is sent: data.source
// of a digest and the source of a full item (see RenderItem).
type Source struct {
	ID            string         `json:"id"`
	ArchiveHash   archive.Hash   `json:"archive_hash"`
	RecordHash    archive.Hash   `json:"record_hash,omitzero"`
	Kind          string         `json:"kind"`
	Title         string         `json:"title,omitempty"`
	Canonicalizer string         `json:"canonicalizer"`
	Record        *ingest.Record `json:"record,omitempty"`
	// Decisions are the HTML extractor's decisions on the page, when the
	// source asked for them.
	Decisions []htmltext.Decision `json:"decisions,omitempty"`
	Links     *[]pipeline.Link    `json:"links,omitempty"`
}

// RenderSource returns info as it is sent.
func RenderSource(info pipeline.SourceInfo) Source { return Source(info) }

// Request converts a source spec into a pipeline request.
func (spec *SourceSpec) Request(query string, opts digest.Options) (pipeline.Request, error) {
	req := pipeline.Request{ID: spec.ID, Query: query, Options: opts, Labels: spec.Labels}
	set := 0
	for _, v := range []string{spec.URL, spec.HTML, spec.PDFBase64, spec.FileBase64, spec.Text, spec.Archive} {
		if v != "" {
			set++
		}
	}
	switch {
	case set == 0:
		return req, fault.E(fault.MissingRequired, "source: one of url, html, pdf_base64, file_base64, text or archive is required")
	case set > 1:
		return req, fault.E(fault.ValidationError, "source: give exactly one of url, html, pdf_base64, file_base64, text or archive")
	case spec.FileName != "" && spec.FileBase64 == "":
		return req, fault.E(fault.ValidationError, "source.file_name: names the file of file_base64, which is missing")
	}
	if spec.Render != "" && spec.URL == "" {
		return req, fault.E(fault.ValidationError, "source.render: only a url source is rendered")
	}
	if (spec.OCR != "" || len(spec.OCRLanguages) > 0) && spec.URL == "" && spec.PDFBase64 == "" && spec.FileBase64 == "" {
		return req, fault.E(fault.ValidationError, "source.ocr: only a url, pdf_base64 or file_base64 source is read by OCR")
	}
	if spec.OCR != "" && !slices.Contains(ingest.OCRModes, spec.OCR) {
		return req, fault.E(fault.ValidationError, "source.ocr: must be one of "+strings.Join(ingest.OCRModes, ", "))
	}
	if len(spec.OCRLanguages) > ocr.MaxLanguages {
		return req, fault.E(fault.ValidationError, fmt.Sprintf("source.ocr_languages: at most %d languages", ocr.MaxLanguages))
	}
	req.Source.OCR, req.Source.OCRLanguages = spec.OCR, spec.OCRLanguages
	switch {
	case spec.Archive != "":
		d, err := archive.ParseHash(spec.Archive)
		if err != nil {
			return req, fault.E(fault.ValidationError, "source.archive: must be sha256:<64 hex digits>")
		}
		if !d.Valid() {
			return req, fault.E(fault.NotFound, "source.archive: no archived content has that hash")
		}
		req.Archive = d
	case spec.PDFBase64 != "":
		b, err := base64.StdEncoding.DecodeString(spec.PDFBase64)
		if err != nil {
			return req, fault.E(fault.InvalidFormat, "source.pdf_base64: not valid base64")
		}
		req.Source.PDF = b
	case spec.FileBase64 != "":
		b, err := base64.StdEncoding.DecodeString(spec.FileBase64)
		if err != nil {
			return req, fault.E(fault.InvalidFormat, "source.file_base64: not valid base64")
		}
		if spec.ContentType != "" {
			if _, _, err := mime.ParseMediaType(spec.ContentType); err != nil {
				return req, fault.E(fault.InvalidFormat, "source.content_type: not a valid media type")
			}
		}
		req.Source.File, req.Source.Name, req.Source.ContentType = b, spec.FileName, spec.ContentType
	case spec.HTML != "":
		if spec.ContentType != "" {
			if _, _, err := mime.ParseMediaType(spec.ContentType); err != nil {
				return req, fault.E(fault.InvalidFormat, "source.content_type: not a valid media type")
			}
		}
		req.Source.HTML = []byte(spec.HTML)
		req.Source.ContentType = spec.ContentType
	case spec.URL != "":
		req.Source.URL = spec.URL
		if !slices.Contains(ingest.RenderModes, spec.Render) && spec.Render != "" {
			return req, fault.E(fault.ValidationError, "source.render: must be one of "+strings.Join(ingest.RenderModes, ", "))
		}
		req.Source.Render = spec.Render
	default:
		req.Source.Text = spec.Text
	}
	return req, nil
}

// EstimateTokens is a rough count (pipeline.CharsPerToken characters a
// token) of what the digest costs an agent to read.
func EstimateTokens(p *digest.Payload) int {
	return (p.DigestChars + pipeline.CharsPerToken - 1) / pipeline.CharsPerToken
}

// OptionsSpec is digest options as a client sends them: an omitted field
// takes its default, a given one is used as given, so max_key_points 0
// asks for no key points and max_evidence 0 is out of range.
type OptionsSpec struct {
	MaxEvidence     *int `json:"max_evidence,omitempty"`
	MaxKeyPoints    *int `json:"max_key_points,omitempty"`
	SnippetMaxChars *int `json:"snippet_max_chars,omitempty"`
	SummaryMaxChars *int `json:"summary_max_chars,omitempty"`
}

// optionFields are the digest options, their JSON names and ranges.
func (o *OptionsSpec) fields(d *digest.Options) []struct {
	name   string
	in     **int
	out    *int
	lo, hi int
} {
	return []struct {
		name   string
		in     **int
		out    *int
		lo, hi int
	}{
		{"max_evidence", &o.MaxEvidence, &d.MaxEvidence, 1, digest.MaxEvidence},
		{"max_key_points", &o.MaxKeyPoints, &d.MaxKeyPoints, 0, digest.MaxKeyPoints},
		{"snippet_max_chars", &o.SnippetMaxChars, &d.SnippetMaxChars, digest.MinSnippetChars, digest.MaxSnippetChars},
		{"summary_max_chars", &o.SummaryMaxChars, &d.SummaryMaxChars, digest.MinSummaryChars, digest.MaxSummaryChars},
	}
}

// Options checks every given field against its range (VALIDATION_ERROR
// naming the field) and converts them; nil gives the defaults.
func (o *OptionsSpec) Options() (digest.Options, error) {
	var d digest.Options
	if o == nil {
		return d, nil
	}
	for _, f := range o.fields(&d) {
		if *f.in == nil {
			continue
		}
		v := **f.in
		if v < f.lo || v > f.hi {
			return d, fault.E(fault.ValidationError, fmt.Sprintf("options.%s: must be between %d and %d (got %d)", f.name, f.lo, f.hi, v)).
				With("field", f.name).With("minimum", f.lo).With("maximum", f.hi)
		}
		*f.out = v
		if f.name == "max_key_points" && v == 0 {
			*f.out = digest.NoKeyPoints
		}
	}
	return d, nil
}

// OptionsFromQuery reads digest options given as query parameters.
func OptionsFromQuery(q url.Values) (*OptionsSpec, error) {
	var o OptionsSpec
	var d digest.Options
	for _, f := range o.fields(&d) {
		v := q.Get(f.name)
		if v == "" {
			continue
		}
		n, err := strconv.Atoi(v)
		if err != nil {
			return nil, fault.E(fault.ValidationError, fmt.Sprintf("%s: must be an integer", f.name)).With("field", f.name)
		}
		*f.in = &n
	}
	return &o, nil
}

// MaxSources bounds the sources of one POST /v1/digests.
const MaxSources = 50

// DigestsRequest is the body of POST /v1/digests.
type DigestsRequest struct {
	Query   string       `json:"query"`
	Sources []SourceSpec `json:"sources"`
	Budget  *BudgetSpec  `json:"budget,omitempty"`
	Detail  string       `json:"detail,omitempty"`
	Fields  []string     `json:"fields,omitempty"`
	Options *OptionsSpec `json:"options,omitempty"`
}

// BudgetSpec bounds a multi-source response: max_chars counts the
// characters of the digests' JSON; max_tokens is taken at 4 characters a
// token. A request gives one of the two; 0 (or omitted) is no bound.
type BudgetSpec struct {
	MaxChars  int `json:"max_chars,omitempty"`
	MaxTokens int `json:"max_tokens,omitempty"`
}

// DigestsData is data of a successful POST /v1/digests.
type DigestsData struct {
	Query        string             `json:"query"`
	QueryHash    string             `json:"query_hash"`
	Digests      []map[string]any   `json:"digests"`
	TotalSources int                `json:"total_sources"`
	Included     int                `json:"included"`
	Dropped      int                `json:"dropped"`
	Failed       []pipeline.Failure `json:"failed"`
}

// detailNames maps every accepted detail name to its disclosure level:
// preview is summary, and reference_only (the level's former name) is
// metadata.
var detailNames = map[string]string{
	"":               pipeline.DetailFull,
	"full":           pipeline.DetailFull,
	"summary":        pipeline.DetailSummary,
	"preview":        pipeline.DetailSummary,
	"metadata":       pipeline.DetailMetadata,
	"reference_only": pipeline.DetailMetadata,
	"ids_only":       pipeline.DetailIDsOnly,
}

// detailLevel checks a request's detail name and its fields against the
// fields each level allows (table), and returns the level and the fields
// it allows.
func detailLevel(detail string, fields []string, table map[string][]string) (string, []string, error) {
	level, ok := detailNames[detail]
	if !ok {
		return "", nil, fault.E(fault.ValidationError, "detail: must be one of ids_only, metadata, summary (or preview), full").With("field", "detail")
	}
	allowed := table[level]
	var bad []string
	for _, f := range fields {
		if !slices.Contains(allowed, f) {
			bad = append(bad, f)
		}
	}
	if len(bad) > 0 {
		return "", nil, fault.E(fault.InvalidFields, fmt.Sprintf("fields: %s not available at detail %q", strings.Join(bad, ", "), level)).
			With("invalid_fields", bad).With("allowed_fields", allowed).With("detail", level)
	}
	return level, allowed, nil
}

// PipelineRequest checks a multi-source request (source count, detail,
// fields, budget, unique ids, each source) and converts it; it also returns
// the item fields the client selected.
func (b *DigestsRequest) PipelineRequest() (pipeline.ManyRequest, []string, error) {
	var req pipeline.ManyRequest
	if len(b.Sources) == 0 {
		return req, nil, fault.E(fault.MissingRequired, "sources: at least one source is required")
	}
	if len(b.Sources) > MaxSources {
		return req, nil, fault.E(fault.ValidationError, fmt.Sprintf("sources: at most %d sources per request", MaxSources)).With("max_sources", MaxSources)
	}
	level, allowed, err := detailLevel(b.Detail, b.Fields, DetailFields)
	if err != nil {
		return req, nil, err
	}
	fields := b.Fields
	if len(fields) == 0 && (level == pipeline.DetailIDsOnly || level == pipeline.DetailMetadata) {
		fields = allowed
	}
	if b.Budget != nil {
		if b.Budget.MaxChars < 0 || b.Budget.MaxTokens < 0 {
			return req, nil, fault.E(fault.ValidationError, "budget: max_chars and max_tokens must be ≥ 0 (0 is no bound)").With("field", "budget")
		}
		if b.Budget.MaxChars > 0 && b.Budget.MaxTokens > 0 {
			return req, nil, fault.E(fault.InvalidFormat, "budget: give max_chars or max_tokens, not both").
				With("field", "budget").With("fields", []string{"budget.max_chars", "budget.max_tokens"})
		}
		req.Budget = pipeline.Budget{MaxChars: b.Budget.MaxChars, MaxTokens: b.Budget.MaxTokens}
	}
	opts, err := b.Options.Options()
	if err != nil {
		return req, nil, err
	}
	req.Options = opts
	req.Query = b.Query
	req.Detail = pipeline.DetailFidelity[level]
	req.Cost = func(it pipeline.Item) int { return ItemChars(it, fields) }
	req.Links = slices.Contains(fields, "links")
	seen := map[string]bool{}
	for i, spec := range b.Sources {
		if spec.ID == "" {
			spec.ID = pipeline.DefaultSourceID(i)
		}
		if seen[spec.ID] {
			return req, nil, fault.E(fault.ValidationError, fmt.Sprintf("sources[%d].id: %q is used twice", i, spec.ID))
		}
		seen[spec.ID] = true
		one, err := spec.Request(b.Query, req.Options)
		if fe := fault.As(err); err != nil && fe.Code == fault.NotFound {
			// A source that names nothing archived fails alone.
			req.Failed = append(req.Failed, pipeline.Failure{ID: spec.ID, Code: string(fe.Code), Message: fe.Msg, Details: fe.Details})
			continue
		}
		if err != nil {
			fe := fault.As(err)
			fe.Msg = fmt.Sprintf("sources[%d]: %s", i, fe.Msg)
			return req, nil, fe
		}
		req.Sources = append(req.Sources, one)
	}
	return req, fields, nil
}

// LocateRequest is the body of POST /v1/locate.
type LocateRequest struct {
	Sources       []SourceSpec `json:"sources"`
	Quotes        []string     `json:"quotes"`
	MinSimilarity *float64     `json:"min_similarity,omitempty"`
}

// CheckRequest is the body of POST /v1/check.
type CheckRequest struct {
	Report        string       `json:"report"`
	Sources       []SourceSpec `json:"sources,omitempty"`
	MinSimilarity *float64     `json:"min_similarity,omitempty"`
}

// LocateSources converts the sources of a locate or check request: each
// gets its id (source-N when none is given), and ids must be distinct. A
// source that names nothing archived fails alone: it is returned in failed,
// for the pipeline to list beside the sources it could not read.
func LocateSources(specs []SourceSpec) (reqs []pipeline.Request, failed []pipeline.Failure, err error) {
	if len(specs) > pipeline.MaxLocateSources {
		return nil, nil, fault.E(fault.ValidationError, fmt.Sprintf("sources: at most %d sources per request", pipeline.MaxLocateSources)).With("max_sources", pipeline.MaxLocateSources)
	}
	seen := map[string]bool{}
	for i, spec := range specs {
		if spec.ID == "" {
			spec.ID = pipeline.DefaultSourceID(i)
		}
		if seen[spec.ID] {
			return nil, nil, fault.E(fault.ValidationError, fmt.Sprintf("sources[%d].id: %q is used twice", i, spec.ID))
		}
		seen[spec.ID] = true
		req, err := spec.Request("", digest.Options{})
		if fe := fault.As(err); err != nil && fe.Code == fault.NotFound {
			failed = append(failed, pipeline.Failure{ID: spec.ID, Code: string(fe.Code), Message: fe.Msg, Details: fe.Details})
			continue
		}
		if err != nil {
			fe := fault.As(err)
			return nil, nil, &fault.Error{Code: fe.Code, Msg: fmt.Sprintf("sources[%d]: %s", i, fe.Msg), Details: fe.Details, Err: fe.Err}
		}
		reqs = append(reqs, req)
	}
	return reqs, failed, nil
}

// SourceListItem is one entry of GET /v1/sources and of the MCP tool
// list_sources.
type SourceListItem = pipeline.ListedSource

// VerifyRequest is the body of POST /v1/verify: a DigestPayload as a client
// received or stored it, alone or under "digest".
type VerifyRequest struct {
	Digest *Payload `json:"digest"`
}

// DigestsEnvelope returns the response-v2 envelope POST /v1/digests answers
// for res: data with the selected fields of each included item, and meta
// with the content fidelity, dropped ids, archive hashes, truncation and
// partial-failure warnings and telemetry. req is the request res answers.
// meta may already carry fields set by middleware (rate limits); its tool
// id defaults to digest_sources.
func DigestsEnvelope(body *DigestsRequest, req pipeline.ManyRequest, fields []string, res *pipeline.ManyResult, meta Meta, requestID string, start time.Time) Envelope {
	if meta.ToolID == "" {
		meta.ToolID = ToolDigestSources
	}
	data := DigestsData{
		Query:        body.Query,
		QueryHash:    res.QueryHash,
		Digests:      []map[string]any{},
		TotalSources: len(body.Sources),
		Included:     len(res.Items),
		Dropped:      len(res.Dropped),
		Failed:       res.Failed,
	}
	if data.Failed == nil {
		data.Failed = []pipeline.Failure{}
	}
	for _, it := range res.Items {
		data.Digests = append(data.Digests, RenderItem(it, fields))
	}
	meta.ContentFidelity = res.Fidelity
	meta.ContentFidelitySchemaVersion = FidelitySchemaVersion
	dropped := []string{}
	for _, it := range res.Dropped {
		dropped = append(dropped, it.ID)
	}
	meta.DroppedContentIDs = &dropped
	// Each value retrieves the source's full digest (GET /v1/archive/{hash});
	// its payload names the canonical text by source_text_hash.
	meta.ContentArchiveHashes = map[string]archive.Hash{}
	for id, ref := range res.ArchiveHashes {
		meta.ContentArchiveHashes[id] = ref.DigestHash
	}
	if res.Fidelity != pipeline.FidelityFull && (len(res.Dropped) > 0 || req.Budget != (pipeline.Budget{})) {
		msg, context := truncation(req, res)
		meta.AddWarning(fault.ContentTruncated, msg, context)
	}
	meta.AddFailures(res.Failed)
	// What the links of the items that carry them leave out.
	sent := map[string]bool{}
	for _, it := range res.Items {
		sent[it.ID] = it.Links != nil
	}
	for _, w := range res.LinkWarnings {
		if id, _ := w.Context["id"].(string); sent[id] {
			meta.AddWarning(w.Code, w.Message, w.Context)
		}
	}
	hit := res.AllCached
	meta.Telemetry.CacheHit = &hit
	tokens := (res.UsedChars + pipeline.CharsPerToken - 1) / pipeline.CharsPerToken
	meta.Telemetry.TokensEstimated = &tokens
	return Success(data, meta, requestID, start)
}

// truncation says what a multi-source answer left out or cut down, and
// why: the budget, or the detail level the request asked for.
func truncation(req pipeline.ManyRequest, res *pipeline.ManyResult) (string, map[string]any) {
	most := req.Detail
	if most == "" {
		most = pipeline.FidelityFull
	}
	total := len(res.Items) + len(res.Dropped)
	cut := map[string]int{}
	degraded := 0
	for _, it := range res.Items {
		if it.Fidelity != most {
			cut[it.Fidelity]++
			degraded++
		}
	}
	context := map[string]any{"dropped_count": len(res.Dropped), "degraded_count": degraded, "total_count": total, "reason": "budget"}
	var parts []string
	if len(res.Dropped) > 0 {
		parts = append(parts, fmt.Sprintf("%d of %d digests were left out", len(res.Dropped), total))
	}
	for _, level := range []string{pipeline.FidelitySummary, pipeline.FidelityReferenceOnly} {
		if n := cut[level]; n > 0 {
			parts = append(parts, fmt.Sprintf("%d cut down to %s", n, strings.ReplaceAll(level, "_", " ")))
		}
	}
	if len(parts) > 0 {
		budget := fmt.Sprintf("the budget of %d characters", res.BudgetChars)
		if res.BudgetChars == 0 {
			budget = "the budget"
		}
		return fmt.Sprintf("%s to fit %s; fetch each full digest by content_archive_hashes", strings.Join(parts, " and "), budget), context
	}
	// Nothing was left out or cut: the request's detail level is what
	// every item holds.
	context["reason"] = "detail"
	return fmt.Sprintf("no digest was left out or cut down: each is sent at the most the requested detail allows (%s); fetch each full digest by content_archive_hashes", strings.ReplaceAll(most, "_", " ")), context
}

// DigestEnvelope returns the success envelope of one digest result, as POST
// /v1/digest answers it. meta may already carry fields set by middleware
// (rate limits); its tool id defaults to digest_source.
func DigestEnvelope(res *pipeline.Result, meta Meta, requestID string, start time.Time) Envelope {
	if meta.ToolID == "" {
		meta.ToolID = ToolDigestSource
	}
	meta.Telemetry.CacheHit = &res.CacheHit
	tokens := EstimateTokens(res.Payload)
	meta.Telemetry.TokensEstimated = &tokens
	meta.AddWarnings(res.Warnings)
	data := DigestData{Digest: PayloadOf(res.Payload), Source: RenderSource(res.Source), DigestHash: res.DigestHash}
	return Success(data, meta, requestID, start)
}

// ResultEnvelope returns the envelope and HTTP status the API answers for
// one digest outcome (a result or an error): the batch job and the one-shot
// command write exactly what POST /v1/digest would.
func ResultEnvelope(res *pipeline.Result, err error, requestID string, start time.Time) (Envelope, int) {
	meta := Meta{ToolID: ToolDigestSource}
	if err != nil {
		return Failure(err, meta, requestID, start)
	}
	return DigestEnvelope(res, meta, requestID, start), http.StatusOK
}
