package doctext_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/doctext/doctexttest"
	"github.com/digestd/digestd/ingest/format"
)

// wordDOCX is a DOCX of body with a numbering part and a styles part
// (either may be "").
func wordDOCX(body, numbering, styles string) []byte {
	e := func(name, text string) doctexttest.Entry {
		return doctexttest.Entry{Name: name, Body: doctexttest.S(text)}
	}
	var rs [][3]string
	entries := []doctexttest.Entry{
		e("[Content_Types].xml", `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`),
		e("word/document.xml", `<?xml version="1.0" encoding="UTF-8"?><w:document `+nsW+` xmlns:m="http://schemas.openxmlformats.org/officeDocument/2006/math"><w:body>`+body+`</w:body></w:document>`),
	}
	if numbering != "" {
		rs = append(rs, [3]string{"rId1", "numbering", "numbering.xml"})
		entries = append(entries, e("word/numbering.xml", `<?xml version="1.0" encoding="UTF-8"?><w:numbering `+nsW+`>`+numbering+`</w:numbering>`))
	}
	if styles != "" {
		rs = append(rs, [3]string{"rId2", "styles", "styles.xml"})
		entries = append(entries, e("word/styles.xml", `<?xml version="1.0" encoding="UTF-8"?><w:styles `+nsW+`>`+styles+`</w:styles>`))
	}
	entries = append(entries, e("word/_rels/document.xml.rels", rels(rs...)))
	return doctexttest.Zip(entries...)
}

// level is a w:lvl of a numbering definition.
func level(ilvl, start, format, text, extra string) string {
	return `<w:lvl w:ilvl="` + ilvl + `"><w:start w:val="` + start + `"/><w:numFmt w:val="` + format + `"/><w:lvlText w:val="` + text + `"/>` + extra + `</w:lvl>`
}

// numbered is a paragraph with direct numbering (numID "" for none) and
// a style.
func numbered(style, numID, ilvl, text string) string {
	ppr := ""
	if style != "" {
		ppr += `<w:pStyle w:val="` + style + `"/>`
	}
	if numID != "" {
		ppr += `<w:numPr><w:ilvl w:val="` + ilvl + `"/><w:numId w:val="` + numID + `"/></w:numPr>`
	}
	return `<w:p><w:pPr>` + ppr + `</w:pPr><w:r><w:t>` + text + `</w:t></w:r></w:p>`
}

// Numbered headings and list items read with the numbers Word shows:
// levels, formats, start values, restarts and continued lists.
func TestDOCXNumbering(t *testing.T) {
	numbering :=
		// Headings: "1", "1.1", numbered through their styles.
		`<w:abstractNum w:abstractNumId="0">` + level("0", "1", "decimal", "%1", `<w:pStyle w:val="Heading1"/>`) +
			level("1", "1", "decimal", "%1.%2", `<w:pStyle w:val="Heading2"/>`) + `</w:abstractNum>` +
			// A list: "a)", then "i." under it; a bullet level; legal numbering.
			`<w:abstractNum w:abstractNumId="1">` + level("0", "1", "lowerLetter", "%1)", "") +
			level("1", "1", "lowerRoman", "%2.", `<w:suff w:val="space"/>`) + level("2", "1", "bullet", "•", "") +
			level("3", "1", "upperRoman", "%1.%2.%3.%4", `<w:isLgl/>`) + `</w:abstractNum>` +
			// Starts at 7, and its second level never restarts.
			`<w:abstractNum w:abstractNumId="2">` + level("0", "7", "decimal", "%1.", "") +
			level("1", "1", "upperLetter", "%1.%2", `<w:lvlRestart w:val="0"/>`) + `</w:abstractNum>` +
			`<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>` +
			`<w:num w:numId="2"><w:abstractNumId w:val="1"/></w:num>` +
			`<w:num w:numId="3"><w:abstractNumId w:val="1"/></w:num>` + // continues list 2
			`<w:num w:numId="4"><w:abstractNumId w:val="1"/><w:lvlOverride w:ilvl="0"><w:startOverride w:val="1"/></w:lvlOverride></w:num>` + // restarts it
			`<w:num w:numId="5"><w:abstractNumId w:val="2"/></w:num>`
	styles := `<w:style w:type="paragraph" w:styleId="Heading1"><w:pPr><w:numPr><w:numId w:val="1"/></w:numPr></w:pPr></w:style>` +
		`<w:style w:type="paragraph" w:styleId="Heading2"><w:basedOn w:val="Heading1"/><w:pPr><w:numPr><w:ilvl w:val="1"/></w:numPr></w:pPr></w:style>` +
		`<w:style w:type="paragraph" w:styleId="Chapter"><w:basedOn w:val="Heading1"/></w:style>`
	body := numbered("Heading1", "", "", "Introduction") +
		numbered("Heading2", "", "", "Scope") +
		numbered("Heading2", "", "", "Terms") +
		numbered("Heading1", "", "", "Methods") +
		numbered("Heading2", "", "", "Sampling") +
		numbered("Heading1", "0", "0", "Unnumbered heading") +
		numbered("", "2", "0", "first") +
		numbered("", "2", "1", "nested") +
		numbered("", "2", "1", "nested again") +
		numbered("", "2", "2", "bullet") +
		numbered("", "3", "0", "continued") +
		numbered("", "2", "1", "nested after") +
		numbered("", "2", "3", "legal") +
		numbered("", "4", "0", "restarted") +
		numbered("", "4", "0", "restarted second") +
		numbered("", "5", "0", "seventh") +
		numbered("", "5", "1", "under seventh") +
		numbered("", "5", "0", "eighth") +
		numbered("", "5", "1", "not restarted") +
		numbered("Chapter", "", "", "Results") +
		numbered("", "9", "0", "no such list") +
		doctexttest.Paragraph("Plain.")
	want := []string{"1 Introduction", "1.1 Scope", "1.2 Terms", "2 Methods", "2.1 Sampling", "Unnumbered heading",
		"a) first", "i. nested", "ii. nested again", "bullet", "b) continued", "i. nested after", "2.1.1.1 legal",
		"a) restarted", "b) restarted second", "7. seventh", "7.A under seventh", "8. eighth", "8.B not restarted",
		"3 Results", "no such list", "Plain."}
	text, _ := canonical(t, format.DOCX, wordDOCX(body, numbering, styles))
	if got := strings.Split(text, "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("numbering:\n got %q\nwant %q", got, want)
	}
	// Without a numbering part nothing is numbered.
	text, _ = canonical(t, format.DOCX, wordDOCX(body, "", styles))
	if !strings.HasPrefix(text, "Introduction\nScope\n") {
		t.Errorf("no numbering part: %q", text)
	}
}

// A row that starts past its first columns (gridBefore) and a cell that
// spans columns (gridSpan) keep the cells after them in their columns.
func TestDOCXTableGrid(t *testing.T) {
	cell := func(text, props string) string {
		return `<w:tc><w:tcPr>` + props + `</w:tcPr><w:p><w:r><w:t>` + text + `</w:t></w:r></w:p></w:tc>`
	}
	body := `<w:tbl><w:tblGrid><w:gridCol/><w:gridCol/><w:gridCol/><w:gridCol/></w:tblGrid>` +
		`<w:tr>` + cell("Zone", "") + cell("Wells", "") + cell("Depth", "") + cell("Nitrate", "") + `</w:tr>` +
		`<w:tr><w:trPr><w:gridBefore w:val="1"/></w:trPr>` + cell("12", "") + cell("40", "") + cell("18", "") + `</w:tr>` +
		`<w:tr>` + cell("South", `<w:gridSpan w:val="2"/>`) + cell("35", "") + cell("22", "") + `</w:tr>` +
		`<w:tr><w:trPr><w:gridBefore w:val="2"/><w:gridAfter w:val="1"/></w:trPr>` + cell("50", "") + `</w:tr></w:tbl>`
	text, _ := canonical(t, format.DOCX, wordDOCX(body, "", ""))
	// Canonical text collapses the space of empty cells: "| 12" is a row
	// whose first cell is empty.
	want := "Zone | Wells | Depth | Nitrate\n| 12 | 40 | 18\nSouth | | 35 | 22\n| | 50"
	if text != want {
		t.Errorf("grid:\n got %q\nwant %q", text, want)
	}
}

// Office Math reads in its linear form: scripts, fractions, radicals,
// n-ary operators, delimiters, functions, limits and matrices, inline in
// their paragraph.
func TestDOCXEquations(t *testing.T) {
	r := func(s string) string { return `<m:r><m:t>` + s + `</m:t></m:r>` }
	e := func(inner string) string { return `<m:e>` + inner + `</m:e>` }
	sup := func(base, s string) string {
		return `<m:sSup><m:sSupPr><m:ctrlPr/></m:sSupPr>` + e(base) + `<m:sup>` + s + `</m:sup></m:sSup>`
	}
	sub := func(base, s string) string { return `<m:sSub>` + e(base) + `<m:sub>` + s + `</m:sub></m:sSub>` }
	frac := func(num, den string) string {
		return `<m:f><m:fPr/><m:num>` + num + `</m:num><m:den>` + den + `</m:den></m:f>`
	}
	para := func(math string) string {
		return `<w:p><m:oMathPara><m:oMath>` + math + `</m:oMath></m:oMathPara></w:p>`
	}
	tests := []struct{ name, body, want string }{
		{"area", para(r("A=π") + sup(r("r"), r("2"))), "A=πr^2"},
		{"quadratic", para(r("x=") + frac(r("-b±")+`<m:rad><m:radPr><m:degHide m:val="1"/></m:radPr><m:deg/>`+e(sup(r("b"), r("2"))+r("-4ac"))+`</m:rad>`, r("2a"))),
			"x=(-b±√(b^2-4ac))/(2a)"},
		{"sum", para(`<m:nary><m:naryPr><m:chr m:val="∑"/></m:naryPr><m:sub>` + r("i=1") + `</m:sub><m:sup>` + r("n") + `</m:sup>` + e(sub(r("x"), r("i"))) + `</m:nary>`),
			"∑_(i=1)^n x_i"},
		{"integral", para(`<m:nary><m:naryPr><m:supHide m:val="1"/></m:naryPr><m:sub>` + r("Ω") + `</m:sub><m:sup/>` + e(r("f dμ")) + `</m:nary>`), "∫_Ω f dμ"},
		{"cube root", para(`<m:rad><m:deg>` + r("3") + `</m:deg>` + e(r("x+1")) + `</m:rad>`), "√[3](x+1)"},
		{"delimiters", para(`<m:d><m:dPr><m:begChr m:val="["/><m:endChr m:val="]"/><m:sepChr m:val=","/></m:dPr>` + e(r("0")) + e(r("1")) + `</m:d>` + sup(`<m:d>`+e(r("a+b"))+`</m:d>`, r("n+1"))),
			"[0,1](a+b)^(n+1)"},
		{"function and limit", para(`<m:func><m:fName><m:limLow>` + e(r("lim")) + `<m:lim>` + r("n→∞") + `</m:lim></m:limLow></m:fName>` + e(frac(r("1"), r("n"))) + `</m:func>` +
			r("=0, ") + `<m:func><m:fName>` + r("sin") + `</m:fName>` + e(r("x")) + `</m:func>`),
			"lim_(n→∞) 1/n=0, sin x"},
		{"matrix", para(`<m:d>` + e(`<m:m><m:mr>`+e(r("a"))+e(r("b"))+`</m:mr><m:mr>`+e(r("c"))+e(r("d"))+`</m:mr></m:m>`) + `</m:d>`), "([a, b; c, d])"},
		{"inline", `<w:p><w:r><w:t xml:space="preserve">The area is </w:t></w:r><m:oMath>` + r("π") + sup(r("r"), r("2")) + `</m:oMath><w:r><w:t>.</w:t></w:r></w:p>`,
			"The area is πr^2."},
		{"subscript and superscript", para(`<m:sSubSup>` + e(r("x")) + `<m:sub>` + r("ij") + `</m:sub><m:sup>` + r("2") + `</m:sup></m:sSubSup>`), "x_(ij)^2"},
	}
	for _, tt := range tests {
		text, _ := canonical(t, format.DOCX, wordDOCX(tt.body, "", ""))
		if text != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, text, tt.want)
		}
	}
}

// An equation of more elements than the cap is refused as too large, not
// built.
func TestDOCXEquationBound(t *testing.T) {
	body := `<w:p><m:oMath>` + strings.Repeat(`<m:r><m:t>x</m:t></m:r>`, 60000) + `</m:oMath></w:p>`
	if _, err := doctext.Extract(format.DOCX, wordDOCX(body, "", ""), doctext.Limits{}); !errors.Is(err, doctext.ErrTooLarge) {
		t.Errorf("a 120,000-element equation: %v, want ErrTooLarge", err)
	}
}
