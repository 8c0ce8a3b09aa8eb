package digest

import (
	"slices"
	"strings"
	"testing"
)

func TestUnwrap(t *testing.T) {
	tests := []struct {
		name, text, want string
	}{
		{"wrapped sentence", "the virus spread was\nlimited in spring", "the virus spread was limited in spring"},
		{"hyphen at the break", "lower environ-\nmental temperatures", "lower environ- mental temperatures"},
		{"comma at the break", "fever, cough,\nSore throat", "fever, cough, Sore throat"},
		{"sentence end", "It ended.\nthen more", "It ended.\nthen more"},
		{"upper-case start", "Methods\nWe sampled", "Methods\nWe sampled"},
		{"paragraph break", "first part\n\nsecond part", "first part\n\nsecond part"},
		{"page break", "first part\fsecond", "first part\fsecond"},
		{"no breaks", "one line", "one line"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unwrap(tt.text)
			if got != tt.want {
				t.Errorf("unwrap(%q) = %q, want %q", tt.text, got, tt.want)
			}
			if len(got) != len(tt.text) {
				t.Errorf("length changed: %d, want %d", len(got), len(tt.text))
			}
		})
	}
}

func TestAnalyzeHardWrapped(t *testing.T) {
	d := analyze("The ﬁrst wave of inﬂuenza was\nmild in most places. A sec-\nond wave followed.\nMethods\nWe counted cases.")
	var got []string
	for _, s := range d.sents {
		got = append(got, d.text[s.start:s.end])
	}
	want := []string{"The ﬁrst wave of inﬂuenza was\nmild in most places.", "A sec-\nond wave followed.", "Methods", "We counted cases."}
	if !slices.Equal(got, want) {
		t.Fatalf("sentences %q, want %q", got, want)
	}
	// Ligatures and hyphenated line breaks index as plain words.
	for _, w := range []string{"first", "influenza", "second"} {
		if _, ok := d.vocab[stem(w)]; !ok {
			t.Errorf("term %q missing from %v", w, d.stems)
		}
	}
	// Blocks follow hard breaks only: the heading is a block of its own.
	if d.sents[0].block != d.sents[1].block || d.sents[2].block == d.sents[1].block || d.sents[3].block == d.sents[2].block {
		t.Errorf("blocks %d %d %d %d", d.sents[0].block, d.sents[1].block, d.sents[2].block, d.sents[3].block)
	}
}

func TestTokenizeGreek(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		{"IL-1β and TNF-α", []string{"il", "1beta", "tnf", "alpha"}},
		{"interleukin-1beta", []string{"interleukin", "1beta"}},
		{"IFNγ levels", []string{"ifngamma", "level"}},
		{"λόγος", []string{"λόγος"}}, // a Greek word stays Greek
	}
	for _, tt := range tests {
		d := analyze(tt.text)
		var got []string
		for _, s := range d.sents {
			for _, id := range s.terms {
				got = append(got, d.stems[id])
			}
		}
		if !slices.Equal(got, tt.want) {
			t.Errorf("%q: terms %q, want %q", tt.text, got, tt.want)
		}
	}
}

func TestUnwrapHardWrappedCapitals(t *testing.T) {
	// Twenty wrapped lines make a hard-wrapped text; then a long line
	// that ends inside a sentence runs on before a capital too, while a
	// short line (a heading) stays a line of its own.
	var text string
	for range 20 {
		text += "the first wave of the pandemic spread across the\nnorthern cities during the spring months. "
	}
	text += "\nsurveillance data from the health ministry of the\nUnited States showed three waves.\nResults\nThe waves were mild."
	got := unwrap(text)
	if want := "of the United States"; !strings.Contains(got, want) {
		t.Errorf("capital after a long wrapped line not joined: %q", got[len(got)-120:])
	}
	if want := "waves.\nResults\nThe"; !strings.Contains(got, want) {
		t.Errorf("heading joined: %q", got[len(got)-120:])
	}
	if len(got) != len(text) {
		t.Errorf("length changed")
	}
}

func TestAskedDropsCategoryWords(t *testing.T) {
	tests := []struct{ query, want string }{
		{"What type of virus is 2019-nCoV?", "What  of virus is 2019-nCoV?"},
		{"Which kinds of cells express it?", "Which  of cells express it?"},
		{"What is the blood type of the patients?", "What is the blood type of the patients?"},
		{"type of virus", "type of virus"},
	}
	for _, tt := range tests {
		if got := asked(tt.query); got != tt.want {
			t.Errorf("asked(%q) = %q, want %q", tt.query, got, tt.want)
		}
	}
	d := analyze("The virus is a betacoronavirus of a new type.")
	if got := termNames(d, d.queryTerms("What type of virus is it?")); slices.Contains(got, "type") {
		t.Errorf("query terms %v hold the category word", got)
	}
}

// TestTokenizeThai: a run of Thai reads as the overlapping pairs of its
// clusters (a letter with its vowel and tone marks), a run of one cluster
// as itself; the words around it are read as before.
func TestTokenizeThai(t *testing.T) {
	tests := []struct {
		text string
		want []string
	}{
		// เ, มื่, อ: the marks stay with their letter.
		{"เมื่อ", []string{"เมื่", "มื่อ"}},
		{"ที่", []string{"ที่"}},
		{"ok ก DNA", []string{"ok", "ก", "dna"}},
		{"ปีก่อน.", []string{"ปีก่", "ก่อ", "อน"}},
	}
	for _, tt := range tests {
		if got := Words(tt.text); !slices.Equal(got, tt.want) {
			t.Errorf("%q: words %q, want %q", tt.text, got, tt.want)
		}
	}
}
