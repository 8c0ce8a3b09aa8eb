package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/wire"
)

// TestDigestExplain shows that ?explain=1 on POST /v1/digest returns the
// HTML extractor's decisions in the source, as digestd extract --json
// prints them (the response held to openapi.yaml), that a request without
// it carries none, and that a bad value is refused.
func TestDigestExplain(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	page := strings.ReplaceAll(articleHTML, `\x92`, "'")
	resp, b := c.do(t, h, "POST", "/v1/digest?query=tides&explain=1", "text/html", []byte(page))
	if resp.StatusCode != 200 {
		t.Fatalf("status %d: %s", resp.StatusCode, b)
	}
	var data wire.DigestData
	if err := json.Unmarshal(decodeEnvelope(t, b).Data, &data); err != nil {
		t.Fatal(err)
	}
	footer := false
	for _, d := range data.Source.Decisions {
		footer = footer || d.Final && d.Action == "drop" && d.Rule == "nav-aside-footer" && d.Element == "footer" && strings.HasPrefix(d.Text, "Copyright 2024")
	}
	if !footer {
		t.Errorf("no final drop of the footer by nav-aside-footer in source.decisions: %+v", data.Source.Decisions)
	}
	resp, b = c.do(t, h, "POST", "/v1/digest?query=tides", "text/html", []byte(page))
	if resp.StatusCode != 200 || strings.Contains(string(b), `"decisions"`) {
		t.Errorf("without explain: status %d, decisions in %s", resp.StatusCode, b)
	}
	resp, b = c.do(t, h, "POST", "/v1/digest?query=tides&explain=yes", "text/html", []byte(page))
	if resp.StatusCode != 400 || !strings.Contains(string(b), "VALIDATION_ERROR") {
		t.Errorf("explain=yes: status %d: %s", resp.StatusCode, b)
	}
}
