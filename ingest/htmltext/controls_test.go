package htmltext

import (
	"strings"
	"testing"
)

// The label of a form control (a size, a colour) is machinery and goes; a
// label naming no control (used as the title of a question) stays.
func TestControlLabels(t *testing.T) {
	res, err := Extract(readFixture(t, "control-labels.html"), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Harbour merino crew socks", "cushioned sole", "several days between washes",
		"Can they be washed in a machine?", "wash them cold"} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("text lacks %q:\n%s", w, res.Text)
		}
	}
	for _, w := range []string{"Medium (US 7-10)", "Large (US 10-13)", "Slate grey", "Moss green"} {
		if strings.Contains(res.Text, w) {
			t.Errorf("text keeps a control's label %q:\n%s", w, res.Text)
		}
	}
}
