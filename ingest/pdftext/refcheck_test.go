package pdftext

import (
	"errors"
	"fmt"
	"testing"

	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
)

// TestReferenceCycles gives the reader files it would follow forever;
// each must fail as unreadable (the test's own timeout is the failure mode
// without the check).
func TestReferenceCycles(t *testing.T) {
	for name, pdf := range map[string][]byte{
		"xref /Prev names its own section": pdfgen.PrevSelf(),
		"object stream extends itself":     pdfgen.ObjStmXRef("/N 1 /Extends 3 0 R"),
		"object stream with a huge /N":     pdfgen.ObjStmXRef("/N 1000000000000"),
		"object stream with /N over bound": pdfgen.ObjStmXRef(fmt.Sprintf("/N %d", maxObjStmObjects+1)),
	} {
		_, err := Extract(pdf, Limits{})
		if name == "xref /Prev names its own section" {
			// The rebuilt cross-reference table reads it: its one page
			// has no text.
			if !errors.Is(err, ErrNoText) {
				t.Errorf("%s: %v, want ErrNoText from the rebuilt table", name, err)
			}
			continue
		}
		if !errors.Is(err, ErrUnreadable) {
			t.Errorf("%s: %v, want ErrUnreadable", name, err)
		}
		if checkReferences(pdf) == nil {
			t.Errorf("%s: the check passes it", name)
		}
	}
	if err := checkPrevChain(pdfgen.PrevSelf()); err == nil {
		t.Error("the /Prev cycle passes the check")
	}
	ok := pdfgen.Build("t", []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 720, 12, 14, "Hello there.")}})
	if err := checkReferences(ok); err != nil {
		t.Errorf("a valid file: %v", err)
	}
}
