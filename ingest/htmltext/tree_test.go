package htmltext

import (
	"bytes"
	"path/filepath"
	"testing"

	"golang.org/x/net/html"
)

// Result.Tree gives back the tree as parsed, whatever the extraction took
// out of it: on every fixture page it renders as a fresh parse of the page
// does, and the extraction took something out of most of them.
func TestTreeIsTheParsedPage(t *testing.T) {
	files, err := filepath.Glob("testdata/*.html")
	if err != nil || len(files) == 0 {
		t.Fatalf("no fixtures: %v", err)
	}
	cleaned := 0
	for _, f := range files {
		raw := readFixture(t, filepath.Base(f))
		res, err := Extract(raw, "text/html", "")
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		if len(res.removed) > 0 {
			cleaned++
		}
		decoded, _ := decode(raw, "text/html")
		fresh, err := parse(decoded)
		if err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		want, got := render(t, fresh), render(t, res.Tree())
		if !bytes.Equal(got, want) {
			t.Errorf("%s: Tree differs from the parsed page", f)
		}
		if again := render(t, res.Tree()); !bytes.Equal(again, want) {
			t.Errorf("%s: a second Tree differs from the parsed page", f)
		}
	}
	if cleaned < len(files)/2 {
		t.Errorf("the extraction took something out of %d of %d pages only", cleaned, len(files))
	}
	// A page read by the flat scan has no tree.
	deep := bytes.Repeat([]byte("<div>"), 2000)
	res, err := Extract(append(deep, "text"...), "text/html", "")
	if err != nil || res.Tree() != nil || res.Text != "text" {
		t.Errorf("deep page: tree %v, text %q, %v", res.Tree(), res.Text, err)
	}
}

func render(t *testing.T, n *html.Node) []byte {
	t.Helper()
	var b bytes.Buffer
	if err := html.Render(&b, n); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}
