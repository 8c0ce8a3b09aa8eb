package evaluate

import (
	"strings"
	"testing"
)

// TestBaselineCompare: a run that keeps every figure within its band
// passes; a planted regression of any kind of figure fails, naming it.
func TestBaselineCompare(t *testing.T) {
	run := func(edit func(r []Report)) []Report {
		r := []Report{
			{Kind: "evidence", Set: "evidence-x", Cases: 300, Metrics: map[string]float64{"hit_at_1": 0.60, "half0_hit_at_1": 0.58, "evidence_chars_per_question": 3600, "lang_de_cases": 100, "lang_de_hit_at_1": 0.5}},
			{Kind: "hygiene", Set: "extract-y", Cases: 100, Metrics: map[string]float64{"empty_summaries": 0, "short_boilerplate_share": 0.004, "hygiene_documents": 100}},
		}
		if edit != nil {
			edit(r)
		}
		return r
	}
	b := BaselineOf(run(nil), "digestd eval all --json DATA")
	if f := b.Figures["evidence/evidence-x/hit_at_1"]; f.Better != Higher || f.Band != 0.01 {
		t.Errorf("hit_at_1: %+v, want higher with band 3/300", f)
	}
	if f := b.Figures["evidence/evidence-x/half0_hit_at_1"]; f.Band != 0.02 {
		t.Errorf("half0_hit_at_1: band %v, want 6/300", f.Band)
	}
	if f := b.Figures["evidence/evidence-x/lang_de_hit_at_1"]; f.Better != Higher || f.Band != 0.03 {
		t.Errorf("lang_de_hit_at_1: %+v, want higher with band 3/100", f)
	}
	if f := b.Figures["evidence/evidence-x/lang_de_cases"]; f.Better != Reported {
		t.Errorf("lang_de_cases: %+v, want reported", f)
	}
	if f := b.Figures["hygiene/extract-y/empty_summaries"]; f.Better != Lower || f.Band != 3 {
		t.Errorf("empty_summaries: %+v, want lower with band 3", f)
	}
	tests := []struct {
		name string
		edit func(r []Report)
		want string // a problem naming this figure; "" for none
	}{
		{"unchanged", nil, ""},
		{"within the band", func(r []Report) { r[0].Metrics["hit_at_1"] = 0.591 }, ""},
		{"a rate raised", func(r []Report) { r[0].Metrics["hit_at_1"] = 0.70 }, ""},
		{"a reported figure moved", func(r []Report) { r[0].Metrics["evidence_chars_per_question"] = 9000 }, ""},
		{"a rate lowered", func(r []Report) { r[0].Metrics["hit_at_1"] = 0.589 }, "evidence/evidence-x/hit_at_1"},
		{"a half lowered", func(r []Report) { r[0].Metrics["half0_hit_at_1"] = 0.55 }, "evidence/evidence-x/half0_hit_at_1"},
		{"a language within its band", func(r []Report) { r[0].Metrics["lang_de_hit_at_1"] = 0.48 }, ""},
		{"a language lowered", func(r []Report) { r[0].Metrics["lang_de_hit_at_1"] = 0.46 }, "evidence/evidence-x/lang_de_hit_at_1"},
		{"defects raised", func(r []Report) { r[1].Metrics["empty_summaries"] = 4 }, "hygiene/extract-y/empty_summaries"},
		{"a share of defects raised", func(r []Report) { r[1].Metrics["short_boilerplate_share"] = 0.05 }, "hygiene/extract-y/short_boilerplate_share"},
		{"errors", func(r []Report) { r[1].Errors = 5 }, "hygiene/extract-y/errors"},
		{"a figure gone", func(r []Report) { delete(r[0].Metrics, "hit_at_1") }, "evidence/evidence-x/hit_at_1"},
		{"a figure new", func(r []Report) { r[0].Metrics["hit_at_3"] = 0.7 }, "evidence/evidence-x/hit_at_3"},
	}
	for _, tt := range tests {
		got := b.Compare(run(tt.edit))
		switch {
		case tt.want == "" && len(got) > 0:
			t.Errorf("%s: problems %q, want none", tt.name, got)
		case tt.want != "" && (len(got) != 1 || !strings.HasPrefix(got[0], tt.want+":")):
			t.Errorf("%s: problems %q, want one naming %s", tt.name, got, tt.want)
		}
	}
}
