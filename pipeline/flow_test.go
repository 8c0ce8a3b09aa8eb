package pipeline_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/internal/payloadtest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

const tidesText = "Tides rise twice a day. The moon pulls the sea toward it, and the sun adds a smaller pull. " +
	"Spring tides come when the sun and moon line up."

func newPipeline(t *testing.T) *pipeline.Pipeline {
	t.Helper()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
}

// TestCacheKey digests a text, then a second request: the cache answers it
// exactly when everything that determines the digest is the same.
func TestCacheKey(t *testing.T) {
	ctx := context.Background()
	text := ingest.Source{Text: tidesText}
	tests := []struct {
		name   string
		second pipeline.Request
		hit    bool
	}{
		{"same request", pipeline.Request{Source: text, Query: "moon"}, true},
		{"query spaced otherwise", pipeline.Request{Source: text, Query: "  moon\t"}, true},
		{"defaults spelled out", pipeline.Request{Source: text, Query: "moon", Options: digest.DefaultOptions()}, true},
		{"by archive hash", pipeline.Request{Archive: archive.SumString(tidesText), Query: "moon"}, true},
		{"another query", pipeline.Request{Source: text, Query: "sun"}, false},
		{"query in capitals", pipeline.Request{Source: text, Query: "Moon"}, false},
		{"another text", pipeline.Request{Source: ingest.Source{Text: tidesText + " Neap tides are weaker."}, Query: "moon"}, false},
		{"fewer snippets", pipeline.Request{Source: text, Query: "moon", Options: digest.Options{MaxEvidence: 1}}, false},
		{"fewer key points", pipeline.Request{Source: text, Query: "moon", Options: digest.Options{MaxKeyPoints: 1}}, false},
		{"shorter snippets", pipeline.Request{Source: text, Query: "moon", Options: digest.Options{SnippetMaxChars: 60}}, false},
		{"shorter summary", pipeline.Request{Source: text, Query: "moon", Options: digest.Options{SummaryMaxChars: 40}}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := newPipeline(t)
			first, err := p.Digest(ctx, pipeline.Request{Source: text, Query: "moon"})
			if err != nil || first.CacheHit {
				t.Fatalf("first: hit %v, %v", first != nil && first.CacheHit, err)
			}
			got, err := p.Digest(ctx, tt.second)
			if err != nil {
				t.Fatal(err)
			}
			if got.CacheHit != tt.hit {
				t.Errorf("cache hit %v, want %v", got.CacheHit, tt.hit)
			}
			if tt.hit && got.DigestHash != first.DigestHash {
				t.Errorf("a hit serves another digest: %v, first %v", got.DigestHash, first.DigestHash)
			}
		})
	}
}

// TestVerify checks payloads against the archive: the pipeline's own
// digest verifies, and each kind of tampering is caught where it is. The
// report is valid only when nothing failed, and its problems name each
// failure, a tampered snippet's included.
func TestVerify(t *testing.T) {
	ctx := context.Background()
	p := newPipeline(t)
	res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: tidesText}, Query: "moon"})
	if err != nil || len(res.Payload.EvidenceSnippets) == 0 {
		t.Fatalf("digest: %v", err)
	}
	clone := func(edit func(*digest.Payload)) *digest.Payload {
		c := *res.Payload
		c.EvidenceSnippets = append([]digest.EvidenceSnippet(nil), c.EvidenceSnippets...)
		edit(&c)
		return &c
	}
	sent := wire.PayloadOf(res.Payload)
	swappedAt, ok := payloadtest.SwapWord(sent)
	if !ok {
		t.Fatalf("no word to swap in %+v", sent)
	}
	swapped := sent.Value()
	tests := []struct {
		name                           string
		pl                             *digest.Payload
		valid, found, matches, checked bool
		badSnippet                     int // index of the snippet that fails, or -1
	}{
		{"as built", res.Payload, true, true, true, true, -1},
		{"snippet text changed", clone(func(c *digest.Payload) {
			c.EvidenceSnippets[0].Text = strings.ToUpper(c.EvidenceSnippets[0].Text)
		}), false, true, true, true, 0},
		{"one word swapped for one of the same length", swapped, false, true, true, true, swappedAt},
		{"locator moved", clone(func(c *digest.Payload) {
			c.EvidenceSnippets[0].Locator.Start++
			c.EvidenceSnippets[0].Locator.End++
		}), false, true, true, true, 0},
		{"unknown text", clone(func(c *digest.Payload) {
			c.SourceTextHash = archive.SumString("some text never archived").String()
		}), false, false, false, false, -1},
		{"wrong length", clone(func(c *digest.Payload) { c.OriginalChars++ }), false, true, true, false, -1},
		{"invalid locator", clone(func(c *digest.Payload) { c.EvidenceSnippets[0].Locator = digest.Invalid }), false, true, true, false, -1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rep, err := p.Verify(ctx, tt.pl)
			if err != nil {
				t.Fatal(err)
			}
			if rep.Valid != tt.valid || rep.Verified != tt.valid || rep.TextFound != tt.found || rep.HashMatches != tt.matches {
				t.Fatalf("report %+v", rep)
			}
			if rep.Valid != (len(rep.Problems) == 0) {
				t.Errorf("valid %t with problems %q", rep.Valid, rep.Problems)
			}
			if tt.badSnippet >= 0 {
				prefix := fmt.Sprintf("evidence_snippets[%d]: ", tt.badSnippet)
				if len(rep.Problems) != 1 || !strings.HasPrefix(rep.Problems[0], prefix) {
					t.Errorf("problems %q, want one naming %s", rep.Problems, prefix)
				}
			}
			for i, c := range rep.Snippets {
				if tt.checked && c.Verified == (i == tt.badSnippet) || !tt.checked && c.Verified || (c.Problem == "") != c.Verified {
					t.Errorf("snippet %d: %+v", i, c)
				}
			}
			if len(rep.Snippets) != len(tt.pl.EvidenceSnippets) {
				t.Errorf("%d snippets reported of %d", len(rep.Snippets), len(tt.pl.EvidenceSnippets))
			}
		})
	}
}

// TestSliceText slices an archived paged and an unpaged text.
func TestSliceText(t *testing.T) {
	ctx := context.Background()
	p := newPipeline(t)
	flat, err := archive.PutBytes(ctx, p.Store, []byte("0123456789abcdefghij"))
	if err != nil {
		t.Fatal(err)
	}
	paged, err := archive.PutBytes(ctx, p.Store, []byte("first page\fsecond page"))
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name          string
		text          archive.Hash
		loc           digest.Locator
		context       int
		want          string
		before, after string
		page          int
		code          fault.Code
	}{
		{"middle", flat, digest.Locator{Start: 5, End: 10}, 0, "56789", "", "", 0, ""},
		{"with context", flat, digest.Locator{Start: 5, End: 10}, 3, "56789", "234", "abc", 0, ""},
		{"context cut at the ends", flat, digest.Locator{Start: 1, End: 19}, 5, "123456789abcdefghi", "0", "j", 0, ""},
		{"whole", flat, digest.Locator{Start: 0, End: 20}, 0, "0123456789abcdefghij", "", "", 0, ""},
		{"empty", flat, digest.Locator{Start: 20, End: 20}, 0, "", "", "", 0, ""},
		{"past the end", flat, digest.Locator{Start: 15, End: 21}, 0, "", "", "", 0, fault.RangeNotSatisfiable},
		{"page named", paged, digest.Locator{Page: 2, Start: 11, End: 17}, 0, "second", "", "", 2, ""},
		{"page found", paged, digest.Locator{Start: 11, End: 17}, 0, "second", "", "", 2, ""},
		{"wrong page", paged, digest.Locator{Page: 1, Start: 11, End: 17}, 0, "", "", "", 0, fault.ValidationError},
		{"not archived", archive.SumString("nothing"), digest.Locator{Start: 0, End: 1}, 0, "", "", "", 0, fault.NotFound},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := p.SliceText(ctx, tt.text, tt.loc, tt.context)
			if tt.code != "" {
				if fault.CodeOf(err) != tt.code {
					t.Errorf("error %v, want %s", err, tt.code)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if s.Text != tt.want || s.Before != tt.before || s.After != tt.after || s.Page != tt.page || s.Start != tt.loc.Start || s.End != tt.loc.End {
				t.Errorf("slice %+v", s)
			}
		})
	}
}

// TestListSources lists archived sources newest first, each text once at
// its newest archiving, in pages that join up.
func TestListSources(t *testing.T) {
	ctx := context.Background()
	p := newPipeline(t)
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p.Now = func() time.Time { at = at.Add(time.Second); return at }
	texts := []string{"Alpha text about tides.", "Beta text about tides.", "Gamma text about tides."}
	for _, s := range append(texts, texts[0]) { // alpha archived again, newest
		if _, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: s}, Query: "tides"}); err != nil {
			t.Fatal(err)
		}
	}
	want := []string{texts[2], texts[1], texts[0]}
	tests := []struct {
		name  string
		after int // index into want of the last entry already seen, -1 for none
		limit int
		want  []string
		more  bool
	}{
		{"all", -1, 10, want, false},
		{"first page", -1, 2, want[:2], true},
		{"second page", 1, 2, want[2:], false},
		{"exactly", -1, 3, want, false},
		{"after the last", 2, 5, nil, false},
	}
	// The position after each entry, one page of one at a time.
	var positions []string
	for after := ""; ; {
		page, err := p.ListSources(ctx, after, 1)
		if err != nil {
			t.Fatal(err)
		}
		positions = append(positions, page.Next)
		if !page.More {
			break
		}
		after = page.Next
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			after := ""
			if tt.after >= 0 {
				after = positions[tt.after]
			}
			page, err := p.ListSources(ctx, after, tt.limit)
			if err != nil || page.More != tt.more || len(page.Sources) != len(tt.want) {
				t.Fatalf("page %+v, %v", page, err)
			}
			for i, e := range page.Sources {
				if e.ArchiveHash.String() != archive.SumString(tt.want[i]).String() {
					t.Errorf("entry %d is %s, want the text %q", i, e.ArchiveHash, tt.want[i])
				}
				rec, recHash, err := p.Record(ctx, archive.SumString(tt.want[i]))
				if err != nil || e.RecordHash.String() != recHash.String() || e.Kind != rec.Kind || e.TextChars != rec.TextChars {
					t.Errorf("entry %d: record %q, %v", i, e.RecordHash, err)
				}
			}
		})
	}
}
