package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/doctext/doctexttest"
)

const explainPage = `<html><body>
<nav><a href="/">Home</a> <a href="/news">News</a> <a href="/about">About us</a></nav>
<article><h1>The harbour reopens</h1>
<p>The old harbour reopened on Monday after two years of repairs to its walls, which the storms of the last winters had broken in three places.</p>
<p>Fishing boats were the first to come back, followed by the ferry to the islands, which runs twice a day until the autumn.</p>
</article>
<footer>Copyright the harbour gazette</footer>
</body></html>`

// TestExtractExplain runs digestd extract --explain and --json on a page and
// holds the trace to the blocks removed and the text to what stays.
func TestExtractExplain(t *testing.T) {
	file := filepath.Join(t.TempDir(), "page.html")
	if err := os.WriteFile(file, []byte(explainPage), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, stderr bytes.Buffer
	if err := run(context.Background(), []string{"extract", "--explain", file}, strings.NewReader(""), &out, &stderr); err != nil {
		t.Fatalf("extract --explain: %v (%s)", err, stderr.String())
	}
	trace, text, ok := strings.Cut(out.String(), "--- text\n")
	if !ok {
		t.Fatalf("no text after the trace:\n%s", out.String())
	}
	for _, want := range []string{"drop          nav-aside-footer     nav chars=15 links=15", "nav-aside-footer     footer chars=", `"Copyright the harbour gazette"`} {
		if !strings.Contains(trace, want) {
			t.Errorf("trace lacks %q:\n%s", want, trace)
		}
	}
	if !strings.Contains(text, "The old harbour reopened") || strings.Contains(text, "Copyright") {
		t.Errorf("text:\n%s", text)
	}

	out.Reset()
	if err := run(context.Background(), []string{"extract", "--json", file}, strings.NewReader(""), &out, &stderr); err != nil {
		t.Fatalf("extract --json: %v (%s)", err, stderr.String())
	}
	var got struct {
		Text      string `json:"text"`
		Decisions []struct {
			Rule, Action, Element string
		} `json:"decisions"`
	}
	if err := json.Unmarshal(out.Bytes(), &got); err != nil {
		t.Fatal(err)
	}
	if got.Text+"\n" != text {
		t.Errorf("--json text %q differs from the plain output %q", got.Text, text)
	}
	found := false
	for _, d := range got.Decisions {
		found = found || d.Rule == "nav-aside-footer" && d.Action == "drop" && d.Element == "footer"
	}
	if !found {
		t.Errorf("--json decisions lack the footer's: %+v", got.Decisions)
	}
}

// TestExtractExplainEPUB runs digestd extract --explain on a book: its
// chapters are read by the rules of documents, in a worker process, and
// the trace names the navigation and running heads it left out.
func TestExtractExplainEPUB(t *testing.T) {
	file := filepath.Join(t.TempDir(), "book.epub")
	book := doctexttest.Book{Title: "The Harbour", Chapters: []string{
		`<p>The Harbour Gazette</p><h1>One</h1><p>The boats came back.</p><p>It includes:</p><ul><li>A bullet point</li><li>Another point</li></ul>`,
		`<p>The Harbour Gazette</p><nav><a href="ch1.xhtml">Back to one</a></nav><h1>Two</h1><p>The ferry runs twice a day.</p>`,
		`<p>The Harbour Gazette</p><h1>Three</h1><p>The walls hold.</p>`,
	}}
	if err := os.WriteFile(file, doctexttest.EPUB(book), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, stderr bytes.Buffer
	if err := run(context.Background(), []string{"extract", "--explain", file}, strings.NewReader(""), &out, &stderr); err != nil {
		t.Fatalf("extract --explain: %v (%s)", err, stderr.String())
	}
	trace, text, ok := strings.Cut(out.String(), "--- text\n")
	if !ok {
		t.Fatalf("no text after the trace:\n%s", out.String())
	}
	for _, want := range []string{"* document clean  drop          publisher-navigation nav", "* document page   drop          running-head         p chars=17", `"The Harbour Gazette"`} {
		if !strings.Contains(trace, want) {
			t.Errorf("trace lacks %q:\n%s", want, trace)
		}
	}
	if want := "Title: The Harbour\nOne\nThe boats came back.\nIt includes:\nA bullet point\nAnother point\nTwo\nThe ferry runs twice a day.\nThree\nThe walls hold.\n"; text != want {
		t.Errorf("text %q, want %q", text, want)
	}
}

// TestExtractMarkdown runs digestd extract --format markdown on a
// Markdown file: its headings, list and link come back as Markdown, and
// an unknown format is refused.
func TestExtractMarkdown(t *testing.T) {
	file := filepath.Join(t.TempDir(), "notes.md")
	if err := os.WriteFile(file, []byte("# Tides\n\n* Spring tides, see [the almanac](https://example.org/almanac)\n* Neap tides\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	var out, stderr bytes.Buffer
	if err := run(context.Background(), []string{"extract", "--format", "markdown", file}, strings.NewReader(""), &out, &stderr); err != nil {
		t.Fatalf("extract --format markdown: %v (%s)", err, stderr.String())
	}
	want := "# Tides\n\n- Spring tides, see [the almanac](https://example.org/almanac)\n\n- Neap tides\n"
	if out.String() != want {
		t.Errorf("got %q, want %q", out.String(), want)
	}
	if err := run(context.Background(), []string{"extract", "--format", "html", file}, strings.NewReader(""), &out, &stderr); err == nil {
		t.Error("--format html was taken")
	}
}
