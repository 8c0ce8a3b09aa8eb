package doctext_test

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/format"
)

// Markdown's entity and numeric references and backslash escapes read as
// the characters they stand for in headings, paragraphs, table cells and
// link text; code spans and code blocks keep them as written.
func TestMarkdownEntities(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"heading", "# Fish &amp; Chips &lt;3 &#124; &#x41;", "Fish & Chips <3 | A"},
		{"paragraph", "Salt &amp; vinegar, \\*not emphasis\\*, &copy; 2024 &unknown; &amp;lt;", "Salt & vinegar, *not emphasis*, © 2024 &unknown; &lt;"},
		{"table cell", "| a &amp; b | c |\n|---|---|\n| x &lt; y | z &#124; w |", "a & b | c\nx < y | z | w"},
		{"link text", "See [Q&amp;A &gt; notes](http://example.com/?a=1&amp;b=2).", "See Q&A > notes."},
		{"code span", "Write `&amp; \\*` as is, but &amp; here.", "Write &amp; \\* as is, but & here."},
		{"code block", "```\nif a &amp;&amp; b { x := \"&lt;\" }\n```", "if a &amp;&amp; b { x := \"&lt;\" }"},
		{"indented code", "    a &amp; b", "a &amp; b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, _ := canonical(t, format.Markdown, []byte(tt.in))
			if text != tt.want {
				t.Errorf("got %q\nwant %q", text, tt.want)
			}
		})
	}
}

// Raw HTML blocks in Markdown read as their text at their place: a table
// row by row (cells joined as a Markdown table's are, even when blank
// lines part its rows), a <div>'s list and a <ul> one block per item, a
// <pre> line by line; scripts, styles and comments are no text.
func TestMarkdownHTMLBlocks(t *testing.T) {
	var table strings.Builder
	table.WriteString("<table>\n<thead><tr><th>Station</th><th>Depth &amp; temp</th></tr></thead>\n<tbody>\n")
	var wantRows []string
	for i := 1; i <= 5; i++ {
		table.WriteString(fmt.Sprintf("<tr><td>S%d</td><td>%d m</td></tr>\n", i, 10*i))
		if i == 3 {
			table.WriteString("\n") // a blank line ends the HTML block
		}
		wantRows = append(wantRows, fmt.Sprintf("S%d | %d m", i, 10*i))
	}
	table.WriteString("</tbody>\n</table>")
	tests := []struct{ name, in, want string }{
		{"table", "Before.\n\n" + table.String() + "\n\nAfter.",
			"Before.\nStation | Depth & temp\n" + strings.Join(wantRows, "\n") + "\nAfter."},
		{"div holding a list", "Intro.\n\n<div class=\"box\">\n<p>It includes:</p>\n<ul><li>A bullet point</li><li>Another <b>point</b><ul><li>Nested</li></ul></li></ul>\n</div>\n\nEnd.",
			"Intro.\nIt includes:\nA bullet point\nAnother point\nNested\nEnd."},
		{"ul", "<ul>\n<li>first</li>\n<li>second &amp; last</li>\n</ul>", "first\nsecond & last"},
		{"ol inside markdown", "1. Markdown item\n\n<ol><li>html item</li></ol>", "Markdown item\nhtml item"},
		{"pre", "<pre>\nline one\nline  two\n</pre>", "line one\nline two"},
		{"heading and image", "<h2 align=\"center\">Title <img src=\"x.png\" alt=\"logo\"></h2>", "Title logo"},
		{"not text", "<script>var x = 1;</script>\n\n<style>p {}</style>\n\n<!-- a comment -->\n\nText.", "Text."},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			text, _ := canonical(t, format.Markdown, []byte(tt.in))
			if text != tt.want {
				t.Errorf("got %q\nwant %q", text, tt.want)
			}
		})
	}
}

// A raw HTML block nested past the Markdown depth bound is refused as too
// large, not walked.
func TestMarkdownHTMLBlockDepth(t *testing.T) {
	in := "<div>\n" + strings.Repeat("<div>", 5000) + "deep" + strings.Repeat("</div>", 5000) + "\n</div>"
	_, err := doctext.Extract(format.Markdown, []byte(in), doctext.Limits{})
	if !errors.Is(err, doctext.ErrTooLarge) {
		t.Fatalf("err %v, want ErrTooLarge", err)
	}
}
