package structure

import (
	"fmt"
	"strings"
	"testing"

	"github.com/digestd/digestd/archive"
)

// TestOutside: a page's anchors become its outside links: resolved
// against the base, those that lead nowhere else or to a target of the
// text's links left out, each target once (its first anchor's text), the
// text collapsed and cut, at most MaxOutsideLinks; they are written and
// read back checked, and listed after the text's links.
func TestOutside(t *testing.T) {
	main := &Structure{Spans: []Span{{Kind: Link, Start: 4, End: 9, Href: "https://e.org/a/news"}}}
	long := strings.Repeat("word ", MaxLinkTextChars)
	anchors := []Anchor{
		{"/", "  Home\n page "},
		{"news", "News (a target of the text)"},
		{"#top", "Top"},
		{"javascript:go()", "Go"},
		{"data:text/plain,x", "Data"},
		{"https://e.org/a/page#x", "The page itself"},
		{"https://other.example/x?q=1", long},
		{"../", "Up, the root again"},
		{"mailto:a@e.org", "Write"},
		{"http://[::1", "Broken"},
	}
	got := Outside(anchors, "https://e.org/a/page", main)
	var lines []string
	for _, l := range got {
		lines = append(lines, l.Href+" "+l.Text)
	}
	want := []string{
		"https://e.org/ Home page",
		"https://other.example/x?q=1 " + strings.TrimSpace(long[:MaxLinkTextChars]),
		"mailto:a@e.org Write",
	}
	if strings.Join(lines, "|") != strings.Join(want, "|") {
		t.Errorf("outside links\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	if n := len([]rune(got[1].Text)); n > MaxLinkTextChars {
		t.Errorf("a text of %d code points", n)
	}
	if got := Outside(anchors, "", nil); len(got) != 3 || got[0].Href != "https://e.org/a/page#x" {
		t.Errorf("without a base, the absolute targets (a fragment of the page, which is not known, among them): %v", got)
	}
	var many []Anchor
	for i := range MaxOutsideLinks + 5 {
		many = append(many, Anchor{fmt.Sprintf("/p/%d", i), "p"})
	}
	if got := Outside(many, "https://e.org/", nil); len(got) != MaxOutsideLinks || got[MaxOutsideLinks-1].Href != fmt.Sprintf("https://e.org/p/%d", MaxOutsideLinks-1) {
		t.Errorf("%d links kept of %d, want the first %d", len(got), len(many), MaxOutsideLinks)
	}

	text := archive.SumString("the text")
	data, err := WriteOutside(got[:2], text)
	if err != nil {
		t.Fatal(err)
	}
	back, err := ReadOutside(data, text)
	if err != nil || fmt.Sprint(back) != fmt.Sprint(got[:2]) {
		t.Errorf("read back %v, %v", back, err)
	}
	if _, err := ReadOutside(data, archive.SumString("another text")); err == nil {
		t.Error("another text's links were read")
	}
	for _, bad := range [][]OutsideLink{
		{{"/relative", "x"}},
		{{"https://e.org/", "x"}, {"https://e.org/", "y"}},
		{{"https://e.org/", long + long}},
		{{"https://e.org/\xff", "x"}},
	} {
		if _, err := WriteOutside(bad, text); err == nil {
			t.Errorf("%q was written", bad)
		}
	}

	// The listing: the text's links in order, each target once, then the
	// outside links the text does not hold.
	canon := "See news and more news, then news again."
	s := &Structure{Spans: []Span{
		{Kind: Link, Start: 4, End: 8, Href: "https://e.org/news"},
		{Kind: Link, Start: 18, End: 22, Href: "https://e.org/more"},
		{Kind: Link, Start: 29, End: 33, Href: "https://e.org/news"},
	}}
	var listed []string
	for _, l := range Links(canon, s, []OutsideLink{{"https://e.org/", "Home"}, {"https://e.org/more", "More"}}) {
		listed = append(listed, fmt.Sprintf("%s %q %v %d-%d", l.Href, l.Text, l.InMain, l.Start, l.End))
	}
	wantListed := `https://e.org/news "news" true 4-8|https://e.org/more "news" true 18-22|https://e.org/ "Home" false 0-0`
	if strings.Join(listed, "|") != wantListed {
		t.Errorf("listed\n%s\nwant\n%s", strings.Join(listed, "|"), wantListed)
	}
}
