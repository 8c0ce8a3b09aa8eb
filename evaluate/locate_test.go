package evaluate

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/locate"
)

func TestPerturb(t *testing.T) {
	q := "The efficient fixation of well-tolerated “vaccines” in twelve different countries was studied by researchers"
	for _, kind := range perturbations {
		p, ok := perturb(kind, q)
		if !ok || p == q {
			t.Errorf("%s: no change", kind)
			continue
		}
		folds := locate.Fold(p) == locate.Fold(q)
		if strings.HasPrefix(kind, "edited") == folds {
			t.Errorf("%s: %q folds equal to the original: %v", kind, p, folds)
		}
	}
	if _, ok := perturb("hyphenation", "short words only"); ok {
		t.Error("hyphenation of a quote without a long word")
	}
	if _, ok := perturb("edited_drop", "nine words are not enough for one edit here"); ok {
		t.Error("an edit of a quote under ten words")
	}
}

// TestLocateEval runs the locate evaluation on a small evidence set made
// here, with the locate package as the work measured.
func TestLocateEval(t *testing.T) {
	dir := t.TempDir()
	os.Mkdir(filepath.Join(dir, "docs"), 0o755)
	docs := map[string]string{
		"a.txt": "Influenza spreads by droplets among people in close contact. The efficient fixation of the virus on surfaces was studied in twelve different hospitals over two winters. Vaccination lowers the risk of severe disease in older adults and in children with asthma.",
		"b.txt": "Coronaviruses are spherical, enveloped, and the largest of positive-strand RNA viruses known to infect mammals and birds. The spike protein binds the receptor on the surface of the host cell before membrane fusion begins.",
	}
	for name, text := range docs {
		os.WriteFile(filepath.Join(dir, "docs", name), []byte(text), 0o644)
	}
	var lines []string
	for _, c := range []EvidenceCase{
		{ID: "1", Doc: "docs/a.txt", Question: "how?", Answers: []string{"by droplets"}, Evidence: []string{docs["a.txt"]}},
		{ID: "2", Doc: "docs/b.txt", Question: "what?", Answers: []string{"spherical, enveloped"}, Evidence: []string{docs["b.txt"]}},
	} {
		b, _ := json.Marshal(c)
		lines = append(lines, string(b))
	}
	os.WriteFile(filepath.Join(dir, "cases.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644)
	fn := LocateFuncs{
		Canonical: func(_ context.Context, doc string) (string, error) { return doc, nil },
		Locate: func(_ context.Context, doc string, quotes []string) ([]LocatedSpan, error) {
			ix := locate.NewIndex(doc)
			var out []LocatedSpan
			for _, q := range quotes {
				m := ix.Locate(q, 0)
				out = append(out, LocatedSpan{Match: string(m.Kind), Start: m.Start, End: m.End, Similarity: m.Similarity})
			}
			return out, nil
		},
	}
	rep, err := Locate(context.Background(), dir, fn)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"located_exact", "located_normalized", "located_edited", "match_exact"} {
		if rep.Metrics[k] != 1 {
			t.Errorf("%s = %v, want 1 (%v)", k, rep.Metrics[k], rep.Metrics)
		}
	}
	if rep.Metrics["n_negative"] < 2 || rep.Metrics["false_locator_rate"] != 0 {
		t.Errorf("negatives: %v", rep.Metrics)
	}
	if rep.Metrics["n_edited_drop"] < 1 || rep.Metrics["n_exact"] < 4 {
		t.Errorf("too few cases: %v", rep.Metrics)
	}
}
