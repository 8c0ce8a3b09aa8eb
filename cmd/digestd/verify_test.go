package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/digestd/digestd/archive"
)

// digestd verify re-hashes every blob: a whole archive exits 0; a blob
// emptied on disk is listed by its hash and the command exits 1.
func TestVerifyCommandListsCorruptBlobs(t *testing.T) {
	dir := t.TempDir()
	if _, stderr, code := runCLI(t, "Tides rise twice a day.", "digest", "--archive", dir, "--query", "tides"); code != 0 {
		t.Fatalf("digest: exit %d %s", code, stderr)
	}
	var rep struct {
		Blobs   int      `json:"blobs"`
		Corrupt []string `json:"corrupt"`
	}
	out, stderr, code := runCLI(t, "", "verify", "--archive", dir)
	if err := json.Unmarshal([]byte(out), &rep); code != 0 || err != nil || rep.Blobs < 2 || len(rep.Corrupt) != 0 {
		t.Fatalf("verify a whole archive: exit %d %s %s", code, out, stderr)
	}
	text := archive.SumString("Tides rise twice a day.")
	path := filepath.Join(dir, filepath.FromSlash(archive.BlobKey(text)))
	os.Chmod(path, 0o644)
	if err := os.WriteFile(path, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	out, stderr, code = runCLI(t, "", "verify", "--archive", dir)
	if err := json.Unmarshal([]byte(out), &rep); code != 1 || err != nil || len(rep.Corrupt) != 1 || rep.Corrupt[0] != text.String() {
		t.Errorf("verify an archive with an emptied blob: exit %d %s %s", code, out, stderr)
	}
}
