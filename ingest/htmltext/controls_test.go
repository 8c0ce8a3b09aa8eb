package htmltext

import (
	"bytes"
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

// An accordion's answer whose collapsing wrapper is the hidden element (the
// control names the panel inside it) is kept like the panel itself; a
// hidden box that no control opens stays out.
func TestAccordionWrappedPanels(t *testing.T) {
	res, err := Extract(readFixture(t, "accordion-wrapped-panels.html"), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"double wall that feeds hot air", "Stack small dry logs around the cone", "never with water."} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("text lacks %q:\n%s", w, res.Text)
		}
	}
	if strings.Contains(res.Text, "spring sale") {
		t.Errorf("text has a hidden box no control opens:\n%s", res.Text)
	}
}

// On a product page the fine print ("disclaimer"), offers of other
// products ("upsell") and stickers ("badge") are furniture; on other
// pages these names are not read.
func TestProductFinePrint(t *testing.T) {
	raw := readFixture(t, "product-fine-print.html")
	res, err := Extract(raw, "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"Nova 7 phone", "battery that lasts two full days", "under a metre of fresh water", "deep green"} {
		if !strings.Contains(res.Text, w) {
			t.Errorf("text lacks %q:\n%s", w, res.Text)
		}
	}
	for _, w := range []string{"Bestseller", "leather case", "laboratory conditions", "not covered by the warranty"} {
		if strings.Contains(res.Text, w) {
			t.Errorf("text keeps product furniture %q:\n%s", w, res.Text)
		}
	}
	// Without the Product declaration the page is not a product page.
	res, err = Extract(bytes.Replace(raw, []byte(`"@type":"Product"`), []byte(`"@type":"Thing"`), 1), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "laboratory conditions") {
		t.Errorf("fine print is dropped on a page that declares no product:\n%s", res.Text)
	}
}
