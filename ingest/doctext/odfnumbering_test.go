package doctext_test

import (
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/structure"
)

// Numbered headings and list items of an ODT open with the numbers an
// office suite shows, as a DOCX's do: the outline's levels, list styles
// of content.xml and styles.xml, nested levels, an item's own start,
// continued and restarted lists, list headers, bullets, and a number the
// file states.
func TestODTNumbering(t *testing.T) {
	styles := `<text:outline-style style:name="Outline">` +
		odfLevel("outline-level-style", 1, `style:num-format="1"`) +
		odfLevel("outline-level-style", 2, `style:num-format="1" text:display-levels="2"`) +
		odfLevel("outline-level-style", 3, `style:num-format=""`) +
		`</text:outline-style>` +
		`<text:list-style style:name="Numbering_20_abc">` + odfLevel("list-level-style-number", 1, `style:num-format="a" style:num-suffix=")"`) + `</text:list-style>`
	automatic := `<text:list-style style:name="L1">` +
		odfLevel("list-level-style-number", 1, `style:num-format="1" style:num-suffix="." text:start-value="1"`) +
		odfLevel("list-level-style-number", 2, `style:num-format="i" style:num-prefix="(" style:num-suffix=")"`) +
		`</text:list-style><text:list-style style:name="L2">` + odfLevel("list-level-style-bullet", 1, `text:bullet-char="•"`) + `</text:list-style>`
	h := func(level, text string) string {
		return `<text:h text:outline-level="` + level + `">` + text + `</text:h>`
	}
	item := func(text string) string { return `<text:list-item><text:p>` + text + `</text:p></text:list-item>` }
	body := h("1", "Introduction") + h("2", "Scope") + h("2", "Terms") + h("3", "Detail") + h("1", "Method") + h("2", "Setup") +
		`<text:list text:style-name="L1" xml:id="list1">` + item("First step") +
		`<text:list-item><text:p>Second step</text:p><text:list>` + item("sub a") + item("sub b") + `</text:list></text:list-item>` +
		`<text:list-item text:start-value="7"><text:p>Seventh</text:p></text:list-item></text:list>` +
		`<text:p>Between.</text:p>` +
		`<text:list text:style-name="L1" text:continue-numbering="true">` + item("Eighth") + `</text:list>` +
		`<text:list text:style-name="L1">` + `<text:list-header><text:p>Header</text:p></text:list-header>` + item("Again") + `</text:list>` +
		`<text:list text:style-name="L1" text:continue-list="list1">` + item("Ninth") + `</text:list>` +
		`<text:list text:style-name="L2">` + item("Bullet") + `</text:list>` +
		`<text:list text:style-name="Numbering_20_abc">` + item("From styles") + item("Second from styles") + `</text:list>` +
		`<text:h text:outline-level="1"><text:number>9</text:number>Results</text:h>` +
		`<text:h text:outline-level="1" text:is-list-header="true">Annex</text:h>`
	want := []string{"1 Introduction", "1.1 Scope", "1.2 Terms", "Detail", "2 Method", "2.1 Setup",
		"1. First step", "2. Second step", "(i) sub a", "(ii) sub b", "7. Seventh", "Between.", "8. Eighth",
		"Header", "1. Again", "9. Ninth", "Bullet", "a) From styles", "b) Second from styles", "3 Results", "Annex"}
	text, res := canonical(t, format.ODT, numberedODT(body, automatic, styles))
	if got := strings.Split(text, "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocks:\n got %q\nwant %q", got, want)
	}
	// A numbered list is an ordered list, a bulleted one is not.
	var ordered, unordered int
	for _, sp := range res.Spans {
		if sp.Kind == structure.List {
			if sp.Ordered {
				ordered++
			} else {
				unordered++
			}
		}
	}
	if ordered == 0 || unordered == 0 {
		t.Errorf("%d ordered and %d unordered lists, want both", ordered, unordered)
	}

	// Without styles.xml nothing is numbered but what content.xml's own
	// list styles number.
	text, _ = canonical(t, format.ODT, numberedODT(h("1", "Plain")+`<text:list text:style-name="L1">`+item("One")+`</text:list>`, automatic, ""))
	if text != "Plain\n1. One" {
		t.Errorf("got %q", text)
	}
}
