package search

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/normalize"
)

// The excerpt around candidate passages is runs of whole sentences of one
// page each, far shorter than the text, and the digester's snippets in it
// locate back to the same text in the whole text, page included.
func TestExcerpt(t *testing.T) {
	var b strings.Builder
	for i := range 400 {
		if i == 200 {
			b.WriteString(normalize.PageBreak)
		}
		switch i {
		case 50:
			b.WriteString("The otter eats fish in the river. ")
		case 350:
			b.WriteString("Otters sleep in dens along the bank. ")
		default:
			fmt.Fprintf(&b, "Sentence %d speaks of the weather in spring. ", i)
		}
	}
	text := b.String()
	var locs []digest.Locator
	for _, p := range PassagesOf(text) {
		if strings.Contains(strings.ToLower(p.Text), "otter") {
			locs = append(locs, p.Locator)
		}
	}
	ex := excerptOf(text, locs)
	if len(locs) != 2 || len(ex.runs) != 2 || len(ex.text) > len(text)/3 {
		t.Fatalf("%d candidates, %d runs, excerpt of %d bytes of %d", len(locs), len(ex.runs), len(ex.text), len(text))
	}
	var starts, ends []int
	for _, s := range digest.Sentences(text) {
		starts, ends = append(starts, s.Start), append(ends, s.End)
	}
	pages := strings.Split(ex.text, normalize.PageBreak)
	for i, r := range ex.runs {
		if got := string([]rune(text)[r.Start:r.End]); got != pages[i] || !slices.Contains(starts, r.Start) || !slices.Contains(ends, r.End) {
			t.Errorf("run %d %+v is not whole sentences of the text: %q", i, r, got)
		}
		if r.Page != i+1 || r.Start > locs[i].Start || r.End < locs[i].End {
			t.Errorf("run %d %+v does not hold candidate %+v", i, r, locs[i])
		}
	}
	snips, _, err := digest.Evidence(ex.text, "where do otters sleep and what do they eat", digest.Options{})
	if err != nil || len(snips) < 2 {
		t.Fatalf("evidence: %d snippets, %v", len(snips), err)
	}
	for _, sn := range snips {
		l := sn.Locator
		at := ex.locate(l)
		if err := at.Verify(text, sn.Text); err != nil || at.Page == 0 {
			t.Errorf("snippet %q at %v in the excerpt: %v in the text, %v", sn.Text, l, at, err)
		}
	}
	if whole := excerptOf("One otter. Two otters.", []digest.Locator{{Start: 0, End: 22}}); whole.runs != nil || whole.text != "One otter. Two otters." {
		t.Errorf("an excerpt of all the text: %+v, want the text itself", whole)
	}
}

// SplitUnspaced leaves text of spaced scripts as it is, sets each Chinese
// character apart and writes a run of Thai as the overlapping pairs of its
// clusters (เ, ซ, ล, ล์: the mark stays with its letter).
func TestSplitUnspaced(t *testing.T) {
	for in, want := range map[string]string{
		"Tides rise twice a day.": "Tides rise twice a day.",
		"เซลล์ 2 ชนิด":            " เซ  ซล  ลล์  2  ชนิ  นิด ",
		"the 细胞 wall":             "the  细  胞  wall",
	} {
		if got := SplitUnspaced(in); got != want {
			t.Errorf("SplitUnspaced(%q) = %q, want %q", in, got, want)
		}
	}
}
