package pipeline_test

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
)

// tidesSurvey is a Markdown document with nested headings, one of them
// longer than a section's heading may be.
var tidesSurvey = "# Survey of tides\n\nTides are the rise and fall of the sea.\n\n" +
	"## 3 Method\n\nWe visited ten harbours along the coast.\n\n" +
	"### 3.2 Data\n\nThe harbour gauges recorded the water level every minute for a year.\n\n" +
	"## 4 Results " + strings.Repeat("and their discussion ", 8) + "\n\nSpring tides were twice as high as neap tides at every harbour.\n"

// TestSnippetSections: a snippet carries the heading path of the section
// it lies in, from the source's structure, each heading as the canonical
// text has it and cut to its bound; the answer verifies, a forged section
// does not, a cached answer is the same, and another input of the same text
// without structure gets no sections.
func TestSnippetSections(t *testing.T) {
	ctx := context.Background()
	p := newPipeline(t)
	md := ingest.Source{File: []byte(tidesSurvey), Name: "survey.md"}
	sectionOf := func(res *pipeline.Result, prefix string) []string {
		t.Helper()
		for _, s := range res.Payload.EvidenceSnippets {
			if strings.HasPrefix(s.Text, prefix) {
				return s.Section
			}
		}
		t.Fatalf("no snippet opens with %q: %+v", prefix, res.Payload.EvidenceSnippets)
		return nil
	}
	// Snippets of one sentence each, so that each lies in one section.
	opts := digest.Options{SnippetMaxChars: 80}
	req := pipeline.Request{Source: md, Query: "harbour gauges water level spring tides", Options: opts}
	res, err := p.Digest(ctx, req)
	if err != nil {
		t.Fatal(err)
	}
	if res.Payload.Version != digest.PayloadVersion {
		t.Errorf("version %q, want %q", res.Payload.Version, digest.PayloadVersion)
	}
	if got, want := sectionOf(res, "The harbour gauges"), []string{"Survey of tides", "3 Method", "3.2 Data"}; !slices.Equal(got, want) {
		t.Errorf("section %q, want %q", got, want)
	}
	results := sectionOf(res, "Spring tides")
	if len(results) != 2 || results[0] != "Survey of tides" || !strings.HasPrefix(results[1], "4 Results and their discussion") ||
		utf8.RuneCountInString(results[1]) > digest.MaxSectionHeadingChars || strings.HasSuffix(results[1], " ") {
		t.Errorf("a long heading's section %q, want it cut to %d code points at a word", results, digest.MaxSectionHeadingChars)
	}
	// The answer verifies, sections included; a forged one does not.
	rep, err := p.Verify(ctx, res.Payload)
	if err != nil || !rep.Valid {
		t.Fatalf("the answer does not verify: %+v, %v", rep, err)
	}
	forged := *res.Payload
	forged.EvidenceSnippets = slices.Clone(forged.EvidenceSnippets)
	i := slices.IndexFunc(forged.EvidenceSnippets, func(s digest.EvidenceSnippet) bool { return len(s.Section) > 0 })
	if i < 0 {
		t.Fatal("no snippet has a section")
	}
	forged.EvidenceSnippets[i].Section = []string{"Survey of tides", "5 Conclusions"}
	if rep, err := p.Verify(ctx, &forged); err != nil || rep.Valid || rep.Snippets[i].Verified ||
		!strings.Contains(strings.Join(rep.Problems, "; "), fmt.Sprintf("evidence_snippets[%d]: section[1]", i)) {
		t.Errorf("a forged section: %+v, %v", rep, err)
	}
	// A cached answer carries the same sections, and what a caller does to
	// them stays its own.
	again, err := p.Digest(ctx, req)
	if err != nil || !again.CacheHit || !reflect.DeepEqual(again.Payload, res.Payload) {
		t.Fatalf("cached: hit %v, %v\n%+v\nwant %+v", again != nil && again.CacheHit, err, again.Payload, res.Payload)
	}
	again.Payload.EvidenceSnippets[i].Section[0] = "changed"
	if third, _ := p.Digest(ctx, req); third.Payload.EvidenceSnippets[i].Section[0] == "changed" {
		t.Error("a caller's change to a section reached the cache")
	}
	// By its archive hash, the text is digested under its record's
	// structure too.
	byHash, err := p.Digest(ctx, pipeline.Request{Archive: res.Source.ArchiveHash, Query: req.Query, Options: opts})
	if err != nil || !reflect.DeepEqual(byHash.Payload.EvidenceSnippets, res.Payload.EvidenceSnippets) {
		t.Errorf("by archive hash: %v\n%+v\nwant %+v", err, byHash.Payload.EvidenceSnippets, res.Payload.EvidenceSnippets)
	}
	// The same canonical text sent as plain text has no structure, so no
	// sections, and is not answered from the sectioned digest.
	text, _, _, err := p.Archived(ctx, res.Source.ArchiveHash)
	if err != nil {
		t.Fatal(err)
	}
	plain, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: text.String()}, Query: req.Query, Options: opts})
	if err != nil {
		t.Fatal(err)
	}
	if plain.Source.ArchiveHash != res.Source.ArchiveHash || plain.CacheHit {
		t.Fatalf("plain text: %s (cache hit %v), want the same text %s digested anew", plain.Source.ArchiveHash, plain.CacheHit, res.Source.ArchiveHash)
	}
	for _, s := range plain.Payload.EvidenceSnippets {
		if s.Section != nil {
			t.Errorf("a snippet of a source without structure has a section: %+v", s)
		}
	}
}

// TestOldDigestBlobsRead: a digest archived before sections (version 1.0,
// no section) still reads and validates, and verifies as clients kept it;
// a 1.0 payload that carries a section does not validate.
func TestOldDigestBlobsRead(t *testing.T) {
	ctx := context.Background()
	p := newPipeline(t)
	res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: tidesText}, Query: "moon"})
	if err != nil {
		t.Fatal(err)
	}
	old := *res.Payload
	old.Version = "1.0"
	blob, err := json.Marshal(map[string]any{"payload": &old})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(blob), "section") {
		t.Fatalf("an old digest has no sections: %s", blob)
	}
	d, err := archive.PutBlob(ctx, p.Store, archive.NewBlob(string(blob)))
	if err != nil {
		t.Fatal(err)
	}
	got, err := p.ReadDigest(ctx, d)
	if err != nil || !reflect.DeepEqual(got, &old) {
		t.Fatalf("an old digest blob: %+v, %v", got, err)
	}
	if rep, err := p.Verify(ctx, &old); err != nil || !rep.Valid {
		t.Errorf("an old payload does not verify: %+v, %v", rep, err)
	}
	old.EvidenceSnippets = slices.Clone(old.EvidenceSnippets)
	old.EvidenceSnippets[0].Section = []string{"Tides"}
	blob, _ = json.Marshal(map[string]any{"payload": &old})
	d, err = archive.PutBlob(ctx, p.Store, archive.NewBlob(string(blob)))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := p.ReadDigest(ctx, d); err == nil {
		t.Error("a 1.0 digest with a section validated")
	}
}

// TestLostSidecarCostsSections: a text whose record names a sidecar that
// can no longer be read is still digested, its snippets without sections,
// and that digest is not cached under the sidecar's key (a repaired
// sidecar gives the sections back).
func TestLostSidecarCostsSections(t *testing.T) {
	ctx := context.Background()
	p := newPipeline(t)
	res, err := p.Archive(ctx, pipeline.Request{Source: ingest.Source{File: []byte(tidesSurvey), Name: "survey.md"}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Record.StructureHash.Valid() {
		t.Fatal("the record names no sidecar")
	}
	if err := p.Store.Delete(ctx, res.Record.StructureHash); err != nil {
		t.Fatal(err)
	}
	req := pipeline.Request{Archive: res.ArchiveHash, Query: "harbour gauges", Options: digest.Options{SnippetMaxChars: 80}}
	for range 2 {
		got, err := p.Digest(ctx, req)
		if err != nil {
			t.Fatalf("a lost sidecar failed the digest: %v", err)
		}
		if got.CacheHit {
			t.Error("a digest without its sidecar's sections was cached")
		}
		for _, s := range got.Payload.EvidenceSnippets {
			if s.Section != nil {
				t.Errorf("a section without a sidecar: %+v", s)
			}
		}
	}
}
