package mcpserver_test

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/wire"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/internal/payloadtest"
	"github.com/digestd/digestd/mcpserver"
	"github.com/digestd/digestd/pipeline"
)

func TestListTools(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	schemas := map[string]map[string]any{}
	for _, tool := range res.Tools {
		names = append(names, tool.Name)
		if tool.Description == "" {
			t.Errorf("%s: no description", tool.Name)
		}
		s, ok := tool.InputSchema.(map[string]any)
		if !ok || s["type"] != "object" {
			t.Errorf("%s: input schema is not an object schema: %v", tool.Name, tool.InputSchema)
			continue
		}
		schemas[tool.Name] = s
		// Optional arguments have plain types, never a nullable union: the
		// MCP Inspector cannot fill in a union and sends it as a string.
		walkSchema(s, "", func(path string, node map[string]any) {
			if _, union := node["type"].([]any); union {
				t.Errorf("%s: %s has a type union %v", tool.Name, path, node["type"])
			}
		})
		out, ok := tool.OutputSchema.(map[string]any)
		if !ok || out["type"] != "object" {
			t.Errorf("%s: output schema is not an object schema: %v", tool.Name, tool.OutputSchema)
		}
		// Clients built on the TypeScript SDK refuse a boolean schema here.
		if d, ok := out["properties"].(map[string]any)["data"].(map[string]any); !ok || d["type"] != "object" {
			t.Errorf("%s: output schema data = %v, want an object schema", tool.Name, out["properties"].(map[string]any)["data"])
		}
	}
	slices.Sort(names)
	want := slices.Sorted(slices.Values(mcpserver.ToolNames()))
	if !slices.Equal(names, want) {
		t.Fatalf("tools = %v, want %v", names, want)
	}
	// What an agent relies on: bounds and units are in the schemas.
	for _, c := range []struct {
		tool, path, key string
		want            any
	}{
		{"digest_source", "query", "maxLength", float64(digest.MaxQueryChars)},
		{"digest_source", "options.max_evidence", "maximum", float64(digest.MaxEvidence)},
		{"digest_source", "options.snippet_max_chars", "minimum", float64(digest.MinSnippetChars)},
		{"digest_source", "options.summary_max_chars", "maximum", float64(digest.MaxSummaryChars)},
		{"digest_sources", "sources", "maxItems", float64(wire.MaxSources)},
		{"digest_sources", "sources", "minItems", float64(1)},
		{"digest_sources", "detail", "enum", []any{"ids_only", "metadata", "summary", "preview", "full", "reference_only"}},
		{"get_archived_text", "locator", "pattern", digest.LocatorPattern},
		{"get_archived_text", "context", "maximum", float64(pipeline.MaxSliceContext)},
		{"list_sources", "limit", "maximum", float64(mcpserver.MaxListLimit)},
		{"locate_quotes", "quotes", "maxItems", float64(pipeline.MaxQuotes)},
		{"locate_quotes", "sources", "maxItems", float64(pipeline.MaxLocateSources)},
		{"check_citations", "report", "maxLength", float64(pipeline.MaxReportChars)},
	} {
		got := property(schemas[c.tool], c.path)[c.key]
		if fmt.Sprint(got) != fmt.Sprint(c.want) {
			t.Errorf("%s %s.%s = %v, want %v", c.tool, c.path, c.key, got, c.want)
		}
	}
	for _, c := range []struct{ tool, path, phrase string }{
		{"get_archived_text", "locator", "Unicode code points"},
		{"get_archived_text", "start", "Unicode code points"},
		{"get_archived_text", "locator", "page:N:char:S-E"},
		{"verify_digest", "payload.summary", "2000"},
		{"verify_digest", "payload.evidence_snippets", "relevance_score in [0,1]"},
		{"digest_source", "source.archive", "sha256:"},
	} {
		d, _ := property(schemas[c.tool], c.path)["description"].(string)
		if !strings.Contains(d, c.phrase) {
			t.Errorf("%s %s: description %q does not say %q", c.tool, c.path, d, c.phrase)
		}
	}
	if req := schemas["get_archived_text"]["required"]; fmt.Sprint(req) != "[hash]" {
		t.Errorf("get_archived_text required = %v, want [hash]", req)
	}
}

// property returns the schema at a dotted path of properties.
func property(s map[string]any, path string) map[string]any {
	for _, name := range strings.Split(path, ".") {
		props, _ := s["properties"].(map[string]any)
		s, _ = props[name].(map[string]any)
	}
	return s
}

func TestDigestSourceLocatorsSliceTheArchivedText(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	text := fixture(t, "transmission.txt")
	var d digestData
	res, env := mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": map[string]any{"text": text, "id": "paper"}}, &d)
	if len(d.Digest.EvidenceSnippets) < 2 {
		t.Fatalf("want several snippets, got %d", len(d.Digest.EvidenceSnippets))
	}
	if d.Source.ID != "paper" || d.Source.ArchiveHash.String() != d.Digest.SourceTextHash || d.DigestHash == "" {
		t.Errorf("source = %+v, digest_hash %q", d.Source, d.DigestHash)
	}
	if err := digest.Validate(d.Digest.Value()); err != nil {
		t.Errorf("payload does not validate: %v", err)
	}
	if env.Meta.WarningDetails == nil && env.Meta.Warnings != nil {
		t.Error("warnings without details")
	}

	// The whole archived text, by the tool and by the resource.
	var whole archivedText
	mustSucceed(t, cs, "get_archived_text", map[string]any{"hash": d.Digest.SourceTextHash}, &whole)
	if whole.Truncated || whole.TextChars != utf8.RuneCountInString(whole.Text) || whole.Locator.String() != fmt.Sprintf("char:0-%d", whole.TextChars) {
		t.Fatalf("whole text: truncated %t, %d code points, locator %s", whole.Truncated, whole.TextChars, whole.Locator)
	}
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpserver.ArchiveURI(d.Digest.SourceTextHash)})
	if err != nil {
		t.Fatal(err)
	}
	if len(rr.Contents) != 1 || rr.Contents[0].Text != whole.Text || rr.Contents[0].MIMEType != "text/plain" {
		t.Fatalf("resource differs from the tool's whole text")
	}
	if digest.SourceTextHash(rr.Contents[0].Text) != d.Digest.SourceTextHash {
		t.Fatal("the resource's text does not hash to source_text_hash")
	}

	rendered := textOf(res)
	for i, s := range d.Digest.EvidenceSnippets {
		loc, err := digest.ParseLocator(s.Locator)
		if err != nil {
			t.Fatalf("snippet %d: %v", i, err)
		}
		// Slicing the archived text in code points gives the snippet.
		if got := runes(whole.Text, loc.Start, loc.End); got != s.Text {
			t.Errorf("snippet %d: text[%d:%d] = %q, want %q", i, loc.Start, loc.End, got, s.Text)
		}
		// get_archived_text with the locator gives it too.
		var sl archivedText
		mustSucceed(t, cs, "get_archived_text", map[string]any{"hash": d.Digest.SourceTextHash, "locator": s.Locator}, &sl)
		if sl.Text != s.Text || sl.Locator.String() != s.Locator {
			t.Errorf("get_archived_text %s = %q, want %q", s.Locator, sl.Text, s.Text)
		}
		// The text rendering numbers every snippet beside its locator.
		if !strings.Contains(rendered, fmt.Sprintf("[%d] %s ", i+1, s.Locator)) {
			t.Errorf("text rendering lacks snippet [%d] %s:\n%s", i+1, s.Locator, rendered)
		}
	}
	// A resource link points at the archived text.
	linked := false
	for _, c := range res.Content {
		if l, ok := c.(*mcp.ResourceLink); ok && l.URI == mcpserver.ArchiveURI(d.Digest.SourceTextHash) {
			linked = true
		}
	}
	if !linked {
		t.Error("no resource link to the archived text")
	}
}

func TestGetArchivedTextSpans(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	text := fixture(t, "transmission.txt")
	var d digestData
	mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": map[string]any{"text": text}}, &d)
	hash := d.Digest.SourceTextHash
	var whole archivedText
	mustSucceed(t, cs, "get_archived_text", map[string]any{"hash": hash}, &whole)
	n := whole.TextChars
	// The span that holds the emoji, which is one code point (two UTF-16
	// units, four bytes).
	emoji := strings.Index(whole.Text, "🧬")
	at := utf8.RuneCountInString(whole.Text[:emoji])

	for _, c := range []struct {
		name             string
		args             map[string]any
		start, end       int
		before, after    int
		wantText         string
		wantContextAfter string
	}{
		{name: "start and end", args: map[string]any{"start": 10, "end": 40}, start: 10, end: 40},
		{name: "locator", args: map[string]any{"locator": fmt.Sprintf("char:%d-%d", at, at+1)}, start: at, end: at + 1, wantText: "🧬"},
		{name: "context", args: map[string]any{"locator": "char:100-120", "context": 7}, start: 100, end: 120, before: 7, after: 7},
		{name: "context clipped at the ends", args: map[string]any{"start": 0, "end": 5, "context": 5000}, start: 0, end: 5, before: 0, after: 5000},
		{name: "empty span at the end", args: map[string]any{"start": n, "end": n}, start: n, end: n},
	} {
		t.Run(c.name, func(t *testing.T) {
			c.args["hash"] = hash
			var sl archivedText
			mustSucceed(t, cs, "get_archived_text", c.args, &sl)
			if sl.Start != c.start || sl.End != c.end || sl.Text != runes(whole.Text, c.start, c.end) {
				t.Errorf("span %d-%d = %q", sl.Start, sl.End, sl.Text)
			}
			if c.wantText != "" && sl.Text != c.wantText {
				t.Errorf("text = %q, want %q", sl.Text, c.wantText)
			}
			if want := runes(whole.Text, max(0, c.start-c.before), c.start); sl.Before != want {
				t.Errorf("context before = %q, want %q", sl.Before, want)
			}
			if want := runes(whole.Text, c.end, min(n, c.end+c.after)); sl.After != want {
				t.Errorf("context after = %q, want %q", sl.After, want)
			}
			if sl.ResourceURI != mcpserver.ArchiveURI(hash) || sl.TextChars != n {
				t.Errorf("resource_uri %q, text_chars %d", sl.ResourceURI, sl.TextChars)
			}
		})
	}
}

func TestGetArchivedTextTruncatesLongTexts(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	var b strings.Builder
	for i := 0; b.Len() < 3*mcpserver.MaxTextChars; i++ {
		fmt.Fprintf(&b, "Sentence %d says that the placenta matters for transmission — é.\n", i)
	}
	var d digestData
	mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": map[string]any{"text": b.String()}}, &d)
	hash := d.Digest.SourceTextHash

	var whole archivedText
	_, env := mustSucceed(t, cs, "get_archived_text", map[string]any{"hash": hash}, &whole)
	if !whole.Truncated || whole.End != mcpserver.MaxTextChars || utf8.RuneCountInString(whole.Text) != mcpserver.MaxTextChars {
		t.Fatalf("whole text: truncated %t, end %d, %d code points", whole.Truncated, whole.End, utf8.RuneCountInString(whole.Text))
	}
	if whole.TextChars <= mcpserver.MaxTextChars || !hasWarning(env, "CONTENT_TRUNCATED") {
		t.Errorf("text_chars %d, warnings %v", whole.TextChars, env.Meta.Warnings)
	}
	// The next span continues exactly where the first stopped.
	var next archivedText
	mustSucceed(t, cs, "get_archived_text", map[string]any{"hash": hash, "start": whole.End, "end": whole.TextChars}, &next)
	if next.Start != mcpserver.MaxTextChars || !next.Truncated || next.End != 2*mcpserver.MaxTextChars {
		t.Errorf("next span %d-%d truncated %t", next.Start, next.End, next.Truncated)
	}
	var small archivedText
	_, env = mustSucceed(t, cs, "get_archived_text", map[string]any{"hash": hash, "start": 5, "end": 50}, &small)
	if small.Truncated || len(env.Meta.Warnings) != 0 {
		t.Errorf("a short span is marked truncated")
	}
}

func TestVerifyDigest(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	var d digestData
	mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": map[string]any{"text": fixture(t, "transmission.txt")}}, &d)

	tamperText := d.Digest
	tamperText.EvidenceSnippets = slices.Clone(d.Digest.EvidenceSnippets)
	tampered, ok := payloadtest.SwapWord(&tamperText)
	if !ok {
		t.Fatalf("no word to swap: %+v", tamperText)
	}
	shifted := d.Digest
	shifted.EvidenceSnippets = slices.Clone(d.Digest.EvidenceSnippets)
	loc, _ := digest.ParseLocator(shifted.EvidenceSnippets[0].Locator)
	shifted.EvidenceSnippets[0].Locator = digest.Locator{Start: loc.Start + 1, End: loc.End + 1}.String()
	unknown := d.Digest
	unknown.SourceTextHash = "sha256:" + strings.Repeat("0", 64)
	tooLong := d.Digest
	tooLong.Summary = strings.Repeat("x", digest.MaxSummaryChars+1)

	for _, c := range []struct {
		name       string
		payload    wire.Payload
		valid      bool
		textFound  bool
		badSnippet int // the snippet that fails, or -1
	}{
		{"as returned", d.Digest, true, true, -1},
		{"one word swapped", tamperText, false, true, tampered},
		{"locator shifted", shifted, false, true, 0},
		{"unknown text", unknown, false, false, -1},
		{"summary over its bound", tooLong, false, true, -1},
	} {
		t.Run(c.name, func(t *testing.T) {
			var rep wire.VerifyData
			res, _ := mustSucceed(t, cs, "verify_digest", map[string]any{"payload": c.payload}, &rep)
			if rep.Verified != c.valid || rep.Valid != c.valid || rep.TextFound != c.textFound || rep.Valid != (len(rep.Problems) == 0) {
				t.Errorf("verified %t valid %t text_found %t, want %t %t %t (problems %v)", rep.Verified, rep.Valid, rep.TextFound, c.valid, c.valid, c.textFound, rep.Problems)
			}
			if c.badSnippet >= 0 {
				named := fmt.Sprintf("evidence_snippets[%d]: ", c.badSnippet)
				if len(rep.Snippets) <= c.badSnippet || rep.Snippets[c.badSnippet].Verified || len(rep.Problems) != 1 || !strings.HasPrefix(rep.Problems[0], named) {
					t.Errorf("the bad snippet is not named: problems %q, snippets %+v", rep.Problems, rep.Snippets)
				}
			}
			text := textOf(res)
			if c.valid != strings.HasPrefix(text, "VERIFIED") {
				t.Errorf("text rendering: %s", text)
			}
			for _, p := range rep.Problems {
				if !strings.Contains(text, p) {
					t.Errorf("text rendering lacks the problem %q:\n%s", p, text)
				}
			}
		})
	}
}

func TestListSourcesPages(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	var hashes []string
	for i := range 5 {
		var d digestData
		text := fmt.Sprintf("Source number %d explains that placental receptors matter for transmission of the virus.", i)
		mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": map[string]any{"text": text}}, &d)
		hashes = append(hashes, d.Source.ArchiveHash.String())
	}
	var seen []string
	cursor := ""
	for page := 0; ; page++ {
		args := map[string]any{"limit": 2}
		if cursor != "" {
			args["cursor"] = cursor
		}
		var l struct {
			Sources []struct {
				ArchiveHash string `json:"archive_hash"`
				Kind        string `json:"kind"`
				TextChars   int    `json:"text_chars"`
				ResourceURI string `json:"resource_uri"`
			} `json:"sources"`
		}
		_, env := mustSucceed(t, cs, "list_sources", args, &l)
		p := env.Meta.Pagination
		if p == nil || p.TotalCount != nil || p.PageSize != len(l.Sources) {
			t.Fatalf("page %d: pagination %+v", page, p)
		}
		for _, s := range l.Sources {
			if s.Kind != "text" || s.TextChars == 0 || s.ResourceURI != mcpserver.ArchiveURI(s.ArchiveHash) {
				t.Errorf("entry %+v lacks its record", s)
			}
			seen = append(seen, s.ArchiveHash)
		}
		if !p.HasMore {
			if p.Cursor != nil {
				t.Error("a cursor on the last page")
			}
			break
		}
		if p.Cursor == nil || page > 5 {
			t.Fatalf("page %d: has_more without a cursor", page)
		}
		cursor = *p.Cursor
	}
	slices.Reverse(hashes) // newest first
	if !slices.Equal(seen, hashes) {
		t.Errorf("listed %v, want %v", seen, hashes)
	}
}

// TestErrorsMatchTheHTTPAPI checks that failures are tool errors carrying
// the error table's code, type and remediation.
func TestErrorsMatchTheHTTPAPI(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	var d digestData
	mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": map[string]any{"text": "A short text about the placenta and transmission of the virus."}}, &d)
	missing := "sha256:" + strings.Repeat("ab", 32)
	for _, c := range []struct {
		name   string
		tool   string
		args   map[string]any
		code   fault.Code
		detail string
	}{
		{"no source field", "digest_source", map[string]any{"query": "q", "source": map[string]any{}}, fault.MissingRequired, ""},
		{"two source fields", "digest_source", map[string]any{"query": "q", "source": map[string]any{"text": "a", "html": "<p>b</p>"}}, fault.ValidationError, ""},
		{"bad base64", "digest_source", map[string]any{"query": "q", "source": map[string]any{"pdf_base64": "%%%"}}, fault.InvalidFormat, ""},
		{"option over its bound", "digest_source", map[string]any{"query": "q", "source": map[string]any{"text": "a"}, "options": map[string]any{"max_evidence": 11}}, fault.ValidationError, ""},
		{"unknown argument", "digest_source", map[string]any{"query": "q", "source": map[string]any{"text": "a"}, "colour": "red"}, fault.ValidationError, ""},
		{"no text", "digest_source", map[string]any{"query": "q", "source": map[string]any{"html": "<html><body><script>x()</script></body></html>"}}, fault.NoExtractableText, ""},
		{"unarchived hash", "digest_source", map[string]any{"query": "q", "source": map[string]any{"archive": missing}}, fault.NotFound, ""},
		{"unknown hash", "get_archived_text", map[string]any{"hash": missing}, fault.NotFound, ""},
		{"malformed hash", "get_archived_text", map[string]any{"hash": "sha256:xyz"}, fault.ValidationError, ""},
		{"span past the end", "get_archived_text", map[string]any{"hash": d.Source.ArchiveHash, "start": 0, "end": 100000}, fault.RangeNotSatisfiable, "text_chars"},
		{"start without end", "get_archived_text", map[string]any{"hash": d.Source.ArchiveHash, "start": 3}, fault.MissingRequired, ""},
		{"page locator on a text without that page", "get_archived_text", map[string]any{"hash": d.Source.ArchiveHash, "locator": "page:2:char:0-5"}, fault.ValidationError, ""},
		{"no sources", "digest_sources", map[string]any{"query": "q", "sources": []any{}}, fault.ValidationError, ""},
		{"duplicate ids", "digest_sources", map[string]any{"query": "q", "sources": []any{map[string]any{"id": "a", "text": "x"}, map[string]any{"id": "a", "text": "y"}}}, fault.ValidationError, ""},
		{"every source failed", "digest_sources", map[string]any{"query": "q", "sources": []any{map[string]any{"archive": missing}}}, fault.NotFound, "failed"},
		{"bad cursor", "list_sources", map[string]any{"cursor": "!!not-base64!!"}, fault.InvalidCursor, ""},
		{"cursor of another shape", "list_sources", map[string]any{"cursor": "PHNjcmlwdD4"}, fault.InvalidCursor, ""},
	} {
		t.Run(c.name, func(t *testing.T) {
			ed, env := mustFail(t, cs, c.tool, c.args)
			status, typ, remediation, retryable := wire.Classify(c.code)
			if ed.ErrorCode != string(c.code) || ed.ErrorType != typ || ed.Remediation != remediation || ed.Retryable != retryable {
				t.Errorf("error %+v, want %s (%d %s)", ed, c.code, status, typ)
			}
			if c.detail != "" {
				if _, ok := ed.Details[c.detail]; !ok {
					t.Errorf("details %v lack %q", ed.Details, c.detail)
				}
			}
			if ed.Details == nil {
				t.Error("details is null, want an object")
			}
			if strings.Contains(*env.Error, "/tmp") || strings.Contains(*env.Error, "goroutine") {
				t.Errorf("the message leaks internals: %s", *env.Error)
			}
		})
	}
}

func TestDigestSourcesPacksIntoTheBudget(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	text := fixture(t, "transmission.txt")
	paras := strings.Split(strings.TrimSpace(text), "\n")
	var sources []any
	for i, p := range paras {
		sources = append(sources, map[string]any{"id": fmt.Sprintf("p%d", i), "text": p})
	}
	sources = append(sources, map[string]any{"id": "broken", "archive": "sha256:" + strings.Repeat("cd", 32)})

	type data struct {
		QueryHash string `json:"query_hash"`
		Digests   []struct {
			ID       string          `json:"id"`
			Fidelity string          `json:"fidelity"`
			Rank     int             `json:"rank"`
			Digest   *digest.Payload `json:"digest"`
		} `json:"digests"`
		Included int                `json:"included"`
		Dropped  int                `json:"dropped"`
		Failed   []pipeline.Failure `json:"failed"`
	}
	var full data
	_, env := mustSucceed(t, cs, "digest_sources", map[string]any{"query": testQuery, "sources": sources}, &full)
	if full.Included != len(paras) || full.Dropped != 0 || env.Meta.ContentFidelity != "full" {
		t.Fatalf("unbounded: included %d dropped %d fidelity %s", full.Included, full.Dropped, env.Meta.ContentFidelity)
	}
	if len(full.Failed) != 1 || full.Failed[0].ID != "broken" || full.Failed[0].Code != string(fault.NotFound) {
		t.Errorf("failed = %+v", full.Failed)
	}
	if full.QueryHash != digest.QueryHash(testQuery) {
		t.Errorf("query_hash %s", full.QueryHash)
	}
	for i, it := range full.Digests {
		if it.Rank != i+1 || it.Digest == nil {
			t.Errorf("item %d: rank %d digest %v", i, it.Rank, it.Digest != nil)
		}
	}

	var tight data
	res, env := mustSucceed(t, cs, "digest_sources", map[string]any{"query": testQuery, "sources": sources, "budget": map[string]any{"max_tokens": 250}}, &tight)
	if env.Meta.ContentFidelity == "full" || !hasWarning(env, "CONTENT_TRUNCATED") {
		t.Errorf("a tight budget gives fidelity %q, warnings %v", env.Meta.ContentFidelity, env.Meta.Warnings)
	}
	if tight.Included+tight.Dropped != len(paras) || len(env.Meta.DroppedContentIDs) != tight.Dropped {
		t.Errorf("included %d + dropped %d != %d; dropped ids %v", tight.Included, tight.Dropped, len(paras), env.Meta.DroppedContentIDs)
	}
	// Every digested source, included or not, can be fetched later.
	for i := range paras {
		ref, ok := env.Meta.ContentArchiveHashes[fmt.Sprintf("p%d", i)]
		if !ok || !strings.HasPrefix(ref, "sha256:") {
			t.Errorf("p%d: no archive hashes", i)
		}
	}
	for _, id := range env.Meta.DroppedContentIDs {
		if !strings.Contains(textOf(res), "- "+id+" ") {
			t.Errorf("text rendering does not list dropped %s", id)
		}
	}
	// The budget is a hard ceiling on the items sent.
	var raw struct {
		Digests []json.RawMessage `json:"digests"`
	}
	json.Unmarshal(env.Data, &raw)
	sent := 0
	for _, d := range raw.Digests {
		sent += utf8.RuneCount(d)
	}
	if sent > 250*pipeline.CharsPerToken {
		t.Errorf("the included digests (%d chars) are over the budget", sent)
	}
}

func TestResourceTemplate(t *testing.T) {
	pipe := newPipeline(t)
	cs := connectInMemory(t, pipe)
	res, err := cs.ListResourceTemplates(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.ResourceTemplates) != 2 || res.ResourceTemplates[0].URITemplate != mcpserver.ArchiveTemplate || res.ResourceTemplates[0].MIMEType != "text/plain" ||
		res.ResourceTemplates[1].URITemplate != mcpserver.MarkdownTemplate || res.ResourceTemplates[1].MIMEType != "text/markdown" {
		t.Fatalf("templates = %+v", res.ResourceTemplates)
	}
	var d digestData
	mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": map[string]any{"text": "Ünïcode text about the placenta."}}, &d)
	hex := strings.TrimPrefix(d.Source.ArchiveHash.String(), "sha256:")
	for _, uri := range []string{
		"digestd://archive/sha256:" + hex,
		"digestd://archive/sha256%3A" + hex,
		"digestd://archive/" + hex,
	} {
		rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: uri})
		if err != nil {
			t.Errorf("%s: %v", uri, err)
			continue
		}
		if rr.Contents[0].Text != "Ünïcode text about the placenta." {
			t.Errorf("%s: %q", uri, rr.Contents[0].Text)
		}
	}
	rr, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: "digestd://markdown/sha256:" + hex})
	if err != nil || rr.Contents[0].Text != "Ünïcode text about the placenta." || rr.Contents[0].MIMEType != "text/markdown" {
		t.Errorf("markdown: %v %+v", err, rr)
	}
	// Each failure is a JSON-RPC error with a code that says why, never 0.
	notText, err := archive.PutBytes(context.Background(), pipe.Store, []byte("\xff\xfe not text"))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		uri  string
		code int64
	}{
		{"digestd://archive/sha256:" + strings.Repeat("0", 64), jsonrpc.CodeInvalidParams},
		{"digestd://archive/not-a-hash", jsonrpc.CodeInvalidParams},
		{mcpserver.ArchiveURI(notText.String()), jsonrpc.CodeInvalidParams},
		{"digestd://markdown/sha256:" + strings.Repeat("0", 64), jsonrpc.CodeInvalidParams},
	} {
		_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: c.uri})
		if rpcErr := (*jsonrpc.Error)(nil); !errors.As(err, &rpcErr) || rpcErr.Code != c.code {
			t.Errorf("%s: %v, want a JSON-RPC error %d", c.uri, err, c.code)
		}
	}
}

func TestMonitoringTools(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	var stats struct {
		TotalRequests int64   `json:"total_requests"`
		CacheHits     int64   `json:"cache_hits"`
		CacheMisses   int64   `json:"cache_misses"`
		HitRate       float64 `json:"hit_rate"`
	}
	args := map[string]any{"query": testQuery, "source": map[string]any{"text": "Transmission from mother to child happens in pregnancy."}}
	var d digestData
	mustSucceed(t, cs, "digest_source", args, &d)
	mustSucceed(t, cs, "digest_source", args, &d)
	mustSucceed(t, cs, "get_cache_stats", map[string]any{}, &stats)
	if stats.TotalRequests != 2 || stats.CacheHits != 1 || stats.CacheMisses != 1 || stats.HitRate != 0.5 {
		t.Errorf("cache stats %+v after one miss and one hit", stats)
	}
	var health struct {
		Status          string `json:"status"`
		HealthyServices int    `json:"healthy_services"`
		TotalServices   int    `json:"total_services"`
		Components      map[string]struct {
			Status string `json:"status"`
		} `json:"components"`
	}
	mustSucceed(t, cs, "get_service_health", map[string]any{}, &health)
	if health.Status != "healthy" || health.TotalServices < 1 || health.HealthyServices != health.TotalServices || health.Components["archive"].Status != "healthy" {
		t.Errorf("health %+v", health)
	}
}

// walkSchema calls fn on every schema node under s (properties and items).
func walkSchema(s map[string]any, path string, fn func(path string, node map[string]any)) {
	fn(path, s)
	if props, ok := s["properties"].(map[string]any); ok {
		for name, p := range props {
			if m, ok := p.(map[string]any); ok {
				walkSchema(m, path+"."+name, fn)
			}
		}
	}
	if items, ok := s["items"].(map[string]any); ok {
		walkSchema(items, path+".[]", fn)
	}
}

// Options reach the pipeline as given: max_key_points 0 is no key points,
// out of range is VALIDATION_ERROR.
func TestToolOptionsExact(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	src := map[string]any{"text": "Transmission from mother to child happens in pregnancy. It also happens at birth. Breastfeeding adds risk."}
	var d digestData
	mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": src, "options": map[string]any{"max_key_points": 0, "max_evidence": 1}}, &d)
	if len(d.Digest.KeyPoints) != 0 || len(d.Digest.EvidenceSnippets) != 1 {
		t.Errorf("%d key points, %d snippets; want 0 and 1", len(d.Digest.KeyPoints), len(d.Digest.EvidenceSnippets))
	}
	ed, _ := mustFail(t, cs, "digest_source", map[string]any{"query": testQuery, "source": src, "options": map[string]any{"max_evidence": 0}})
	if ed.ErrorCode != "VALIDATION_ERROR" {
		t.Errorf("max_evidence 0: %s", ed.ErrorCode)
	}
}

// An archived text emptied on disk is never served as a resource, nor as
// get_archived_text's span: both say ARCHIVE_CORRUPT.
func TestEmptiedBlobIsNotServed(t *testing.T) {
	pipe := newPipeline(t)
	cs := connectInMemory(t, pipe)
	var d digestData
	mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": map[string]any{"text": "Text about the placenta."}}, &d)
	path := pipe.Store.(*fsstore.Store).BlobPath(d.Source.ArchiveHash)
	os.Chmod(path, 0o644)
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	_, err := cs.ReadResource(context.Background(), &mcp.ReadResourceParams{URI: mcpserver.ArchiveURI(d.Source.ArchiveHash.String())})
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeInternalError || !strings.Contains(rpcErr.Message, "ARCHIVE_CORRUPT") {
		t.Errorf("resource of an emptied blob: %v, want a JSON-RPC internal error (%d) saying ARCHIVE_CORRUPT", err, jsonrpc.CodeInternalError)
	}
	res, err := cs.CallTool(context.Background(), &mcp.CallToolParams{Name: "get_archived_text", Arguments: map[string]any{"hash": d.Source.ArchiveHash.String(), "start": 0, "end": 4}})
	if err != nil || !res.IsError || !strings.Contains(fmt.Sprint(res.StructuredContent), "ARCHIVE_CORRUPT") {
		t.Errorf("get_archived_text of an emptied blob: %v %+v", err, res)
	}
}

// TestDigestSourcesLevelsNest: over MCP as over HTTP, each disclosure
// level's item fields are a strict superset of the level below's.
func TestDigestSourcesLevelsNest(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	src := []map[string]any{{"id": "a", "text": "Tides rise twice a day. The moon pulls the sea."}}
	var below []string
	for _, level := range []string{"ids_only", "metadata", "summary", "full"} {
		var d struct {
			Digests []map[string]any `json:"digests"`
		}
		mustSucceed(t, cs, "digest_sources", map[string]any{"query": "tides", "sources": src, "detail": level}, &d)
		var keys []string
		for k := range d.Digests[0] {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range below {
			if !slices.Contains(keys, k) {
				t.Errorf("%s: an item lacks %s, which the level below has (%v ⊄ %v)", level, k, below, keys)
			}
		}
		if len(keys) <= len(below) {
			t.Errorf("%s adds no field to the level below: %v, below %v", level, keys, below)
		}
		below = keys
	}
}

// TestListSourcesRefusesForgedCursor: a cursor whose body is a real one's
// (it decodes, names this listing and a position) but whose signature is
// not the server's is INVALID_CURSOR, as is one re-signed without the key.
func TestListSourcesRefusesForgedCursor(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	for i := range 2 {
		var d digestData
		mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": map[string]any{"text": fmt.Sprintf("Source %d says placental receptors matter.", i)}}, &d)
	}
	var l struct{}
	_, env := mustSucceed(t, cs, "list_sources", map[string]any{"limit": 1}, &l)
	if env.Meta.Pagination == nil || env.Meta.Pagination.Cursor == nil {
		t.Fatal("no cursor after the first of two sources")
	}
	real := *env.Meta.Pagination.Cursor
	raw, err := base64.RawURLEncoding.DecodeString(real)
	if err != nil || len(raw) <= 16 || !json.Valid(raw[16:]) {
		t.Fatalf("the cursor is not a signature and a JSON body: %q", real)
	}
	zeroed := append(make([]byte, 16), raw[16:]...)
	flipped := append([]byte(nil), raw...)
	flipped[0] ^= 0x80
	for name, forged := range map[string][]byte{"zero signature": zeroed, "one bit of the signature changed": flipped} {
		ed, _ := mustFail(t, cs, "list_sources", map[string]any{"limit": 1, "cursor": base64.RawURLEncoding.EncodeToString(forged)})
		if ed.ErrorCode != string(fault.InvalidCursor) {
			t.Errorf("%s: %s, want INVALID_CURSOR", name, ed.ErrorCode)
		}
	}
	if _, env := mustSucceed(t, cs, "list_sources", map[string]any{"limit": 1, "cursor": real}, &l); !env.Success {
		t.Error("the real cursor is refused")
	}
}
