package bleveindex

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/index/scorch"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/search"
)

// Two sources, one in Thai (written without spaces between words) and one
// in English.
const (
	thaiText    = "เมื่อ ประมาณหนึ่งพันล้านปีก่อน ไซยาโนแบคทีเรียที่ใช้ชีวิตอิสระเข้าสู่ ยูคาริโอติก เซลล์"
	englishText = "About a billion years ago, a free-living cyanobacterium entered an early eukaryotic cell."
)

func putBoth(t *testing.T, x *Index) (thai, english archive.Hash) {
	t.Helper()
	thai, english = archive.SumString(thaiText), archive.SumString(englishText)
	var docs []search.Document
	for h, text := range map[archive.Hash]string{thai: thaiText, english: englishText} {
		docs = append(docs, search.Document{Source: search.Source{Hash: h, Kind: "text", Added: time.Unix(1, 0)}, Passages: search.PassagesOf(text)})
	}
	if err := x.Put(context.Background(), docs...); err != nil {
		t.Fatal(err)
	}
	return thai, english
}

// A question in Thai finds the Thai passage, although neither is split
// into words, and nothing else; English questions are read as before.
func TestUnspacedScripts(t *testing.T) {
	x, err := Open(filepath.Join(t.TempDir(), "index"))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	thai, english := putBoth(t, x)
	for _, tc := range []struct {
		query string
		want  archive.Hash
	}{
		{"เซลล์ประเภทใดที่ไซยาโนแบคทีเรียเข้าเมื่อนานมาแล้ว?", thai},
		{"Which cells did cyanobacteria enter?", english},
	} {
		cands, _, err := x.Candidates(context.Background(), tc.query, search.Filter{}, 10)
		if err != nil {
			t.Fatal(err)
		}
		if len(cands) == 0 {
			t.Errorf("%q: no candidates, want %s", tc.query, tc.want)
		}
		for _, c := range cands {
			if c.Source != tc.want {
				t.Errorf("%q: a candidate of %s, which holds none of its words", tc.query, c.Source)
			}
		}
	}
}

// An index whose passages were analysed otherwise (bleve's English
// analysis, as indexes were made before bodyAnalyzer) is rebuilt when it
// is opened: it opens empty, for the reconcile to fill, and reads Thai.
func TestOpenRebuildsAnIndexOfAnotherAnalysis(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "index")
	m := indexMapping().(*mapping.IndexMappingImpl)
	m.TypeMapping[typePassage].Properties["body"].Fields[0].Analyzer = en.AnalyzerName
	b, err := bleve.NewUsing(dir, m, scorch.Name, scorch.Name, nil)
	if err != nil {
		t.Fatal(err)
	}
	old := &Index{b: b}
	putBoth(t, old)
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	x, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if got := analyzerOf(x.b); got != bodyAnalyzer {
		t.Fatalf("reopened with analyzer %q, want %q", got, bodyAnalyzer)
	}
	n := 0
	if err := x.Sources(context.Background(), func(search.Source) error { n++; return nil }); err != nil {
		t.Fatal(err)
	}
	if n != 0 {
		t.Fatalf("the rebuilt index holds %d sources, want none until the reconcile", n)
	}
	thai, _ := putBoth(t, x)
	cands, _, err := x.Candidates(context.Background(), "เซลล์ประเภทใดที่ไซยาโนแบคทีเรียเข้าเมื่อนานมาแล้ว?", search.Filter{}, 10)
	if err != nil || len(cands) == 0 || cands[0].Source != thai {
		t.Fatalf("candidates %+v, %v; want the Thai source", cands, err)
	}
}
