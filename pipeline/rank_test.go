package pipeline_test

import (
	"context"
	"os"
	"testing"

	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
)

// TestRareTermsRankSources ranks three sources for "what causes MTCT?":
// two that hold the question's one rare term, MTCT (the walkthrough's
// notes and page), and a sentence that shares only the common word
// "caused" with it. A source that matches only common words never ranks
// above one that holds the question's rare terms.
func TestRareTermsRankSources(t *testing.T) {
	p := newPipeline(t)
	notes, err := os.ReadFile("../testdata/walkthrough/notes.txt")
	if err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile("../testdata/walkthrough/page.html")
	if err != nil {
		t.Fatal(err)
	}
	res, err := p.DigestMany(context.Background(), pipeline.ManyRequest{
		Query: "what causes MTCT?",
		Sources: []pipeline.Request{
			{ID: "gas", Source: ingest.Source{Text: "The gas leak may have been caused by nearby construction."}},
			{ID: "notes", Source: ingest.Source{Text: string(notes)}},
			{ID: "page", Source: ingest.Source{HTML: page}},
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range res.Items {
		t.Logf("%s %.4f", it.ID, it.Score)
	}
	if n := len(res.Items); n != 3 || res.Items[2].ID != "gas" {
		t.Errorf("ranked %d sources, last %q, want the gas text last", n, res.Items[len(res.Items)-1].ID)
	}
}
