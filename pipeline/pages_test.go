package pipeline_test

import (
	"context"
	"testing"

	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
)

// Only a PDF has pages: a form feed in a text or an HTML source is a block
// break, and its digest's locators are all of the char: form.
func TestFormFeedInUnpagedSourceIsNoPage(t *testing.T) {
	ctx := context.Background()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	for _, src := range []ingest.Source{
		{Text: "The vaccine trial ran in spring.\fThe vaccine reduced admissions by 80 percent."},
		{HTML: []byte("<html><body><article><p>The vaccine trial ran in spring.\f</p><p>\fThe vaccine reduced admissions by 80 percent.</p></article></body></html>"), ContentType: "text/html"},
	} {
		res, err := p.Digest(ctx, pipeline.Request{Source: src, Query: "vaccine admissions"})
		if err != nil {
			t.Fatal(err)
		}
		snippets := res.Payload.EvidenceSnippets
		if len(snippets) == 0 {
			t.Fatal("no evidence")
		}
		for _, s := range snippets {
			if s.Locator.Page != 0 {
				t.Errorf("%s source: locator %s, want the char: form", res.Source.Kind, s.Locator)
			}
		}
	}
}
