package fsstore_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/digestd/digestd/archive/fsstore"
)

// TestOpenWithUndeletableLeftover opens an archive whose temporary
// directory holds a crashed writer's leftover that may not be removed (the
// directory is made immutable, which even root cannot write): Open
// succeeds, as it would on a read-only disk, and the leftover stays.
func TestOpenWithUndeletableLeftover(t *testing.T) {
	if _, err := exec.LookPath("chattr"); err != nil {
		t.Skip("needs chattr")
	}
	dir := t.TempDir()
	if _, err := fsstore.Open(dir); err != nil {
		t.Fatal(err)
	}
	tmp := filepath.Join(dir, "v1", "tmp")
	leftover := filepath.Join(tmp, ".tmp-999999999-x")
	if err := os.WriteFile(leftover, []byte("half a blob"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("chattr", "+i", tmp).CombinedOutput(); err != nil {
		t.Skipf("chattr +i: %v %s", err, out)
	}
	defer exec.Command("chattr", "-i", tmp).Run()
	if err := os.Remove(leftover); err == nil {
		t.Skip("the immutable directory still allows removal here")
	}
	if _, err := fsstore.Open(dir); err != nil {
		t.Errorf("open with a leftover that cannot be removed: %v", err)
	}
	if _, err := os.Stat(leftover); err != nil {
		t.Errorf("the leftover: %v", err)
	}
}
