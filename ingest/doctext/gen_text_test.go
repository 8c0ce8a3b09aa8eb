package doctext_test

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
)

// chunk is one block of a Markdown source, as the text generators of the
// dev set see it: a "% " title line, a heading, a paragraph, a list's
// items, a table's rows or a footnote.
type chunk struct {
	Kind  string // "title", "heading", "para", "list", "table", "note"
	Text  string
	Items []string
	Rows  [][]string
}

// readChunks splits a Markdown source into chunks at blank lines.
func readChunks(t *testing.T, src string) []chunk {
	b, err := os.ReadFile(src)
	if err != nil {
		t.Fatal(err)
	}
	var out []chunk
	for _, block := range strings.Split(strings.TrimSpace(string(b)), "\n\n") {
		lines := strings.Split(strings.TrimSpace(block), "\n")
		switch first := lines[0]; {
		case strings.HasPrefix(first, "% "):
			for _, l := range lines {
				out = append(out, chunk{Kind: "title", Text: strings.TrimPrefix(l, "% ")})
			}
		case strings.HasPrefix(first, "#"):
			out = append(out, chunk{Kind: "heading", Text: strings.TrimSpace(strings.TrimLeft(first, "#"))})
		case strings.HasPrefix(first, "|"):
			c := chunk{Kind: "table"}
			for _, l := range lines {
				if strings.HasPrefix(l, "|-") {
					continue
				}
				cells := strings.Split(strings.Trim(l, "|"), "|")
				for i := range cells {
					cells[i] = strings.TrimSpace(cells[i])
				}
				c.Rows = append(c.Rows, cells)
			}
			out = append(out, c)
		case strings.HasPrefix(first, "- ") || strings.HasPrefix(first, "1. "):
			c := chunk{Kind: "list"}
			for _, l := range lines {
				_, item, _ := strings.Cut(l, " ")
				c.Items = append(c.Items, item)
			}
			out = append(out, c)
		case strings.HasPrefix(first, "[^"):
			for _, l := range lines {
				_, note, _ := strings.Cut(l, ": ")
				out = append(out, chunk{Kind: "note", Text: note})
			}
		default:
			out = append(out, chunk{Kind: "para", Text: strings.Join(lines, " ")})
		}
	}
	return out
}

// writeJSON writes a source as a JSON API response would carry it: ids,
// counts and flags beside its text, the text in nested objects and arrays.
func writeJSON(out string, chunks []chunk) error {
	type section struct {
		ID         int        `json:"id"`
		Heading    string     `json:"heading"`
		Paragraphs []string   `json:"paragraphs,omitempty"`
		Items      []string   `json:"items,omitempty"`
		Rows       [][]string `json:"rows,omitempty"`
	}
	doc := struct {
		Status   string    `json:"status"`
		Count    int       `json:"count"`
		Draft    bool      `json:"draft"`
		Title    string    `json:"title"`
		Author   string    `json:"author"`
		Sections []section `json:"sections"`
		Notes    []string  `json:"notes"`
	}{Status: "ok"}
	for _, c := range chunks {
		n := len(doc.Sections)
		switch c.Kind {
		case "title":
			if doc.Title == "" {
				doc.Title = c.Text
			} else {
				doc.Author = c.Text
			}
		case "heading":
			doc.Sections = append(doc.Sections, section{ID: n + 1, Heading: c.Text})
		case "para":
			doc.Sections[n-1].Paragraphs = append(doc.Sections[n-1].Paragraphs, c.Text)
		case "list":
			doc.Sections[n-1].Items = c.Items
		case "table":
			doc.Sections[n-1].Rows = c.Rows
		case "note":
			doc.Notes = append(doc.Notes, c.Text)
		}
	}
	doc.Count = len(doc.Sections)
	b, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

// writeNotebook writes a source as a Jupyter notebook: its text as
// markdown cells, and its tables as a code cell that prints them, with a
// stream output, a text/plain result beside a PNG, as a notebook saves
// them.
func writeNotebook(out string, chunks []chunk) error {
	type cell map[string]any
	var cells []cell
	var md []string
	flush := func() {
		if len(md) > 0 {
			cells = append(cells, cell{"cell_type": "markdown", "metadata": map[string]any{}, "source": lines(strings.Join(md, "\n\n"))})
			md = nil
		}
	}
	for _, c := range chunks {
		switch c.Kind {
		case "title":
			md = append(md, "# "+c.Text)
		case "heading":
			flush()
			md = append(md, "## "+c.Text)
		case "para", "note":
			md = append(md, c.Text)
		case "list":
			md = append(md, "- "+strings.Join(c.Items, "\n- "))
		case "table":
			flush()
			var rows []string
			for _, r := range c.Rows[1:] {
				rows = append(rows, strings.Join(r, "  "))
			}
			cells = append(cells, cell{"cell_type": "code", "execution_count": len(cells), "metadata": map[string]any{},
				"source": lines("table"),
				"outputs": []any{
					map[string]any{"output_type": "stream", "name": "stdout", "text": lines(strings.Join(c.Rows[0], "  ") + "\n")},
					map[string]any{"output_type": "execute_result", "execution_count": len(cells), "metadata": map[string]any{},
						"data": map[string]any{"text/plain": lines(strings.Join(rows, "\n")), "image/png": "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=="}},
				}})
		}
	}
	flush()
	nb := map[string]any{"nbformat": 4, "nbformat_minor": 5, "cells": cells,
		"metadata": map[string]any{"kernelspec": map[string]any{"name": "python3", "display_name": "Python 3"}}}
	b, err := json.MarshalIndent(nb, "", " ")
	if err != nil {
		return err
	}
	return os.WriteFile(out, append(b, '\n'), 0o644)
}

// lines splits s as a notebook stores a multi-line string: lines that keep
// their "\n".
func lines(s string) []string { return strings.SplitAfter(s, "\n") }

// writeFeed writes a source of "% title", "% description" and, per item,
// a heading, a "date link" line and a summary, as an RSS 2.0 or an Atom
// feed.
func writeFeed(out, kind string, chunks []chunk) error {
	var b strings.Builder
	var title, desc string
	type item struct{ title, date, link, summary string }
	var items []item
	for _, c := range chunks {
		switch {
		case c.Kind == "title" && title == "":
			title = c.Text
		case c.Kind == "title":
			desc = c.Text
		case c.Kind == "heading":
			items = append(items, item{title: c.Text})
		case c.Kind == "para" && items[len(items)-1].date == "":
			it := &items[len(items)-1]
			it.date, it.link, _ = strings.Cut(c.Text, " ")
		case c.Kind == "para":
			items[len(items)-1].summary = c.Text
		}
	}
	b.WriteString(`<?xml version="1.0" encoding="UTF-8"?>` + "\n")
	if kind == "rss" {
		fmt.Fprintf(&b, "<rss version=\"2.0\" xmlns:atom=\"http://www.w3.org/2005/Atom\">\n<channel>\n<title>%s</title>\n<link>https://harbour.example/</link>\n<description>%s</description>\n<atom:link href=\"https://harbour.example/feed.rss\" rel=\"self\" type=\"application/rss+xml\"/>\n", esc(title), esc(desc))
		for _, it := range items {
			fmt.Fprintf(&b, "<item>\n<title>%s</title>\n<link>%s</link>\n<guid>%s</guid>\n<pubDate>%s</pubDate>\n<description>%s</description>\n</item>\n",
				esc(it.title), esc(it.link), esc(it.link), it.date, esc("<p>"+esc(it.summary)+"</p>"))
		}
		b.WriteString("</channel>\n</rss>\n")
	} else {
		fmt.Fprintf(&b, "<feed xmlns=\"http://www.w3.org/2005/Atom\">\n<title>%s</title>\n<subtitle>%s</subtitle>\n<id>https://harbour.example/</id>\n<link rel=\"self\" href=\"https://harbour.example/feed.atom\"/>\n<updated>%sT12:00:00Z</updated>\n", esc(title), esc(desc), items[len(items)-1].date)
		for _, it := range items {
			fmt.Fprintf(&b, "<entry>\n<title>%s</title>\n<id>%s</id>\n<link rel=\"alternate\" href=\"%s\"/>\n<published>%s</published>\n<summary type=\"html\">%s</summary>\n</entry>\n",
				esc(it.title), esc(it.link), esc(it.link), it.date, esc("<p>"+esc(it.summary)+"</p>"))
		}
		b.WriteString("</feed>\n")
	}
	return os.WriteFile(out, []byte(b.String()), 0o644)
}

// writeXMLBook writes a source as a DocBook-like XML book: its title and
// author in an info element, each heading a chapter of paragraphs.
func writeXMLBook(out string, chunks []chunk) error {
	var b strings.Builder
	b.WriteString("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<!DOCTYPE book>\n<book xml:lang=\"en\">\n")
	open := false
	for i, c := range chunks {
		switch c.Kind {
		case "title":
			if i == 0 {
				fmt.Fprintf(&b, "  <info><title>%s</title>", esc(c.Text))
			} else {
				fmt.Fprintf(&b, "<author><personname>%s</personname></author></info>\n", esc(c.Text))
			}
		case "heading":
			if open {
				b.WriteString("  </chapter>\n")
			}
			fmt.Fprintf(&b, "  <chapter id=\"ch%d\">\n    <title>%s</title>\n", i, esc(c.Text))
			open = true
		case "para":
			fmt.Fprintf(&b, "    <para>%s</para>\n", esc(c.Text))
		}
	}
	if open {
		b.WriteString("  </chapter>\n")
	}
	b.WriteString("</book>\n")
	return os.WriteFile(out, []byte(b.String()), 0o644)
}
