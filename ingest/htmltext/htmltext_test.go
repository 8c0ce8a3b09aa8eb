package htmltext

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"golang.org/x/net/html"

	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/normalize"
	"github.com/digestd/digestd/structure"
)

var update = flag.Bool("update", false, "regenerate testdata fixtures")

func readFixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestExtractArticle(t *testing.T) {
	res, err := Extract(readFixture(t, "article.html"), "text/html", "https://example.org/wald/winter?x=1")
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"Im Winter ruht der Wald, doch unter der Schneedecke geht das Leben weiter.",
		"Spuren im Schnee\nWer aufmerksam",
		"„Der Winter ist die ehrlichste Jahreszeit im Wald“, sagt eine Försterin.",
		"Reh: zwei schmale Hufe\nHase:",
		"Tier Spurlänge\nFuchs 5 cm",
		"Temperatur -5 °C\nSchnee 30 cm",
	}
	for _, w := range want {
		if !strings.Contains(res.Text, w) {
			t.Errorf("text lacks %q:\n%s", w, res.Text)
		}
	}
	notWant := []string{"Tracking", "color: red", "Politik", "Cookies", "versteckte", "unsichtbare", "Vorleser",
		"Teilen auf", "Bildagentur", "Ein verschneiter Waldweg", "Kommentar", "Wald im Sommer", "Das könnte Sie", "Seitenleiste", "Impressum", "JavaScript", "Abo"}
	for _, w := range notWant {
		if strings.Contains(res.Text, w) {
			t.Errorf("text has boilerplate %q:\n%s", w, res.Text)
		}
	}
	if res.Text != normalize.Blocks(res.Blocks) {
		t.Error("Text is not normalize.Blocks(Blocks)")
	}
	wantMeta := Metadata{
		Title: "Der Wald im Winter | Waldzeitung", Author: "Erika Muster", Published: "2021-01-05T08:00:00Z",
		Language: "de", CanonicalURL: "https://example.org/wald/winter", SiteName: "Waldzeitung",
	}
	if res.Meta != wantMeta {
		t.Errorf("meta = %+v\nwant   %+v", res.Meta, wantMeta)
	}
	if res.Charset != "utf-8" {
		t.Errorf("charset = %q", res.Charset)
	}
}

func TestExtractJSONLD(t *testing.T) {
	res, err := Extract(readFixture(t, "jsonld.html"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	want := Metadata{Title: "Headline & more", Author: "Ann Author, Bob Writer", Published: "2020-02-03", SiteName: "Example News"}
	if res.Meta != want {
		t.Errorf("meta = %+v, want %+v", res.Meta, want)
	}
	if !strings.Contains(res.Text, "The body of a short news article") {
		t.Errorf("text = %q", res.Text)
	}
}

func TestCharsets(t *testing.T) {
	const want = "Grüße aus Köln: Straße, Bäcker, Öfen – « naïve » déjà vu, 50 € für den Kuchen."
	tests := []struct {
		file, contentType, charset string
	}{
		{"cp1252-sniffed.html", "", "windows-1252"},
		{"cp1252-meta.html", "", "windows-1252"},
		{"cp1252-header.html", "text/html; charset=ISO-8859-1", "windows-1252"},
		{"utf8-bom.html", "text/html; charset=windows-1252", "utf-8"},
		{"utf8-meta-late.html", "", "utf-8"},
	}
	for _, tt := range tests {
		res, err := Extract(readFixture(t, tt.file), tt.contentType, "")
		if err != nil {
			t.Errorf("%s: %v", tt.file, err)
			continue
		}
		if res.Charset != tt.charset || res.Text != want {
			t.Errorf("%s: charset %q text %q, want %q %q", tt.file, res.Charset, res.Text, tt.charset, want)
		}
	}
}

func TestEntitiesDecodedOnce(t *testing.T) {
	res, err := Extract([]byte("<p>Use &amp;lt;b&amp;gt; for bold &amp; &lt;i&gt; for italics, said the style guide of the site.</p>"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if want := "Use &lt;b&gt; for bold & <i> for italics, said the style guide of the site."; res.Text != want {
		t.Errorf("text = %q, want %q", res.Text, want)
	}
}

func TestListPageYieldsText(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><body><h1>Archive</h1><ul>")
	for _, s := range []string{"First post about trees", "Second post about rivers", "Third post about hills"} {
		b.WriteString(`<li><a href="/p">` + s + "</a></li>")
	}
	b.WriteString("</ul></body></html>")
	res, err := Extract([]byte(b.String()), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if res.Text == "" {
		t.Error("a list page gave no text")
	}
}

func TestErrors(t *testing.T) {
	tests := []struct {
		name string
		raw  []byte
		want error
	}{
		{"empty", nil, ErrNotHTML},
		{"blank", []byte(" \n\t "), ErrNotHTML},
		{"png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), ErrNotHTML},
		{"pdf", []byte("%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj"), ErrNotHTML},
		{"gzip", []byte("\x1f\x8b\x08\x00\x00\x00\x00\x00"), ErrNotHTML},
		{"too large", bytes.Repeat([]byte("a"), MaxInputBytes+1), ErrTooLarge},
	}
	for _, tt := range tests {
		if _, err := Extract(tt.raw, "", ""); !errors.Is(err, tt.want) {
			t.Errorf("%s: err = %v, want %v", tt.name, err, tt.want)
		}
	}
}

func TestHostileInput(t *testing.T) {
	para := "<p>Real text that should survive hostile markup around it, with enough words to count.</p>"
	tests := []struct {
		name, doc, want string
	}{
		{"deep divs", strings.Repeat("<div>", 100000) + para, "Real text that should survive"},
		{"deep formatting", strings.Repeat("<b>", 100000) + para, "Real text that should survive"},
		{"deep tables", strings.Repeat("<table><tr><td>", 30000) + para, "Real text that should survive"},
		{"huge attribute", `<div class="` + strings.Repeat("x", 1<<20) + `" style="` + strings.Repeat("display:block;", 50000) + `">` + para + "</div>", "Real text that should survive"},
		{"invalid utf-8", "<p>Caf\xe9 \xff\xfe broken bytes in an otherwise fine paragraph of some length.</p>", "broken bytes"},
	}
	for _, tt := range tests {
		start := time.Now()
		res, err := Extract([]byte(tt.doc), "", "")
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		// Generous: only quadratic behaviour (minutes on these sizes) fails.
		if d := time.Since(start); d > 20*time.Second {
			t.Errorf("%s: took %v", tt.name, d)
		}
		if !strings.Contains(res.Text, tt.want) {
			t.Errorf("%s: text %.200q lacks %q", tt.name, res.Text, tt.want)
		}
	}
}

func TestDeterministic(t *testing.T) {
	raw := readFixture(t, "article.html")
	first, err := Extract(raw, "", "")
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 5; i++ {
		again, _ := Extract(raw, "", "")
		if again.Text != first.Text || again.Meta != first.Meta {
			t.Fatal("output differs between runs")
		}
	}
}

func FuzzExtract(f *testing.F) {
	for _, name := range []string{"article.html", "jsonld.html", "cp1252-meta.html", "utf8-bom.html"} {
		f.Add(readFixture(f, name), "")
	}
	f.Add([]byte("<div><p>a<table><tr><td>b</div>c</p>"), "text/html; charset=shift_jis")
	f.Add([]byte("\xfe\xff\x00<\x00p\x00>"), "")
	f.Fuzz(func(t *testing.T, raw []byte, contentType string) {
		res, err := Extract(raw, contentType, "http://example.org/")
		if err != nil {
			if !errors.Is(err, ErrNotHTML) && !errors.Is(err, ErrTooLarge) {
				t.Fatalf("unexpected error %v", err)
			}
			return
		}
		if res.Text != normalize.Canonical(res.Text) {
			t.Fatalf("text is not canonical: %q", res.Text)
		}
	})
}

// BenchmarkExtractTrafilatura extracts every page of the trafilatura set on
// one goroutine, charset decoding and parsing included.
func BenchmarkExtractTrafilatura(b *testing.B) {
	pages := loadPages(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range pages {
			if _, err := Extract(p, "", ""); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(pages))/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkExtractLinksTrafilatura is BenchmarkExtractTrafilatura with
// the pages' links read as ingest reads them after extracting (PageLinks,
// resolved and listed once by structure.Outside): what a web page costs
// the service, beside what its text costs.
func BenchmarkExtractLinksTrafilatura(b *testing.B) {
	pages := loadPages(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range pages {
			res, err := Extract(p, "", "")
			if err != nil {
				b.Fatal(err)
			}
			structure.Outside(res.PageLinks(), "https://example.org/a/page.html", nil)
		}
	}
	b.ReportMetric(float64(b.N*len(pages))/b.Elapsed().Seconds(), "docs/s")
}

// BenchmarkDecodeParseTrafilatura is the baseline: charset decoding and
// parsing alone, on the same pages.
func BenchmarkDecodeParseTrafilatura(b *testing.B) {
	pages := loadPages(b)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, p := range pages {
			decoded, _ := decode(p, "")
			if _, err := html.Parse(bytes.NewReader(decoded)); err != nil {
				b.Fatal(err)
			}
		}
	}
	b.ReportMetric(float64(b.N*len(pages))/b.Elapsed().Seconds(), "docs/s")
}

func loadPages(b *testing.B) [][]byte {
	dir := filepath.Join(sharedData(b), "extract-html-trafilatura")
	cases, err := evaluate.ReadExtractCases(dir)
	if err != nil {
		b.Fatal(err)
	}
	var pages [][]byte
	for _, c := range cases {
		raw, err := evaluate.ReadCaseFile(dir, c.File)
		if err != nil {
			b.Fatal(err)
		}
		pages = append(pages, raw)
	}
	_ = context.Background
	return pages
}

// readDeclarations reads a page's declarations in one walk as the
// selectors it replaced did: the first <title>, <html lang> and canonical
// link, the first <meta> of each name; the metadata reads JSON-LD scripts
// of type exactly application/ld+json, the page checks also those typed
// in another case or spacing, and a script both read is decoded once.
func TestReadDeclarations(t *testing.T) {
	page := `<html lang="de"><head><title>First</title><title>Second</title>
<meta name="Author" content=" Ann "><meta property="author" content="Bob"><meta name="date">
<link rel="canonicalx" href="/x"><link rel="alternate  canonical" href="/a"><link rel="canonical" href="/b">
<script type="application/ld+json">{"@type":"NewsArticle","headline":"Exact"}</script>
<script type="Application/LD+JSON ">{"@type":"Product","name":"Loose"}</script>
<script type="application/ld+json">not json</script>
</head><body><svg><title>Icon</title></svg></body></html>`
	doc, err := parse([]byte(page))
	if err != nil {
		t.Fatal(err)
	}
	d := readDeclarations(doc)
	if got := nodeText(d.title); got != "First" {
		t.Errorf("title %q, want the first", got)
	}
	if d.lang != "de" || d.canonical != "/a" {
		t.Errorf("lang %q canonical %q, want de and the first link whose rel holds canonical", d.lang, d.canonical)
	}
	if d.meta["author"] != "Ann" || len(d.meta) != 1 {
		t.Errorf("meta %q, want only author Ann", d.meta)
	}
	if len(d.metaLD) != 1 || len(d.pageLD) != 2 {
		t.Fatalf("%d scripts for the metadata and %d for the page checks, want 1 and 2", len(d.metaLD), len(d.pageLD))
	}
	if reflect.ValueOf(d.metaLD[0]).UnsafePointer() != reflect.ValueOf(d.pageLD[0]).UnsafePointer() {
		t.Error("a script both read is decoded twice")
	}
	m, article := d.metadata("https://example.org/p")
	if m.Title != "Exact" || m.CanonicalURL != "https://example.org/a" || !article {
		t.Errorf("metadata %+v, article %v", m, article)
	}
}
