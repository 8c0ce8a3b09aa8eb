package lang_test

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/internal/testenv"
	"github.com/digestd/digestd/lang"
)

func TestDetect(t *testing.T) {
	for _, c := range []struct{ text, want string }{
		{"Mother-to-child transmission is the main cause of HIV-1 infection in children.", "en"},
		{"Die Übertragung von der Mutter auf das Kind ist die häufigste Ursache der Infektion bei Kindern.", "de"},
		{"La transmisión de madre a hijo es la principal causa de infección en los niños.", "es"},
		{"Передача инфекции от матери к ребёнку — главная причина заражения детей.", "ru"},
		{"Η μετάδοση από τη μητέρα στο παιδί είναι η κύρια αιτία μόλυνσης στα παιδιά.", "el"},
		{"انتقال العدوى من الأم إلى الطفل هو السبب الرئيسي للإصابة لدى الأطفال.", "ar"},
		{"माँ से बच्चे में संक्रमण बच्चों में संक्रमण का मुख्य कारण है।", "hi"},
		{"การติดเชื้อจากแม่สู่ลูกเป็นสาเหตุหลักของการติดเชื้อในเด็ก", "th"},
		{"母婴传播是儿童感染艾滋病毒的主要原因。", "zh"},
		{"母子感染は子どもの感染の主な原因です。", "ja"},
		{"모자 감염은 어린이 감염의 주요 원인입니다.", "ko"},
		{"Anneden çocuğa bulaş, çocuklardaki enfeksiyonun başlıca nedenidir.", "tr"},
		{"Lây truyền từ mẹ sang con là nguyên nhân chính gây nhiễm bệnh ở trẻ em.", "vi"},
		{"1234 5678 — 3.14", ""},
		{"", ""},
	} {
		got := lang.Detect(c.text)
		if got.Language != c.want {
			t.Errorf("Detect(%.40q) = %+v, want %q", c.text, got, c.want)
		}
		if got.Confidence < 0 || got.Confidence > 1 || (got.Language == "") != (got.Confidence == 0) {
			t.Errorf("Detect(%.40q) = %+v: confidence out of [0, 1] or without a language", c.text, got)
		}
	}
}

func TestDecide(t *testing.T) {
	for _, c := range []struct {
		declared string
		detected lang.Detection
		want     lang.Detection
	}{
		{"", lang.Detection{Language: "de", Confidence: 0.9}, lang.Detection{Language: "de", Confidence: 0.9}},
		{"en-US", lang.Detection{Language: "de", Confidence: 0.9}, lang.Detection{Language: "de", Confidence: 0.9}},
		{"en-US", lang.Detection{Language: "de", Confidence: 0.3}, lang.Detection{Language: "en"}},
		{"EN_gb", lang.Detection{Language: "en", Confidence: 0.3}, lang.Detection{Language: "en", Confidence: 0.3}},
		{"zh-Hant", lang.Detection{}, lang.Detection{Language: "zh"}},
		{"english", lang.Detection{Language: "de", Confidence: 0.3}, lang.Detection{Language: "de", Confidence: 0.3}},
		{"x-klingon", lang.Detection{}, lang.Detection{}},
	} {
		if got := lang.Decide(c.declared, c.detected); got != c.want {
			t.Errorf("Decide(%q, %+v) = %+v, want %+v", c.declared, c.detected, got, c.want)
		}
	}
}

func TestSampleIsBounded(t *testing.T) {
	text := strings.Repeat("Ein kurzer deutscher Satz über nichts. ", 3000)
	s := lang.Sample(text)
	if n := utf8.RuneCountInString(s); n > lang.SampleChars+lang.SampleWindows {
		t.Errorf("sample of %d code points, want at most %d", n, lang.SampleChars+lang.SampleWindows)
	}
	if short := "Kurz."; lang.Sample(short) != short {
		t.Error("a short text is not its own sample")
	}
}

// TestAccuracyXQuAD measures detection on evidence-xquad: every document,
// whose language is its folder's name, and every question, whose language
// its case names. The floors sit just under the figures docs/languages.md
// reports.
func TestAccuracyXQuAD(t *testing.T) {
	if testing.Short() {
		t.Skip("reads the evaluation data")
	}
	dir := filepath.Join("..", "..", "shared", "data", "evidence-xquad")
	docs, _ := filepath.Glob(filepath.Join(dir, "docs", "*", "*.txt"))
	testenv.Need(t, len(docs) > 0, "evaluation data in %s", dir)
	hits := 0
	for _, p := range docs {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		if want := filepath.Base(filepath.Dir(p)); lang.Detect(string(b)).Language == want {
			hits++
		} else {
			t.Logf("%s: detected %+v", p, lang.Detect(string(b)))
		}
	}
	docShare := float64(hits) / float64(len(docs))
	f, err := os.Open(filepath.Join(dir, "cases.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	per := map[string][2]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	questions, qhits := 0, 0
	for sc.Scan() {
		var c struct{ Lang, Question string }
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatal(err)
		}
		x := per[c.Lang]
		x[1]++
		questions++
		if lang.Detect(c.Question).Language == c.Lang {
			x[0]++
			qhits++
		}
		per[c.Lang] = x
	}
	qShare := float64(qhits) / float64(questions)
	t.Logf("documents %d/%d (%.3f), questions %d/%d (%.3f)", hits, len(docs), docShare, qhits, questions, qShare)
	for l, x := range per {
		t.Logf("questions %s: %.3f", l, float64(x[0])/float64(x[1]))
	}
	if docShare < 0.99 || qShare < 0.89 {
		t.Errorf("documents %.3f (floor 0.99), questions %.3f (floor 0.89)", docShare, qShare)
	}
}

// BenchmarkDetect100k is detection on a text of 100,000 code points (an
// XQuAD article repeated when the data is there, else a German sentence):
// the bar is 5 ms.
func BenchmarkDetect100k(b *testing.B) {
	base := "Die Übertragung von der Mutter auf das Kind ist die häufigste Ursache der Infektion bei Kindern. "
	if raw, err := os.ReadFile(filepath.Join("..", "..", "shared", "data", "evidence-xquad", "docs", "de", "a00.txt")); err == nil {
		base = string(raw) + "\n"
	}
	text := strings.Repeat(base, 100000/utf8.RuneCountInString(base)+1)
	text = string([]rune(text)[:100000])
	lang.Detect(text) // loads the models
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		lang.Detect(text)
	}
}
