package batch

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestReadManifestErrors(t *testing.T) {
	hash := "sha256:" + strings.Repeat("ab", 32)
	tests := []struct {
		name     string
		manifest string
		line     int    // 0: no error
		want     string // substring of the error
	}{
		{"ok", `{"id":"a","text":"x"}` + "\n" + `{"id":"b","url":"https://example.org/"}` + "\n", 0, ""},
		{"blank lines and CRLF", "\n" + `{"id":"a","text":"x"}` + "\r\n\r\n" + `{"id":"b","archive":"` + hash + `"}`, 0, ""},
		{"not json", `{"id":"a","text":"x"}` + "\n" + `{"id":` + "\n", 2, "not a manifest object"},
		{"array", `["a"]`, 1, "not a manifest object"},
		{"two values", `{"id":"a","text":"x"} {"id":"b","text":"y"}`, 1, "more than one JSON value"},
		{"missing id", `{"text":"x"}`, 1, `"id" is required`},
		{"blank id", `{"id":"  ","text":"x"}`, 1, `"id" is required`},
		{"no source", `{"id":"a","query":"q"}`, 1, "exactly one of"},
		{"two sources", `{"id":"a","text":"x","file":"f.txt"}`, 1, "exactly one of"},
		{"unknown field", `{"id":"a","text":"x","fiel":"y"}`, 1, "unknown field"},
		{"bad archive", `{"id":"a","archive":"sha256:xyz"}`, 1, "archive must be"},
		{"id not a string", `{"id":7,"text":"x"}`, 1, "not a manifest object"},
		{"text not UTF-8", `{"id":"a","text":"x` + "\xff" + ` y"}`, 1, "not valid UTF-8 (at byte 19)"},
		{"third line", `{"id":"a","text":"x"}` + "\n\n" + `{"id":"b"}`, 3, "exactly one of"},
		{"ocr of a file", `{"id":"a","file":"scan.pdf","ocr":"always","ocr_languages":["deu"]}`, 0, ""},
		{"ocr unknown mode", `{"id":"a","file":"scan.pdf","ocr":"sometimes"}`, 1, "ocr is one of auto, never, always"},
		{"ocr of a text", `{"id":"a","text":"x","ocr":"always"}`, 1, "ocr and ocr_languages are for a url or a file"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ReadManifest(strings.NewReader(tc.manifest), "/base")
			if tc.line == 0 {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var me *ManifestError
			if !errors.As(err, &me) {
				t.Fatalf("error %v is not a *ManifestError", err)
			}
			if me.Line != tc.line || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("error %q (line %d), want line %d containing %q", err, me.Line, tc.line, tc.want)
			}
		})
	}
}

func TestReadManifestEntries(t *testing.T) {
	m := `{"id":"rel","file":"sub/a.txt","query":"why"}` + "\n\n" +
		`{"id":"abs","file":"/data/b.pdf"}` + "\n" +
		`{"id":"url","url":"https://example.org/x"}`
	got, err := ReadManifest(strings.NewReader(m), filepath.FromSlash("/manifests"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Entry{
		{ID: "rel", File: filepath.FromSlash("/manifests/sub/a.txt"), Query: "why", Line: 1},
		{ID: "abs", File: "/data/b.pdf", Line: 3},
		{ID: "url", URL: "https://example.org/x", Line: 4},
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("entries\n got %+v\nwant %+v", got, want)
	}
}

func TestDuplicateIDs(t *testing.T) {
	entries := []Entry{{ID: "a", Line: 1}, {ID: "b", Line: 2}, {ID: "a", Line: 3}, {ID: "c", Line: 4}, {ID: "b", Line: 5}, {ID: "a", Line: 6}}
	got := DuplicateIDs(entries)
	want := []Duplicate{{ID: "a", Lines: []int{1, 3, 6}}, {ID: "b", Lines: []int{2, 5}}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %+v, want %+v", got, want)
	}
	if d := DuplicateIDs(entries[:2]); d != nil {
		t.Fatalf("no duplicates expected, got %+v", d)
	}
}

func TestScanDir(t *testing.T) {
	root := t.TempDir()
	for _, name := range []string{"a.txt", "b.HTML", "sub/c.pdf", "sub/deeper/d.md", "sub/e.htm", "f.docx", "g.XLSX", "h.epub", "i.csv", "j.odp", "skip.gz", "skip.bin", "skip.zip", "noext"} {
		p := filepath.Join(root, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("x"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Mkdir(filepath.Join(root, "dir.txt"), 0o755); err != nil {
		t.Fatal(err)
	}
	got, err := ScanDir(root)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, e := range got {
		ids = append(ids, e.ID)
		if e.File != filepath.Join(root, filepath.FromSlash(e.ID)) {
			t.Errorf("entry %q has file %q", e.ID, e.File)
		}
	}
	want := []string{"a.txt", "b.HTML", "f.docx", "g.XLSX", "h.epub", "i.csv", "j.odp", "sub/c.pdf", "sub/deeper/d.md", "sub/e.htm"}
	if !reflect.DeepEqual(ids, want) {
		t.Fatalf("ids %q, want %q", ids, want)
	}
}

func FuzzReadManifest(f *testing.F) {
	f.Add([]byte(`{"id":"a","text":"x"}` + "\n" + `{"id":"b","file":"c.txt","query":"q"}`))
	f.Add([]byte(`{"id":"a","archive":"sha256:00"}`))
	f.Add([]byte("\r\n\n{\"id\":\"\"}"))
	f.Fuzz(func(t *testing.T, b []byte) {
		entries, err := ReadManifest(strings.NewReader(string(b)), "base")
		if err != nil {
			var me *ManifestError
			if !errors.As(err, &me) || me.Line < 1 {
				t.Fatalf("error %v is not a *ManifestError with a line", err)
			}
			return
		}
		for _, e := range entries {
			n := 0
			for _, v := range []string{e.URL, e.File, e.Text, e.Archive} {
				if v != "" {
					n++
				}
			}
			if strings.TrimSpace(e.ID) == "" || n != 1 || e.Line < 1 {
				t.Fatalf("accepted an invalid entry %+v", e)
			}
		}
	})
}
