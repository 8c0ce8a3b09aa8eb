package evaluate

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSBDPerLanguage: sbd_accuracy is over every case, and each language
// that cases carry gets sbd_accuracy_<lang> over its own cases.
func TestSBDPerLanguage(t *testing.T) {
	dir := t.TempDir()
	lines := []string{
		`{"id":"1","text":"A. B.","sentences":["A.","B."],"lang":"de"}`,
		`{"id":"2","text":"C. D.","sentences":["C. D."],"lang":"de"}`,
		`{"id":"3","text":"E. F.","sentences":["E.","F."],"lang":"hy"}`,
		`{"id":"4","text":"G. H.","sentences":["G.","H."]}`,
	}
	if err := os.WriteFile(filepath.Join(dir, "cases.jsonl"), []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	split := func(s string) []string { return strings.SplitAfter(s, ". ") }
	rep, err := SBD(context.Background(), dir, split)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{"sbd_accuracy": 0.75, "sbd_accuracy_de": 0.5, "sbd_accuracy_hy": 1}
	if len(rep.Metrics) != len(want) {
		t.Errorf("metrics %v, want %v", rep.Metrics, want)
	}
	for k, v := range want {
		if got, ok := rep.Metrics[k]; !ok || got != v {
			t.Errorf("%s = %v (present %v), want %v", k, got, ok, v)
		}
	}
}
