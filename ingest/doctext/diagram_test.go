package doctext_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/doctext/doctexttest"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/normalize"
)

// nsDgm is SmartArt's namespace.
const nsDgm = `xmlns:dgm="http://schemas.openxmlformats.org/drawingml/2006/diagram"`

// diagramPoint is a dgm:pt of the given type ("" for a node) and text
// paragraphs.
func diagramPoint(id, typ string, paras ...string) string {
	t := ""
	if typ != "" {
		t = ` type="` + typ + `"`
	}
	body := `<a:p><a:endParaRPr lang="en-US"/></a:p>`
	if len(paras) > 0 {
		body = ""
		for _, p := range paras {
			body += `<a:p><a:r><a:rPr lang="en-US"/><a:t>` + p + `</a:t></a:r></a:p>`
		}
	}
	return `<dgm:pt modelId="` + id + `"` + t + `><dgm:prSet phldrT="[Text]"/><dgm:spPr/><dgm:t><a:bodyPr/><a:lstStyle/>` + body + `</dgm:t></dgm:pt>`
}

// diagramXML is a SmartArt data model as Office writes it: a document
// point, nodes listed out of their outline order (a child before its
// parent, the second sibling before the first), a node of two paragraphs,
// transitions and presentation points that hold no text of the diagram, a
// connection back to the document that makes a cycle, and a node no
// connection reaches.
var diagramXML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><dgm:dataModel ` + nsDgm + ` ` + nsA + `><dgm:ptLst>` +
	diagramPoint("{0}", "doc") +
	diagramPoint("{3}", "", "Sample the wells") +
	diagramPoint("{2}", "", "Analyse", "in the laboratory") +
	diagramPoint("{1}", "", "Plan the survey") +
	diagramPoint("{11}", "", "Book the transducers") +
	diagramPoint("{T1}", "parTrans") + diagramPoint("{S1}", "sibTrans") +
	`<dgm:pt modelId="{P1}" type="pres"><dgm:prSet presAssocID="{1}" presName="node" presStyleLbl="node1"/><dgm:spPr/></dgm:pt>` +
	diagramPoint("{9}", "", "Loose note") +
	`</dgm:ptLst><dgm:cxnLst>` +
	`<dgm:cxn modelId="{c3}" srcId="{0}" destId="{3}" srcOrd="1" destOrd="0" parTransId="{T1}" sibTransId="{S1}"/>` +
	`<dgm:cxn modelId="{c1}" srcId="{0}" destId="{1}" srcOrd="0" destOrd="0"/>` +
	`<dgm:cxn modelId="{c2}" srcId="{0}" destId="{2}" srcOrd="2" destOrd="0"/>` +
	`<dgm:cxn modelId="{c11}" srcId="{1}" destId="{11}" srcOrd="0" destOrd="0"/>` +
	`<dgm:cxn modelId="{c4}" srcId="{11}" destId="{0}" srcOrd="0" destOrd="0"/>` +
	`<dgm:cxn modelId="{c5}" type="presOf" srcId="{1}" destId="{P1}" srcOrd="0" destOrd="0"/>` +
	`<dgm:cxn modelId="{c6}" type="presParOf" srcId="{P1}" destId="{9}" srcOrd="0" destOrd="0"/>` +
	`</dgm:cxnLst><dgm:bg/><dgm:whole/></dgm:dataModel>`

// diagramBlocks are the blocks diagramXML reads as.
var diagramBlocks = []string{"Plan the survey", "Book the transducers", "Sample the wells", "Analyse in the laboratory", "Loose note"}

// diagramRef is a graphic's reference to a SmartArt diagram's parts.
func diagramRef(rid string) string {
	return `<a:graphic ` + nsA + `><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/diagram"><dgm:relIds ` + nsDgm + ` ` + nsR +
		` r:dm="` + rid + `" r:lo="rIdLo" r:qs="rIdQs" r:cs="rIdCs"/></a:graphicData></a:graphic>`
}

// diagramDOCX is a Word document with a SmartArt diagram between two
// paragraphs and another in a table cell.
func diagramDOCX(data string) []byte {
	inline := `<w:p><w:r><w:drawing><wp:inline ` + nsWP + `><wp:docPr id="1" name="Diagram 1"/>` + diagramRef("rId4") + `</wp:inline></w:drawing></w:r></w:p>`
	body := doctexttest.Paragraph("Before the diagram.") + inline +
		`<w:tbl><w:tr><w:tc>` + doctexttest.Paragraph("Steps") + `</w:tc><w:tc>` + inline + `</w:tc></w:tr></w:tbl>` +
		doctexttest.Paragraph("After the diagram.")
	e := func(name, text string) doctexttest.Entry {
		return doctexttest.Entry{Name: name, Body: doctexttest.S(text)}
	}
	return doctexttest.Zip(
		e("[Content_Types].xml", `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`),
		e("_rels/.rels", rels([3]string{"rId1", "officeDocument", "word/document.xml"})),
		e("word/document.xml", `<?xml version="1.0" encoding="UTF-8"?><w:document `+nsW+` `+nsR+`><w:body>`+body+`</w:body></w:document>`),
		e("word/_rels/document.xml.rels", rels([3]string{"rId4", "diagramData", "diagrams/data1.xml"})),
		e("word/diagrams/data1.xml", data),
	)
}

// diagramPPTX is a presentation of one slide: a title and a SmartArt
// diagram in a graphic frame.
func diagramPPTX(data string) []byte {
	slide := `<?xml version="1.0" encoding="UTF-8"?><p:sld ` + nsP + ` ` + nsA + ` ` + nsR + `><p:cSld><p:spTree>` +
		`<p:sp><p:nvSpPr><p:cNvPr id="2" name="Title"/><p:cNvSpPr/><p:nvPr><p:ph type="title"/></p:nvPr></p:nvSpPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>Process</a:t></a:r></a:p></p:txBody></p:sp>` +
		`<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="4" name="Diagram 3"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>` + diagramRef("rId2") + `</p:graphicFrame>` +
		`</p:spTree></p:cSld></p:sld>`
	e := func(name, body string) doctexttest.Entry {
		return doctexttest.Entry{Name: name, Body: doctexttest.S(body)}
	}
	return doctexttest.Zip(
		e("[Content_Types].xml", `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`),
		e("_rels/.rels", rels([3]string{"rId1", "officeDocument", "ppt/presentation.xml"})),
		e("ppt/presentation.xml", `<?xml version="1.0" encoding="UTF-8"?><p:presentation `+nsP+` `+nsR+`><p:sldIdLst><p:sldId id="256" r:id="rId2"/></p:sldIdLst></p:presentation>`),
		e("ppt/_rels/presentation.xml.rels", rels([3]string{"rId2", "slide", "slides/slide1.xml"})),
		e("ppt/slides/slide1.xml", slide),
		e("ppt/slides/_rels/slide1.xml.rels", rels([3]string{"rId2", "diagramData", "../diagrams/data1.xml"})),
		e("ppt/diagrams/data1.xml", data),
	)
}

// diagramXLSX is objectsXLSX with a SmartArt diagram after the charts of
// its first sheet's drawing.
func diagramXLSX(t *testing.T) []byte {
	frame := `<xdr:graphicFrame macro=""><xdr:nvGraphicFramePr><xdr:cNvPr id="9" name="Diagram 8"/><xdr:cNvGraphicFramePr/></xdr:nvGraphicFramePr>` + diagramRef("rIdDgm") + `</xdr:graphicFrame>`
	return rezip(t, objectsXLSX(t), map[string]func(string) string{
		"xl/drawings/drawing1.xml": func(s string) string {
			i := strings.LastIndex(s, "</xdr:twoCellAnchor>")
			return s[:i] + frame + s[i:]
		},
		"xl/drawings/_rels/drawing1.xml.rels": func(s string) string {
			return strings.Replace(s, "</Relationships>", `<Relationship Id="rIdDgm" Type="`+relNS+`diagramData" Target="../diagrams/data1.xml"/></Relationships>`, 1)
		},
		"xl/diagrams/data1.xml": func(string) string { return diagramXML },
	})
}

// A SmartArt diagram reads at its place as one block per node, in its
// outline order, in DOCX (and as text of the cell that holds it), PPTX
// and an XLSX's drawing.
func TestSmartArt(t *testing.T) {
	blocks := strings.Join(diagramBlocks, "\n")
	tests := []struct {
		name, kind string
		raw        []byte
		want       string
		part       bool // want is a part of the text, not all of it
	}{
		{"docx", format.DOCX, diagramDOCX(diagramXML), "Before the diagram.\n" + blocks + "\nSteps | " + strings.Join(diagramBlocks, " ") + "\nAfter the diagram.", false},
		{"pptx", format.PPTX, diagramPPTX(diagramXML), "Process\n" + blocks, false},
		{"xlsx", format.XLSX, diagramXLSX(t), "Levels\nSpring\nSouth | 38\n" + blocks + "\n" + doctext.CommentsHeading, true},
		// A reference to a part the package does not hold reads as nothing.
		{"missing part", format.DOCX, rezip(t, diagramDOCX(diagramXML), map[string]func(string) string{
			"word/_rels/document.xml.rels": func(string) string { return rels([3]string{"rId4", "diagramData", "diagrams/none.xml"}) },
		}), "Before the diagram.\nSteps\nAfter the diagram.", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, _ := canonical(t, tt.kind, tt.raw)
			if text != tt.want && !(tt.part && strings.Contains(text, tt.want)) {
				t.Errorf("got %q\nwant %q", text, tt.want)
			}
		})
	}
}

// A data model of more points than a diagram reads gives the first of
// them, and a malformed one is unreadable.
func TestSmartArtBounds(t *testing.T) {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><dgm:dataModel ` + nsDgm + ` ` + nsA + `><dgm:ptLst>`)
	const points = 30000
	for i := range points {
		b.WriteString(diagramPoint(fmt.Sprint(i), "", fmt.Sprint("n", i)))
	}
	b.WriteString(`</dgm:ptLst><dgm:cxnLst/></dgm:dataModel>`)
	res, err := doctext.Extract(format.PPTX, diagramPPTX(b.String()), doctext.Limits{})
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(res.Text(), "\n"), "\n")
	if n := len(lines) - 1; n == 0 || n >= points || lines[1] != "n0" {
		t.Errorf("%d nodes read of %d, first %q", n, points, lines[min(1, len(lines)-1)])
	}
	_, err = doctext.Extract(format.PPTX, diagramPPTX(`<dgm:dataModel `+nsDgm+`><dgm:ptLst>`), doctext.Limits{})
	if !errors.Is(err, doctext.ErrUnreadable) {
		t.Errorf("truncated data model: %v, want unreadable", err)
	}
	if strings.ContainsRune(res.Text(), normalize.PageSeparator) {
		t.Error("one slide reads as more than one page")
	}
}
