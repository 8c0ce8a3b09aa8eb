package mcpserver

import (
	"fmt"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

// mustSchema infers the input schema of T (descriptions come from the
// jsonschema struct tags) and lets adjust add the bounds Go types cannot
// express. It panics on a schema that cannot be built: that is a bug in
// this package, found by any test that starts a server.
func mustSchema[T any](adjust func(*jsonschema.Schema)) *jsonschema.Schema {
	// A content address is a string in JSON ("sha256:<hex>"), whatever
	// its Go type.
	s, err := jsonschema.For[T](&jsonschema.ForOptions{TypeSchemas: map[reflect.Type]*jsonschema.Schema{
		reflect.TypeFor[archive.Hash](): {Type: "string"},
	}})
	if err != nil {
		panic(fmt.Sprintf("mcpserver: input schema of %T: %v", *new(T), err))
	}
	adjust(s)
	return s
}

// mustInputSchema is mustSchema for a tool's input: optional arguments
// have plain types (see plainTypes).
func mustInputSchema[T any](adjust func(*jsonschema.Schema)) *jsonschema.Schema {
	return mustSchema[T](func(s *jsonschema.Schema) {
		plainTypes(s)
		adjust(s)
	})
}

// plainTypes turns the nullable unions inferred for pointer fields
// (["null", "integer"], ["null", "object"]) into plain types: an optional
// argument is one left out, and clients such as the MCP Inspector cannot
// fill in a union (they send it as a string).
func plainTypes(s *jsonschema.Schema) {
	if s == nil {
		return
	}
	if len(s.Types) == 2 && (s.Types[0] == "null" || s.Types[1] == "null") {
		s.Type = s.Types[0]
		if s.Type == "null" {
			s.Type = s.Types[1]
		}
		s.Types = nil
	}
	for _, p := range s.Properties {
		plainTypes(p)
	}
	plainTypes(s.Items)
}

// at returns the property schema at a dotted path ("sources.[].options"),
// where "[]" steps into array items. It panics when the path does not
// exist, which a test that starts a server catches.
func at(s *jsonschema.Schema, path string) *jsonschema.Schema {
	for _, name := range strings.Split(path, ".") {
		var next *jsonschema.Schema
		if name == "[]" {
			next = s.Items
		} else {
			next = s.Properties[name]
		}
		if next == nil {
			panic(fmt.Sprintf("mcpserver: no schema at %q (missing %q)", path, name))
		}
		s = next
	}
	return s
}

// errorDataShape describes data of a failed call, common to every tool.
const errorDataShape = "on failure (isError): {error_code, error_type, remediation, retryable, retry_after?, details}"

// envelopeSchema is a tool's output schema: the response-v2 envelope, with
// data described for that tool. data is an object schema rather than the
// always-true schema inferred for an interface, which some clients refuse.
func envelopeSchema(dataOnSuccess string) *jsonschema.Schema {
	return mustSchema[wire.Envelope](func(s *jsonschema.Schema) {
		*at(s, "data") = jsonschema.Schema{
			Type:        "object",
			Description: "On success: " + dataOnSuccess + "; " + errorDataShape + ".",
		}
		s.Description = "The response-v2 envelope, as the HTTP API answers: {success, data, error, meta}."
	})
}

// describe sets s's description from format and args. The numbers of a
// description are args, taken from the constants that bound the value,
// never written into a struct tag, so that a bound has one home
// (TestDescriptionsStateTheBounds holds descriptions and bounds together).
func describe(s *jsonschema.Schema, format string, args ...any) {
	s.Description = fmt.Sprintf(format, args...)
}

func intRange(s *jsonschema.Schema, lo, hi float64) {
	s.Minimum, s.Maximum = &lo, &hi
}

func maxLen(s *jsonschema.Schema, n int) { s.MaxLength = &n }

// sourceBounds bounds a SourceInput schema. "Exactly one of" is checked
// by the same code as the HTTP API's, so it answers with the same codes.
func sourceBounds(s *jsonschema.Schema) {
	at(s, "archive").Pattern = `^(sha256:)?[A-Fa-f0-9]{64}$`
	at(s, "url").Format = "uri"
	maxLen(at(s, "id"), 200)
	at(s, "pdf_base64").ContentEncoding = "base64"
	at(s, "pdf_base64").ContentMediaType = "application/pdf"
	at(s, "file_base64").ContentEncoding = "base64"
	describe(at(s, "file_base64"), "A file of any source kind (%s) in standard base64; its kind comes from content_type, file_name and its first bytes. "+
		"Slides and sheets are pages (page:N:char:S-E locators; record.page_names lists their titles and names).", strings.Join(format.Kinds, ", "))
	render := at(s, "render")
	for _, m := range ingest.RenderModes {
		render.Enum = append(render.Enum, m)
	}
	describe(render, "For a url: %s (the default) reads the page as fetched, %s renders it in a browser when it is a shell its scripts fill, %s always renders it; rendering needs a server started with --renderer chromium.", ingest.RenderNever, ingest.RenderAuto, ingest.RenderAlways)
	mode := at(s, "ocr")
	for _, m := range ingest.OCRModes {
		mode.Enum = append(mode.Enum, m)
	}
	describe(mode, "For a PDF, an image or a url: %s (the default) reads images and the PDF pages without a usable text layer by OCR, %s reads the text layer alone, %s reads every PDF page by OCR; OCR needs Tesseract on the server (FEATURE_DISABLED otherwise).", ingest.OCRAuto, ingest.OCRNever, ingest.OCRAlways)
	langs := at(s, "ocr_languages")
	langs.MaxItems = &maxOCRLanguages
	describe(langs, "Languages OCR reads, at most %d (two-letter ISO codes or Tesseract pack names such as eng, deu; each installed on the server); default: the language of a PDF's text layer, else English.", ocr.MaxLanguages)
}

// maxOCRLanguages is ocr.MaxLanguages as a schema bound.
var maxOCRLanguages = ocr.MaxLanguages

func optionsBounds(s *jsonschema.Schema) {
	d := digest.DefaultOptions()
	intRange(at(s, "max_evidence"), 1, digest.MaxEvidence)
	describe(at(s, "max_evidence"), "Most evidence snippets, %d-%d (default %d).", 1, digest.MaxEvidence, d.MaxEvidence)
	intRange(at(s, "max_key_points"), 0, digest.MaxKeyPoints)
	describe(at(s, "max_key_points"), "Most key points, %d-%d (default %d; 0 gives none).", 0, digest.MaxKeyPoints, d.MaxKeyPoints)
	intRange(at(s, "snippet_max_chars"), digest.MinSnippetChars, digest.MaxSnippetChars)
	describe(at(s, "snippet_max_chars"), "Longest evidence snippet in Unicode code points, %d-%d (default %d).", digest.MinSnippetChars, digest.MaxSnippetChars, d.SnippetMaxChars)
	intRange(at(s, "summary_max_chars"), digest.MinSummaryChars, digest.MaxSummaryChars)
	describe(at(s, "summary_max_chars"), "Longest summary in Unicode code points, %d-%d (default %d).", digest.MinSummaryChars, digest.MaxSummaryChars, d.SummaryMaxChars)
}

// queryBounds bounds the research question of a digest (what is for: "the
// digest", "the digests").
func queryBounds(s *jsonschema.Schema, what string) {
	maxLen(s, digest.MaxQueryChars)
	describe(s, "The research question %s for (at most %d code points).", what, digest.MaxQueryChars)
}

func digestSourceBounds(s *jsonschema.Schema) {
	queryBounds(at(s, "query"), "the digest is")
	sourceBounds(at(s, "source"))
	optionsBounds(at(s, "options"))
	fields := at(s, "fields")
	fields.Types, fields.Type = nil, "array"
	var names []any
	for _, f := range pipeline.SourceFields {
		names = append(names, f)
	}
	fields.Items.Enum = names
	describe(fields, "Optional parts of data.source to add (others give INVALID_FIELDS): links, the source's first %d links, each {url, text, in_main, locator}; "+
		"a CONTENT_TRUNCATED warning says when it has more (list them all with list_links), and one with context.reason %s when a page had more links outside its main content than its archive keeps (context.outside_total, context.outside_listed).", pipeline.MaxSourceLinks, pipeline.ReasonOutsideLinks)
}

func digestSourcesBounds(s *jsonschema.Schema) {
	queryBounds(at(s, "query"), "the digests are")
	srcs := at(s, "sources")
	one, most := 1, MaxSources
	srcs.MinItems, srcs.MaxItems = &one, &most
	describe(srcs, "The sources, %d-%d; each is exactly one of url, html, pdf_base64, file_base64, text or archive. "+
		"Give each an id to recognise it in the answer (default source-1, source-2, ... in this order).", one, most)
	srcs.Types, srcs.Type = nil, "array" // a nil slice is not an answer here
	sourceBounds(at(s, "sources.[]"))
	optionsBounds(at(s, "options"))
	at(s, "detail").Enum = []any{pipeline.DetailIDsOnly, pipeline.DetailMetadata, pipeline.DetailSummary, "preview", pipeline.DetailFull, pipeline.FidelityReferenceOnly}
	fields := at(s, "fields")
	fields.Types, fields.Type = nil, "array"
	var names []any
	for _, f := range wire.DetailFields[pipeline.DetailFull] {
		names = append(names, f)
	}
	fields.Items.Enum = names
	zero := 0.0
	at(s, "budget.max_chars").Minimum = &zero
	at(s, "budget.max_tokens").Minimum = &zero
	describe(at(s, "budget.max_tokens"), "Most tokens of the digests in the answer, counted at %d characters a token (0 or omitted: no bound). "+
		"Give max_chars or max_tokens, not both (INVALID_FORMAT). A budget that holds no digest, not even as a reference, is VALIDATION_ERROR with details.min_budget_chars.", pipeline.CharsPerToken)
}

func searchBounds(s *jsonschema.Schema) {
	q := at(s, "query")
	one, most := 1, pipeline.MaxSearchQueryChars
	q.MinLength, q.MaxLength = &one, &most
	describe(q, "The question or words to search for, at most %d code points.", most)
	intRange(at(s, "limit"), 1, pipeline.MaxSearchLimit)
	describe(at(s, "limit"), "Most results on this page, %d-%d (default %d).", 1, pipeline.MaxSearchLimit, pipeline.DefaultSearchLimit)
	maxLen(at(s, "cursor"), wire.MaxCursorChars)
	at(s, "detail").Enum = []any{pipeline.DetailIDsOnly, pipeline.DetailMetadata, pipeline.DetailSummary, "preview", pipeline.DetailFull, pipeline.FidelityReferenceOnly}
	fields := at(s, "fields")
	fields.Types, fields.Type = nil, "array"
	var names []any
	for _, f := range wire.SearchDetailFields[pipeline.DetailFull] {
		names = append(names, f)
	}
	fields.Items.Enum = names
	at(s, "group_by").Enum = []any{wire.GroupBySource}
	var kinds []any
	for _, k := range format.Kinds {
		kinds = append(kinds, k)
	}
	for _, list := range []string{"filter.kinds", "filter.sources", "filter.labels"} {
		l := at(s, list)
		l.Types, l.Type = nil, "array"
	}
	at(s, "filter.kinds.[]").Enum = kinds
	sources := wire.MaxSearchFilterSources
	at(s, "filter.sources").MaxItems = &sources
	labels := pipeline.MaxLabels
	at(s, "filter.labels").MaxItems = &labels
	maxLen(at(s, "filter.labels.[]"), pipeline.MaxLabelChars)
	describe(at(s, "filter.added_after"), "Only sources first archived after this time (RFC 3339).")
	describe(at(s, "filter.added_before"), "Only sources first archived before this time (RFC 3339).")
}

func archivedTextBounds(s *jsonschema.Schema) {
	at(s, "hash").Pattern = `^(sha256:)?[A-Fa-f0-9]{64}$`
	at(s, "locator").Pattern = digest.LocatorPattern
	zero := 0.0
	at(s, "start").Minimum = &zero
	at(s, "end").Minimum = &zero
	intRange(at(s, "context"), 0, pipeline.MaxSliceContext)
	describe(at(s, "context"), "Code points of surrounding text to add on each side of the span, %d-%d (default %d).", 0, pipeline.MaxSliceContext, 0)
}

// verifyBounds documents the payload's bounds without enforcing them: a
// payload that breaks one is reported by verify_digest, not refused.
func verifyBounds(s *jsonschema.Schema) {
	p := at(s, "payload")
	describe := map[string]string{
		"version":           fmt.Sprintf("%q (earlier: %q, without sections, still verifies).", digest.PayloadVersion, digest.PayloadVersions[:len(digest.PayloadVersions)-1]),
		"content_type":      `"` + digest.ContentType + `".`,
		"query_hash":        "First 8 lowercase hex digits of the sha256 of the normalized query.",
		"summary":           fmt.Sprintf("At most %d code points.", digest.MaxSummaryChars),
		"key_points":        fmt.Sprintf("At most %d, each at most %d code points.", digest.MaxKeyPoints, digest.MaxKeyPointChars),
		"evidence_snippets": fmt.Sprintf("At most %d, each at most %d code points, relevance_score in [0,1] and non-increasing.", digest.MaxEvidence, digest.MaxSnippetChars),
		"original_chars":    "Code points of the canonical text.",
		"digest_chars":      "Code points of the digest's text: summary, key points and snippets, a summary sentence a snippet repeats counted once.",
		"compression_ratio": "digest_chars / original_chars, never clamped; digest_chars never exceeds original_chars.",
		"source_text_hash":  "sha256:<64 hex> of the canonical text: its archive key.",
	}
	for name, d := range describe {
		at(p, name).Description = d
	}
	snip := at(p, "evidence_snippets.[]")
	at(snip, "text").Description = "The snippet: exactly the canonical text at the locator."
	at(snip, "locator").Description = "char:S-E, or page:N:char:S-E for a PDF; Unicode code points, end exclusive."
	at(snip, "relevance_score").Description = "In [0,1]: the estimated probability that the snippet answers the query, comparable across documents; at most 0.2 without a query term."
	at(snip, "section").Description = fmt.Sprintf("Optional: the heading path of the section the snippet starts in, outermost first, at most %d headings of at most %d code points, each beginning a block of the canonical text before the snippet.",
		digest.MaxSectionDepth, digest.MaxSectionHeadingChars)
}

func linksBounds(s *jsonschema.Schema) {
	intRange(at(s, "limit"), 1, pipeline.MaxLinksLimit)
	describe(at(s, "limit"), "Most links on this page, %d-%d (default %d).", 1, pipeline.MaxLinksLimit, pipeline.DefaultLinksLimit)
	maxLen(at(s, "cursor"), wire.MaxCursorChars)
}

func listBounds(s *jsonschema.Schema) {
	intRange(at(s, "limit"), 1, MaxListLimit)
	describe(at(s, "limit"), "Most sources on this page, %d-%d (default %d).", 1, MaxListLimit, DefaultListLimit)
	maxLen(at(s, "cursor"), wire.MaxCursorChars)
}
