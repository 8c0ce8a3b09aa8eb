package pipeline

import (
	"context"
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/archive/fsstore"
	"github.com/digestd/digestd/ingest"
)

// TestBudgetChars checks how a budget in characters and tokens becomes
// the characters packing counts.
func TestBudgetChars(t *testing.T) {
	tests := []struct {
		b    Budget
		want int
	}{
		{Budget{}, 0},
		{Budget{MaxChars: 1000}, 1000},
		{Budget{MaxTokens: 100}, 100 * CharsPerToken},
		{Budget{MaxChars: 1000, MaxTokens: 100}, min(1000, 100*CharsPerToken)},
		{Budget{MaxChars: 100, MaxTokens: 1000}, 100},
	}
	for _, tt := range tests {
		if got := tt.b.chars(); got != tt.want {
			t.Errorf("%+v: %d chars, want %d", tt.b, got, tt.want)
		}
	}
}

// testCost stands for what an edge's rendering of an item costs: the
// code points of its fields as JSON.
func testCost(it Item) int {
	b, _ := json.Marshal(it)
	return utf8.RuneCount(b)
}

// TestPack packs three digested sources into budgets cut to the size of
// their renderings: each item takes the most detail that still fits, in
// rank order, and one that fits at no level is dropped.
func TestPack(t *testing.T) {
	store, err := fsstore.Open(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	p := &Pipeline{Ingester: &ingest.Ingester{}, Store: store}
	texts := []string{
		"Tides rise twice a day. The moon pulls the sea toward it, and the sun adds a smaller pull.",
		"Rivers carry silt to the sea. Tides move the silt back up the estuary.",
		"Glaciers grind rock into flour. Meltwater carries it away.",
	}
	var srcs []Request
	for _, s := range texts {
		srcs = append(srcs, Request{Source: ingest.Source{Text: s}})
	}
	all, err := p.DigestMany(context.Background(), ManyRequest{Query: "tides", Sources: srcs})
	if err != nil || len(all.Items) != 3 || all.Fidelity != FidelityFull || all.BudgetChars != 0 {
		t.Fatalf("unbounded: %+v %v", all, err)
	}
	items := all.Items
	cost := func(i int, level string) int { return testCost(at(items[i], level)) }
	full, sum, ref := FidelityFull, FidelitySummary, FidelityReferenceOnly
	tests := []struct {
		name    string
		detail  string
		budget  int
		want    []string // fidelity of each included item, in rank order
		dropped int
		overall string
	}{
		{"unbounded", full, 0, []string{full, full, full}, 0, full},
		{"all full, exactly", full, cost(0, full) + cost(1, full) + cost(2, full), []string{full, full, full}, 0, full},
		{"last one a summary", full, cost(0, full) + cost(1, full) + cost(2, sum), []string{full, full, sum}, 0, FidelityPartial},
		{"all summaries", full, cost(0, sum) + cost(1, sum) + cost(2, sum), []string{sum, sum, sum}, 0, sum},
		{"references, exactly", ref, cost(0, ref) + cost(1, ref) + cost(2, ref), []string{ref, ref, ref}, 0, ref},
		{"references, one short", ref, cost(0, ref) + cost(1, ref) + cost(2, ref) - 1, []string{ref, ref}, 1, FidelityPartial},
		{"one fits", full, cost(0, full), []string{full}, 2, FidelityPartial},
		{"none fits", full, cost(0, ref) - 1, nil, 3, FidelityPartial},
		{"summaries asked", sum, 0, []string{sum, sum, sum}, 0, sum},
		{"references asked", ref, 0, []string{ref, ref, ref}, 0, ref},
		{"summaries asked, one degraded", sum, cost(0, sum) + cost(1, sum) + cost(2, ref), []string{sum, sum, ref}, 0, FidelityPartial},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := &ManyResult{BudgetChars: tt.budget}
			out.pack(items, tt.detail, testCost)
			var got []string
			used := 0
			for i, it := range out.Items {
				got = append(got, it.Fidelity)
				used += testCost(it)
				if it.Rank != i+1 || it.ID != items[i].ID {
					t.Errorf("item %d is %s ranked %d", i, it.ID, it.Rank)
				}
			}
			if !equal(got, tt.want) || len(out.Dropped) != tt.dropped || out.Fidelity != tt.overall {
				t.Errorf("got %v, %d dropped, %s; want %v, %d dropped, %s", got, len(out.Dropped), out.Fidelity, tt.want, tt.dropped, tt.overall)
			}
			if used != out.UsedChars || tt.budget > 0 && used > tt.budget {
				t.Errorf("used %d (reported %d) of %d", used, out.UsedChars, tt.budget)
			}
			for _, it := range out.Dropped {
				if it.Fidelity != FidelityDropped || it.Digest != nil || it.Source != nil {
					t.Errorf("dropped item carries content: %+v", it)
				}
			}
		})
	}
}

func equal(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
