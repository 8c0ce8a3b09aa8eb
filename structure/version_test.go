package structure

import (
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
)

// v1Text is the text of testdata/structure1.json, a sidecar written in
// structure/1 before structure/2 replaced it.
const v1Text = "Harbour works\nSee the café page & the \"old\" walls, and the walls again.\n" +
	"Fishing boats\nThe ferry\nBoat | Trips\nFerry | 2\nlet x = 1\nA quoted line.\nThe harbour in 1900.\nA figure's text"

// v1Spans are the spans of testdata/structure1.json: every kind, every
// attribute, a target repeated and one with characters JSON escapes.
func v1Spans(t *testing.T) []Span {
	t.Helper()
	at := func(k Kind, s string, nth int, f func(*Span)) Span {
		i := -1
		for range nth + 1 {
			j := strings.Index(v1Text[i+1:], s)
			if j < 0 {
				t.Fatalf("no %q in the text", s)
			}
			i += 1 + j
		}
		start := utf8.RuneCountInString(v1Text[:i])
		sp := Span{Kind: k, Start: start, End: start + utf8.RuneCountInString(s)}
		if f != nil {
			f(&sp)
		}
		return sp
	}
	href := func(h string) func(*Span) { return func(s *Span) { s.Href = h } }
	s := &Structure{Spans: []Span{
		at(Heading, "Harbour works", 0, func(s *Span) { s.Level = 2 }),
		at(Paragraph, "See the café page & the \"old\" walls, and the walls again.", 0, nil),
		at(Link, "café page", 0, href("https://example.org/caf%C3%A9?a=1&b=<2>")),
		at(Link, "\"old\" walls", 0, href("https://example.org/walls")),
		at(Emphasis, "old", 0, func(s *Span) { s.Strong = true }),
		at(Link, "walls", 1, href("https://example.org/walls")),
		at(Emphasis, "again", 0, nil),
		at(List, "Fishing boats\nThe ferry", 0, func(s *Span) { s.Ordered = true }),
		at(Item, "Fishing boats", 0, func(s *Span) { s.Level = 1 }),
		at(Item, "The ferry", 0, func(s *Span) { s.Level = 2 }),
		at(Table, "Boat | Trips\nFerry | 2", 0, nil),
		at(Row, "Boat | Trips", 0, nil),
		at(Cell, "Boat", 0, func(s *Span) { s.Header = true }),
		at(Cell, "Trips", 0, func(s *Span) { s.Header = true }),
		at(Row, "Ferry | 2", 0, nil),
		at(Cell, "Ferry", 0, nil),
		at(Cell, "2", 0, nil),
		at(Code, "let x = 1", 0, nil),
		at(Quote, "A quoted line.", 0, nil),
		at(Figure, "The harbour in 1900.\nA figure's text", 0, nil),
		at(Caption, "The harbour in 1900.", 0, nil),
	}}
	s.Sort()
	if err := Check(s, v1Text); err != nil {
		t.Fatal(err)
	}
	return s.Spans
}

// TestReadsVersion1: a sidecar written in structure/1 reads back to the
// spans it was written from, and written again in this Version it reads
// back to the same spans, smaller.
func TestReadsVersion1(t *testing.T) {
	data, err := os.ReadFile("testdata/structure1.json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"version":"`+Version1+`"`) {
		t.Fatalf("testdata/structure1.json is not of %s", Version1)
	}
	want := v1Spans(t)
	h := archive.SumString(v1Text)
	got, err := Read(data, v1Text, h)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Spans, want) {
		t.Errorf("read %+v\nwant %+v", got.Spans, want)
	}
	again, err := Write(got, v1Text, h)
	if err != nil {
		t.Fatal(err)
	}
	back, err := Read(again, v1Text, h)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(back.Spans, want) {
		t.Errorf("written in %s, read %+v\nwant %+v", Version, back.Spans, want)
	}
	if len(again) >= len(data) {
		t.Errorf("%s is %d bytes, %s %d", Version, len(again), Version1, len(data))
	}
	if _, err := Encode(&Sidecar{Version: Version1, TextHash: h, Structure: *got}); err == nil {
		t.Errorf("wrote %s", Version1)
	}
}

// v1Outside are the links of testdata/outside-links1.json, outside links
// written in outside-links/1 before outside-links/2 replaced it: in the
// page's order (not the targets'), targets that share a prefix, one with
// characters JSON escapes, a text cut, an empty text and one not ASCII.
var v1Outside = []OutsideLink{
	{Href: "https://example.org/harbour/", Text: "Harbour"},
	{Href: "https://example.org/", Text: "Home"},
	{Href: "https://example.org/harbour/ferry?day=1&x=<2>", Text: "The \"ferry\" timetable"},
	{Href: "mailto:port@example.org", Text: ""},
	{Href: "https://example.org/caf%C3%A9", Text: "Café de la Gare"},
	{Href: "https://example.net/", Text: "A partner's page"},
	{Href: "https://example.org/harbour/walls", Text: "Walls"},
}

// TestReadsOutsideVersion1: outside links written in outside-links/1 read
// back to the links they were written from, in the page's order, and
// written again in OutsideVersion they read back to the same links,
// smaller.
func TestReadsOutsideVersion1(t *testing.T) {
	data, err := os.ReadFile("testdata/outside-links1.json")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), `"version":"outside-links/1"`) {
		t.Fatal("testdata/outside-links1.json is not of outside-links/1")
	}
	h := archive.SumString(v1Text)
	got, total, err := ReadOutside(data, h, len(v1Text))
	if err != nil || total != len(got) {
		t.Fatal(total, err)
	}
	if !slices.Equal(got, v1Outside) {
		t.Errorf("read %q\nwant %q", got, v1Outside)
	}
	if _, _, err := ReadOutside(data, archive.SumString("another text"), len(v1Text)); err == nil {
		t.Error("another text's links were read")
	}
	again, n, err := WriteOutside(got, total, h, len(v1Text))
	if err != nil || n != len(got) {
		t.Fatal(n, err)
	}
	if !strings.Contains(string(again), `"version":"`+OutsideVersion+`"`) {
		t.Errorf("written as %s", again)
	}
	back, _, err := ReadOutside(again, h, len(v1Text))
	if err != nil || !slices.Equal(back, v1Outside) {
		t.Errorf("written in %s, read %q (%v)\nwant %q", OutsideVersion, back, err, v1Outside)
	}
	if len(again) >= len(data) {
		t.Errorf("%s is %d bytes, %s %d", OutsideVersion, len(again), OutsideVersion1, len(data))
	}
}
