package doctext_test

import (
	"bufio"
	"context"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/charset"
	"github.com/digestd/digestd/ingest/doctext/doctexttest"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/ingest/htmltext"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/ocr/ocrtest"
	"github.com/digestd/digestd/ingest/pdftext"
	"github.com/digestd/digestd/normalize"
	"golang.org/x/text/encoding/charmap"
)

// formatsDoc is the table of what each kind reads as.
const formatsDoc = "../../docs/formats.md"

// formatRow is a row of the table: the kind and part, what digestd does
// ("reads…" or "no"), the fixture and the text it finds (or not).
type formatRow struct {
	kind, part, digestd, fixture, text string
}

// cells splits a Markdown table row at the pipes that are not escaped,
// and unescapes the others.
func cells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	var out []string
	var b strings.Builder
	for i := 0; i < len(line); i++ {
		switch {
		case line[i] == '\\' && i+1 < len(line) && line[i+1] == '|':
			b.WriteByte('|')
			i++
		case line[i] == '|':
			out = append(out, strings.TrimSpace(b.String()))
			b.Reset()
		default:
			b.WriteByte(line[i])
		}
	}
	return append(out, strings.TrimSpace(b.String()))
}

// formatRows reads the table of docs/formats.md.
func formatRows(t *testing.T) []formatRow {
	t.Helper()
	f, err := os.Open(formatsDoc)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var rows []formatRow
	var header []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if !strings.HasPrefix(line, "|") {
			header = nil
			continue
		}
		c := cells(line)
		switch {
		case header == nil:
			header = c
			want := []string{"Kind", "Part", "digestd", "Fixture", "Text", "MarkItDown", "docling"}
			if !slices.Equal(c, want) {
				t.Fatalf("table header %q, want %q", c, want)
			}
		case strings.HasPrefix(c[0], "---"):
		case len(c) != len(header):
			t.Errorf("row %q has %d cells, want %d", line, len(c), len(header))
		default:
			unquote := func(s string) string { return strings.TrimSuffix(strings.TrimPrefix(s, "`"), "`") }
			rows = append(rows, formatRow{c[0], c[1], c[2], unquote(c[3]), unquote(c[4])})
		}
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return rows
}

// formatFixtures are the fixtures the table names that the test writes,
// by the file each stands for.
var formatFixtures = map[string]func(t *testing.T) []byte{
	"objects.docx": func(*testing.T) []byte { return objectsDOCX() },
	"objects.pptx": func(*testing.T) []byte { return objectsPPTX() },
	"objects.xlsx": objectsXLSX,
	"diagram.docx": func(*testing.T) []byte { return diagramDOCX(diagramXML) },
	"diagram.pptx": func(*testing.T) []byte { return diagramPPTX(diagramXML) },
	"diagram.xlsx": diagramXLSX,
	"numbering.docx": func(*testing.T) []byte {
		numbering := `<w:abstractNum w:abstractNumId="0">` + level("0", "1", "decimal", "%1", "") + level("1", "1", "decimal", "%1.%2", "") + `</w:abstractNum>` +
			`<w:num w:numId="1"><w:abstractNumId w:val="0"/></w:num>`
		return wordDOCX(numbered("", "1", "0", "Introduction")+numbered("", "1", "1", "Purpose")+numbered("", "1", "1", "Scope"), numbering, "")
	},
	"equation.docx": func(*testing.T) []byte {
		return wordDOCX(`<w:p><m:oMathPara><m:oMath><m:r><m:t>A=π</m:t></m:r><m:sSup><m:e><m:r><m:t>r</m:t></m:r></m:e><m:sup><m:r><m:t>2</m:t></m:r></m:sup></m:sSup></m:oMath></m:oMathPara></w:p>`, "", "")
	},
	"objects.odt": func(t *testing.T) []byte { return odfFile(t, odfObjects()[0]) },
	"chart.odt":   func(*testing.T) []byte { return chartODT() },
	"numbered.odt": func(*testing.T) []byte {
		outline := `<text:outline-style style:name="Outline">` + odfLevel("outline-level-style", 1, `style:num-format="1"`) +
			odfLevel("outline-level-style", 2, `style:num-format="1" text:display-levels="2"`) + `</text:outline-style>`
		body := `<text:h text:outline-level="1">Introduction</text:h><text:h text:outline-level="2">Scope</text:h><text:h text:outline-level="2">Terms</text:h>`
		return numberedODT(body, "", outline)
	},
	"scan.png": func(*testing.T) []byte {
		return ocrtest.PNG(ocrtest.Page(1200, 40, "Groundwater levels fell in every well of the valley."))
	},
	"latin1.txt": func(t *testing.T) []byte {
		raw, err := charmap.ISO8859_1.NewEncoder().String("Café près de la forêt, où l'été dure. Le château est fermé depuis l'été dernier, et la boulangère a quitté le village.\n")
		if err != nil {
			t.Fatal(err)
		}
		return []byte(raw)
	},
}

// formatFixture returns a fixture's kind and bytes: a file of this
// package's testdata ("devset/…"), of another package's
// ("htmltext/…", "pdftext/…"), or one formatFixtures writes.
func formatFixture(t *testing.T, name string) (string, []byte) {
	t.Helper()
	kind := format.KindOfName(path.Base(name))
	if gen := formatFixtures[name]; gen != nil {
		return kind, gen(t)
	}
	dir, file, ok := strings.Cut(name, "/")
	if !ok {
		t.Fatalf("fixture %q: no such file, and the test writes none of that name", name)
	}
	p := filepath.Join("testdata", dir, file)
	if dir != "devset" {
		p = filepath.Join("..", dir, "testdata", file)
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatalf("fixture %q: %v", name, err)
	}
	return kind, raw
}

// readAs converts raw of kind as digestd does, into its text.
func readAs(t *testing.T, kind string, raw []byte) string {
	t.Helper()
	switch {
	case slices.Contains(format.Documents, kind):
		text, _ := canonical(t, kind, raw)
		return text
	case kind == format.HTML:
		res, err := htmltext.Extract(raw, "text/html", "")
		if err != nil {
			t.Fatal(err)
		}
		return res.Text
	case kind == format.PDF:
		res, err := pdftext.Extract(raw, pdftext.Limits{})
		if err != nil {
			t.Fatal(err)
		}
		return normalize.Canonical(strings.Join(res.Pages, string(normalize.PageSeparator)))
	case kind == format.Image:
		pages, err := ocrtest.Engine(t).ReadImage(context.Background(), raw, []string{"eng"}, ocr.Limits{MemoryBytes: 1 << 30, CPUSeconds: 20}, 1)
		if err != nil {
			t.Fatal(err)
		}
		var texts []string
		for _, p := range pages {
			texts = append(texts, p.Text)
		}
		return normalize.Canonical(strings.Join(texts, string(normalize.PageSeparator)))
	case kind == format.Text:
		dec, err := charset.Decode(raw, charset.Hints{})
		if err != nil {
			t.Fatal(err)
		}
		return normalize.Canonical(string(dec.UTF8))
	}
	t.Fatalf("kind %q: the test converts no file of it", kind)
	return ""
}

// docs/formats.md says what digestd reads of each kind: every row's
// fixture, converted as digestd converts it, holds the row's text when
// the row says digestd reads it, and does not when it says no. Every
// kind digestd takes has a row.
func TestFormatsTable(t *testing.T) {
	rows := formatRows(t)
	kinds := map[string]bool{}
	for _, r := range rows {
		t.Run(r.kind+"/"+r.part, func(t *testing.T) {
			reads := strings.HasPrefix(r.digestd, "reads")
			if !reads && r.digestd != "no" {
				t.Fatalf("digestd cell %q: neither reads… nor no", r.digestd)
			}
			if r.text == "" {
				t.Fatal("no text to find")
			}
			kind, raw := formatFixture(t, r.fixture)
			kinds[kind] = true
			text := readAs(t, kind, raw)
			if found := strings.Contains(text, r.text); found != reads {
				t.Errorf("%s: found %q: %v, the table says %q; text:\n%s", r.fixture, r.text, found, r.digestd, text)
			}
		})
	}
	for _, k := range format.Kinds {
		if !kinds[k] && !t.Failed() {
			t.Errorf("kind %q has no row", k)
		}
	}
}

// odfStyleNS adds the style namespace to odfNS.
const odfStyleNS = odfNS + ` xmlns:style="urn:oasis:names:tc:opendocument:xmlns:style:1.0" xmlns:xml="http://www.w3.org/XML/1998/namespace"`

// odfLevel is a level of a list or outline style: element is the
// element's local name, attrs its other attributes.
func odfLevel(element string, level int, attrs string) string {
	return `<text:` + element + ` text:level="` + string(rune('0'+level)) + `" ` + attrs + `/>`
}

// numberedODT is an ODT of content.xml's body and automatic styles and
// styles.xml's styles.
func numberedODT(body, automatic, styles string) []byte {
	e := func(name, text string) doctexttest.Entry {
		return doctexttest.Entry{Name: name, Body: doctexttest.S(text)}
	}
	return doctexttest.Zip(
		e("mimetype", "application/vnd.oasis.opendocument.text"),
		e("styles.xml", `<?xml version="1.0" encoding="UTF-8"?><office:document-styles `+odfStyleNS+`><office:styles>`+styles+`</office:styles></office:document-styles>`),
		e("content.xml", `<?xml version="1.0" encoding="UTF-8"?><office:document-content `+odfStyleNS+`><office:automatic-styles>`+automatic+
			`</office:automatic-styles><office:body><office:text>`+body+`</office:text></office:body></office:document-content>`),
	)
}
