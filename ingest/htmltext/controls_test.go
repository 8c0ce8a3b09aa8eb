package htmltext

import "testing"

func TestControlPages(t *testing.T) {
	checkPages(t, []pageCase{
		// The label of a form control (a size, a colour, or a sorting
		// order whose control, a button or a box holding one, follows the
		// label) is machinery and goes; a label naming no control (used as
		// the title of a question) stays.
		{
			name:    "control labels go, a label naming no control stays",
			fixture: "control-labels.html",
			has: []string{"Harbour merino crew socks", "cushioned sole", "several days between washes",
				"Can they be washed in a machine?", "wash them cold"},
			hasNot: []string{"Medium (US 7-10)", "Large (US 10-13)", "Slate grey", "Moss green", "Sort reviews by"},
		},
		// An accordion's answer whose collapsing wrapper is the hidden element
		// (the control names the panel inside it) is kept like the panel
		// itself; a hidden box that no control opens stays out.
		{
			name:    "accordion answers in a hidden wrapper are kept",
			fixture: "accordion-wrapped-panels.html",
			has:     []string{"double wall that feeds hot air", "Stack small dry logs around the cone", "never with water."},
			hasNot:  []string{"spring sale"},
		},
		// On a product page the fine print ("disclaimer"), offers of other
		// products ("upsell") and stickers ("badge") are furniture; on other
		// pages these names are not read.
		{
			name:    "product fine print is furniture on a product page",
			fixture: "product-fine-print.html",
			has:     []string{"Nova 7 phone", "battery that lasts two full days", "under a metre of fresh water", "deep green"},
			hasNot:  []string{"Bestseller", "leather case", "laboratory conditions", "not covered by the warranty"},
		},
		{
			name:    "fine print stays on a page that declares no product",
			fixture: "product-fine-print.html",
			edit:    replaceOnce(`"@type":"Product"`, `"@type":"Thing"`),
			has:     []string{"laboratory conditions"},
		},
	})
}
