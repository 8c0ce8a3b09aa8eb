package doctext_test

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"encoding/xml"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"
)

// generate rebuilds the dev set's documents from their Markdown sources:
// go test ./ingest/doctext -run TestGenerate -generate (needs pandoc).
var generate = flag.Bool("generate", false, "regenerate testdata/devset from testdata/devset/src (needs pandoc)")

const devset = "testdata/devset"

// devCase is one document of the dev set: its file, kind and the Markdown
// source it was made from.
type devCase struct {
	File, Kind, Source string
}

var devCases = []devCase{
	{"report.docx", "docx", "src/report.md"},
	{"report.odt", "odt", "src/report.md"},
	{"report.md", "markdown", "src/report.md"},
	{"slides.pptx", "pptx", "src/slides.md"},
	{"slides.odp", "odp", "src/slides.md"},
	{"book.epub", "epub", "src/book.md"},
	{"sheets.xlsx", "xlsx", "src/sheets.md"},
	{"sheets.ods", "ods", "src/sheets.md"},
	{"stations.csv", "csv", "src/stations.md"},
	{"report.json", "json", "src/report.md"},
	{"report.ipynb", "ipynb", "src/report.md"},
	{"feed.rss", "rss", "src/feed.md"},
	{"feed.atom", "atom", "src/feed.md"},
	{"book.xml", "xml", "src/book.md"},
}

// TestGenerate writes the dev set: pandoc makes DOCX, ODT, PPTX and EPUB
// from the Markdown sources (kept as they are where pandoc is missing),
// excelize the XLSX, and this file the ODP, ODS, CSV, JSON, notebook,
// feeds and XML; cases.jsonl lists them for digestd eval extract, each
// scored against its Markdown source.
func TestGenerate(t *testing.T) {
	if !*generate {
		t.Skip("run with -generate to rebuild the dev set")
	}
	for _, c := range devCases {
		out := filepath.Join(devset, c.File)
		src := filepath.Join(devset, c.Source)
		var err error
		switch c.Kind {
		case "docx", "odt", "pptx", "epub":
			if _, err := exec.LookPath("pandoc"); err != nil {
				t.Logf("%s kept as it is: no pandoc", c.File)
				continue
			}
			cmd := exec.Command("pandoc", "--standalone", src, "-o", out)
			var stderr bytes.Buffer
			cmd.Stderr = &stderr
			if err = cmd.Run(); err != nil {
				err = fmt.Errorf("pandoc: %v: %s", err, stderr.String())
			}
		case "markdown":
			err = copyFile(src, out)
		case "xlsx":
			err = writeXLSX(out, readTables(t, src))
		case "ods":
			err = writeODS(out, readTables(t, src))
		case "csv":
			err = writeCSV(out, readTables(t, filepath.Join(devset, "src/sheets.md"))[0])
		case "odp":
			title, slides := readSlides(t, src)
			err = writeODP(out, title, slides)
		case "json":
			err = writeJSON(out, readChunks(t, src))
		case "ipynb":
			err = writeNotebook(out, readChunks(t, src))
		case "rss", "atom":
			err = writeFeed(out, c.Kind, readChunks(t, src))
		case "xml":
			err = writeXMLBook(out, readChunks(t, src))
		}
		if err != nil {
			t.Fatalf("%s: %v", c.File, err)
		}
	}
	var b bytes.Buffer
	for _, c := range devCases {
		line, _ := json.Marshal(map[string]string{"id": strings.TrimSuffix(c.File, filepath.Ext(c.File)) + "-" + c.Kind, "kind": c.Kind, "file": c.File, "reference_file": c.Source})
		b.Write(append(line, '\n'))
	}
	if err := os.WriteFile(filepath.Join(devset, "cases.jsonl"), b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

func copyFile(from, to string) error {
	b, err := os.ReadFile(from)
	if err != nil {
		return err
	}
	return os.WriteFile(to, b, 0o644)
}

// table is a named table of a Markdown source: "# Name" then a pipe table.
type table struct {
	Name string
	Rows [][]string
}

func readTables(t *testing.T, src string) []table {
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var out []table
	for _, line := range strings.Split(string(b), "\n") {
		switch {
		case strings.HasPrefix(line, "# "):
			out = append(out, table{Name: strings.TrimPrefix(line, "# ")})
		case strings.HasPrefix(line, "|") && !strings.HasPrefix(line, "|-"):
			cells := strings.Split(strings.Trim(line, "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			out[len(out)-1].Rows = append(out[len(out)-1].Rows, cells)
		}
	}
	return out
}

// slide is one slide of a Markdown slide source.
type slide struct {
	Title   string
	Bullets []string
	Table   [][]string
	Notes   []string
}

func readSlides(t *testing.T, src string) (title string, slides []slide) {
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	inNotes := false
	for _, line := range strings.Split(string(b), "\n") {
		cur := func() *slide { return &slides[len(slides)-1] }
		switch {
		case strings.HasPrefix(line, "% ") && title == "":
			title = strings.TrimPrefix(line, "% ")
			slides = append(slides, slide{Title: title})
		case strings.HasPrefix(line, "% "):
			slides[0].Bullets = append(slides[0].Bullets, strings.TrimPrefix(line, "% "))
		case strings.HasPrefix(line, "# "):
			slides = append(slides, slide{Title: strings.TrimPrefix(line, "# ")})
		case line == "::: notes":
			inNotes = true
		case line == ":::":
			inNotes = false
		case inNotes && line != "":
			cur().Notes = append(cur().Notes, line)
		case strings.HasPrefix(line, "- "):
			cur().Bullets = append(cur().Bullets, strings.TrimPrefix(line, "- "))
		case strings.HasPrefix(line, "|") && !strings.HasPrefix(line, "|-"):
			cells := strings.Split(strings.Trim(line, "|"), "|")
			for i := range cells {
				cells[i] = strings.TrimSpace(cells[i])
			}
			cur().Table = append(cur().Table, cells)
		}
	}
	return title, slides
}

func writeXLSX(out string, tables []table) error {
	f := excelize.NewFile()
	defer f.Close()
	for i, tb := range tables {
		if i == 0 {
			if err := f.SetSheetName("Sheet1", tb.Name); err != nil {
				return err
			}
		} else if _, err := f.NewSheet(tb.Name); err != nil {
			return err
		}
		for r, row := range tb.Rows {
			cell, _ := excelize.CoordinatesToCellName(1, r+1)
			vals := make([]any, len(row))
			for j, v := range row {
				vals[j] = v
			}
			if err := f.SetSheetRow(tb.Name, cell, &vals); err != nil {
				return err
			}
		}
	}
	return f.SaveAs(out)
}

func writeCSV(out string, tb table) error {
	var b strings.Builder
	for _, row := range tb.Rows {
		for i, c := range row {
			if i > 0 {
				b.WriteByte(',')
			}
			if strings.ContainsAny(c, ",\"") {
				c = `"` + strings.ReplaceAll(c, `"`, `""`) + `"`
			}
			b.WriteString(c)
		}
		b.WriteString("\r\n")
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}

// esc escapes text for XML.
func esc(s string) string {
	var b bytes.Buffer
	xml.EscapeText(&b, []byte(s))
	return b.String()
}

const odfNS = `xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0" ` +
	`xmlns:table="urn:oasis:names:tc:opendocument:xmlns:table:1.0" xmlns:draw="urn:oasis:names:tc:opendocument:xmlns:drawing:1.0" ` +
	`xmlns:presentation="urn:oasis:names:tc:opendocument:xmlns:presentation:1.0" xmlns:dc="http://purl.org/dc/elements/1.1/" ` +
	`xmlns:meta="urn:oasis:names:tc:opendocument:xmlns:meta:1.0" office:version="1.3"`

func writeODS(out string, tables []table) error {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><office:document-content ` + odfNS + `><office:body><office:spreadsheet>`)
	for _, tb := range tables {
		fmt.Fprintf(&b, `<table:table table:name="%s">`, esc(tb.Name))
		for _, row := range tb.Rows {
			b.WriteString(`<table:table-row>`)
			for _, c := range row {
				fmt.Fprintf(&b, `<table:table-cell office:value-type="string"><text:p>%s</text:p></table:table-cell>`, esc(c))
			}
			// A spreadsheet pads its rows with repeated empty cells.
			b.WriteString(`<table:table-cell table:number-columns-repeated="1020"/></table:table-row>`)
		}
		b.WriteString(`<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="1024"/></table:table-row>`)
		b.WriteString(`</table:table>`)
	}
	b.WriteString(`</office:spreadsheet></office:body></office:document-content>`)
	return writeODF(out, "application/vnd.oasis.opendocument.spreadsheet", b.String(), "")
}

func writeODP(out string, title string, slides []slide) error {
	var b strings.Builder
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?><office:document-content ` + odfNS + `><office:body><office:presentation>`)
	for i, s := range slides {
		fmt.Fprintf(&b, `<draw:page draw:name="page%d">`, i+1)
		fmt.Fprintf(&b, `<draw:frame presentation:class="title"><draw:text-box><text:p>%s</text:p></draw:text-box></draw:frame>`, esc(s.Title))
		if len(s.Bullets) > 0 {
			b.WriteString(`<draw:frame presentation:class="outline"><draw:text-box><text:list>`)
			for _, x := range s.Bullets {
				fmt.Fprintf(&b, `<text:list-item><text:p>%s</text:p></text:list-item>`, esc(x))
			}
			b.WriteString(`</text:list></draw:text-box></draw:frame>`)
		}
		if len(s.Table) > 0 {
			b.WriteString(`<draw:frame><table:table>`)
			for _, row := range s.Table {
				b.WriteString(`<table:table-row>`)
				for _, c := range row {
					fmt.Fprintf(&b, `<table:table-cell><text:p>%s</text:p></table:table-cell>`, esc(c))
				}
				b.WriteString(`</table:table-row>`)
			}
			b.WriteString(`</table:table></draw:frame>`)
		}
		fmt.Fprintf(&b, `<draw:frame presentation:class="page-number"><draw:text-box><text:p>%d</text:p></draw:text-box></draw:frame>`, i+1)
		if len(s.Notes) > 0 {
			b.WriteString(`<presentation:notes><draw:page-thumbnail/><draw:frame presentation:class="notes"><draw:text-box>`)
			for _, n := range s.Notes {
				fmt.Fprintf(&b, `<text:p>%s</text:p>`, esc(n))
			}
			b.WriteString(`</draw:text-box></draw:frame></presentation:notes>`)
		}
		b.WriteString(`</draw:page>`)
	}
	b.WriteString(`</office:presentation></office:body></office:document-content>`)
	meta := `<?xml version="1.0" encoding="UTF-8"?><office:document-meta ` + odfNS + `><office:meta><dc:title>` + esc(title) + `</dc:title></office:meta></office:document-meta>`
	return writeODF(out, "application/vnd.oasis.opendocument.presentation", b.String(), meta)
}

// writeODF writes an OpenDocument package: the mimetype entry first and
// stored, a manifest, content.xml and meta.xml.
func writeODF(out, mimetype, content, meta string) error {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	mod := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	w, err := zw.CreateHeader(&zip.FileHeader{Name: "mimetype", Method: zip.Store, Modified: mod})
	if err != nil {
		return err
	}
	w.Write([]byte(mimetype))
	manifest := `<?xml version="1.0" encoding="UTF-8"?><manifest:manifest xmlns:manifest="urn:oasis:names:tc:opendocument:xmlns:manifest:1.0" manifest:version="1.3">` +
		`<manifest:file-entry manifest:full-path="/" manifest:media-type="` + mimetype + `"/>` +
		`<manifest:file-entry manifest:full-path="content.xml" manifest:media-type="text/xml"/>` +
		`<manifest:file-entry manifest:full-path="meta.xml" manifest:media-type="text/xml"/></manifest:manifest>`
	if meta == "" {
		meta = `<?xml version="1.0" encoding="UTF-8"?><office:document-meta ` + odfNS + `><office:meta/></office:document-meta>`
	}
	for _, e := range []struct{ name, body string }{{"META-INF/manifest.xml", manifest}, {"content.xml", content}, {"meta.xml", meta}} {
		w, err := zw.CreateHeader(&zip.FileHeader{Name: e.name, Method: zip.Deflate, Modified: mod})
		if err != nil {
			return err
		}
		w.Write([]byte(e.body))
	}
	if err := zw.Close(); err != nil {
		return err
	}
	return os.WriteFile(out, buf.Bytes(), 0o644)
}
