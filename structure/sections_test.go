package structure

import (
	"strings"
	"testing"
)

// TestSectionsPath: headings nest by level, a section runs to the next
// heading of its level or higher, a heading's own text lies in its
// section, and text before the first heading lies in none.
func TestSectionsPath(t *testing.T) {
	blocks := []struct {
		text  string
		level int // 0 for a paragraph
	}{
		{"Preface text.", 0},
		{"Paper", 1},
		{"Intro text.", 0},
		{"3 Method", 2},
		{"Method text.", 0},
		{"3.2 Data", 3},
		{"Data text.", 0},
		{"Deep", 5}, // a level skipped: it nests under 3.2
		{"Deep text.", 0},
		{"4 Results", 2},
		{"Results text.", 0},
		{"Appendix", 1},
	}
	var text strings.Builder
	var s Structure
	starts := map[string]int{}
	for i, b := range blocks {
		if i > 0 {
			text.WriteByte('\n')
		}
		start := len([]rune(text.String()))
		starts[b.text] = start
		text.WriteString(b.text)
		if b.level > 0 {
			s.Spans = append(s.Spans, Span{Kind: Heading, Start: start, End: start + len([]rune(b.text)), Level: b.level})
		}
	}
	if err := Check(&s, text.String()); err != nil {
		t.Fatal(err)
	}
	runes := []rune(text.String())
	o := Outline(&s)
	if o.Len() != 6 {
		t.Fatalf("%d headings, want 6", o.Len())
	}
	for _, tc := range []struct {
		at   int
		want string
	}{
		{starts["Preface text."], ""},
		{starts["Paper"], "Paper"},
		{starts["Paper"] + 2, "Paper"},
		{starts["Intro text."], "Paper"},
		{starts["3 Method"], "Paper > 3 Method"},
		{starts["Method text."] + 3, "Paper > 3 Method"},
		{starts["Data text."], "Paper > 3 Method > 3.2 Data"},
		{starts["Deep text."], "Paper > 3 Method > 3.2 Data > Deep"},
		{starts["Results text."], "Paper > 4 Results"},
		{starts["Appendix"], "Appendix"},
		{len(runes), "Appendix"},
	} {
		var names []string
		for _, h := range o.Path(tc.at) {
			names = append(names, string(runes[h.Start:h.End]))
		}
		if got := strings.Join(names, " > "); got != tc.want {
			t.Errorf("Path(%d) = %q, want %q", tc.at, got, tc.want)
		}
	}
	if o := Outline(nil); o.Len() != 0 || o.Path(0) != nil {
		t.Errorf("no structure: %d headings, path %v", o.Len(), o.Path(0))
	}
}
