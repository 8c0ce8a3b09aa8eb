package mcpserver_test

import (
	"context"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/locate"
	"github.com/digestd/digestd/mcpserver"
	"github.com/digestd/digestd/pipeline"
)

var (
	statedRange   = regexp.MustCompile(`\b(\d+(?:\.\d+)?)-(\d+(?:\.\d+)?)\b`)
	statedMost    = regexp.MustCompile(`(?:at most|up to|≤) (\d+(?:\.\d+)?)`)
	statedDefault = regexp.MustCompile(`\(default (\d+(?:\.\d+)?)`)
)

// TestDescriptionsStateTheBounds reads every number a tool's input schema
// states in words — a range "lo-hi", "at most n", "(default d" — and holds
// it to the bound the schema enforces and the default the code applies, so
// that a description cannot drift from the constant it restates.
func TestDescriptionsStateTheBounds(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	res, err := cs.ListTools(context.Background(), nil)
	if err != nil {
		t.Fatal(err)
	}
	opts := digest.DefaultOptions()
	defaults := map[string]float64{
		"digest_source.options.max_evidence":       float64(opts.MaxEvidence),
		"digest_source.options.max_key_points":     float64(opts.MaxKeyPoints),
		"digest_source.options.snippet_max_chars":  float64(opts.SnippetMaxChars),
		"digest_source.options.summary_max_chars":  float64(opts.SummaryMaxChars),
		"digest_sources.options.max_evidence":      float64(opts.MaxEvidence),
		"digest_sources.options.max_key_points":    float64(opts.MaxKeyPoints),
		"digest_sources.options.snippet_max_chars": float64(opts.SnippetMaxChars),
		"digest_sources.options.summary_max_chars": float64(opts.SummaryMaxChars),
		"get_archived_text.context":                0,
		"list_sources.limit":                       mcpserver.DefaultListLimit,
		"list_links.limit":                         pipeline.DefaultLinksLimit,
		"search_archive.limit":                     pipeline.DefaultSearchLimit,
		"locate_quotes.min_similarity":             locate.DefaultMinSimilarity,
		"check_citations.min_similarity":           locate.DefaultMinSimilarity,
	}
	num := func(m map[string]any, key string) (float64, bool) {
		v, ok := m[key].(float64)
		return v, ok
	}
	stated := 0
	for _, tool := range res.Tools {
		walkSchema(tool.InputSchema.(map[string]any), tool.Name, func(path string, node map[string]any) {
			if strings.HasPrefix(path, "verify_digest.payload") {
				return // a payload's bounds are reported by verify_digest, not enforced by its schema
			}
			desc, _ := node["description"].(string)
			lo, hasLo := num(node, "minimum")
			hi, hasHi := num(node, "maximum")
			if !hasLo {
				lo, hasLo = num(node, "minItems")
			}
			if !hasHi {
				hi, hasHi = num(node, "maxItems")
			}
			for _, m := range statedRange.FindAllStringSubmatch(desc, -1) {
				stated++
				a, _ := strconv.ParseFloat(m[1], 64)
				b, _ := strconv.ParseFloat(m[2], 64)
				if !hasHi || b != hi || (hasLo && a != lo) || (!hasLo && a != 0) {
					t.Errorf("%s: the description says %s, the schema bounds it to %v-%v", path, m[0], lo, hi)
				}
			}
			var most []float64
			for _, key := range []string{"maxLength", "maxItems"} {
				if v, ok := num(node, key); ok {
					most = append(most, v)
				}
			}
			if items, ok := node["items"].(map[string]any); ok {
				if v, ok := num(items, "maxLength"); ok {
					most = append(most, v)
				}
			}
			for _, m := range statedMost.FindAllStringSubmatch(desc, -1) {
				stated++
				n, _ := strconv.ParseFloat(m[1], 64)
				found := false
				for _, v := range most {
					found = found || v == n
				}
				if !found {
					t.Errorf("%s: the description says %q, the schema's bounds are %v", path, m[0], most)
				}
			}
			for _, m := range statedDefault.FindAllStringSubmatch(desc, -1) {
				stated++
				n, _ := strconv.ParseFloat(m[1], 64)
				if want, ok := defaults[path]; !ok || n != want {
					t.Errorf("%s: the description says %q, the default is %v (known: %v)", path, m[0], want, ok)
				}
			}
		})
	}
	if stated < 20 {
		t.Errorf("only %d bounds stated in the tools' descriptions", stated)
	}
	// The tools' own descriptions, and the enforced bounds, come from the
	// constants.
	descs := map[string]string{}
	for _, tool := range res.Tools {
		descs[tool.Name] = tool.Description
	}
	for _, c := range []struct{ tool, phrase string }{
		{"digest_source", fmt.Sprintf("summary (≤ %d code points)", digest.MaxSummaryChars)},
		{"digest_source", fmt.Sprintf("≤ %d key points (≤ %d each)", digest.MaxKeyPoints, digest.MaxKeyPointChars)},
		{"digest_source", fmt.Sprintf("≤ %d evidence snippets (≤ %d each)", digest.MaxEvidence, digest.MaxSnippetChars)},
		{"digest_sources", fmt.Sprintf("up to %d sources", mcpserver.MaxSources)},
		{"get_archived_text", fmt.Sprintf("At most %d code points", mcpserver.MaxTextChars)},
	} {
		if !strings.Contains(descs[c.tool], c.phrase) {
			t.Errorf("%s: the description does not say %q", c.tool, c.phrase)
		}
	}
	schemas := map[string]map[string]any{}
	for _, tool := range res.Tools {
		schemas[tool.Name] = tool.InputSchema.(map[string]any)
	}
	for _, c := range []struct {
		tool, path, key string
		want            float64
	}{
		{"digest_source", "options.max_key_points", "maximum", digest.MaxKeyPoints},
		{"digest_source", "options.max_key_points", "minimum", 0},
		{"digest_source", "options.max_evidence", "minimum", 1},
		{"digest_source", "options.snippet_max_chars", "maximum", digest.MaxSnippetChars},
		{"digest_source", "options.summary_max_chars", "minimum", digest.MinSummaryChars},
		{"digest_sources", "query", "maxLength", digest.MaxQueryChars},
		{"list_sources", "limit", "minimum", 1},
		{"locate_quotes", "quotes.[]", "maxLength", pipeline.MaxQuoteChars},
		{"check_citations", "sources", "maxItems", pipeline.MaxLocateSources},
	} {
		node := schemas[c.tool]
		for _, name := range strings.Split(c.path, ".") {
			if name == "[]" {
				node, _ = node["items"].(map[string]any)
			} else {
				node = property(node, name)
			}
		}
		if got, ok := num(node, c.key); !ok || got != c.want {
			t.Errorf("%s %s.%s = %v, want %v", c.tool, c.path, c.key, node[c.key], c.want)
		}
	}
	// Every source kind is named where file_base64 is described, in both
	// digest tools.
	for _, node := range []map[string]any{property(schemas["digest_source"], "source"), property(schemas["digest_sources"], "sources")["items"].(map[string]any)} {
		desc := fmt.Sprint(property(node, "file_base64")["description"])
		for _, k := range format.Kinds {
			if !strings.Contains(desc, k) {
				t.Errorf("file_base64's description does not name the kind %s: %q", k, desc)
			}
		}
	}
	if !strings.Contains(fmt.Sprint(property(property(schemas["digest_sources"], "budget"), "max_tokens")["description"]),
		fmt.Sprintf("%d characters a token", pipeline.CharsPerToken)) {
		t.Error("digest_sources budget.max_tokens does not state pipeline.CharsPerToken")
	}
}
