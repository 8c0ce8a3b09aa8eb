package main

import (
	"bufio"
	"compress/gzip"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"
)

func TestRun(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "vectors.json")
	// Two forms of one stem, words the tokenizer splits or does not read
	// as a word, and a word past the count kept.
	src := `{"dimensions": 2, "words": ["car", "x-y", "Cars", "2008", "cars", "ship", "boat"],
	"vectors": {"car": [1, 0, 9, 0], "x-y": [1, 1, 9, 1], "Cars": [0, 1, 9, 2], "2008": [1, 1, 9, 3],
	"cars": [0, 2, 9, 4], "ship": [0, -3, 9, 5], "boat": [1, 1, 9, 6]}}`
	if err := os.WriteFile(in, []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "vectors.gz")
	if err := run(in, 3, out); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	zr, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(zr)
	var count, dims int
	if _, err := fmt.Fscanf(br, "wordvec 1 %d %d\n", &count, &dims); err != nil {
		t.Fatal(err)
	}
	var stems []string
	for range count {
		var s string
		if _, err := fmt.Fscanln(br, &s); err != nil {
			t.Fatal(err)
		}
		stems = append(stems, s)
	}
	rest, err := io.ReadAll(br)
	if err != nil {
		t.Fatal(err)
	}
	// car and cars share the stem car, whose vector is the sum of their
	// unit vectors, (1, 1), scaled to 127.
	want := []int8{127, 127, 0, -127}
	if fmt.Sprint(stems) != "[car ship]" || dims != 2 || len(rest) != len(want) {
		t.Fatalf("stems %v, %d dimensions, %d bytes", stems, dims, len(rest))
	}
	for i, b := range rest {
		if int8(b) != want[i] {
			t.Errorf("value %d = %d, want %d", i, int8(b), want[i])
		}
	}
}

func TestRunRejectsBadInput(t *testing.T) {
	dir := t.TempDir()
	in := filepath.Join(dir, "bad.json")
	if err := os.WriteFile(in, []byte(`{"words": ["a"]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := run(in, 10, filepath.Join(dir, "out.gz")); err == nil {
		t.Error("no dimensions: no error")
	}
	if err := run(filepath.Join(dir, "missing.json"), 10, filepath.Join(dir, "out.gz")); err == nil {
		t.Error("missing file: no error")
	}
}
