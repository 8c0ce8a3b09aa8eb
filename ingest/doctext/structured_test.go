package doctext_test

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/format"
)

// An RSS 2.0 feed reads as its channel's title and description, then one
// block per item in document order: title | date | link | summary, the
// summary's escaped HTML (or CDATA) taken apart into text.
func TestRSSFeed(t *testing.T) {
	in := `<?xml version="1.0" encoding="UTF-8"?>
<rss version="2.0" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:media="http://search.yahoo.com/mrss/">
<channel>
  <title>Harbour &amp; Coast News</title>
  <link>https://news.example/</link>
  <description>Daily notes from the lighthouse.</description>
  <image><title>Logo title</title><url>https://news.example/logo.png</url></image>
  <item>
    <title>Light automated</title>
    <link>https://news.example/light</link>
    <pubDate>Tue, 02 Jan 2024 10:00:00 GMT</pubDate>
    <media:title>Media title</media:title>
    <description>&lt;p&gt;The keeper &lt;b&gt;left&lt;/b&gt; in 1998.&lt;/p&gt;&lt;img src="x.png"&gt;</description>
  </item>
  <item>
    <title>Storm warning</title>
    <dc:date>2024-01-03</dc:date>
    <link>https://news.example/storm?a=1&amp;b=2</link>
    <description><![CDATA[Winds of <i>90 km/h</i> expected.]]></description>
  </item>
</channel>
</rss>`
	text, res := canonical(t, format.RSS, []byte(in))
	want := "Harbour & Coast News\nDaily notes from the lighthouse.\n" +
		"Light automated | Tue, 02 Jan 2024 10:00:00 GMT | https://news.example/light | The keeper left in 1998.\n" +
		"Storm warning | 2024-01-03 | https://news.example/storm?a=1&b=2 | Winds of 90 km/h expected."
	if text != want {
		t.Errorf("got %q\nwant %q", text, want)
	}
	if res.Title != "Harbour & Coast News" {
		t.Errorf("title %q", res.Title)
	}
}

// An Atom feed reads the same way: its title first even when written after
// an entry, each entry's published date (else updated), its alternate
// link's href (not rel="self"), its summary (else its content, XHTML
// content as text).
func TestAtomFeed(t *testing.T) {
	in := `<?xml version="1.0" encoding="utf-8"?>
<feed xmlns="http://www.w3.org/2005/Atom">
  <entry>
    <title type="html">Tides &amp;amp; currents</title>
    <link rel="self" href="https://tides.example/feed/1"/>
    <link href="https://tides.example/1"/>
    <updated>2024-02-02T00:00:00Z</updated>
    <published>2024-02-01T00:00:00Z</published>
    <summary>Spring tides peak this week.</summary>
  </entry>
  <title>Tide Tables</title>
  <subtitle type="html">&lt;em&gt;Every&lt;/em&gt; port</subtitle>
  <entry>
    <title>Neap tides</title>
    <link rel="alternate" href="https://tides.example/2"/>
    <updated>2024-02-09T00:00:00Z</updated>
    <content type="xhtml"><div xmlns="http://www.w3.org/1999/xhtml"><p>Low range <b>today</b>.</p></div></content>
  </entry>
</feed>`
	text, _ := canonical(t, format.Atom, []byte(in))
	want := "Tide Tables\nEvery port\n" +
		"Tides & currents | 2024-02-01T00:00:00Z | https://tides.example/1 | Spring tides peak this week.\n" +
		"Neap tides | 2024-02-09T00:00:00Z | https://tides.example/2 | Low range today."
	if text != want {
		t.Errorf("got %q\nwant %q", text, want)
	}
}

// An RSS 1.0 (RDF) feed, whose items are outside its channel, reads as
// RSS 2.0 does.
func TestRSS1Feed(t *testing.T) {
	in := `<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#" xmlns="http://purl.org/rss/1.0/" xmlns:dc="http://purl.org/dc/elements/1.1/">
<channel rdf:about="https://x.example/"><title>Survey</title><description>Field notes.</description>
<items><rdf:Seq><rdf:li resource="https://x.example/a"/></rdf:Seq></items></channel>
<item rdf:about="https://x.example/a"><title>Gulls counted</title><link>https://x.example/a</link><dc:date>2023-05-01</dc:date><description>412 gulls.</description></item>
</rdf:RDF>`
	text, _ := canonical(t, format.RSS, []byte(in))
	if want := "Survey\nField notes.\nGulls counted | 2023-05-01 | https://x.example/a | 412 gulls."; text != want {
		t.Errorf("got %q\nwant %q", text, want)
	}
}

// A Jupyter notebook reads as its cells in order: markdown cells as
// Markdown, code cells line by line followed by their outputs' text
// (stream text, text/plain results, an error's name and value), never an
// image's base64.
func TestNotebook(t *testing.T) {
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\nnot really an image"))
	nb := map[string]any{
		"nbformat": 4, "nbformat_minor": 5, "metadata": map[string]any{"kernelspec": map[string]any{"name": "python3"}},
		"cells": []any{
			map[string]any{"cell_type": "markdown", "metadata": map[string]any{}, "source": []string{"# Tide model\n", "\n", "It uses:\n", "\n", "- the harmonic method\n", "- &amp; a &lt;table&gt;"}},
			map[string]any{"cell_type": "code", "execution_count": 1, "metadata": map[string]any{}, "source": "import tides\nprint(tides.peak())",
				"outputs": []any{
					map[string]any{"output_type": "stream", "name": "stdout", "text": []string{"peak at 14:02\n", "range 3.1 m\n"}},
					map[string]any{"output_type": "execute_result", "execution_count": 1, "metadata": map[string]any{},
						"data": map[string]any{"text/plain": []string{"<Figure size 640x480>"}, "image/png": png, "text/html": "<b>html</b>"}},
					map[string]any{"output_type": "display_data", "metadata": map[string]any{}, "data": map[string]any{"image/png": png}},
				}},
			map[string]any{"cell_type": "code", "execution_count": 2, "metadata": map[string]any{}, "source": []string{"1/0"},
				"outputs": []any{map[string]any{"output_type": "error", "ename": "ZeroDivisionError", "evalue": "division by zero", "traceback": []string{"\x1b[0;31mTraceback\x1b[0m"}}}},
			map[string]any{"cell_type": "raw", "metadata": map[string]any{}, "source": "raw notes"},
		},
	}
	raw, err := json.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	if k := format.Detect("", "model.ipynb", raw); k != format.Notebook {
		t.Fatalf("detected as %q", k)
	}
	text, _ := canonical(t, format.Notebook, raw)
	want := "Tide model\nIt uses:\nthe harmonic method\n& a <table>\nimport tides\nprint(tides.peak())\npeak at 14:02\nrange 3.1 m\n<Figure size 640x480>\n1/0\nZeroDivisionError: division by zero\nraw notes"
	if text != want {
		t.Errorf("got %q\nwant %q", text, want)
	}
}

// JSON reads as its string values in document order, each paragraph of a
// string one block; keys, numbers, booleans and nulls are no text. A
// stream of values (JSON Lines) reads value after value.
func TestJSON(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"api response", `{"id": 7, "ok": true, "title": "Harbour report", "tags": ["tides", "storms"], "author": {"name": "A. Keeper", "age": null},
			"body": "First paragraph,\nstill first.\n\nSecond paragraph."}`,
			"Harbour report\ntides\nstorms\nA. Keeper\nFirst paragraph, still first.\nSecond paragraph."},
		{"keys are not text", `{"only keys": {"nested key": 1, "other": [2, 3.5, false]}}`, ""},
		{"escapes", `["caf\u00e9 \"quoted\"", "tab\there"]`, "café \"quoted\"\ntab here"},
		{"json lines", "{\"msg\": \"one\"}\n{\"msg\": \"two\"}\n", "one\ntwo"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, _ := canonical(t, format.JSON, []byte(tt.in))
			if text != tt.want {
				t.Errorf("got %q\nwant %q", text, tt.want)
			}
		})
	}
}

// XML that is no feed reads as its text nodes in document order: a run of
// text with the elements inside it is one block, elements apart are
// blocks apart; attributes, comments and processing instructions are no
// text.
func TestPlainXML(t *testing.T) {
	in := `<?xml version="1.0" encoding="ISO-8859-1"?>
<!DOCTYPE catalog SYSTEM "catalog.dtd">
<catalog lang="en">
  <!-- a comment -->
  <book id="b1"><title>Tides</title><author>A. Keeper</author></book>
  <book id="b2">
    <title>Storms &amp; Gulls</title>
    <abstract>A <em>short</em> study of <![CDATA[<birds>]]>.</abstract>
  </book>
  <?render fast?>
</catalog>`
	text, _ := canonical(t, format.XML, []byte(in))
	if want := "Tides\nA. Keeper\nStorms & Gulls\nA short study of <birds>."; text != want {
		t.Errorf("got %q\nwant %q", text, want)
	}
}

// Hostile JSON, notebooks, feeds and XML fail fast with the error of the
// bound they pass: nesting past MaxXMLDepth, tokens past MaxXMLTokens, a
// "billion laughs" entity declaration; malformed input is unreadable.
func TestStructuredHostile(t *testing.T) {
	laughs := `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol">` +
		`<!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">` +
		`<!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">]>`
	tests := []struct {
		name, kind, in string
		lim            doctext.Limits
		want           error
	}{
		{"deep json", format.JSON, strings.Repeat("[", 100000) + strings.Repeat("]", 100000), doctext.Limits{}, doctext.ErrTooLarge},
		{"huge json array", format.JSON, "[" + strings.Repeat(`"x",`, 200000) + `"x"]`, doctext.Limits{MaxXMLTokens: 100000}, doctext.ErrTooLarge},
		{"json text past the cap", format.JSON, `["` + strings.Repeat("word ", 2000) + `"]`, doctext.Limits{MaxChars: 1000}, doctext.ErrTooLarge},
		{"broken json", format.JSON, `{"a": "b"`, doctext.Limits{}, doctext.ErrUnreadable},
		{"deep notebook", format.Notebook, `{"nbformat": 4, "cells": [], "metadata": ` + strings.Repeat(`{"a":`, 20000) + "1" + strings.Repeat("}", 20000) + "}", doctext.Limits{}, doctext.ErrUnreadable},
		{"broken notebook", format.Notebook, `{"cells": "no", "nbformat": 4}`, doctext.Limits{}, doctext.ErrUnreadable},
		{"deep xml", format.XML, strings.Repeat("<a>", 100000) + strings.Repeat("</a>", 100000), doctext.Limits{}, doctext.ErrTooLarge},
		{"many xml tokens", format.XML, "<r>" + strings.Repeat("<a/>", 100000) + "</r>", doctext.Limits{MaxXMLTokens: 10000}, doctext.ErrTooLarge},
		{"billion laughs in xml", format.XML, laughs + `<lolz>&lol2;</lolz>`, doctext.Limits{}, doctext.ErrUnreadable},
		{"billion laughs in a feed", format.RSS, laughs + `<rss><channel><title>&lol2;</title></channel></rss>`, doctext.Limits{}, doctext.ErrUnreadable},
		{"deep feed", format.Atom, `<feed xmlns="http://www.w3.org/2005/Atom"><entry><content type="xhtml">` + strings.Repeat("<div>", 100000), doctext.Limits{}, doctext.ErrTooLarge},
		{"feed text past the cap", format.RSS, "<rss><channel>" + strings.Repeat("<item><title>"+strings.Repeat("w", 500)+"</title></item>", 10) + "</channel></rss>", doctext.Limits{MaxChars: 1000}, doctext.ErrTooLarge},
		{"truncated xml", format.XML, "<r><a>text", doctext.Limits{}, doctext.ErrUnreadable},
		{"xml not utf-8", format.XML, "<r>caf\xe9</r>", doctext.Limits{}, doctext.ErrUnreadable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := doctext.Extract(tt.kind, []byte(tt.in), tt.lim)
			if !errors.Is(err, tt.want) {
				t.Fatalf("err %v, want %v", err, tt.want)
			}
		})
	}
}
