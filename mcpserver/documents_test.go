package mcpserver_test

import (
	"encoding/base64"
	"os"
	"strings"
	"testing"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
)

// digest_source takes a presentation as file_base64: its slides are pages,
// its snippets name the slide, the record names the slides; an encrypted
// document is DOCUMENT_ENCRYPTED, as over HTTP.
func TestDocumentAsFile(t *testing.T) {
	cs := connectInMemory(t, newPipeline(t))
	raw, err := os.ReadFile("../ingest/doctext/testdata/devset/slides.pptx")
	if err != nil {
		t.Fatal(err)
	}
	var d digestData
	mustSucceed(t, cs, "digest_source", map[string]any{"query": "why did cables lose margin",
		"source": map[string]any{"file_base64": base64.StdEncoding.EncodeToString(raw), "file_name": "slides.pptx"}}, &d)
	if d.Source.Kind != "pptx" || d.Source.Record == nil || strings.Join(d.Source.Record.PageNames, "|") != "Quarterly Sales Review|Revenue grew in every region|Margins by product line|Next quarter" {
		t.Fatalf("source %+v", d.Source)
	}
	if len(d.Digest.EvidenceSnippets) == 0 {
		t.Fatal("no snippets")
	}
	top, err := digest.ParseLocator(d.Digest.EvidenceSnippets[0].Locator)
	if err != nil || top.Page != 3 {
		t.Errorf("top snippet %q at %s, want on slide 3", d.Digest.EvidenceSnippets[0].Text, d.Digest.EvidenceSnippets[0].Locator)
	}
	encrypted := append([]byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1}, []byte("E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P\x00a\x00c\x00k\x00a\x00g\x00e\x00")...)
	ed, _ := mustFail(t, cs, "digest_source", map[string]any{"query": "q",
		"source": map[string]any{"file_base64": base64.StdEncoding.EncodeToString(encrypted), "file_name": "secret.docx"}})
	if ed.ErrorCode != string(fault.DocumentEncrypted) {
		t.Errorf("encrypted document: %+v", ed)
	}
}
