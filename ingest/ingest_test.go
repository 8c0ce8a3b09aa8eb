package ingest

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
)

// TestApplicationShellHasNoText: a page whose text only its scripts would
// write is refused with NO_EXTRACTABLE_TEXT and a message that says so, not
// digested as a notice.
func TestApplicationShellHasNoText(t *testing.T) {
	raw, err := os.ReadFile("htmltext/testdata/app-shell.html")
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&Ingester{}).Ingest(context.Background(), Source{HTML: raw})
	var f *fault.Error
	if !errors.As(err, &f) || f.Code != fault.NoExtractableText {
		t.Fatalf("application shell: err %v, want %s", err, fault.NoExtractableText)
	}
	if !strings.Contains(err.Error(), "scripts") {
		t.Errorf("application shell: message %q does not name the scripts", err)
	}
}
