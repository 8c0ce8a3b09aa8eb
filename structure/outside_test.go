package structure

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"slices"
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
	got, total := Outside(anchors, "https://e.org/a/page", main)
	if total != len(got) {
		t.Errorf("%d outside links counted, %d kept", total, len(got))
	}
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
	if got, _ := Outside(anchors, "", nil); len(got) != 3 || got[0].Href != "https://e.org/a/page#x" {
		t.Errorf("without a base, the absolute targets (a fragment of the page, which is not known, among them): %v", got)
	}
	var many []Anchor
	for i := range MaxOutsideLinks + 5 {
		many = append(many, Anchor{fmt.Sprintf("/p/%d", i), "p"})
	}
	many = append(many, many[0]) // listed once, counted once
	if got, total := Outside(many, "https://e.org/", nil); len(got) != MaxOutsideLinks || got[MaxOutsideLinks-1].Href != fmt.Sprintf("https://e.org/p/%d", MaxOutsideLinks-1) || total != MaxOutsideLinks+5 {
		t.Errorf("%d links kept of %d counted, want the first %d of %d", len(got), total, MaxOutsideLinks, MaxOutsideLinks+5)
	}

	text := archive.SumString("the text")
	data, n, err := WriteOutside(got[:2], 2, text, 0)
	if err != nil || n != 2 || strings.Contains(string(data), `"total"`) {
		t.Fatal(n, err, string(data))
	}
	back, total, err := ReadOutside(data, text, 0)
	if err != nil || fmt.Sprint(back) != fmt.Sprint(got[:2]) || total != 2 {
		t.Errorf("read back %v of %d, %v", back, total, err)
	}
	// The first two of a page's five: the blob counts them all.
	data, n, err = WriteOutside(got[:2], 5, text, 0)
	if err != nil || n != 2 || !strings.Contains(string(data), `"total":5,`) {
		t.Fatal(n, err, string(data))
	}
	if back, total, err := ReadOutside(data, text, 0); err != nil || fmt.Sprint(back) != fmt.Sprint(got[:2]) || total != 5 {
		t.Errorf("read back %v of %d, %v", back, total, err)
	}
	// A total no more than the links kept is not written, so not read.
	for _, bad := range []string{`"total":2,`, `"total":-1,`} {
		if _, _, err := ReadOutside([]byte(strings.Replace(string(data), `"total":5,`, bad, 1)), text, 0); err == nil {
			t.Errorf("read with %s", bad)
		}
	}
	if _, _, err := WriteOutside(got[:2], 1, text, 0); err == nil {
		t.Error("2 links of a page's 1 were written")
	}
	if _, _, err := ReadOutside(data, archive.SumString("another text"), 0); err == nil {
		t.Error("another text's links were read")
	}
	for _, bad := range [][]OutsideLink{
		{{"/relative", "x"}},
		{{"https://e.org/", "x"}, {"https://e.org/", "y"}},
		{{"https://e.org/", long + long}},
		{{"https://e.org/\xff", "x"}},
	} {
		if _, _, err := WriteOutside(bad, len(bad), text, 0); err == nil {
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

// TestOutsideBudget: outside links are written to at most OutsideBudget
// of their text's bytes, the first of them in the page's order, as many
// as fit; a longer text holds more of them, and links read over their
// text's budget are not served.
func TestOutsideBudget(t *testing.T) {
	var links []OutsideLink
	for i := range MaxOutsideLinks {
		links = append(links, OutsideLink{Href: fmt.Sprintf("https://e.org/section/%d/page", (i*7919)%1000), Text: fmt.Sprintf("Page %d", i)})
	}
	h := archive.SumString("the text")
	prev := -1
	for _, textBytes := range []int{0, 8 * MinOutsideBytes, 40000, 400000} {
		budget := OutsideBudget(textBytes)
		if budget != max(textBytes/OutsideTextShare, MinOutsideBytes) {
			t.Errorf("a text of %d bytes: a budget of %d", textBytes, budget)
		}
		data, n, err := WriteOutside(links, len(links), h, textBytes)
		if err != nil {
			t.Fatal(err)
		}
		if len(data) > budget || n < prev || n < len(links) && n == prev {
			t.Errorf("a text of %d bytes: %d links in %d bytes, budget %d (%d for a shorter text)", textBytes, n, len(data), budget, prev)
		}
		if n < len(links) {
			// One more would not fit.
			more, _, err := WriteOutside(links[:n+1], len(links), h, 1<<30)
			if err != nil || len(more) <= budget {
				t.Errorf("a text of %d bytes: %d links kept, %d fit in %d bytes", textBytes, n, n+1, len(more))
			}
		}
		back, total, err := ReadOutside(data, h, textBytes)
		if err != nil || !slices.Equal(back, links[:n]) || total != len(links) {
			t.Errorf("a text of %d bytes: read back %d links of %d, want the first %d of %d (%v)", textBytes, len(back), total, n, len(links), err)
		}
		prev = n
	}
	if prev != len(links) {
		t.Errorf("%d links of %d kept for a long text", prev, len(links))
	}
	data, _, err := WriteOutside(links, len(links), h, 400000)
	if err != nil {
		t.Fatal(err)
	}
	if short := OutsideTextShare * (len(data) - 1); len(data) <= MinOutsideBytes {
		t.Errorf("%d bytes of links", len(data))
	} else if _, _, err := ReadOutside(data, h, short); err == nil {
		t.Errorf("%d bytes of links read over the budget of a text of %d bytes", len(data), short)
	}
}

// FuzzReadOutside: no bytes crash ReadOutside, and links it reads
// (taking their text's hash as given), written again, read back to the
// same links.
func FuzzReadOutside(f *testing.F) {
	v1, err := os.ReadFile("testdata/outside-links1.json")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(v1, len(v1Text))
	v2, _, err := WriteOutside(v1Outside, len(v1Outside), archive.SumString(v1Text), len(v1Text))
	if err != nil {
		f.Fatal(err)
	}
	f.Add(v2, len(v1Text))
	f.Add([]byte(`{"version":"outside-links/2","text_hash":"sha256:0000000000000000000000000000000000000000000000000000000000000000","targets":["https://e.org/","a"],"shared":[0,14],"order":[1,0],"texts":["A","Home"]}`), 0)
	f.Add([]byte(`{"version":"outside-links/2","text_hash":"sha256:0000000000000000000000000000000000000000000000000000000000000000"}`), 10)
	f.Add([]byte(`{"version":"outside-links/2","text_hash":"sha256:0000000000000000000000000000000000000000000000000000000000000000","total":7,"targets":["https://e.org/"],"shared":[0],"order":[0],"texts":["Home"]}`), 0)
	f.Fuzz(func(t *testing.T, data []byte, textBytes int) {
		var j outsideJSON
		if json.Unmarshal(data, &j) != nil {
			return
		}
		h := j.TextHash // the links' own, that the fuzzer cannot make
		links, total, err := ReadOutside(data, h, textBytes)
		if err != nil {
			return
		}
		if total < len(links) {
			t.Fatalf("read %s: %d links of %d", data, len(links), total)
		}
		// Links of outside-links/1 may be more than are written now.
		links = links[:min(len(links), MaxOutsideLinks)]
		again, n, err := WriteOutside(links, total, h, 1<<30)
		if err != nil || n != len(links) {
			t.Fatalf("read %s, cannot write it: %d links of %d, %v", data, n, len(links), err)
		}
		back, backTotal, err := ReadOutside(again, h, 1<<30)
		if err != nil || !slices.Equal(back, links) || backTotal != total {
			t.Fatalf("read %s, wrote %s, read back %v (%v)", data, again, back, err)
		}
	})
}

// TestContractDocumentsOutsideLinks: docs/contract.md names both versions
// of outside links, and its example reads back to the links it spells out
// in the page's order.
func TestContractDocumentsOutsideLinks(t *testing.T) {
	data, err := os.ReadFile("../docs/contract.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := strings.Join(strings.Fields(string(data)), " ")
	for _, v := range []string{OutsideVersion, OutsideVersion1} {
		if !strings.Contains(doc, "`"+v+"`") {
			t.Errorf("docs/contract.md does not name %s", v)
		}
	}
	prefix := `{"version":"` + OutsideVersion + `"`
	start := strings.Index(string(data), "\n"+prefix)
	if start < 0 {
		t.Fatalf("docs/contract.md has no example of %s", OutsideVersion)
	}
	example, _, _ := strings.Cut(string(data)[start+1:], "\n")
	h := archive.SumString("")
	example = strings.Replace(example, "sha256:…", h.String(), 1)
	links, _, err := ReadOutside([]byte(example), h, 0)
	if err != nil || len(links) < 2 {
		t.Fatalf("the example %s: %v, %v", example, links, err)
	}
	var spelled []string
	for _, l := range links {
		spelled = append(spelled, "`"+l.Href+"` \""+l.Text+"\"")
	}
	if !strings.Contains(doc, strings.Join(spelled, ", ")) {
		t.Errorf("the example's links, %s, are not spelled out in order", strings.Join(spelled, ", "))
	}
	again, _, err := WriteOutside(links, len(links), h, 0)
	if err != nil || string(again) != example {
		t.Errorf("the example written again: %s (%v)", again, err)
	}
}

// TestFitOutside: the links counted to fit a budget are exactly as many as
// fit written, for targets and texts JSON escapes, not ASCII, and sharing
// prefixes, in any order.
func TestFitOutside(t *testing.T) {
	for _, s := range []string{"", "plain", `a "quoted" \ path`, "tab\tnew\nline\rback\x08feed\x0cbell\x07", "café ☕ \u2028\u2029 \xff"} {
		var b bytes.Buffer
		if err := writeJSON(&b, s); err != nil || jsonLen(s) != b.Len() {
			t.Errorf("%q: %d, written %s (%d)", s, jsonLen(s), b.String(), b.Len())
		}
	}
	var links []OutsideLink
	for i := range 120 {
		links = append(links, OutsideLink{
			Href: fmt.Sprintf("https://e.org/%s/%d?q=\"%d\"", []string{"a", "ab", "café", "a/b/c", "z"}[i%5], (i*37)%100, i%3),
			Text: fmt.Sprintf("Link %d ☕ \"%d\"", i, i*i),
		})
	}
	h := archive.SumString("x")
	total := len(links) + 1000
	full, err := encodeOutside(links, total, h)
	if err != nil {
		t.Fatal(err)
	}
	for budget := 0; budget <= len(full)+10; budget += 7 {
		n := fitOutside(links, total, h, budget)
		fits, err := encodeOutside(links[:n], total, h)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 && len(fits) > budget {
			t.Fatalf("budget %d: %d links counted to fit, written in %d bytes", budget, n, len(fits))
		}
		if n < len(links) {
			more, _ := encodeOutside(links[:n+1], total, h)
			if len(more) <= budget {
				t.Fatalf("budget %d: %d links counted to fit, %d fit in %d bytes", budget, n, n+1, len(more))
			}
		}
	}
}
