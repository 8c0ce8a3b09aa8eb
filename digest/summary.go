package digest

import (
	"sort"
	"strings"
	"unicode"
	"unicode/utf8"
)

// minSummaryWords is the fewest words a sentence needs to enter a summary or
// key points; shorter ones are headings, captions and labels.
const minSummaryWords = 5

// summarize returns an extractive summary of at most SummaryMaxChars code
// points (leading sentences, which carry a document's gist) and up to
// MaxKeyPoints key points: the highest-scoring remaining sentences in
// document order. No sentence appears twice.
func summarize(d *document, scores []float64, opts Options) (string, []string) {
	used := make([]bool, len(d.sents))
	var b strings.Builder
	n := 0
	for i := range d.sents {
		s := &d.sents[i]
		if !summaryWorthy(d, s) {
			continue
		}
		l := s.chars()
		sep := 0
		if n > 0 {
			sep = 1
		}
		if n+sep+l > opts.SummaryMaxChars {
			if n > 0 {
				break
			}
			continue
		}
		if sep > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(d.text[s.start:s.end])
		n += sep + l
		used[i] = true
	}

	var cands []int
	for i := range d.sents {
		if !used[i] && summaryWorthy(d, &d.sents[i]) && d.sents[i].chars() <= MaxKeyPointChars {
			cands = append(cands, i)
		}
	}
	sort.SliceStable(cands, func(a, b int) bool { return scores[cands[a]] > scores[cands[b]] })
	if len(cands) > opts.MaxKeyPoints {
		cands = cands[:opts.MaxKeyPoints]
	}
	sort.Ints(cands)
	kps := make([]string, 0, len(cands))
	for _, i := range cands {
		kps = append(kps, d.text[d.sents[i].start:d.sents[i].end])
	}
	return b.String(), kps
}

// summaryWorthy reports whether s reads as a sentence: enough words, a
// letter to start and a stop to end.
func summaryWorthy(d *document, s *sentence) bool {
	if s.words < minSummaryWords {
		return false
	}
	str := d.text[s.start:s.end]
	r, _ := utf8.DecodeRuneInString(str)
	if !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '"' && r != '“' && r != '(' {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(strings.TrimRight(str, "\"'”’)]"))
	return last == '.' || last == '!' || last == '?' || last == '。' || last == '！' || last == '？'
}
