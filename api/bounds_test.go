package api_test

import (
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/wire"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/locate"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/structure"
)

// openapi.yaml restates the payload and option bounds for clients; this
// test holds it to digest's constants, their one home.
func TestOpenAPIBoundsAgreeWithDigest(t *testing.T) {
	doc := openapiDoc(t)
	prop := func(schema string, path ...string) *openapi3.Schema {
		t.Helper()
		return openapiSchema(t, doc, schema, path...)
	}
	eq := func(what string, got *uint64, want int) {
		t.Helper()
		if got == nil || *got != uint64(want) {
			t.Errorf("openapi.yaml %s = %v, digest says %d", what, unsetOr(got), want)
		}
	}
	eqF := func(what string, got *float64, want int) {
		t.Helper()
		if got == nil || *got != float64(want) {
			t.Errorf("openapi.yaml %s = %v, digest says %d", what, unsetOrF(got), want)
		}
	}
	eq("DigestPayload.summary maxLength", prop("DigestPayload", "summary").MaxLength, digest.MaxSummaryChars)
	eq("DigestPayload.key_points maxItems", prop("DigestPayload", "key_points").MaxItems, digest.MaxKeyPoints)
	eq("DigestPayload.key_points[] maxLength", prop("DigestPayload", "key_points", "[]").MaxLength, digest.MaxKeyPointChars)
	eq("DigestPayload.evidence_snippets maxItems", prop("DigestPayload", "evidence_snippets").MaxItems, digest.MaxEvidence)
	eq("EvidenceSnippet.text maxLength", prop("EvidenceSnippet", "text").MaxLength, digest.MaxSnippetChars)
	eq("EvidenceSnippet.section maxItems", prop("EvidenceSnippet", "section").MaxItems, digest.MaxSectionDepth)
	eq("EvidenceSnippet.section[] maxLength", prop("EvidenceSnippet", "section", "[]").MaxLength, digest.MaxSectionHeadingChars)
	var versions []string
	for _, v := range prop("DigestPayload", "version").Enum {
		versions = append(versions, fmt.Sprint(v))
	}
	if !slices.Equal(versions, digest.PayloadVersions) || !strings.Contains(prop("DigestPayload").Description, "v"+digest.PayloadVersion) {
		t.Errorf("openapi.yaml DigestPayload.version %v (%q), digest reads %v and emits %s", versions, prop("DigestPayload").Description, digest.PayloadVersions, digest.PayloadVersion)
	}
	eqF("Options.max_evidence maximum", prop("Options", "max_evidence").Max, digest.MaxEvidence)
	eqF("Options.max_key_points maximum", prop("Options", "max_key_points").Max, digest.MaxKeyPoints)
	eqF("Options.snippet_max_chars maximum", prop("Options", "snippet_max_chars").Max, digest.MaxSnippetChars)
	eqF("Options.snippet_max_chars minimum", prop("Options", "snippet_max_chars").Min, digest.MinSnippetChars)
	eqF("Options.summary_max_chars maximum", prop("Options", "summary_max_chars").Max, digest.MaxSummaryChars)
	eq("DigestsRequest.sources maxItems", prop("DigestsRequest", "sources").MaxItems, wire.MaxSources)
	eq("LocateRequest.sources maxItems", prop("LocateRequest", "sources").MaxItems, pipeline.MaxLocateSources)
	eq("LocateRequest.quotes maxItems", prop("LocateRequest", "quotes").MaxItems, pipeline.MaxQuotes)
	eq("LocateRequest.quotes[] maxLength", prop("LocateRequest", "quotes", "[]").MaxLength, pipeline.MaxQuoteChars)
	eq("CheckRequest.report maxLength", prop("CheckRequest", "report").MaxLength, pipeline.MaxReportChars)
	eq("CheckRequest.sources maxItems", prop("CheckRequest", "sources").MaxItems, pipeline.MaxLocateSources)
	eqF("SearchRequest.limit maximum", prop("SearchRequest", "limit").Max, pipeline.MaxSearchLimit)
	if d, _ := prop("SearchRequest", "limit").Default.(float64); d != pipeline.DefaultSearchLimit {
		t.Errorf("openapi.yaml SearchRequest.limit default = %v, pipeline says %d", prop("SearchRequest", "limit").Default, pipeline.DefaultSearchLimit)
	}
	eq("SearchRequest.filter.sources maxItems", prop("SearchRequest", "filter", "sources").MaxItems, wire.MaxSearchFilterSources)
	eq("Labels maxItems", prop("Labels").MaxItems, pipeline.MaxLabels)
	eq("Labels[] maxLength", prop("Labels", "[]").MaxLength, pipeline.MaxLabelChars)
	eq("SearchResult.text maxLength", prop("SearchResult", "text").MaxLength, digest.MaxSnippetChars)
	eq("SourceRecordEnvelope.data.records maxItems", prop("SourceRecordEnvelope", "data", "records").MaxItems, pipeline.MaxSourceRecords)
	eq("SourceInfo.links maxItems", prop("SourceInfo", "links").MaxItems, pipeline.MaxSourceLinks)
	eq("DigestItem.links maxItems", prop("DigestItem", "links").MaxItems, pipeline.MaxSourceLinks)
	eq("LinksEnvelope.data.links maxItems", prop("LinksEnvelope", "data", "links").MaxItems, pipeline.MaxLinksLimit)
	eq("Link.text maxLength", prop("Link", "text").MaxLength, structure.MaxLinkTextChars)
	// The count of a page's outside links: the members of
	// pipeline.OutsideCount, listed no more than a page keeps, and the
	// warning's reason where links are listed.
	outside := prop("LinksEnvelope", "data", "outside")
	ct := reflect.TypeFor[pipeline.OutsideCount]()
	var members []string
	for i := range ct.NumField() {
		members = append(members, strings.Split(ct.Field(i).Tag.Get("json"), ",")[0])
	}
	slices.Sort(members)
	if got := slices.Sorted(maps.Keys(outside.Properties)); !slices.Equal(got, members) || !slices.Equal(slices.Sorted(slices.Values(outside.Required)), members) {
		t.Errorf("openapi.yaml LinksEnvelope.data.outside: properties %v, required %v; pipeline.OutsideCount has %v", got, outside.Required, members)
	}
	eqF("LinksEnvelope.data.outside.listed maximum", prop("LinksEnvelope", "data", "outside", "listed").Max, structure.MaxOutsideLinks)
	reason := "context.reason " + pipeline.ReasonOutsideLinks
	for what, d := range map[string]string{
		"GET /v1/sources/{hash}/links": doc.Paths.Find("/v1/sources/{hash}/links").Get.Description,
		"SourceInfo.links":             prop("SourceInfo", "links").Description,
		"LinksEnvelope.data.outside":   outside.Description,
	} {
		if !strings.Contains(d, reason) {
			t.Errorf("openapi.yaml %s does not say %q", what, reason)
		}
	}
	var levels []string
	for _, f := range wire.SearchDetailFields[pipeline.DetailFull] {
		levels = append(levels, f)
		if !strings.Contains(prop("SearchRequest", "fields").Description, f) {
			t.Errorf("openapi.yaml SearchRequest.fields does not name the field %s", f)
		}
	}
	if len(levels) < 5 {
		t.Errorf("search fields %v", levels)
	}
	for _, req := range []string{"LocateRequest", "CheckRequest"} {
		if d, _ := prop(req, "min_similarity").Default.(float64); d != locate.DefaultMinSimilarity {
			t.Errorf("openapi.yaml %s.min_similarity default = %v, locate says %v", req, prop(req, "min_similarity").Default, locate.DefaultMinSimilarity)
		}
	}
	if d := prop("DigestsRequest", "budget").Description; !strings.Contains(d, fmt.Sprintf("%d characters a token", pipeline.CharsPerToken)) {
		t.Errorf("openapi.yaml DigestsRequest.budget: %q does not state pipeline.CharsPerToken (%d)", d, pipeline.CharsPerToken)
	}
	// Every query, in a body or a query parameter, has the one bound.
	queries, contexts, limits := 0, 0, 0
	for name, s := range doc.Components.Schemas {
		if q := s.Value.Properties["query"]; q != nil && q.Value != nil && q.Value.Type.Is("string") {
			queries++
			eq(name+".query maxLength", q.Value.MaxLength, digest.MaxQueryChars)
		}
	}
	for path, item := range doc.Paths.Map() {
		params := map[string]openapi3.Parameters{"": item.Parameters}
		for method, op := range item.Operations() {
			params[method] = op.Parameters
		}
		for method, ps := range params {
			for _, p := range ps {
				if p.Value != nil && p.Value.Name == "query" && p.Value.Schema != nil {
					queries++
					eq(method+" "+path+" ?query maxLength", p.Value.Schema.Value.MaxLength, digest.MaxQueryChars)
				}
				if p.Value != nil && p.Value.Name == "context" && p.Value.Schema != nil {
					contexts++
					eqF(method+" "+path+" ?context maximum", p.Value.Schema.Value.Max, pipeline.MaxSliceContext)
				}
				if p.Value != nil && p.Value.Name == "limit" && p.Value.Schema != nil {
					limits++
					most, def := pipeline.MaxListLimit, pipeline.DefaultListLimit
					if strings.HasSuffix(path, "/links") {
						most, def = pipeline.MaxLinksLimit, pipeline.DefaultLinksLimit
					}
					eqF(method+" "+path+" ?limit maximum", p.Value.Schema.Value.Max, most)
					if d, _ := p.Value.Schema.Value.Default.(float64); d != float64(def) {
						t.Errorf("openapi.yaml %s %s ?limit default = %v, pipeline says %d", method, path, p.Value.Schema.Value.Default, def)
					}
				}
			}
		}
	}
	if queries < 2 || contexts < 1 || limits < 1 {
		t.Errorf("found %d query, %d context and %d limit fields in openapi.yaml", queries, contexts, limits)
	}
}

func unsetOr(p *uint64) any {
	if p == nil {
		return "unset"
	}
	return *p
}

func unsetOrF(p *float64) any {
	if p == nil {
		return "unset"
	}
	return *p
}
