package doctext_test

import (
	"archive/zip"
	"bytes"
	"image"
	"image/png"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/doctext/doctexttest"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/normalize"
	"github.com/xuri/excelize/v2"
)

// Namespaces of the OOXML fixtures below.
const (
	nsW   = `xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"`
	nsR   = `xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"`
	nsA   = `xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main"`
	nsC   = `xmlns:c="http://schemas.openxmlformats.org/drawingml/2006/chart"`
	nsP   = `xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main"`
	nsWP  = `xmlns:wp="http://schemas.openxmlformats.org/drawingml/2006/wordprocessingDrawing"`
	nsPic = `xmlns:pic="http://schemas.openxmlformats.org/drawingml/2006/picture"`
	nsRel = `xmlns="http://schemas.openxmlformats.org/package/2006/relationships"`
	relNS = "http://schemas.openxmlformats.org/officeDocument/2006/relationships/"
)

// rels writes an OPC relationships part; each relationship is an id, a
// type (a suffix of relNS, or a whole URI) and a target.
func rels(rs ...[3]string) string {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><Relationships ` + nsRel + `>`)
	for _, r := range rs {
		typ := r[1]
		if !strings.HasPrefix(typ, "http") {
			typ = relNS + typ
		}
		b.WriteString(`<Relationship Id="` + r[0] + `" Type="` + typ + `" Target="` + r[2] + `"/>`)
	}
	b.WriteString(`</Relationships>`)
	return b.String()
}

// chartXML is a column chart as Office writes it: a title, two axis
// titles, two series with cached names, categories (out of index order)
// and values, data labels and text formatting that hold no data.
const chartXML = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><c:chartSpace ` + nsC + ` ` + nsA + ` ` + nsR + `>` +
	`<c:chart><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Rainfall by </a:t></a:r><a:r><a:t>season</a:t></a:r></a:p></c:rich></c:tx></c:title>` +
	`<c:autoTitleDeleted val="0"/><c:plotArea><c:barChart><c:barDir val="col"/>` +
	`<c:ser><c:idx val="0"/><c:order val="0"/><c:tx><c:strRef><c:f>Sheet1!$B$1</c:f><c:strCache><c:ptCount val="1"/><c:pt idx="0"><c:v>North</c:v></c:pt></c:strCache></c:strRef></c:tx>` +
	`<c:dLbls><c:txPr><a:bodyPr/><a:p><a:r><a:t>label</a:t></a:r></a:p></c:txPr><c:showVal val="1"/></c:dLbls>` +
	`<c:cat><c:strRef><c:f>Sheet1!$A$2:$A$4</c:f><c:strCache><c:ptCount val="3"/><c:pt idx="1"><c:v>Summer</c:v></c:pt><c:pt idx="0"><c:v>Spring</c:v></c:pt><c:pt idx="2"><c:v>Autumn</c:v></c:pt></c:strCache></c:strRef></c:cat>` +
	`<c:val><c:numRef><c:f>Sheet1!$B$2:$B$4</c:f><c:numCache><c:formatCode>General</c:formatCode><c:ptCount val="3"/><c:pt idx="0"><c:v>41.5</c:v></c:pt><c:pt idx="1"><c:v>12.300000000000001</c:v></c:pt><c:pt idx="2"><c:v>2003</c:v></c:pt></c:numCache></c:numRef></c:val></c:ser>` +
	`<c:ser><c:idx val="1"/><c:order val="1"/><c:tx><c:v>South</c:v></c:tx>` +
	`<c:cat><c:strRef><c:f>Sheet1!$A$2:$A$4</c:f><c:strCache><c:ptCount val="3"/><c:pt idx="0"><c:v>Spring</c:v></c:pt><c:pt idx="1"><c:v>Summer</c:v></c:pt><c:pt idx="2"><c:v>Autumn</c:v></c:pt></c:strCache></c:strRef></c:cat>` +
	`<c:val><c:numRef><c:f>Sheet1!$C$2:$C$4</c:f><c:numCache><c:ptCount val="3"/><c:pt idx="0"><c:v>38</c:v></c:pt><c:pt idx="1"><c:v>9</c:v></c:pt><c:pt idx="2"><c:v>55</c:v></c:pt></c:numCache></c:numRef></c:val>` +
	`<c:extLst><c:ext uri="x"><c:v>hidden</c:v></c:ext></c:extLst></c:ser></c:barChart>` +
	`<c:catAx><c:axId val="1"/><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Season</a:t></a:r></a:p></c:rich></c:tx></c:title></c:catAx>` +
	`<c:valAx><c:axId val="2"/><c:title><c:tx><c:rich><a:bodyPr/><a:p><a:r><a:t>Millimetres</a:t></a:r></a:p></c:rich></c:tx></c:title></c:valAx>` +
	`</c:plotArea><c:legend><c:legendPos val="r"/></c:legend></c:chart>` +
	`<c:txPr><a:bodyPr/><a:p><a:pPr><a:defRPr/></a:pPr><a:endParaRPr lang="en-US"/></a:p></c:txPr></c:chartSpace>`

// chartBlocks are the blocks chartXML reads as.
var chartBlocks = []string{"Rainfall by season", "Season", "Millimetres", "Spring | Summer | Autumn", "North | 41.5 | 12.3 | 2003", "South | 38 | 9 | 55"}

// chartFrame is a graphic frame's DrawingML reference to a chart.
func chartRef(rid string) string {
	return `<a:graphic ` + nsA + `><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/chart"><c:chart ` + nsC + ` ` + nsR + ` r:id="` + rid + `"/></a:graphicData></a:graphic>`
}

// objectsDOCX is a Word document with a described picture, a chart, and
// two comments.
func objectsDOCX() []byte {
	inline := func(docPr, graphic string) string {
		return `<w:p><w:r><w:drawing><wp:inline ` + nsWP + `>` + docPr + graphic + `</wp:inline></w:drawing></w:r></w:p>`
	}
	pic := `<a:graphic ` + nsA + `><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/picture"><pic:pic ` + nsPic + `><pic:nvPicPr>` +
		`<pic:cNvPr id="0" name="heron.jpg" descr="A heron standing in reeds"/></pic:nvPicPr></pic:pic></a:graphicData></a:graphic>`
	body := doctexttest.Paragraph("Before the figure.") +
		inline(`<wp:docPr id="1" name="Picture 1" title="Heron" descr="A heron standing in reeds"/>`, pic) +
		`<w:p><w:commentRangeStart w:id="0"/><w:r><w:t>Between.</w:t></w:r><w:commentRangeEnd w:id="0"/><w:r><w:commentReference w:id="0"/></w:r></w:p>` +
		inline(`<wp:docPr id="2" name="Chart 2"/>`, chartRef("rId5")) +
		`<w:tbl><w:tr><w:tc><w:p><w:r><w:t>Cell</w:t></w:r></w:p></w:tc><w:tc>` + inline(`<wp:docPr id="3" name="Picture 3" descr="A small map"/>`, pic) + `</w:tc></w:tr></w:tbl>` +
		doctexttest.Paragraph("After the chart.")
	document := `<?xml version="1.0" encoding="UTF-8"?><w:document ` + nsW + ` ` + nsR + `><w:body>` + body + `</w:body></w:document>`
	comments := `<?xml version="1.0" encoding="UTF-8"?><w:comments ` + nsW + `>` +
		`<w:comment w:id="0" w:author="Ada Lovelace" w:initials="AL"><w:p><w:r><w:annotationRef/></w:r><w:r><w:t>Check the heron count.</w:t></w:r></w:p></w:comment>` +
		`<w:comment w:id="1" w:author="Grace Hopper"><w:p><w:r><w:t>Agreed,</w:t></w:r></w:p><w:p><w:r><w:t>twice.</w:t></w:r></w:p></w:comment>` +
		`<w:comment w:id="2" w:author="Nobody"><w:p/></w:comment></w:comments>`
	return doctexttest.Zip(
		doctexttest.Entry{Name: "[Content_Types].xml", Body: doctexttest.S(`<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`)},
		doctexttest.Entry{Name: "_rels/.rels", Body: doctexttest.S(rels([3]string{"rId1", "officeDocument", "word/document.xml"}))},
		doctexttest.Entry{Name: "word/document.xml", Body: doctexttest.S(document)},
		doctexttest.Entry{Name: "word/_rels/document.xml.rels", Body: doctexttest.S(rels(
			[3]string{"rId5", "chart", "charts/chart1.xml"}, [3]string{"rId6", "comments", "comments.xml"}, [3]string{"rId7", "commentsExtended", "commentsExtended.xml"}))},
		doctexttest.Entry{Name: "word/charts/chart1.xml", Body: doctexttest.S(chartXML)},
		doctexttest.Entry{Name: "word/comments.xml", Body: doctexttest.S(comments)},
	)
}

// objectsPPTX is a presentation of two slides: the first with a title, a
// described picture, a chart and a legacy comment; the second with a
// modern comment and its reply.
func objectsPPTX() []byte {
	sp := func(ph, text string) string {
		return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Shape"/><p:cNvSpPr/><p:nvPr>` + ph + `</p:nvPr></p:nvSpPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>` + text + `</a:t></a:r></a:p></p:txBody></p:sp>`
	}
	slide := func(shapes string) string {
		return `<?xml version="1.0" encoding="UTF-8"?><p:sld ` + nsP + ` ` + nsA + ` ` + nsR + `><p:cSld><p:spTree>` + shapes + `</p:spTree></p:cSld></p:sld>`
	}
	slide1 := slide(sp(`<p:ph type="title"/>`, "Findings") +
		`<p:pic><p:nvPicPr><p:cNvPr id="4" name="Picture 3" descr="A map of the river basin"/><p:cNvPicPr/><p:nvPr/></p:nvPicPr><p:blipFill/></p:pic>` +
		sp("", "The chart below:") +
		`<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="5" name="Chart 4"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr>` + chartRef("rId2") + `</p:graphicFrame>` +
		sp(`<p:ph type="sldNum"/>`, "1"))
	slide2 := slide(sp(`<p:ph type="title"/>`, "Next steps") + sp("", "Survey the delta."))
	p188 := `xmlns:p188="http://schemas.microsoft.com/office/powerpoint/2018/8/main"`
	modern := `<?xml version="1.0" encoding="UTF-8"?><p188:cmLst ` + p188 + ` ` + nsA + `><p188:cm id="{C1}" authorId="{A1}" created="2026-01-01T00:00:00Z">` +
		`<p188:replyLst><p188:reply id="{R1}" authorId="{A2}"><p188:txBody><a:bodyPr/><a:p><a:r><a:t>Done in March.</a:t></a:r></a:p></p188:txBody></p188:reply></p188:replyLst>` +
		`<p188:txBody><a:bodyPr/><a:lstStyle/><a:p><a:r><a:t>Who surveys it?</a:t></a:r></a:p></p188:txBody></p188:cm></p188:cmLst>`
	e := func(name, body string) doctexttest.Entry {
		return doctexttest.Entry{Name: name, Body: doctexttest.S(body)}
	}
	return doctexttest.Zip(
		e("[Content_Types].xml", `<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>`),
		e("_rels/.rels", rels([3]string{"rId1", "officeDocument", "ppt/presentation.xml"})),
		e("ppt/presentation.xml", `<?xml version="1.0" encoding="UTF-8"?><p:presentation `+nsP+` `+nsR+`><p:sldIdLst><p:sldId id="256" r:id="rId2"/><p:sldId id="257" r:id="rId3"/></p:sldIdLst></p:presentation>`),
		e("ppt/_rels/presentation.xml.rels", rels([3]string{"rId2", "slide", "slides/slide1.xml"}, [3]string{"rId3", "slide", "slides/slide2.xml"},
			[3]string{"rId4", "commentAuthors", "commentAuthors.xml"}, [3]string{"rId5", "http://schemas.microsoft.com/office/2018/10/relationships/authors", "authors.xml"})),
		e("ppt/slides/slide1.xml", slide1),
		e("ppt/slides/_rels/slide1.xml.rels", rels([3]string{"rId2", "chart", "../charts/chart1.xml"}, [3]string{"rId3", "comments", "../comments/comment1.xml"})),
		e("ppt/charts/chart1.xml", chartXML),
		e("ppt/commentAuthors.xml", `<?xml version="1.0" encoding="UTF-8"?><p:cmAuthorLst `+nsP+`><p:cmAuthor id="0" name="Ada Lovelace" initials="AL" lastIdx="1" clrIdx="0"/></p:cmAuthorLst>`),
		e("ppt/comments/comment1.xml", `<?xml version="1.0" encoding="UTF-8"?><p:cmLst `+nsP+`><p:cm authorId="0" dt="2026-01-01T00:00:00" idx="1"><p:pos x="10" y="10"/><p:text>Use the 2024 survey.</p:text></p:cm></p:cmLst>`),
		e("ppt/slides/slide2.xml", slide2),
		e("ppt/slides/_rels/slide2.xml.rels", rels([3]string{"rId2", "http://schemas.microsoft.com/office/2018/10/relationships/comments", "../comments/modernComment_101.xml"})),
		e("ppt/authors.xml", `<?xml version="1.0" encoding="UTF-8"?><p188:authorLst `+p188+`><p188:author id="{A1}" name="Grace Hopper" initials="GH" userId="g" providerId="None"/><p188:author id="{A2}" name="Alan Turing" initials="AT" userId="t" providerId="None"/></p188:authorLst>`),
		e("ppt/comments/modernComment_101.xml", modern),
	)
}

// objectsXLSX is a workbook made by excelize, with a described picture,
// two charts and a note on its first sheet, the first chart's part
// replaced by chartXML (with cached values, as Office writes them), and a
// threaded comment on its second sheet.
func objectsXLSX(t *testing.T) []byte {
	f := excelize.NewFile()
	defer f.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(f.SetSheetName("Sheet1", "Readings"))
	must(f.SetSheetRow("Readings", "A1", &[]any{"Season", "North", "South"}))
	must(f.SetSheetRow("Readings", "A2", &[]any{"Spring", 41.5, 38}))
	var img bytes.Buffer
	must(png.Encode(&img, image.NewGray(image.Rect(0, 0, 2, 2))))
	must(f.AddPictureFromBytes("Readings", "E2", &excelize.Picture{Extension: ".png", File: img.Bytes(), Format: &excelize.GraphicOptions{AltText: "Gauge at the weir"}}))
	must(f.AddChart("Readings", "E10", &excelize.Chart{Type: excelize.Col, Series: []excelize.ChartSeries{{Name: "Readings!$B$1", Categories: "Readings!$A$2:$A$2", Values: "Readings!$B$2:$B$2"}}}))
	// A chart as excelize writes it: formulas, no cached values.
	must(f.AddChart("Readings", "E20", &excelize.Chart{Type: excelize.Line, Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "Levels"}}},
		Series: []excelize.ChartSeries{{Name: "Readings!$C$1", Categories: "'Readings'!$A$2:$A$2", Values: "Readings!$C$2"}}}))
	must(f.AddComment("Readings", excelize.Comment{Author: "Ada Lovelace", Cell: "B2", Paragraph: []excelize.RichTextRun{
		{Text: "Ada Lovelace:", Font: &excelize.Font{Bold: true}}, {Text: "\nRecheck the gauge."}}}))
	_, err := f.NewSheet("Notes")
	must(err)
	must(f.SetCellValue("Notes", "A1", "Remarks"))
	must(f.AddComment("Notes", excelize.Comment{Author: "tc={T1}", Cell: "A1", Text: "[Threaded comment] Your version of Excel allows you to read this threaded comment."}))
	var b bytes.Buffer
	must(f.Write(&b))
	threaded := `<?xml version="1.0" encoding="UTF-8"?><ThreadedComments xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments">` +
		`<threadedComment ref="A1" dT="2026-01-01T00:00:00.00" personId="{P1}" id="{T1}"><text>Move this to the report.</text></threadedComment>` +
		`<threadedComment ref="A1" dT="2026-01-02T00:00:00.00" personId="{P2}" id="{T2}" parentId="{T1}"><text>Moved.</text></threadedComment></ThreadedComments>`
	persons := `<?xml version="1.0" encoding="UTF-8"?><personList xmlns="http://schemas.microsoft.com/office/spreadsheetml/2018/threadedcomments">` +
		`<person displayName="Grace Hopper" id="{P1}" userId="g" providerId="None"/><person displayName="Alan Turing" id="{P2}" userId="t" providerId="None"/></personList>`
	return rezip(t, b.Bytes(), map[string]func(string) string{
		"xl/charts/chart1.xml": func(string) string { return chartXML },
		"xl/worksheets/_rels/sheet2.xml.rels": func(s string) string {
			return strings.Replace(s, "</Relationships>", `<Relationship Id="rIdT" Type="http://schemas.microsoft.com/office/2017/10/relationships/threadedComment" Target="../threadedComments/threadedComment1.xml"/></Relationships>`, 1)
		},
		"xl/_rels/workbook.xml.rels": func(s string) string {
			return strings.Replace(s, "</Relationships>", `<Relationship Id="rIdP" Type="http://schemas.microsoft.com/office/2017/10/relationships/person" Target="persons/person.xml"/></Relationships>`, 1)
		},
		"xl/threadedComments/threadedComment1.xml": func(string) string { return threaded },
		"xl/persons/person.xml":                    func(string) string { return persons },
	})
}

// rezip rewrites a zip archive's entries through edit (an entry it does
// not hold is added).
func rezip(t *testing.T, raw []byte, edit map[string]func(string) string) []byte {
	t.Helper()
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		t.Fatal(err)
	}
	var entries []doctexttest.Entry
	seen := map[string]bool{}
	for _, f := range zr.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(rc)
		rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		body := string(b)
		if fn := edit[f.Name]; fn != nil {
			body = fn(body)
		}
		seen[f.Name] = true
		entries = append(entries, doctexttest.Entry{Name: f.Name, Body: doctexttest.S(body)})
	}
	for name, fn := range edit {
		if !seen[name] {
			entries = append(entries, doctexttest.Entry{Name: name, Body: doctexttest.S(fn(""))})
		}
	}
	return doctexttest.Zip(entries...)
}

// Pictures read as their alt text and charts as their titles and series
// at their place, and comments close their page under CommentsHeading
// with their authors, in DOCX, PPTX and XLSX.
func TestPicturesChartsComments(t *testing.T) {
	chart := strings.Join(chartBlocks, "\n")
	h := doctext.CommentsHeading
	tests := []struct {
		name, kind string
		raw        []byte
		pages      []string
	}{
		{"docx", format.DOCX, objectsDOCX(), []string{"Before the figure.\nHeron A heron standing in reeds\nBetween.\n" + chart +
			"\nCell | A small map\nAfter the chart.\n" + h + "\nAda Lovelace: Check the heron count.\nGrace Hopper: Agreed, twice."}},
		{"pptx", format.PPTX, objectsPPTX(), []string{
			"Findings\nA map of the river basin\nThe chart below:\n" + chart + "\n" + h + "\nAda Lovelace: Use the 2024 survey.",
			"Next steps\nSurvey the delta.\n" + h + "\nGrace Hopper: Who surveys it?\nAlan Turing: Done in March."}},
		{"xlsx", format.XLSX, objectsXLSX(t), []string{
			"Readings\nSeason | North | South\nSpring | 41.5 | 38\nGauge at the weir\n" + chart + "\nLevels\nSpring\nSouth | 38\n" + h + "\nAda Lovelace: Recheck the gauge.",
			"Notes\nRemarks\n" + h + "\nGrace Hopper: Move this to the report.\nAlan Turing: Moved."}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, _ := canonical(t, tt.kind, tt.raw)
			pages := strings.Split(text, string(normalize.PageSeparator))
			if len(pages) != len(tt.pages) {
				t.Fatalf("%d pages, want %d:\n%s", len(pages), len(tt.pages), text)
			}
			for i := range pages {
				if pages[i] != tt.pages[i] {
					t.Errorf("page %d:\n got %q\nwant %q", i+1, pages[i], tt.pages[i])
				}
			}
		})
	}
}

// docs/contract.md names the marker of comments and the cell separator
// as this package writes them.
func TestContractNamesMarkers(t *testing.T) {
	doc, err := os.ReadFile("../../docs/contract.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{doctext.CommentsHeading, doctext.CellSeparator} {
		if !strings.Contains(string(doc), "`"+m+"`") {
			t.Errorf("docs/contract.md does not name %q", m)
		}
	}
}

// odfObjectDoc is an OpenDocument file of pictures and comments: its
// content.xml and the pages it reads as.
type odfObjectDoc struct {
	name, mimetype, kind, content string
	pages                         []string
}

// odfObjects are an ODT, an ODP and an ODS with a described picture and
// comments.
func odfObjects() []odfObjectDoc {
	annotation := func(author, text string) string {
		return `<office:annotation><dc:creator>` + author + `</dc:creator><dc:date>2026-01-01T00:00:00</dc:date><text:p>` + text + `</text:p></office:annotation>`
	}
	frame := `<draw:frame draw:name="Image1" xmlns:svg="urn:oasis:names:tc:opendocument:xmlns:svg-compatible:1.0"><draw:image/>` +
		`<svg:title>Heron</svg:title><svg:desc>A heron standing in reeds</svg:desc></draw:frame>`
	doc := func(body string) string {
		return `<?xml version="1.0" encoding="UTF-8"?><office:document-content ` + odfNS + `><office:body>` + body + `</office:body></office:document-content>`
	}
	return []odfObjectDoc{
		{"odt", "application/vnd.oasis.opendocument.text", format.ODT, doc(`<office:text><text:p>Before ` + annotation("Ada Lovelace", "Check the count.") + `the figure.</text:p>` +
			`<text:p>` + frame + `Figure 1: the heron</text:p><text:p>After.</text:p></office:text>`),
			[]string{"Before the figure.\nHeron A heron standing in reeds\nFigure 1: the heron\nAfter.\n" + doctext.CommentsHeading + "\nAda Lovelace: Check the count."}},
		{"odp", "application/vnd.oasis.opendocument.presentation", format.ODP, doc(`<office:presentation>` +
			`<draw:page draw:name="page1"><draw:frame presentation:class="title"><draw:text-box><text:p>Findings</text:p></draw:text-box></draw:frame>` + frame +
			annotation("Grace Hopper", "Use the 2024 survey.") + `<presentation:notes><draw:frame presentation:class="notes"><draw:text-box><text:p>Say it slowly.</text:p></draw:text-box></draw:frame></presentation:notes></draw:page>` +
			`<draw:page draw:name="page2"><draw:frame presentation:class="title"><draw:text-box><text:p>Next</text:p></draw:text-box></draw:frame></draw:page></office:presentation>`),
			[]string{"Findings\nHeron A heron standing in reeds\nSay it slowly.\n" + doctext.CommentsHeading + "\nGrace Hopper: Use the 2024 survey.", "Next"}},
		{"ods", "application/vnd.oasis.opendocument.spreadsheet", format.ODS, doc(`<office:spreadsheet><table:table table:name="Readings"><table:table-row>` +
			`<table:table-cell office:value-type="string"><text:p>Level</text:p>` + annotation("Ada Lovelace", "In metres.") + `</table:table-cell>` +
			`<table:table-cell office:value-type="float" office:value="1.8"><text:p>1.8</text:p></table:table-cell></table:table-row></table:table>` +
			`<table:table table:name="Empty"><table:table-row><table:table-cell><text:p>x</text:p></table:table-cell></table:table-row></table:table></office:spreadsheet>`),
			[]string{"Readings\nLevel | 1.8\n" + doctext.CommentsHeading + "\nAda Lovelace: In metres.", "Empty\nx"}},
	}
}

// odfFile writes d as a file and returns its bytes.
func odfFile(t *testing.T, d odfObjectDoc) []byte {
	t.Helper()
	out := filepath.Join(t.TempDir(), "doc."+d.kind)
	if err := writeODF(out, d.mimetype, d.content, ""); err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

// OpenDocument pictures read as their title and description at their
// place, and comments (office:annotation) close their page with their
// authors, in ODT, ODP and ODS.
func TestODFPicturesAndComments(t *testing.T) {
	tests := odfObjects()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, _ := canonical(t, tt.kind, odfFile(t, tt))
			if got := strings.Split(text, string(normalize.PageSeparator)); !slices.Equal(got, tt.pages) {
				t.Errorf("pages:\n got %q\nwant %q", got, tt.pages)
			}
		})
	}
}

// chartODT is an ODT of a chart object between two paragraphs, and an
// object that is not a chart (a formula).
func chartODT() []byte {
	chartNS := `xmlns:chart="urn:oasis:names:tc:opendocument:xmlns:chart:1.0" xmlns:xlink="http://www.w3.org/1999/xlink"`
	cell := func(v string) string {
		return `<table:table-cell office:value-type="float" office:value="` + v + `"><text:p>` + v + `</text:p></table:table-cell>`
	}
	label := func(v string) string {
		return `<table:table-cell office:value-type="string"><text:p>` + v + `</text:p></table:table-cell>`
	}
	chart := `<?xml version="1.0" encoding="UTF-8"?><office:document-content ` + odfNS + ` ` + chartNS + `><office:body><office:chart><chart:chart chart:class="chart:bar">` +
		`<chart:title><text:p>Rainfall</text:p></chart:title><chart:legend/><chart:plot-area>` +
		`<chart:axis chart:dimension="x"><chart:title><text:p>Season</text:p></chart:title><chart:categories/></chart:axis>` +
		`<chart:axis chart:dimension="y"><chart:title><text:p>Millimetres</text:p></chart:title></chart:axis>` +
		`<chart:series chart:values-cell-range-address="local-table.$B$2:.$B$3"/></chart:plot-area>` +
		`<table:table table:name="local-table"><table:table-header-columns><table:table-column/></table:table-header-columns>` +
		`<table:table-header-rows><table:table-row><table:table-cell><text:p/></table:table-cell>` + label("North") + label("South") + `</table:table-row></table:table-header-rows>` +
		`<table:table-rows><table:table-row>` + label("Spring") + cell("41.5") + cell("38") + `</table:table-row>` +
		`<table:table-row>` + label("Summer") + cell("12.3") + cell("9") + `</table:table-row></table:table-rows></table:table>` +
		`</chart:chart></office:chart></office:body></office:document-content>`
	content := `<?xml version="1.0" encoding="UTF-8"?><office:document-content ` + odfNS + ` ` + chartNS + `><office:body><office:text>` +
		`<text:p>Before.</text:p><text:p><draw:frame draw:name="Chart1"><draw:object xlink:href="./Object 1"/></draw:frame></text:p>` +
		`<text:p><draw:frame draw:name="Formula"><draw:object xlink:href="./Object 2"/></draw:frame>After.</text:p></office:text></office:body></office:document-content>`
	e := func(name, body string) doctexttest.Entry {
		return doctexttest.Entry{Name: name, Body: doctexttest.S(body)}
	}
	return doctexttest.Zip(e("mimetype", "application/vnd.oasis.opendocument.text"), e("content.xml", content), e("Object 1/content.xml", chart),
		e("Object 2/content.xml", `<math xmlns="http://www.w3.org/1998/Math/MathML"><mi>x</mi></math>`))
}

// An OpenDocument chart object reads as its titles, categories and one
// line per series at its place.
func TestODFChart(t *testing.T) {
	text, _ := canonical(t, format.ODT, chartODT())
	if want := "Before.\nRainfall\nSeason\nMillimetres\nSpring | Summer\nNorth | 41.5 | 12.3\nSouth | 38 | 9\nAfter."; text != want {
		t.Errorf("text:\n got %q\nwant %q", text, want)
	}
}

// A chart sheet is a page of its chart's data, read from the cells its
// formulas name when its part caches none.
func TestXLSXChartSheet(t *testing.T) {
	f := excelize.NewFile()
	defer f.Close()
	if err := f.SetSheetRow("Sheet1", "A1", &[]any{"Season", "North"}); err != nil {
		t.Fatal(err)
	}
	if err := f.SetSheetRow("Sheet1", "A2", &[]any{"Spring", 41.5}); err != nil {
		t.Fatal(err)
	}
	if err := f.AddChartSheet("Chart1", &excelize.Chart{Type: excelize.Col, Title: excelize.ChartTitle{Paragraph: []excelize.RichTextRun{{Text: "Levels"}}},
		Series: []excelize.ChartSeries{{Name: "Sheet1!$B$1", Categories: "Sheet1!$A$2", Values: "Sheet1!$B$2"}}}); err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := f.Write(&b); err != nil {
		t.Fatal(err)
	}
	text, res := canonical(t, format.XLSX, b.Bytes())
	pages := strings.Split(text, string(normalize.PageSeparator))
	if len(pages) != 2 || pages[1] != "Chart1\nLevels\nSpring\nNorth | 41.5" || res.PageNames[1] != "Chart1" {
		t.Errorf("pages %q named %q", pages, res.PageNames)
	}
}
