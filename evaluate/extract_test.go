package evaluate

import (
	"bytes"
	"compress/gzip"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"

	"github.com/digestd/digestd/fault"
)

func writeFile(t *testing.T, path string, b []byte) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func gz(t *testing.T, s string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	w.Write([]byte(s))
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestExtract(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "my-set")
	writeFile(t, filepath.Join(dir, "cases.jsonl"), []byte(
		`{"id":"a","kind":"html","file":"html/a.html.gz","url":"https://x/a","reference_file":"reference/a.txt","must_contain":["keep this"],"must_not_contain":["drop this"]}`+"\n"+
			`{"id":"b","kind":"html","file":"html/b.html","must_contain":["other"]}`+"\n"+
			"\n"+
			`{"id":"c","kind":"pdf","file":"pdf/c.pdf","reference_file":"reference/c.txt"}`+"\n"+
			`{"id":"d","kind":"html","file":"html/missing.html","must_contain":["x"]}`+"\n"))
	writeFile(t, filepath.Join(dir, "html", "a.html.gz"), gz(t, "<p>keep this</p>"))
	writeFile(t, filepath.Join(dir, "html", "b.html"), []byte("boom"))
	writeFile(t, filepath.Join(dir, "pdf", "c.pdf"), []byte("a a b c"))
	writeFile(t, filepath.Join(dir, "reference", "a.txt"), []byte("keep this"))
	writeFile(t, filepath.Join(dir, "reference", "c.txt"), []byte("a b b d"))

	var urls []string
	fn := func(ctx context.Context, kind string, raw []byte, pageURL string) (string, error) {
		urls = append(urls, pageURL)
		switch string(raw) {
		case "<p>keep this</p>":
			return "keep this", nil
		case "boom":
			return "", errors.New("boom")
		}
		return string(raw), nil
	}
	r, err := Extract(context.Background(), dir, fn)
	if err != nil {
		t.Fatal(err)
	}
	if r.Set != "my-set" || r.Kind != "extract" || r.Cases != 4 || r.Errors != 2 {
		t.Errorf("report = %+v", r)
	}
	if len(urls) != 3 || urls[0] != "https://x/a" {
		t.Errorf("urls = %q", urls)
	}
	// a: exact match; c: "a a b c" vs "a b b d" is one shingle each, different.
	want := map[string]float64{
		"shingle_precision": 0.5, "shingle_recall": 0.5, "shingle_f1": 0.5,
		// tp 1 (a), fn 2 (b errored, d unreadable), fp 0.
		"snippet_precision": 1, "snippet_recall": 1.0 / 3, "snippet_f1": 0.5,
		"word_f1": 0.5, "word_shingle_f1": 0,
		// The set has HTML cases, none answered with a verdict.
		"verdicts": 0, "false_verdicts": 0,
	}
	if len(r.Metrics) != len(want) {
		t.Errorf("metrics = %v", r.Metrics)
	}
	for k, v := range want {
		if got, ok := r.Metrics[k]; !ok || !near(got, v) {
			t.Errorf("metric %s = %v (present %v), want %v", k, got, ok, v)
		}
	}
}

func TestExtractOnlySupportedMetrics(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "cases.jsonl"), []byte(`{"id":"a","kind":"pdf","file":"a.pdf","encrypted":true}`+"\n"))
	writeFile(t, filepath.Join(dir, "a.pdf"), []byte("x"))
	r, err := Extract(context.Background(), dir, func(context.Context, string, []byte, string) (string, error) {
		return "", errors.New("encrypted")
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Cases != 1 || r.Errors != 1 || len(r.Metrics) != 0 {
		t.Errorf("report = %+v", r)
	}
}

func TestExtractCancelled(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "cases.jsonl"), []byte(`{"id":"a","kind":"html","file":"a.html"}`+"\n"))
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Extract(ctx, dir, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("err = %v, want context.Canceled", err)
	}
	if _, err := Extract(context.Background(), filepath.Join(dir, "nope"), nil); err == nil {
		t.Error("missing set: no error")
	}
}

func TestExtractPageTypeWords(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "cases.jsonl"), []byte(
		`{"id":"a","kind":"html","file":"a.html","page_type":"forum","reference_file":"a.txt"}`+"\n"+
			`{"id":"b","kind":"html","file":"b.html","page_type":"forum","reference_file":"b.txt"}`+"\n"+
			`{"id":"c","kind":"html","file":"c.html","page_type":"product","reference_file":"c.txt"}`+"\n"+
			`{"id":"d","kind":"html","file":"d.html","reference_file":"d.txt"}`+"\n"))
	for name, s := range map[string]string{
		"a.html": "One Two", "a.txt": "one two",
		"b.html": "a b c d", "b.txt": "a b",
		"c.html": "x", "c.txt": "y",
		"d.html": "z", "d.txt": "q",
	} {
		writeFile(t, filepath.Join(dir, name), []byte(s))
	}
	r, err := Extract(context.Background(), dir, func(_ context.Context, _ string, raw []byte, _ string) (string, error) {
		return string(raw), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	// Pages a (1,1,1), b (1/2,1,2/3), c (0,0,0); d has no page type.
	want := map[string]float64{
		"word_precision_lc": 0.5, "word_recall_lc": 2.0 / 3, "word_f1_lc": (1 + 2.0/3) / 3,
		"word_f1_lc_forum": (1 + 2.0/3) / 2, "word_f1_lc_product": 0,
	}
	for k, v := range want {
		if got, ok := r.Metrics[k]; !ok || !near(got, v) {
			t.Errorf("metric %s = %v (present %v), want %v", k, got, ok, v)
		}
	}
	if _, ok := r.Metrics["word_f1_lc_"]; ok {
		t.Error("a case without page_type got a type of its own")
	}
}

// An extract run counts the pages answered with a verdict, and as false
// those whose case says they have content (text they must contain, or a
// reference with words).
func TestExtractCountsVerdicts(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "cases.jsonl"), []byte(
		`{"id":"article","kind":"html","file":"a.html","must_contain":["rivers"]}`+"\n"+
			`{"id":"wall","kind":"html","file":"b.html","reference_file":"b.txt"}`+"\n"+
			`{"id":"gone","kind":"html","file":"c.html","reference_file":"c.txt"}`+"\n"+
			`{"id":"fine","kind":"html","file":"d.html"}`+"\n"))
	for _, f := range []string{"a.html", "b.html", "c.html", "d.html"} {
		writeFile(t, filepath.Join(dir, f), []byte("<p>x</p>"))
	}
	writeFile(t, filepath.Join(dir, "b.txt"), []byte("Rivers freeze."))
	writeFile(t, filepath.Join(dir, "c.txt"), []byte(" \n"))
	answers := []error{fault.E(fault.ContentBlocked, "challenge"), fault.E(fault.JSRequired, "scripts"), fault.E(fault.NotContent, "soft 404"), nil}
	i := 0
	r, err := Extract(context.Background(), dir, func(context.Context, string, []byte, string) (string, error) {
		err := answers[i]
		i++
		if err != nil {
			return "", err
		}
		return "Rivers freeze in winter.", nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Metrics["verdicts"] != 3 || r.Metrics["false_verdicts"] != 2 || r.Errors != 3 {
		t.Errorf("verdicts %v, false %v, errors %d; want 3, 2, 3", r.Metrics["verdicts"], r.Metrics["false_verdicts"], r.Errors)
	}
}

// TestExtractEmptyReferences holds word_f1_lc_nonempty to the pages whose
// reference holds a word: an empty output on an empty reference scores 1
// in word_f1_lc and is left out of it.
func TestExtractEmptyReferences(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "cases.jsonl"), []byte(
		`{"id":"a","kind":"html","file":"a.html","page_type":"forum","reference_file":"a.txt"}`+"\n"+
			`{"id":"b","kind":"html","file":"b.html","page_type":"forum","reference_file":"b.txt"}`+"\n"+
			`{"id":"e","kind":"html","file":"e.html","page_type":"listing","reference_file":"e.txt"}`+"\n"))
	for name, s := range map[string]string{
		"a.html": "one two", "a.txt": "one two",
		"b.html": "a b c d", "b.txt": "a b",
		"e.html": " ", "e.txt": "",
	} {
		writeFile(t, filepath.Join(dir, name), []byte(s))
	}
	r, err := Extract(context.Background(), dir, func(_ context.Context, _ string, raw []byte, _ string) (string, error) {
		return string(raw), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		"word_f1_lc": (1 + 2.0/3 + 1) / 3, "word_f1_lc_nonempty": (1 + 2.0/3) / 2, "empty_reference_pages": 1,
	}
	for k, v := range want {
		if got, ok := r.Metrics[k]; !ok || !near(got, v) {
			t.Errorf("metric %s = %v (present %v), want %v", k, got, ok, v)
		}
	}
}

// TestAblate holds an ablation to its counts: the pages a variant changes
// and the metric it moves.
func TestAblate(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, "cases.jsonl"), []byte(
		`{"id":"a","kind":"html","file":"a.html","page_type":"forum","reference_file":"a.txt"}`+"\n"+
			`{"id":"b","kind":"html","file":"b.html","page_type":"forum","reference_file":"b.txt"}`+"\n"))
	for name, s := range map[string]string{
		"a.html": "one two", "a.txt": "one two",
		"b.html": "a b", "b.txt": "a b",
	} {
		writeFile(t, filepath.Join(dir, name), []byte(s))
	}
	same := func(_ context.Context, _ string, raw []byte, _ string) (string, error) { return string(raw), nil }
	noisy := func(_ context.Context, _ string, raw []byte, _ string) (string, error) {
		if string(raw) == "a b" {
			return "a b c d", nil
		}
		return string(raw), nil
	}
	base, rows, err := Ablate(context.Background(), dir, same, []Variant{{"same", same}, {"noisy", noisy}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	if base.Metrics["word_f1_lc"] != 1 || len(rows) != 2 {
		t.Fatalf("baseline %v, %d rows", base.Metrics, len(rows))
	}
	if rows[0].Variant != "same" || rows[0].PagesChanged != 0 || rows[0].Delta["word_f1_lc"] != 0 {
		t.Errorf("unchanged variant: %+v", rows[0])
	}
	if rows[1].Variant != "noisy" || rows[1].PagesChanged != 1 || !near(rows[1].Delta["word_f1_lc"], (1+2.0/3)/2-1) {
		t.Errorf("noisy variant: %+v", rows[1])
	}
}

// A set whose cases carry another reader's text scores it beside the
// extractor's, by kind, and counts pages.
func TestExtractFloor(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "extract-ocr-clean-300")
	writeFile(t, filepath.Join(dir, "cases.jsonl"), []byte(
		`{"id":"p","kind":"pdf","file":"p.pdf","reference_file":"ref.txt","floor_file":"floor.txt","floor_seconds":2,"pages":2}`+"\n"+
			`{"id":"i","kind":"image","file":"i.png","reference_file":"ref.txt","floor_file":"floor.txt","floor_seconds":1,"pages":1}`+"\n"))
	writeFile(t, filepath.Join(dir, "p.pdf"), []byte("a b c d"))
	writeFile(t, filepath.Join(dir, "i.png"), []byte("a b"))
	writeFile(t, filepath.Join(dir, "ref.txt"), []byte("a b c d"))
	writeFile(t, filepath.Join(dir, "floor.txt"), []byte("a b x y"))
	rep, err := Extract(context.Background(), dir, func(_ context.Context, _ string, raw []byte, _ string) (string, error) {
		return string(raw), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	m := rep.Metrics
	// The floor reads half the words and as many wrong: F1 0.5.
	if m["word_f1"] != 1 || m["floor_word_f1"] != 0.5 || m["floor_word_f1_image"] != 0.5 || m["word_f1_image"] < 0.66 || m["word_f1_image"] > 0.67 ||
		m["floor_seconds"] != 3 || m["pages"] != 3 || m["pages_per_sec"] <= 0 {
		t.Errorf("metrics %v", m)
	}
}
