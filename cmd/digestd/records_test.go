package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/archive/fsstore"
)

// TestOpenMigratesRecords runs `digestd digest` on a copy of an archive
// the previous version wrote (one record per text): opening it keys the
// three records it holds, and the answer names the record of the file it
// was given, beside the record of the same text the archive had.
func TestOpenMigratesRecords(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "archive")
	if err := os.CopyFS(dir, os.DirFS("../../pipeline/testdata/archive-one-record")); err != nil {
		t.Fatal(err)
	}
	// The archived text of testdata/walkthrough/notes.txt, from other bytes.
	notes, err := os.ReadFile("../../testdata/walkthrough/notes.txt")
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(t.TempDir(), "notes.txt")
	raw := append(bytes.TrimSpace(notes), "\n\n\n"...)
	if err := os.WriteFile(file, raw, 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	args := []string{"digest", "--archive", dir, "--index", "off", "--query", "what causes MTCT?", file}
	if err := run(context.Background(), args, strings.NewReader(""), &stdout, &stderr); err != nil {
		t.Fatalf("digest: %v\n%s", err, stderr.String())
	}
	if !strings.Contains(stderr.String(), `"records":3`) {
		t.Errorf("no migration of 3 records logged: %s", stderr.String())
	}
	var env struct {
		Data struct {
			Source struct {
				ArchiveHash archive.Hash `json:"archive_hash"`
				Record      struct {
					Kind      string       `json:"kind"`
					RawSHA256 archive.Hash `json:"raw_sha256"`
				} `json:"record"`
			} `json:"source"`
		} `json:"data"`
	}
	if err := json.Unmarshal(stdout.Bytes(), &env); err != nil {
		t.Fatalf("%v: %s", err, stdout.String())
	}
	src := env.Data.Source
	if src.ArchiveHash.Hex() != "28f9e56f9a28e0b5fb6b0154280b9545f86440ce19f4f7374e637f0f08f0594a" || src.Record.Kind != "text" || src.Record.RawSHA256 != archive.Sum(raw) {
		t.Errorf("answered %s, a %s record of %s; want the archived notes, with the record of the file sent (%s)", src.ArchiveHash, src.Record.Kind, src.Record.RawSHA256, archive.Sum(raw))
	}
	store, err := fsstore.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	var keyed []string
	store.ListRefNames(context.Background(), "records/", func(name string) error { keyed = append(keyed, name); return nil })
	if len(keyed) != 4 {
		t.Errorf("records kept: %v, want the 3 migrated and this file's", keyed)
	}
}
