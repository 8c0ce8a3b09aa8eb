package pipeline_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/structure"
)

const riversMarkdown = "# Rivers\n\nRivers carry [silt](https://example.org/silt) to the sea.\n\n## Deltas\n\n- A delta forms where a river slows.\n- Tides *shape* it.\n"

// TestStructureSidecar: a Markdown source's structure is archived as a
// sidecar that its record names, read back checked against the text, and
// kept by garbage collection with the record; a plain text has none.
func TestStructureSidecar(t *testing.T) {
	ctx := context.Background()
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &pipeline.Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{File: []byte(riversMarkdown), Name: "rivers.md"}, Query: "deltas"})
	if err != nil {
		t.Fatal(err)
	}
	text, rec, _, err := p.Archived(ctx, res.Source.ArchiveHash)
	if err != nil {
		t.Fatal(err)
	}
	if !rec.StructureHash.Valid() {
		t.Fatal("the record names no sidecar")
	}
	s, err := p.Structure(ctx, text, rec)
	if err != nil || s == nil {
		t.Fatalf("Structure: %v, %v", s, err)
	}
	md := structure.Markdown(text.String(), s).Markdown
	for _, want := range []string{"# Rivers", "## Deltas", "[silt](https://example.org/silt)", "- A delta", "*shape*"} {
		if !strings.Contains(md, want) {
			t.Errorf("the Markdown has no %q:\n%s", want, md)
		}
	}
	// Garbage collection keeps the sidecar with its record.
	p.Now = func() time.Time { return time.Now().Add(48 * time.Hour) }
	if _, err := p.CollectGarbage(ctx, time.Hour, false); err != nil {
		t.Fatal(err)
	}
	if _, err := store.Stat(ctx, rec.StructureHash); err != nil {
		t.Errorf("the sidecar was collected: %v", err)
	}
	// A sidecar for another text is refused on read, as corrupt.
	other := archive.NewBlob("Another text entirely.")
	if _, err := p.Structure(ctx, other, rec); fault.CodeOf(err) != fault.ArchiveCorrupt {
		t.Errorf("another text's sidecar: %v, want ARCHIVE_CORRUPT", err)
	}
	// A plain text has no structure, and reads as before.
	plain, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: "Rivers carry silt."}, Query: "silt"})
	if err != nil {
		t.Fatal(err)
	}
	text, rec, _, err = p.Archived(ctx, plain.Source.ArchiveHash)
	if err != nil {
		t.Fatal(err)
	}
	if s, err := p.Structure(ctx, text, rec); s != nil || err != nil || rec.StructureHash.Valid() {
		t.Errorf("a plain text's structure: %v, %v", s, err)
	}
	if _, err := p.Structure(ctx, text, nil); err != nil {
		t.Errorf("a text without a record: %v", err)
	}
}
