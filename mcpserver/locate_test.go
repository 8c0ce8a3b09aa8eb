package mcpserver_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
)

func TestLocateQuotesAndCheckCitations(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	text := fixture(t, "transmission.txt")
	var d digestData
	mustSucceed(t, cs, "digest_source", map[string]any{"query": testQuery, "source": map[string]any{"text": text}}, &d)
	sn := d.Digest.EvidenceSnippets
	if len(sn) < 2 {
		t.Fatalf("want ≥ 2 snippets, got %d", len(sn))
	}
	hash := d.Digest.SourceTextHash
	var loc struct {
		Results []struct {
			Match    string
			SourceID *string `json:"source_id"`
			Locator  *string
			Text     *string
		}
		Counts map[string]int
	}
	_, env := mustSucceed(t, cs, "locate_quotes", map[string]any{
		"sources": []map[string]any{{"id": "t", "archive": hash}},
		"quotes":  []string{sn[0].Text, strings.ToUpper(sn[1].Text), "nothing of the kind is written anywhere in this paper"},
	}, &loc)
	want := []string{"exact", "normalized", "not_found"}
	for i, r := range loc.Results {
		if r.Match != want[i] {
			t.Errorf("quote %d: %s, want %s", i, r.Match, want[i])
			continue
		}
		if r.Match == "not_found" {
			if r.Locator != nil || r.Text != nil {
				t.Errorf("not_found with a span")
			}
			continue
		}
		// The snippets' locators verify against the archive, so equal
		// locators and texts slice the archived text.
		if *r.SourceID != "t" || *r.Text != sn[i].Text || *r.Locator != sn[i].Locator {
			t.Errorf("quote %d: %v %q", i, *r.Locator, *r.Text)
		}
	}
	if !hasWarning(env, "QUOTES_NOT_FOUND") || loc.Counts["not_found"] != 1 {
		t.Errorf("counts %v, warnings %v", loc.Counts, env.Meta.Warnings)
	}

	report := fmt.Sprintf("It says “%s” [%s#%s]. Also “%s” [t#%s]. And [nobody].\n", sn[0].Text, hash, sn[0].Locator, sn[1].Text, sn[0].Locator)
	var chk struct {
		Citations []struct {
			Status  string
			Locator *string
		}
		Counts map[string]int
	}
	_, env = mustSucceed(t, cs, "check_citations", map[string]any{"report": report, "sources": []map[string]any{{"id": "t", "archive": hash}}}, &chk)
	if len(chk.Citations) != 3 || chk.Citations[0].Status != "supported" || chk.Citations[1].Status != "moved" || chk.Citations[2].Status != "unknown_source" {
		t.Fatalf("citations %+v", chk.Citations)
	}
	if *chk.Citations[1].Locator != sn[1].Locator {
		t.Errorf("moved to %s, want %s", *chk.Citations[1].Locator, sn[1].Locator)
	}
	if !hasWarning(env, "CITATIONS_MOVED") || !hasWarning(env, "CITATIONS_UNKNOWN_SOURCE") {
		t.Errorf("warnings %v", env.Meta.Warnings)
	}

	ed, _ := mustFail(t, cs, "locate_quotes", map[string]any{"sources": []map[string]any{{"archive": "sha256:" + strings.Repeat("0", 64)}}, "quotes": []string{"x"}})
	if ed.ErrorCode != string(fault.NotFound) {
		t.Errorf("unknown archive: %s", ed.ErrorCode)
	}
	ed, _ = mustFail(t, cs, "check_citations", map[string]any{"report": ""})
	if ed.ErrorCode != string(fault.MissingRequired) {
		t.Errorf("empty report: %s", ed.ErrorCode)
	}
}
