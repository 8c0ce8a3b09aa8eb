package api_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/digestd/digestd/api"
	"github.com/digestd/digestd/wire"
)

// TestArchiveAsMarkdown: ?format=markdown renders an archived text from
// its text and structure; a text without structure is its paragraphs;
// another format is a VALIDATION_ERROR.
func TestArchiveAsMarkdown(t *testing.T) {
	h, _ := newTestServer(t, api.Config{})
	c := loadContract(t)
	src := "# Wells\n\nLevels fell at [forty wells](https://example.org/wells).\n\n| Zone | Wells |\n|---|---|\n| North | 12 |\n"
	_, b := c.do(t, h, "POST", "/v1/digest?query=wells", "text/markdown", []byte(src))
	var data wire.DigestData
	if err := json.Unmarshal(decodeEnvelope(t, b).Data, &data); err != nil {
		t.Fatal(err)
	}
	resp, body := c.do(t, h, "GET", "/v1/archive/"+data.Source.ArchiveHash.String()+"?format=markdown", "", nil)
	if resp.StatusCode != 200 || !strings.HasPrefix(resp.Header.Get("Content-Type"), "text/markdown") {
		t.Fatalf("markdown: %d %v %q", resp.StatusCode, resp.Header, body)
	}
	for _, want := range []string{"# Wells\n", "[forty wells](https://example.org/wells)", "| Zone | Wells |\n| --- | --- |\n| North | 12 |"} {
		if !strings.Contains(string(body), want) {
			t.Errorf("no %q in\n%s", want, body)
		}
	}
	_, b = c.do(t, h, "POST", "/v1/digest?query=x", "text/plain", []byte("Plain *text*.\nSecond block."))
	json.Unmarshal(decodeEnvelope(t, b).Data, &data)
	resp, body = c.do(t, h, "GET", "/v1/archive/"+data.Source.ArchiveHash.String()+"?format=markdown", "", nil)
	if resp.StatusCode != 200 || string(body) != "Plain \\*text\\*.\n\nSecond block." {
		t.Errorf("plain text: %d %q", resp.StatusCode, body)
	}
	resp, body = c.do(t, h, "GET", "/v1/archive/"+data.Source.ArchiveHash.String()+"?format=html", "", nil)
	if resp.StatusCode != 400 || errorOf(t, body).ErrorCode != "VALIDATION_ERROR" {
		t.Errorf("another format: %d %q", resp.StatusCode, body)
	}
}
