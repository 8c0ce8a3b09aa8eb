package mcpserver_test

import (
	"strings"
	"testing"
)

// TestCaseVariantKeysRefused sends tool arguments whose keys differ from the
// schema's only in case, beside the right key: the arguments are refused,
// never decoded case-insensitively (the last variant would win).
func TestCaseVariantKeysRefused(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	for _, args := range []map[string]any{
		{"query": "q", "source": map[string]any{"text": "Alpha text here.", "TEXT": "Beta text here."}},
		{"query": "q", "QUERY": "other", "source": map[string]any{"text": "Alpha text here."}},
		{"Query": "q", "source": map[string]any{"text": "Alpha text here."}},
	} {
		res, _ := call(t, cs, "digest_source", args)
		if !res.IsError || !strings.Contains(textOf(res), "VALIDATION_ERROR") {
			t.Errorf("%v: %s", args, textOf(res))
		}
	}
}
