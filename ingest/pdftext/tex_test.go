package pdftext

import (
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/pdftext/textmetric"
	"github.com/digestd/digestd/normalize"
)

// texFixture is a PDF made by pdfTeX from testdata/tex (see gen.sh there):
// Type 1 or CFF fonts with builtin encodings and no ToUnicode maps.
type texFixture struct {
	pdf, ref      string // files under testdata
	word, shingle float64
	want, wantNot []string
	lines         []string // whole lines (paragraphs) the text must have
	pages         int
}

var texFixtures = []texFixture{
	{pdf: "tex-ligatures.pdf", ref: "tex/ligatures.txt", word: 1, shingle: 1, pages: 1,
		want: []string{"field office found five official files", "baffled", "difficult traffic", "shuffled raffle", "fluffy", "affixes",
			"Poincaré met Schrödinger and Erdős at a café in Zürich", "naïve façade", "à la carte"}},
	{pdf: "tex-math.pdf", ref: "tex/math.txt", word: 0.99, shingle: 0.9, pages: 1,
		want:    []string{"α", "γ ∈ Γ", "x ∈ A", "∀y", "∃z", "{a, b, c}", "λk", "μ ≤ σ2", "ψ and ω", "θ → π", "n → ∞", "Δ, Σ, Ω, Φ and Ψ", "∫"},
		wantNot: []string{"2 A", " 8y", "fa, b, cg"}},
	{pdf: "tex-hyphenation.pdf", ref: "tex/hyphenation.txt", word: 1, shingle: 1, pages: 1,
		want: []string{"internationalization", "state-of-the-art method", "well-known baseline", "documentation, standardization"}},
	{pdf: "tex-table.pdf", ref: "tex/table.txt", word: 1, shingle: 1, pages: 1,
		want: []string{"Method Precision Recall Notes", "Baseline 0.71 0.64 simple rules", "Oracle 1.00 1.00 upper bound"}},
	// multicol balances columns on their own baselines.
	{pdf: "tex-multicol.pdf", ref: "tex/multicol.txt", word: 0.99, shingle: 0.97, pages: 2,
		want: []string{"1.1 Encodings An encoding is a list", "effect, find, flow, office and baffle"}},
	{pdf: "tex-lists.pdf", ref: "tex/lists.txt", word: 1, shingle: 1, pages: 1,
		lines: []string{"7. Group the glyphs into words by the gaps between neighbouring glyphs.",
			"• A bulleted item that is long enough to wrap onto a second line of text in this narrow layout of the page."}},
	{pdf: "tex-onelinepages.pdf", ref: "tex/onelinepages.txt", word: 1, shingle: 1, pages: 3,
		want: []string{"Page 1 hello world", "Page 2 hello world", "Page 3 hello world"}},
	// Two pages: the running head of the second one cannot be told
	// from a line of text, so it stays.
	{pdf: "tex-paper.pdf", ref: "tex/paper.txt", word: 0.99, shingle: 0.98, pages: 2,
		want: []string{"Ada Example University of Nowhere", "1 Introduction", "office, official, affine and baffled", "α ∈ A",
			"exponent in x2 or an index in an stays", "• the gap between two columns is wider than any gap between words;",
			"3 Evaluation We measured", "2. Sequence agreement rewards the right order of lines and columns.", "Plain order 0.81 0.52",
			"[9] J. Jones. Baselines, exponents and indices.", "[10] K. King."}},
	{pdf: "tex-paper-cff.pdf", ref: "tex/paper.txt", word: 0.99, shingle: 0.98, pages: 2,
		want: []string{"affine", "baffled", "α ∈ A", "3 Evaluation We measured"}},
	// Running heads that change with each chapter and section stay (the
	// pdfbox references keep them too); page numbers go.
	{pdf: "tex-book.pdf", ref: "tex/book.txt", word: 0.98, shingle: 0.96, pages: 6,
		want: []string{"Fonts and Their Names", "a glyph called “fi”", "effect, find, flow, office and baffle", "well-known keeps its hyphen"}},
	{pdf: "tex-book-cff.pdf", ref: "tex/book.txt", word: 0.98, shingle: 0.96, pages: 6,
		want: []string{"effect, find, flow, office and baffle"}},
}

// TestTeXFixtures checks the text of the pdfTeX fixtures against their
// expected text by the evaluation's word and shingle F1 and by phrases that
// must appear. With PDFTEXT_EVAL=1 and pdftotext installed it also logs
// pdftotext's figures on the same files.
func TestTeXFixtures(t *testing.T) {
	for _, fx := range texFixtures {
		t.Run(fx.pdf, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join("testdata", fx.pdf))
			if err != nil {
				t.Fatal(err)
			}
			ref, err := os.ReadFile(filepath.Join("testdata", fx.ref))
			if err != nil {
				t.Fatal(err)
			}
			res, err := Extract(raw, Limits{})
			if err != nil {
				t.Fatalf("Extract: %v", err)
			}
			if len(res.Pages) != fx.pages {
				t.Errorf("pages = %d, want %d", len(res.Pages), fx.pages)
			}
			text := normalize.Pages(res.Pages)
			w, s := textmetric.WordF1(text, string(ref)), textmetric.ShingleF1(text, string(ref))
			t.Logf("word %.3f shingle %.3f", w, s)
			if w < fx.word || s < fx.shingle {
				t.Errorf("word F1 %.3f (want ≥ %.2f), shingle F1 %.3f (want ≥ %.2f); text:\n%s", w, fx.word, s, fx.shingle, text)
			}
			for _, l := range fx.lines {
				if !slices.Contains(strings.Split(text, "\n"), l) {
					t.Errorf("text lacks the line %q", l)
				}
			}
			flat := strings.Join(strings.Fields(text), " ")
			for _, p := range fx.want {
				if !strings.Contains(flat, p) {
					t.Errorf("text lacks %q", p)
				}
			}
			for _, p := range fx.wantNot {
				if strings.Contains(flat, p) {
					t.Errorf("text has %q", p)
				}
			}
			if os.Getenv("PDFTEXT_EVAL") == "1" {
				if out, err := exec.Command("pdftotext", "-enc", "UTF-8", filepath.Join("testdata", fx.pdf), "-").Output(); err == nil {
					pt := string(out)
					t.Logf("pdftotext word %.3f shingle %.3f", textmetric.WordF1(pt, string(ref)), textmetric.ShingleF1(pt, string(ref)))
				}
			}
		})
	}
}
