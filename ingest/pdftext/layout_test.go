package pdftext

import (
	"math"
	"strings"
	"testing"
)

// run places s as glyphs from (x, y) in direction dir, each 0.5 em wide;
// spaces become space glyphs.
func run(s string, x, y, size float64, dir int) []glyph {
	var out []glyph
	dx, dy := 1.0, 0.0
	switch dir {
	case 1:
		dx, dy = 0, 1
	case 2:
		dx, dy = -1, 0
	case 3:
		dx, dy = 0, -1
	}
	for _, r := range s {
		out = append(out, glyph{s: string(r), x: x, y: y, w: 0.5 * size, size: size, dir: dir, space: r == ' '})
		x += dx * 0.5 * size
		y += dy * 0.5 * size
	}
	return out
}

func lines(x, y, size, leading float64, ls ...string) []glyph {
	var out []glyph
	for i, l := range ls {
		out = append(out, run(l, x, y-float64(i)*leading, size, 0)...)
	}
	return out
}

func pageText(gs []glyph) string {
	var paras []string
	for _, b := range layoutPage(gs) {
		paras = append(paras, b.paras...)
	}
	resolveHyphens([][]string{paras})
	return strings.Join(paras, "\n")
}

func TestLayout(t *testing.T) {
	tests := []struct {
		name   string
		glyphs []glyph
		want   string
	}{
		{"words from gaps", append(run("alpha", 0, 100, 10, 0), run("beta", 28, 100, 10, 0)...), "alpha beta"},
		{"no space inside a word", append(run("gam", 0, 100, 10, 0), run("ma", 15.5, 100, 10, 0)...), "gamma"},
		{"lines joined", lines(0, 100, 10, 12, "first line of a", "paragraph here"), "first line of a paragraph here"},
		{"hyphen undone", lines(0, 100, 10, 12, "an exam-", "ple of it"), "an example of it"},
		{"compound kept", lines(0, 100, 10, 12, "the state-of-", "the-art method of work"), "the state-of-the-art method of work"},
		{"compound kept when both parts are words", lines(0, 100, 10, 12, "a well-", "known fact as well as known"), "a well-known fact as well as known"},
		{"joined word elsewhere", lines(0, 100, 10, 12, "it is under-", "stood as understood"), "it is understood as understood"},
		{"capital after hyphen kept", lines(0, 100, 10, 12, "Jean-", "Paul said"), "Jean-Paul said"},
		{"paragraph gap", lines(0, 200, 10, 30, "one paragraph", "another one"), "one paragraph\nanother one"},
		{"indent starts a paragraph", append(lines(0, 200, 10, 12, "a long first line that fills", "the end."),
			run("New paragraph here", 20, 176, 10, 0)...), "a long first line that fills the end.\nNew paragraph here"},
		{"two columns", append(
			lines(0, 200, 10, 12, "left one aaaaaaaaaaaa", "left two aaaaaaaaaaaa"),
			lines(200, 200, 10, 12, "right one bbbbbbbbbbb", "right two bbbbbbbbbbb")...),
			"left one aaaaaaaaaaaa left two aaaaaaaaaaaa\nright one bbbbbbbbbbb right two bbbbbbbbbbb"},
		{"title above columns", append(append(
			run("A Title Spanning Both Columns Of The Page", 40, 260, 14, 0),
			lines(0, 200, 10, 12, "left one aaaaaaaaaaaa", "left two aaaaaaaaaaaa")...),
			lines(200, 200, 10, 12, "right one bbbbbbbbbbb", "right two bbbbbbbbbbb")...),
			"A Title Spanning Both Columns Of The Page\nleft one aaaaaaaaaaaa left two aaaaaaaaaaaa\nright one bbbbbbbbbbb right two bbbbbbbbbbb"},
		{"table read row by row", append(append(
			run("Name", 0, 200, 10, 0), run("Size", 80, 200, 10, 0)...), append(
			append(run("alpha", 0, 188, 10, 0), run("12", 80, 188, 10, 0)...),
			append(run("beta", 0, 176, 10, 0), run("7", 80, 176, 10, 0)...)...)...),
			"Name Size\nalpha 12\nbeta 7"},
		{"bullets set apart join their items", append(append(append(append(append(
			run("•", 0, 200, 10, 0), run("First item of the list.", 20, 200, 10, 0)...),
			run("•", 0, 188, 10, 0)...), run("Second item of the list.", 20, 188, 10, 0)...),
			run("•", 0, 176, 10, 0)...), run("Third item of the list.", 20, 176, 10, 0)...),
			"• First item of the list.\n• Second item of the list.\n• Third item of the list."},
		{"raised smaller bullets join their items", append(append(append(
			run("▪", 0, 203, 7, 0), run("Tea is grown on the hills.", 20, 200, 10, 0)...),
			run("▪", 0, 191, 7, 0)...), run("Rice is grown in the valley.", 20, 188, 10, 0)...),
			"▪ Tea is grown on the hills.\n▪ Rice is grown in the valley."},
		{"numbers set apart join their items", append(append(append(
			run("1.", 0, 200, 10, 0), run("Mix the flour and water.", 30, 200, 10, 0)...),
			run("2.", 0, 188, 10, 0)...), run("Leave the dough to rise.", 30, 188, 10, 0)...),
			"1. Mix the flour and water.\n2. Leave the dough to rise."},
		{"list item continues under its text", append(run("1. first item that is long", 0, 200, 10, 0),
			run("and wraps.", 15, 188, 10, 0)...), "1. first item that is long and wraps."},
		{"accent over a letter composes", append(append(run("caf", 0, 100, 10, 0), glyph{s: "\u00b4", x: 16, y: 102, w: 3, size: 10}),
			run("e", 15, 100, 10, 0)...), "caf\u00e9"},
		{"ligature expanded", run("e\ufb03cient \ufb02ow", 0, 100, 10, 0), "efficient flow"},
		{"rotated text", run("going up", 100, 0, 10, 1), "going up"},
		{"upside down text", run("flipped", 100, 100, 10, 2), "flipped"},
		{"overprinted bold once", append(run("bold", 0, 100, 10, 0), run("bold", 0.3, 100, 10, 0)...), "bold"},
		{"right to left reversed", run("\u05dd\u05d5\u05dc\u05e9", 0, 100, 10, 0), "\u05e9\u05dc\u05d5\u05dd"},
		{"arabic presentation forms", run("\ufefb", 0, 100, 10, 0), "\u0644\u0627"},
		{"superscript on the line", append(run("E = mc", 0, 100, 10, 0), glyph{s: "2", x: 30.5, y: 103, w: 3.5, size: 7}),
			"E = mc2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := pageText(tt.glyphs); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestRemoveFurniture(t *testing.T) {
	var pages []pageLayout
	for i := range 5 {
		gs := append(lines(72, 500, 10, 12, "Distinct body text "+strings.Repeat("x", i)),
			run("Proceedings of Something", 72, 770, 9, 0)...)
		gs = append(gs, run(string(rune('1'+i)), 300, 30, 9, 0)...)
		pages = append(pages, pageLayout{blocks: layoutPage(gs), box: [4]float64{0, 0, 612, 792}})
	}
	removeFurniture(pages)
	for i, p := range pages {
		var texts []string
		for _, b := range p.blocks {
			texts = append(texts, b.paras...)
		}
		got := strings.Join(texts, "|")
		want := strings.TrimSpace("Distinct body text " + strings.Repeat("x", i))
		if got != want {
			t.Errorf("page %d: got %q, want %q", i+1, got, want)
		}
	}
}

func TestSettleVertical(t *testing.T) {
	// Vertical-font glyphs placed left to right on one baseline.
	var gs []glyph
	for i, r := range "abc" {
		gs = append(gs, glyph{s: string(r), x: float64(i) * 5, y: 100, size: 10, dir: 3, w: 10, vert: true, hdir: 0, hw: 5})
	}
	settleVertical(gs)
	if got := pageText(gs); got != "abc" {
		t.Errorf("horizontal run: got %q", got)
	}
	// Really stacked downwards: stays vertical.
	gs = gs[:0]
	for i, r := range "xyz" {
		gs = append(gs, glyph{s: string(r), x: 100, y: 100 - float64(i)*10, size: 10, dir: 3, w: 10, vert: true, hdir: 0, hw: 5})
	}
	settleVertical(gs)
	if gs[1].dir != 3 {
		t.Errorf("stacked run moved to direction %d", gs[1].dir)
	}
	if got := pageText(gs); got != "xyz" {
		t.Errorf("vertical run: got %q", got)
	}
}

// FuzzLayout feeds arbitrary glyph layouts to the layout stage: it must not
// panic, must terminate and must emit only text from the glyphs.
func FuzzLayout(f *testing.F) {
	f.Add([]byte("hello world\x00two columns"), 10.0, 3)
	f.Add([]byte{1, 2, 3, 200, 100, 50}, 0.001, 0)
	f.Fuzz(func(t *testing.T, data []byte, size float64, seed int) {
		if len(data) > 2000 || math.IsNaN(size) || math.IsInf(size, 0) {
			return
		}
		size = math.Abs(math.Mod(size, 100)) + 0.5
		var gs []glyph
		for i, b := range data {
			x := float64((int(b)*7+i*13+seed)%600) + float64(i%5)
			y := float64((int(b)*3 + i*seed) % 800)
			gs = append(gs, glyph{s: string(rune('a' + b%26)), x: x, y: y, w: 0.5 * size, size: size, dir: int(b) % numDirs, space: b%9 == 0})
		}
		out := pageText(gs)
		for _, r := range out {
			if r != ' ' && r != '\n' && (r < 'a' || r > 'z') {
				t.Fatalf("unexpected rune %q in %q", r, out)
			}
		}
	})
}

func TestRemovePageNumber(t *testing.T) {
	page := func(gs ...[]glyph) []pageLayout {
		var all []glyph
		for _, g := range gs {
			all = append(all, g...)
		}
		return []pageLayout{{blocks: layoutPage(all), box: [4]float64{0, 0, 612, 792}}}
	}
	text := func(pages []pageLayout) string {
		var texts []string
		for _, b := range pages[0].blocks {
			texts = append(texts, b.paras...)
		}
		return strings.Join(texts, "|")
	}
	tests := []struct {
		name  string
		pages []pageLayout
		want  string
	}{
		{"own number at the foot", page(lines(72, 500, 10, 12, "Body text of one page."), run("1", 300, 30, 9, 0)), "Body text of one page."},
		{"dashed number at the head", page(lines(72, 500, 10, 12, "Body text of one page."), run("- 1 -", 300, 770, 9, 0)), "Body text of one page."},
		{"another page's number stays", page(lines(72, 500, 10, 12, "Body text of one page."), run("4", 300, 30, 9, 0)), "Body text of one page.|4"},
		{"a number in the body stays", page(lines(72, 700, 10, 12, "Body text of one page."), run("1", 300, 400, 10, 0)), "Body text of one page.|1"},
		{"a page of its number alone keeps it", page(run("1", 300, 30, 9, 0)), "1"},
	}
	for _, tt := range tests {
		removeFurniture(tt.pages)
		if got := text(tt.pages); got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, got, tt.want)
		}
	}
}
