package ingest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/doctext/doctexttest"
	"github.com/digestd/digestd/ingest/fetch"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/render"
	"github.com/digestd/digestd/ingest/verdict"
)

// TestApplicationShellNeedsScripts: a page whose text only its scripts
// would write, and which says so, is refused with JS_REQUIRED, not
// digested as a notice.
func TestApplicationShellNeedsScripts(t *testing.T) {
	raw, err := os.ReadFile("htmltext/testdata/app-shell.html")
	if err != nil {
		t.Fatal(err)
	}
	_, err = (&Ingester{}).Ingest(context.Background(), Source{HTML: raw})
	var f *fault.Error
	if !errors.As(err, &f) || f.Code != fault.JSRequired || f.Details["rule"] != "js_notice" {
		t.Fatalf("application shell: err %v, want %s by js_notice", err, fault.JSRequired)
	}
}

// A page judged not to be content answers its verdict's code with the
// reason and rule in the details; a page of content keeps its verdict and
// extraction confidence in the record.
func TestVerdictFaults(t *testing.T) {
	tests := []struct {
		file   string
		code   fault.Code
		reason string
	}{
		{"challenge.html", fault.ContentBlocked, verdict.ReasonChallenge},
		{"consent.html", fault.ContentBlocked, verdict.ReasonConsent},
		{"login.html", fault.ContentBlocked, verdict.ReasonLogin},
		{"paywall.html", fault.ContentBlocked, verdict.ReasonPaywall},
		{"js_shell.html", fault.JSRequired, ""},
		{"react_shell.html", fault.JSRequired, ""},
		{"soft404.html", fault.NotContent, verdict.ReasonSoft404},
		{"empty.html", fault.NotContent, verdict.ReasonEmpty},
		{"ok_teaser.html", "", ""},
	}
	for _, tt := range tests {
		raw, err := os.ReadFile(filepath.Join("verdict/testdata", tt.file))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := (&Ingester{}).Ingest(context.Background(), Source{HTML: raw})
		if tt.code == "" {
			if err != nil || doc.Record.Verdict != string(verdict.Content) || doc.Record.ExtractionConfidence <= 0 || doc.Record.ExtractionConfidence > 1 {
				t.Errorf("%s: err %v, record verdict %q confidence %v", tt.file, err, doc.Record.Verdict, doc.Record.ExtractionConfidence)
			}
			continue
		}
		var f *fault.Error
		if !errors.As(err, &f) || f.Code != tt.code || f.Details["rule"] == nil {
			t.Errorf("%s: err %v, want %s with a rule", tt.file, err, tt.code)
			continue
		}
		if got, _ := f.Details["reason"].(string); got != tt.reason {
			t.Errorf("%s: reason %q, want %q", tt.file, got, tt.reason)
		}
	}
}

// pageRenderer renders every page as the same article, and counts the
// pages it was asked for.
type pageRenderer struct{ rendered []string }

func (r *pageRenderer) Render(_ context.Context, rawURL string) (*render.Page, error) {
	r.rendered = append(r.rendered, rawURL)
	html := "<html><body><main><h1>Tides</h1><p>Tides rise and fall twice a day because the Moon and the Sun pull the oceans, and the Earth turns beneath them.</p></main></body></html>"
	return &render.Page{HTML: []byte(html), URL: rawURL}, nil
}

func (r *pageRenderer) Version() string { return "Chrome/0" }

// With render "auto", a fetched page that is a shell its scripts fill
// (whichever rule judged it JS_REQUIRED) is rendered, and a page with its
// text, or an empty page without scripts, is read as fetched; with
// "never" the shell answers JS_REQUIRED with the rule that decided.
func TestRenderAutoRendersShells(t *testing.T) {
	srv := httptest.NewServer(http.FileServer(http.Dir("verdict/testdata")))
	defer srv.Close()
	for _, tt := range []struct {
		file     string
		rendered bool
		rule     string
	}{
		{"js_shell.html", true, "js_notice"},
		{"react_shell.html", true, "app_shell"},
		{"vue_shell.html", true, "app_shell"},
		{"angular_shell.html", true, "app_shell"},
		{"inline_shell.html", true, "app_shell"},
		{"ok_short_app.html", false, ""},
		{"empty_root.html", false, "empty"},
	} {
		r := &pageRenderer{}
		in := &Ingester{Fetcher: fetch.New(fetch.Config{AllowLoopback: []string{srv.Listener.Addr().String()}}), Renderer: r}
		doc, err := in.Ingest(context.Background(), Source{URL: srv.URL + "/" + tt.file, Render: RenderAuto})
		if got := len(r.rendered) > 0; got != tt.rendered || tt.rendered && (err != nil || !doc.Record.Rendered) {
			t.Errorf("%s with render auto: rendered %v (err %v), want %v", tt.file, got, err, tt.rendered)
		}
		_, err = in.Ingest(context.Background(), Source{URL: srv.URL + "/" + tt.file, Render: RenderNever})
		var f *fault.Error
		if rule := ""; errors.As(err, &f) {
			rule, _ = f.Details["rule"].(string)
			if rule != tt.rule {
				t.Errorf("%s with render never: rule %q, want %q", tt.file, rule, tt.rule)
			}
		} else if tt.rule != "" {
			t.Errorf("%s with render never: %v, want rule %q", tt.file, err, tt.rule)
		}
	}
}

// A URL that redirects in a loop is a page that is not content.
func TestRedirectLoopIsNotContent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, map[string]string{"/a": "/b", "/b": "/a"}[r.URL.Path], http.StatusFound)
	}))
	defer srv.Close()
	in := &Ingester{Fetcher: fetch.New(fetch.Config{AllowLoopback: []string{srv.Listener.Addr().String()}})}
	_, err := in.Ingest(context.Background(), Source{URL: srv.URL + "/a"})
	var f *fault.Error
	if !errors.As(err, &f) || f.Code != fault.NotContent || f.Details["reason"] != verdict.ReasonRedirectLoop {
		t.Fatalf("redirect loop: %v, want %s with reason %s", err, fault.NotContent, verdict.ReasonRedirectLoop)
	}
}

// A file source is read as the kind detection finds (or the kind given),
// each document kind into its record with the converter's name, and a
// presentation with its pages and their names.
func TestFileSources(t *testing.T) {
	in := &Ingester{}
	dir := "doctext/testdata/devset"
	for _, c := range []struct{ file, kind string }{
		{"report.docx", "docx"}, {"slides.pptx", "pptx"}, {"sheets.xlsx", "xlsx"}, {"report.odt", "odt"},
		{"slides.odp", "odp"}, {"sheets.ods", "ods"}, {"book.epub", "epub"}, {"report.md", "markdown"}, {"stations.csv", "csv"},
		{"report.json", "json"}, {"report.ipynb", "ipynb"}, {"feed.rss", "rss"}, {"feed.atom", "atom"}, {"book.xml", "xml"},
	} {
		raw, err := os.ReadFile(filepath.Join(dir, c.file))
		if err != nil {
			t.Fatal(err)
		}
		doc, err := in.Ingest(context.Background(), Source{File: raw, Name: c.file})
		if err != nil {
			t.Fatalf("%s: %v", c.file, err)
		}
		if doc.Record.Kind != c.kind || doc.Record.Extractor != doctext.ExtractorName {
			t.Errorf("%s: record %+v", c.file, doc.Record)
		}
		pages := strings.Count(doc.Text.String(), "\f") + 1
		if paged := format.Paginated(c.kind); paged != (doc.Record.PageCount > 0) || paged && (pages != doc.Record.PageCount || len(doc.Record.PageNames) != pages || len(doc.Record.PageOffsets) != pages) {
			t.Errorf("%s: %d pages in the text, record %d pages, names %q, offsets %v", c.file, pages, doc.Record.PageCount, doc.Record.PageNames, doc.Record.PageOffsets)
		}
	}
	if _, err := in.Ingest(context.Background(), Source{File: []byte("GIF89a\x01\x00\x01\x00")}); fault.CodeOf(err) != fault.UnsupportedContentType {
		t.Errorf("a GIF: %v", err)
	}
	// An image is read by OCR, which a server without an engine lacks.
	if _, err := in.Ingest(context.Background(), Source{File: []byte("\x89PNG\r\n\x1a\n\x00\x00")}); fault.CodeOf(err) != fault.FeatureDisabled || !strings.Contains(err.Error(), ocr.Install) {
		t.Errorf("a PNG without OCR: %v, want FEATURE_DISABLED saying how to install it", err)
	}
	if _, err := in.Ingest(context.Background(), Source{File: []byte("# Title\n\nSome words."), Kind: "markdown"}); err != nil {
		t.Errorf("given kind: %v", err)
	}
	if _, err := in.Ingest(context.Background(), Source{File: []byte("x"), Kind: "doc"}); fault.CodeOf(err) != fault.UnsupportedContentType {
		t.Errorf("unknown kind: %v", err)
	}
}

// A document converted in the calling process over a cap is TOO_LARGE,
// its message naming the cap once; an EPUB asked to explain itself
// returns the extractor's decisions on its chapters.
func TestInProcessDocuments(t *testing.T) {
	in := &Ingester{}
	_, err := in.Ingest(context.Background(), Source{File: doctexttest.BareMarkup(), Name: "x.docx"})
	if fault.CodeOf(err) != fault.TooLarge {
		t.Fatalf("bare markup: %v, want TOO_LARGE", err)
	}
	if s := err.Error(); strings.Count(s, "TOO_LARGE") != 1 || strings.Count(s, "XML tokens of markup") != 1 {
		t.Errorf("error %q: want TOO_LARGE and the cap once", s)
	}
	book := doctexttest.EPUB(doctexttest.Book{Chapters: []string{`<nav><a href="ch1.xhtml">Back</a></nav><p>Text.</p>`}})
	doc, err := in.Ingest(context.Background(), Source{File: book, Name: "b.epub", Explain: true})
	if err != nil {
		t.Fatal(err)
	}
	if doc.Trace == nil || len(doc.Trace.Decisions) == 0 || doc.Text.String() != "Text." {
		t.Errorf("text %q, trace %+v", doc.Text.String(), doc.Trace)
	}
}
