package ocr

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/digestd/digestd/internal/shareddata"
)

// TestUnusableLayer: layers of private-use code points, of symbols, of
// control characters and of letters from scripts mixed at random are
// unusable; text in any script, tables of contents with leaders, and
// Latin inside words of other scripts are not.
func TestUnusableLayer(t *testing.T) {
	repeat := func(s string) string { return strings.Repeat(s, 8) }
	for _, tc := range []struct {
		name, page string
		want       bool
	}{
		{"private-use glyphs", repeat("\ue011\ue02a\ue003 \ue044\ue015 "), true},
		{"symbols", repeat("¤¦§ ¨©ª« ¬®¯°± "), true},
		{"replacement characters", repeat("The \ufffd\ufffd\ufffd\ufffd \ufffd\ufffd\ufffd "), true},
		{"control characters", repeat("\x01\x02\x03a \x04\x05\x06 "), true},
		{"Greek and Cyrillic letters at random", repeat("ΔжΨ λфξ ЩβЖ "), true},
		{"English", repeat("The bridge over the river was designed in 1931. "), false},
		{"Chinese with Latin inside", repeat("BSkyB的标清广播是以DVB兼容MPEG进行的。"), false},
		{"Russian with Latin inside", repeat("COVID-инфекция и её последствия. "), false},
		{"Hindi", repeat("भारत एक विशाल देश है। "), false},
		{"a table of contents", repeat("Section 7.1 Indemnification ....................... 22 "), false},
		{"a short page", "¤¦§ ¨©ª«", false},
	} {
		if got := UnusableLayer(tc.page); got != tc.want {
			t.Errorf("%s: UnusableLayer = %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestUsableLayersOfTheDevSets: no page-sized part of the texts of the
// evidence sets (12 languages in XQuAD; papers, contracts, COVID-QA) is
// taken as an unusable layer.
func TestUsableLayersOfTheDevSets(t *testing.T) {
	root := shareddata.Set(t, "")
	var files []string
	for _, g := range []string{"evidence-xquad/docs/*/*.txt", "evidence-*/docs/*.txt"} {
		more, _ := filepath.Glob(filepath.Join(root, g))
		files = append(files, more...)
	}
	if len(files) < 1000 {
		t.Fatalf("%d texts found under %s", len(files), root)
	}
	pages := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for s := string(b); len(s) > 0; pages++ {
			n := min(len(s), 3000)
			for n < len(s) && s[n]&0xC0 == 0x80 {
				n++
			}
			if UnusableLayer(s[:n]) {
				t.Errorf("%s: a usable page taken as unusable: %.200q", f, s[:n])
			}
			s = s[n:]
		}
	}
	t.Logf("%d pages of %d texts", pages, len(files))
}
