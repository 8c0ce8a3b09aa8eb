package htmltext

import (
	"fmt"
	"strings"
	"testing"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

func TestReopenedElements(t *testing.T) {
	distinctOpen := func(n int) string {
		var b strings.Builder
		b.WriteString("<p>")
		for i := 0; i < n; i++ {
			fmt.Fprintf(&b, `<b a%d>`, i)
		}
		b.WriteString("</p>")
		return b.String()
	}
	tests := []struct {
		name    string
		html    string
		atLeast int // the estimate must reach this
		atMost  int // and stay under this
	}{
		{"closed formatting", strings.Repeat("<p><b>bold</b> and <i>it</i> text</p>", 2000), 0, 10_000},
		{"unclosed inside cells", "<table>" + strings.Repeat("<tr><td><b>x<td><i>y", 2000) + "</table><p>after</p>", 0, 10_000},
		{"identical unclosed tags", strings.Repeat(`<font color="red">`, 1000) + strings.Repeat("<p>text", 1000), 0, 10_000},
		{"distinct unclosed tags reopened", distinctOpen(400) + strings.Repeat("<p>x", 4000), maxReopened, 1 << 62},
		{"unclosed links", strings.Repeat(`<a href="/x">link `, 5000), 0, 20_000},
	}
	for _, tc := range tests {
		_, got := scanTokens([]byte(tc.html), 1<<62, maxReopened)
		if got < tc.atLeast || got > tc.atMost {
			t.Errorf("%s: estimate %d, want in [%d, %d]", tc.name, got, tc.atLeast, tc.atMost)
		}
	}
}

// The amplifying page is extracted by the flat scan: its text survives and
// no tree is built.
func TestAmplifyingPageFallsBack(t *testing.T) {
	var b strings.Builder
	b.WriteString("<html><body><p>")
	for i := 0; i < 400; i++ {
		fmt.Fprintf(&b, `<b a%d>`, i)
	}
	b.WriteString("</p>")
	for i := 0; i < 4000; i++ {
		b.WriteString("<p>x")
	}
	b.WriteString("<p>The last words.")
	res, err := Extract([]byte(b.String()), "text/html", "")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "The last words.") {
		t.Errorf("text lost: %.200q", res.Text)
	}
}

// BenchmarkScanTokensTrafilatura measures the pre-scan alone on the
// trafilatura pages, to compare with BenchmarkDecodeParseTrafilatura.
func BenchmarkScanTokensTrafilatura(b *testing.B) {
	pages := loadPages(b)
	decoded := make([][]byte, len(pages))
	for i, p := range pages {
		decoded[i], _ = decode(p, "")
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		for _, d := range decoded {
			scanTokens(d, DefaultMaxNodes, maxReopened)
		}
	}
	b.ReportMetric(float64(b.N*len(pages))/b.Elapsed().Seconds(), "docs/s")
}

// TestTagAtomMatchesTokenizer checks that tagAtom reads the same atom from
// a tag's raw bytes as the tokenizer's TagName does.
func TestTagAtomMatchesTokenizer(t *testing.T) {
	page := "<!DOCTYPE html><HTML><Body class=x><DIV\nid=a>t</DIV ><br/><img src=a.png/>" +
		"<p\tclass=b>x</P><a\fhref=#>y</a><B>z</b><custom-element>w</custom-element>" +
		"<sc\x00ript>v</sc\x00ript><averyveryveryverylongnamebeyondatoms>u</averyveryveryverylongnamebeyondatoms>" +
		"<script>if (a<b) {}</script><textarea>q</textarea><table><td>r</td></table></body></html>"
	z := html.NewTokenizer(strings.NewReader(page))
	tags := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if tt != html.StartTagToken && tt != html.EndTagToken && tt != html.SelfClosingTagToken {
			continue
		}
		raw := string(z.Raw())
		name, _ := z.TagName()
		if got, want := tagAtom([]byte(raw)), atom.Lookup(name); got != want {
			t.Errorf("tagAtom(%q) = %v, want %v", raw, got, want)
		}
		tags++
	}
	if tags < 20 {
		t.Fatalf("read %d tags, want at least 20", tags)
	}
}

// TestVisibleRunesMatchesRunLen checks that the bounded count agrees with
// runLen below its limit and stops at it.
func TestVisibleRunesMatchesRunLen(t *testing.T) {
	for _, s := range []string{"", "  ", "a b,c", "\tx\u00a0y\u0085z\u3000", "héllo wörld", "a\xffb", "日本語 テキスト"} {
		chars, _ := runLen(s)
		if got := visibleRunes(s, chars+1); got != chars {
			t.Errorf("visibleRunes(%q, %d) = %d, want %d", s, chars+1, got, chars)
		}
		if chars > 1 {
			if got := visibleRunes(s, chars-1); got != chars-1 {
				t.Errorf("visibleRunes(%q, %d) = %d, want %d", s, chars-1, got, chars-1)
			}
		}
	}
}
