// Package searchtest is the conformance suite every search.Index engine
// passes: the embedded one and the server one run the same cases.
package searchtest

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/search"
)

// Texts of the suite's sources.
const (
	mtct  = "Mother-to-child transmission (MTCT) is the main cause of HIV-1 infection in children. Placental DC-SIGNR plays a crucial role in MTCT.\nBreastfeeding adds to the risk of MTCT after birth."
	paged = "Page one speaks of glaciers melting in the Alps." + normalize.PageBreak + "Page two speaks of volcanoes erupting in Iceland. Lava flows reached the sea."
	cells = "Mitochondria are the powerhouse of the cell. They produce ATP through oxidative phosphorylation."
)

type fixture struct {
	src  search.Source
	text string
}

func fixtures() []fixture {
	at := time.Date(2026, 11, 1, 12, 0, 0, 0, time.UTC)
	mk := func(text, kind string, days int, labels ...string) fixture {
		return fixture{search.Source{Hash: archive.SumString(text), Kind: kind, Added: at.AddDate(0, 0, days), Labels: labels}, text}
	}
	return []fixture{
		mk(mtct, "text", 0, "hiv", "project-a"),
		mk(paged, "pdf", 1, "geo"),
		mk(cells, "html", 2),
	}
}

// Test runs the suite against indexes made by open, a fresh empty index
// each call; the suite closes them.
func Test(t *testing.T, open func(t *testing.T) search.Index) {
	ctx := context.Background()
	load := func(t *testing.T) (search.Index, []fixture) {
		t.Helper()
		x := open(t)
		fx := fixtures()
		// The first alone, the others in one call.
		var docs []search.Document
		for _, f := range fx {
			docs = append(docs, search.Document{Source: f.src, Passages: search.PassagesOf(f.text)})
		}
		if err := x.Put(ctx, docs[0]); err != nil {
			t.Fatal(err)
		}
		if err := x.Put(ctx, docs[1:]...); err != nil {
			t.Fatal(err)
		}
		return x, fx
	}
	sourcesOf := func(t *testing.T, x search.Index, q string, f search.Filter) []archive.Hash {
		t.Helper()
		cands, total, err := x.Candidates(ctx, q, f, 50)
		if err != nil {
			t.Fatal(err)
		}
		if total < len(cands) {
			t.Errorf("%q: total estimate %d below the %d candidates", q, total, len(cands))
		}
		var out []archive.Hash
		for _, c := range cands {
			if !slices.Contains(out, c.Source) {
				out = append(out, c.Source)
			}
		}
		return out
	}

	t.Run("Candidates", func(t *testing.T) {
		x, fx := load(t)
		defer x.Close()
		cands, _, err := x.Candidates(ctx, "volcanoes in Iceland", search.Filter{}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(cands) != 1 || cands[0].Source != fx[1].src.Hash {
			t.Fatalf("candidates %+v, want the one passage of the paged source", cands)
		}
		c := cands[0]
		if c.Page != 2 || []rune(paged)[c.Start:c.End][0] != 'P' || string([]rune(paged)[c.Start:c.End]) != "Page two speaks of volcanoes erupting in Iceland. Lava flows reached the sea." {
			t.Errorf("candidate locator %+v does not name the second page's passage", c.Locator)
		}
		if got := sourcesOf(t, x, "zebra quagga", search.Filter{}); len(got) != 0 {
			t.Errorf("a query of words no text holds found %v", got)
		}
		if got := sourcesOf(t, x, "MTCT cause", search.Filter{}); len(got) != 1 || got[0] != fx[0].src.Hash {
			t.Errorf("MTCT: sources %v, want the MTCT text alone", got)
		}
	})

	t.Run("Filters", func(t *testing.T) {
		x, fx := load(t)
		defer x.Close()
		q := "MTCT glaciers mitochondria"
		cases := []struct {
			name string
			f    search.Filter
			want []int
		}{
			{"none", search.Filter{}, []int{0, 1, 2}},
			{"kind", search.Filter{Kinds: []string{"pdf", "html"}}, []int{1, 2}},
			{"source", search.Filter{Sources: []archive.Hash{fx[2].src.Hash}}, []int{2}},
			{"label", search.Filter{Labels: []string{"geo", "hiv"}}, []int{0, 1}},
			{"unknown label", search.Filter{Labels: []string{"nobody"}}, nil},
			{"after", search.Filter{AddedAfter: fx[0].src.Added}, []int{1, 2}},
			{"before", search.Filter{AddedBefore: fx[2].src.Added}, []int{0, 1}},
			{"window", search.Filter{AddedAfter: fx[0].src.Added, AddedBefore: fx[2].src.Added}, []int{1}},
			{"label and kind", search.Filter{Labels: []string{"hiv"}, Kinds: []string{"pdf"}}, nil},
		}
		for _, c := range cases {
			got := sourcesOf(t, x, q, c.f)
			var want []archive.Hash
			for _, i := range c.want {
				want = append(want, fx[i].src.Hash)
			}
			slices.SortFunc(got, func(a, b archive.Hash) int { return compare(a, b) })
			slices.SortFunc(want, func(a, b archive.Hash) int { return compare(a, b) })
			if !slices.Equal(got, want) {
				t.Errorf("%s: sources %v, want %v", c.name, got, want)
			}
			for _, h := range got {
				i := slices.IndexFunc(fx, func(f fixture) bool { return f.src.Hash == h })
				if !c.f.Matches(fx[i].src) {
					t.Errorf("%s: source %d found but Filter.Matches refuses it", c.name, i)
				}
			}
		}
	})

	t.Run("PutTwiceRemoveLabels", func(t *testing.T) {
		x, fx := load(t)
		defer x.Close()
		// Put again: no passage twice.
		if err := x.Put(ctx, search.Document{Source: fx[0].src, Passages: search.PassagesOf(fx[0].text)}); err != nil {
			t.Fatal(err)
		}
		cands, _, err := x.Candidates(ctx, "MTCT", search.Filter{}, 50)
		if err != nil {
			t.Fatal(err)
		}
		if want := len(search.PassagesOf(mtct)); len(cands) != want {
			t.Errorf("after a second Put: %d candidates, want %d (one per passage)", len(cands), want)
		}
		got, err := x.Source(ctx, fx[0].src.Hash)
		if err != nil {
			t.Fatal(err)
		}
		if got.Kind != "text" || !got.Added.Equal(fx[0].src.Added) || !slices.Equal(got.Labels, []string{"hiv", "project-a"}) {
			t.Errorf("Source = %+v, want %+v", got, fx[0].src)
		}
		if ok, err := x.HasLabel(ctx, "bio"); err != nil || ok {
			t.Errorf("HasLabel(bio) before it is set = %v, %v", ok, err)
		}
		if err := x.SetLabels(ctx, fx[2].src.Hash, []string{"bio"}); err != nil {
			t.Fatal(err)
		}
		if ok, err := x.HasLabel(ctx, "bio"); err != nil || !ok {
			t.Errorf("HasLabel(bio) after SetLabels = %v, %v", ok, err)
		}
		if got := sourcesOf(t, x, "mitochondria", search.Filter{Labels: []string{"bio"}}); len(got) != 1 {
			t.Errorf("after SetLabels, the label finds %v", got)
		}
		if err := x.SetLabels(ctx, archive.SumString("never indexed"), []string{"x"}); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("SetLabels of an unknown source: %v, want fs.ErrNotExist", err)
		}
		if err := x.Remove(ctx, fx[0].src.Hash); err != nil {
			t.Fatal(err)
		}
		if err := x.Remove(ctx, fx[0].src.Hash); err != nil {
			t.Errorf("removing twice: %v", err)
		}
		if got := sourcesOf(t, x, "MTCT", search.Filter{}); len(got) != 0 {
			t.Errorf("a removed source is still found: %v", got)
		}
		if _, err := x.Source(ctx, fx[0].src.Hash); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Source of a removed source: %v, want fs.ErrNotExist", err)
		}
		var listed []archive.Hash
		if err := x.Sources(ctx, func(s search.Source) error { listed = append(listed, s.Hash); return nil }); err != nil {
			t.Fatal(err)
		}
		if len(listed) != 2 || slices.Contains(listed, fx[0].src.Hash) {
			t.Errorf("Sources lists %v, want the two sources left", listed)
		}
	})

	t.Run("PutMany", func(t *testing.T) {
		x := open(t)
		defer x.Close()
		// A text of more passages than an engine may take at once, put
		// with a short one given twice: each is whole, once, with the
		// labels of its last document.
		long := mentions(2500, "walrus")
		big := search.Source{Hash: archive.SumString(long), Kind: "text", Added: time.Unix(1e9, 0).UTC()}
		small := search.Source{Hash: archive.SumString(cells), Kind: "html", Added: time.Unix(2e9, 0).UTC(), Labels: []string{"a"}}
		smallAgain := small
		smallAgain.Labels = []string{"b"}
		bigPassages := search.PassagesOf(long)
		for range 2 { // a second Put replaces the first
			if err := x.Put(ctx,
				search.Document{Source: small, Passages: search.PassagesOf(cells)},
				search.Document{Source: big, Passages: bigPassages},
				search.Document{Source: smallAgain, Passages: search.PassagesOf(cells)}); err != nil {
				t.Fatal(err)
			}
		}
		cands, total, err := x.Candidates(ctx, "walrus", search.Filter{}, 5000)
		if err != nil {
			t.Fatal(err)
		}
		seen := map[int]bool{}
		for _, c := range cands {
			if c.Source != big.Hash || seen[c.Start] {
				t.Fatalf("candidate %+v: another source's, or twice", c)
			}
			seen[c.Start] = true
		}
		if len(bigPassages) < 600 || len(seen) != len(bigPassages) || total != len(bigPassages) {
			t.Errorf("walrus: %d distinct candidates of %d passages (estimate %d)", len(seen), len(bigPassages), total)
		}
		if cands, _, err := x.Candidates(ctx, "mitochondria", search.Filter{}, 50); err != nil || len(cands) != len(search.PassagesOf(cells)) {
			t.Errorf("mitochondria: %d candidates, %v; want %d", len(cands), err, len(search.PassagesOf(cells)))
		}
		got, err := x.Source(ctx, small.Hash)
		if err != nil || !slices.Equal(got.Labels, []string{"b"}) {
			t.Errorf("the source given twice: %+v, %v; want the last document's labels [b]", got, err)
		}
		if err := x.Put(ctx); err != nil {
			t.Errorf("Put of nothing: %v", err)
		}
	})

	t.Run("CommonWords", func(t *testing.T) {
		x := open(t)
		defer x.Close()
		// A word in more passages than an engine may rank at once, and
		// a rarer one in a few passages of another source, some of
		// which hold the common word too.
		common := mentions(5000, "river")
		rare := "The otter swims in the river. Rivers hold otters. A heron stands in the river. The heron eats a fish."
		big := search.Source{Hash: archive.SumString(common), Kind: "text", Added: time.Unix(1e9, 0).UTC()}
		small := search.Source{Hash: archive.SumString(rare), Kind: "html", Added: time.Unix(2e9, 0).UTC()}
		bigPassages := search.PassagesOf(common)
		if err := x.Put(ctx, search.Document{Source: big, Passages: bigPassages}, search.Document{Source: small, Passages: search.PassagesOf(rare)}); err != nil {
			t.Fatal(err)
		}
		cands, total, err := x.Candidates(ctx, "otters in a river", search.Filter{}, 20)
		if err != nil {
			t.Fatal(err)
		}
		if len(bigPassages) < 1200 || len(cands) != 20 || cands[0].Source != small.Hash || total < len(cands) {
			t.Errorf("otters in a river: %d candidates (estimate %d) of %d passages, first %+v; want 20, the otters' passage first", len(cands), total, len(bigPassages), cands[:min(1, len(cands))])
		}
		// A question of the common word alone still fills its answer,
		// and a filter finds the few passages it leaves.
		if cands, total, err := x.Candidates(ctx, "river", search.Filter{}, 50); err != nil || len(cands) != 50 || total < 50 {
			t.Errorf("river: %d candidates (estimate %d), %v; want 50", len(cands), total, err)
		}
		got := sourcesOf(t, x, "river", search.Filter{Kinds: []string{"html"}})
		if len(got) != 1 || got[0] != small.Hash {
			t.Errorf("river in html: sources %v, want the otters' text", got)
		}
	})

	t.Run("Frequencies", func(t *testing.T) {
		x, _ := load(t)
		defer x.Close()
		// The suite's four passages: the MTCT text's, one of each page
		// of the paged text, the cells'.
		words := []string{"speaks", "volcanoes", "mtct", "the", "zebra", "cell", "in"}
		want := []int{2, 1, 1, -1, 0, 1, -1}
		got, n, err := x.Frequencies(ctx, words)
		if err != nil {
			t.Fatal(err)
		}
		if n != 4 || !slices.Equal(got, want) {
			t.Errorf("Frequencies(%q) = %v of %d passages, want %v of 4", words, got, n, want)
		}
		if got, _, err := x.Frequencies(ctx, nil); err != nil || len(got) != 0 {
			t.Errorf("Frequencies of no words = %v, %v", got, err)
		}
	})

	t.Run("Closed", func(t *testing.T) {
		x, _ := load(t)
		if err := x.Close(); err != nil {
			t.Fatal(err)
		}
		if _, _, err := x.Candidates(ctx, "MTCT", search.Filter{}, 10); !errors.Is(err, search.ErrUnavailable) {
			t.Errorf("Candidates on a closed index: %v, want search.ErrUnavailable", err)
		}
	})
}

// mentions returns a text of n numbered sentences, each mentioning noun.
func mentions(n int, noun string) string {
	var b []byte
	for i := range n {
		b = fmt.Appendf(b, "Sentence %d mentions a %s. ", i, noun)
	}
	return string(b)
}

func compare(a, b archive.Hash) int {
	for i := range a {
		if a[i] != b[i] {
			return int(a[i]) - int(b[i])
		}
	}
	return 0
}
