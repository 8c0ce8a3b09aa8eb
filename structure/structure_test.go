package structure

import (
	"encoding/json"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/normalize"
)

// TestMapCarriesSpansOntoCanonicalText: spans over an extractor's raw text
// land on the same words of the canonical text, trimmed, and the result
// keeps every rule.
func TestMapCarriesSpansOntoCanonicalText(t *testing.T) {
	var raw strings.Builder
	var b Builder
	block := func(k Kind, s string, f func(*Span)) {
		sp := Span{Kind: k, Start: raw.Len()}
		raw.WriteString(s)
		sp.End = raw.Len()
		if f != nil {
			f(&sp)
		}
		b.Add(sp)
		raw.WriteString("\n\n")
	}
	block(Heading, "  Cafe\u0301  menu ", func(s *Span) { s.Level = 9 })
	start := raw.Len()
	raw.WriteString("See  ")
	b.Add(Span{Kind: Link, Start: raw.Len(), End: raw.Len() + len("the\u200b list "), Href: "https://e.org/x"})
	raw.WriteString("the\u200b list  below.")
	b.Add(Span{Kind: Paragraph, Start: start, End: raw.Len()})
	raw.WriteString("\n \n")
	block(Paragraph, "", nil)
	// A block kind that would begin inside a block is dropped.
	b.Add(Span{Kind: Paragraph, Start: start + 2, End: start + 9})
	text := normalize.Canonical(raw.String())
	s, err := Map(raw.String(), text, b.Spans())
	if err != nil {
		t.Fatal(err)
	}
	if err := Check(s, text); err != nil {
		t.Fatal(err)
	}
	runes := []rune(text)
	var got []string
	for _, sp := range s.Spans {
		got = append(got, string(sp.Kind)+":"+string(runes[sp.Start:sp.End]))
	}
	want := "h:Café menu p:See the list below. a:the list"
	if g := strings.Join(got, " "); g != want {
		t.Errorf("got %q, want %q", g, want)
	}
	if s.Spans[0].Level != MaxHeadingLevel {
		t.Errorf("heading level %d, want it brought to %d", s.Spans[0].Level, MaxHeadingLevel)
	}
	if _, err := Map(raw.String(), text+"x", b.Spans()); !errors.Is(err, normalize.ErrMisaligned) {
		t.Errorf("another text: %v, want ErrMisaligned", err)
	}
}

// TestCheck: one case per rule.
func TestCheck(t *testing.T) {
	text := "Head\nsome words here\nx | y"
	tests := []struct {
		name  string
		spans []Span
		ok    bool
	}{
		{"fine", []Span{{Kind: Heading, Start: 0, End: 4, Level: 1}, {Kind: Paragraph, Start: 5, End: 20}, {Kind: Link, Start: 10, End: 15, Href: "https://e.org"}, {Kind: Table, Start: 21, End: 26}, {Kind: Row, Start: 21, End: 26}, {Kind: Cell, Start: 21, End: 22}}, true},
		{"unknown kind", []Span{{Kind: "blink", Start: 0, End: 4}}, false},
		{"past the end", []Span{{Kind: Paragraph, Start: 21, End: 27}}, false},
		{"empty", []Span{{Kind: Emphasis, Start: 3, End: 3}}, false},
		{"ends on a separator", []Span{{Kind: Heading, Start: 0, End: 5, Level: 1}}, false},
		{"starts on a space", []Span{{Kind: Emphasis, Start: 9, End: 15}}, false},
		{"block inside a block", []Span{{Kind: Paragraph, Start: 10, End: 15}}, false},
		{"inline across blocks", []Span{{Kind: Link, Start: 0, End: 9, Href: "https://e.org"}}, false},
		{"heading level 0", []Span{{Kind: Heading, Start: 0, End: 4}}, false},
		{"link without target", []Span{{Kind: Link, Start: 0, End: 4}}, false},
		{"attribute of another kind", []Span{{Kind: Paragraph, Start: 0, End: 4, Strong: true}}, false},
		{"out of order", []Span{{Kind: Paragraph, Start: 5, End: 20}, {Kind: Heading, Start: 0, End: 4, Level: 1}}, false},
		{"overlap", []Span{{Kind: Paragraph, Start: 5, End: 20}, {Kind: Emphasis, Start: 5, End: 9}, {Kind: Emphasis, Start: 6, End: 14}}, false},
		{"block inside inline", []Span{{Kind: Link, Start: 0, End: 4, Href: "https://e.org"}, {Kind: Heading, Start: 0, End: 4, Level: 1}}, false},
	}
	for _, tc := range tests {
		err := Check(&Structure{Spans: tc.spans}, text)
		var ce *CheckError
		if tc.ok != (err == nil) || (err != nil && !errors.As(err, &ce)) {
			t.Errorf("%s: Check = %v", tc.name, err)
		}
	}
}

// TestSidecarRoundTrip: Write then Read gives back the spans; a sidecar of
// another text, another version or broken spans is refused on read.
func TestSidecarRoundTrip(t *testing.T) {
	text := "Head\nsome words here"
	h := archive.SumString(text)
	s := &Structure{Spans: []Span{{Kind: Heading, Start: 0, End: 4, Level: 2}, {Kind: List, Start: 5, End: 20, Ordered: true}, {Kind: Item, Start: 5, End: 20, Level: 1}, {Kind: Link, Start: 5, End: 9, Href: "https://e.org/\"q\""}, {Kind: Emphasis, Start: 10, End: 15, Strong: true}}}
	data, err := Write(s, text, h)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Encode(&Sidecar{Version: Version, TextHash: h, Structure: *s})
	if err != nil || string(again) != string(data) {
		t.Errorf("encoding is not deterministic: %s vs %s", data, again)
	}
	got, err := Read(data, text, h)
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Spans) != len(s.Spans) {
		t.Fatalf("read %d spans, want %d", len(got.Spans), len(s.Spans))
	}
	for i := range s.Spans {
		if got.Spans[i] != s.Spans[i] {
			t.Errorf("span %d: %+v, want %+v", i, got.Spans[i], s.Spans[i])
		}
	}
	if _, err := Read(data, text, archive.SumString("other")); err == nil {
		t.Error("read the sidecar of another text")
	}
	for _, bad := range []string{
		strings.Replace(string(data), Version, "structure/0", 1),
		strings.Replace(string(data), `h0,4,2`, `h0,5,2`, 1),
		strings.Replace(string(data), `h0,4,2`, `h0`, 1),
		strings.Replace(string(data), `h0,4,2`, `h-1,4,2`, 1),
		strings.Replace(string(data), `h0,4,2`, `h00,4,2`, 1),
		strings.Replace(string(data), `h0,4,2`, `h0,0,2`, 1),
		strings.Replace(string(data), `h0,4,2`, `h0,12345678901234,2`, 1),
		strings.Replace(string(data), `E5,5`, `E5,5,1`, 1),
		strings.Replace(string(data), `E5,5`, `x5,5`, 1),
		strings.Replace(string(data), `L5,15`, `Q5,15`, 1),
		strings.Replace(string(data), `a0,4,0`, `a0,4,1`, 1),
		strings.Replace(string(data), `"shared":[0]`, `"shared":[1]`, 1),
		strings.Replace(string(data), `"shared":[0]`, `"shared":[]`, 1),
		strings.Replace(string(data), `"shared":[0]`, `"shared":[0,0]`, 1),
		strings.Replace(strings.Replace(string(data), `"shared":[0]`, `"shared":[0,0]`, 1), `q\""]`, `q\"","z"]`, 1),
		`{"version":`,
	} {
		if bad == string(data) {
			t.Errorf("a case that does not change %s", data)
		}
		if _, err := Read([]byte(bad), text, h); err == nil {
			t.Errorf("read %s", bad)
		}
	}
	if _, err := Write(&Structure{Spans: []Span{{Kind: Heading, Start: 0, End: 5, Level: 1}}}, text, h); err == nil {
		t.Error("wrote a span that breaks a rule")
	}
}

// TestSidecarLinkTargets: a sidecar lists each link target once, in byte
// order, each written after what it shares with the one before it, cut
// at code points, and its links read back to their own targets.
func TestSidecarLinkTargets(t *testing.T) {
	text := "one two three four five"
	h := archive.SumString(text)
	hrefs := []string{"https://e.org/été", "https://e.org/a?x=1&y=<2>", "https://e.org/ère", "https://e.org/a?x=1&y=<2>", "https://f.org/"}
	s := &Structure{}
	for i, w := range strings.Fields(text) {
		start := strings.Index(text, w)
		s.Spans = append(s.Spans, Span{Kind: Link, Start: start, End: start + len(w), Href: hrefs[i]})
	}
	data, err := Write(s, text, h)
	if err != nil {
		t.Fatal(err)
	}
	var j sidecarJSON
	if err := json.Unmarshal(data, &j); err != nil {
		t.Fatal(err)
	}
	want := `"targets":["https://e.org/a?x=1&y=<2>","ère","été","f.org/"],"shared":[0,14,14,8]`
	if !strings.Contains(string(data), want) || strings.ContainsRune(string(data), utf8.RuneError) {
		t.Errorf("sidecar %s\nwant its targets %s", data, want)
	}
	got, err := Read(data, text, h)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.Spans, s.Spans) {
		t.Errorf("read %+v\nwant %+v", got.Spans, s.Spans)
	}
}

// FuzzRead: no sidecar bytes crash Read, and a sidecar it reads (taking
// its text's hash as given), written again, reads back to the same spans.
func FuzzRead(f *testing.F) {
	v1, err := os.ReadFile("testdata/structure1.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(v1, v1Text)
	f.Add([]byte(`{"version":"structure/1","text_hash":"sha256:0000000000000000000000000000000000000000000000000000000000000000","spans":[["h",0,4,1]]}`), "Head\nx")
	f.Add([]byte(`{"version":"structure/2","text_hash":"sha256:0000000000000000000000000000000000000000000000000000000000000000","targets":["https://e.org/a","b"],"shared":[0,14],"spans":"h0,4,1p5,7a0,1,1E2,1a2,3,0"}`), "Head\nx y zzz")
	f.Fuzz(func(t *testing.T, data []byte, text string) {
		d, err := Decode(data)
		if err != nil {
			return
		}
		h := d.TextHash // the sidecar's own, that the fuzzer cannot make
		s, err := Read(data, text, h)
		if err != nil {
			return
		}
		again, err := Write(s, text, h)
		if err != nil {
			t.Fatalf("read %s, cannot write it: %v", data, err)
		}
		back, err := Read(again, text, h)
		if err != nil || !slices.Equal(back.Spans, s.Spans) {
			t.Fatalf("read %s, wrote %s, read back %v (%v)", data, again, back, err)
		}
	})
}

// TestContractDocumentsTheFormat: docs/contract.md names both versions
// and every kind with its letter, and its example decodes, to the link
// targets it spells out.
func TestContractDocumentsTheFormat(t *testing.T) {
	data, err := os.ReadFile("../docs/contract.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(data)
	for _, v := range []string{Version, Version1} {
		if !strings.Contains(doc, "`"+v+"`") {
			t.Errorf("docs/contract.md does not name %s", v)
		}
	}
	for _, k := range Kinds {
		if !strings.Contains(doc, "| `"+string(k)+"` | `"+string(codes[k])+"` |") {
			t.Errorf("docs/contract.md does not list the kind %q with its letter %q", k, codes[k])
		}
	}
	prefix := `{"version":"` + Version + `"`
	start := strings.Index(doc, "\n"+prefix)
	if start < 0 {
		t.Fatalf("docs/contract.md has no example of %s", Version)
	}
	example, _, _ := strings.Cut(doc[start+1:], "\n")
	example = strings.Replace(example, "sha256:…", archive.SumString("").String(), 1)
	s, err := Decode([]byte(example))
	if err != nil {
		t.Fatalf("the example %s: %v", example, err)
	}
	links := 0
	for _, sp := range s.Spans {
		if sp.Kind == Link {
			links++
			if !strings.Contains(doc, "`"+sp.Href+"`") {
				t.Errorf("the example's target %q is not spelled out", sp.Href)
			}
		}
	}
	if links == 0 {
		t.Error("the example has no link")
	}
}
