package evaluate

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/digest/sentences"
	"github.com/digestd/digestd/normalize"
)

// hygieneCase is one line of an extract, evidence or summary set's
// cases.jsonl, with the fields the hygiene report reads: an extract case
// names a page (Kind, File), the others a document (Doc) and maybe a
// question.
type hygieneCase struct {
	ID        string `json:"id"`
	Kind      string `json:"kind"`
	File      string `json:"file"`
	Encrypted bool   `json:"encrypted"`
	Doc       string `json:"doc"`
	Question  string `json:"question"`
}

// Hygiene thresholds: a key point that is a whole
// block of fewer than notSentenceWords words without sentence-final
// punctuation is no sentence, and a block found on boilerplatePages pages
// or more of one set is boilerplate.
const (
	notSentenceWords = 8
	boilerplatePages = 3
	// copyShare is the share of its characters a document shares, in
	// whole blocks, with a larger one when it is a copy of it.
	copyShare = 0.8
)

// copies returns, for each document given as its distinct blocks, the
// first document it is a copy of (itself when none): one whose blocks hold
// at least copyShare of the characters of both. A set that holds one text
// several times (a sample document from many producers) shows that text's
// sentences on several pages without their being boilerplate.
func copies(docs [][]string) []int {
	size := make([]int, len(docs))
	holders := map[string][]int{}
	for i, bs := range docs {
		for _, b := range bs {
			size[i] += len(b)
			holders[b] = append(holders[b], i)
		}
	}
	out := make([]int, len(docs))
	for i, bs := range docs {
		out[i] = i
		shared := map[int]int{}
		for _, b := range bs {
			for _, j := range holders[b] {
				if j < i {
					shared[j] += len(b)
				}
			}
		}
		for j := range i {
			n := shared[j]
			if n > 0 && float64(n) >= copyShare*float64(max(size[i], size[j])) {
				out[i] = out[j]
				break
			}
		}
	}
	return out
}

// distinct returns blocks without repeats, in their first order.
func distinct(blocks []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, b := range blocks {
		if !seen[b] {
			seen[b] = true
			out = append(out, b)
		}
	}
	return out
}

// repeats reports whether one of a and b holds the other and the held one
// has at least half the other's words: a scrap of a few words ("1.", "We
// do not") inside a sentence repeats nothing.
func repeats(a, b string) bool {
	if len(b) > len(a) {
		a, b = b, a
	}
	return b != "" && strings.Contains(a, b) && 2*len(strings.Fields(b)) >= len(strings.Fields(a))
}

// Hygiene digests every document of the extract, evidence or summary set
// in dir once — a page through extract and then digest with an empty
// query, a document of an evidence set with its first question, one of a
// summary set with an empty query — and counts what a reader would not
// keep. Counts: hygiene_documents, hygiene_key_points,
// hygiene_summary_sentences; key_points_not_sentences (a key point that is
// a whole block of the canonical text of fewer than 8 words without
// sentence-final punctuation); boilerplate_lines (a key point or summary
// sentence inside a block found on 3 or more documents of the set, a
// copy of another document — one that shares 80% of its text with it in
// whole blocks — not counted);
// dangling_summary_openers (a summary whose first word points back — a
// pronoun or connective — while the text does not open with that
// sentence); key_points_repeating_summary (a key point that holds or is
// held by a summary sentence, the held one at least half as many words as
// the other); repeated_sentences (a digest in which a summary sentence is
// also inside a snippet, which the contract allows); digests_longer_than_source;
// empty_summaries (of texts of at least two sentences);
// summaries_not_opening_lead (a summary whose first sentence is not the
// text's lead: its first sentence of at least 3 words that ends with a
// stop). Shares: key_points_not_sentences_share over key
// points, boilerplate_share over key points and summary sentences. Every
// count is also reported, prefixed short_, on the short-text view: each
// document longer than 1,500 code points cut at a sentence end to its
// first 1,500 to 4,000 and digested again with the same question. An
// encrypted PDF case is skipped; a case that fails counts in
// Report.Errors. Seconds and DocsPerSec time extract and digest together.
func Hygiene(ctx context.Context, dir string, extract ExtractFunc, digestFn EvidenceFunc) (Report, error) {
	cases, err := readCases[hygieneCase](dir)
	if err != nil {
		return Report{}, fmt.Errorf("hygiene set %s: %w", dir, err)
	}
	rep := Report{Set: filepath.Base(filepath.Clean(dir)), Kind: "hygiene", Metrics: map[string]float64{}}
	var docs []digested
	seen := map[string]bool{}
	var elapsed time.Duration
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return Report{}, fmt.Errorf("hygiene run %s: %w", rep.Set, err)
		}
		name := c.File
		if name == "" {
			name = c.Doc
		}
		if name == "" || seen[name] || c.Encrypted {
			continue
		}
		seen[name] = true
		rep.Cases++
		raw, err := ReadCaseFile(dir, name)
		if err != nil {
			rep.Errors++
			continue
		}
		start := time.Now()
		text := string(raw)
		if c.File != "" {
			text, err = extract(ctx, c.Kind, raw, "")
		}
		var d EvidenceDigest
		if err == nil {
			d, err = digestFn(ctx, text, c.Question)
		}
		elapsed += time.Since(start)
		if err != nil {
			if ctx.Err() != nil {
				return Report{}, fmt.Errorf("hygiene run %s: %w", rep.Set, ctx.Err())
			}
			rep.Errors++
			continue
		}
		docs = append(docs, digested{blocks: textBlocks(d.Canonical), d: d, question: c.Question})
	}
	// How many documents hold each block, copies of one document (the
	// same text from several producers) counted once.
	sets := make([][]string, len(docs))
	for i := range docs {
		sets[i] = distinct(docs[i].blocks)
	}
	copyOf := copies(sets)
	pages := map[string]int{}
	for i, bs := range sets {
		var original map[string]bool // the blocks of the document i copies
		if j := copyOf[i]; j != i {
			original = map[string]bool{}
			for _, b := range sets[j] {
				original[b] = true
			}
		}
		for _, b := range bs {
			if !original[b] {
				pages[b]++
			}
		}
	}
	boilerplate := func(blocks []string, s string) bool {
		for _, b := range blocks {
			if pages[b] >= boilerplatePages && strings.Contains(b, s) {
				return true
			}
		}
		return false
	}
	tallyHygiene(rep.Metrics, "", docs, boilerplate)
	// The short-text view: each document longer than shortViewMin code
	// points cut at a sentence end to its first shortViewMin–shortViewMax,
	// as short news and pages are, and digested again.
	var short []digested
	for i, doc := range docs {
		cut := shortView(doc.d.Canonical, i)
		if cut == "" {
			continue
		}
		start := time.Now()
		d, err := digestFn(ctx, cut, doc.question)
		elapsed += time.Since(start)
		if err != nil {
			if ctx.Err() != nil {
				return Report{}, fmt.Errorf("hygiene run %s: %w", rep.Set, ctx.Err())
			}
			rep.Errors++
			continue
		}
		short = append(short, digested{blocks: textBlocks(d.Canonical), d: d, question: doc.question})
	}
	tallyHygiene(rep.Metrics, "short_", short, boilerplate)
	rep.Seconds = elapsed.Seconds()
	if elapsed > 0 {
		rep.DocsPerSec = float64(len(docs)) / elapsed.Seconds()
	}
	return rep, nil
}

// share returns n/of, or 0 when of is 0.
func share(n, of int) float64 {
	if of == 0 {
		return 0
	}
	return float64(n) / float64(of)
}

// containsAny reports whether s holds one of subs.
func containsAny(s string, subs []string) bool {
	for _, sub := range subs {
		if sub != "" && strings.Contains(s, sub) {
			return true
		}
	}
	return false
}

// textBlocks returns the blocks of a canonical text (its lines, pages
// split too), each with white space collapsed, without empty ones.
func textBlocks(text string) []string {
	var out []string
	for _, b := range strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == normalize.PageSeparator }) {
		if b = CollapseSpace(b); b != "" {
			out = append(out, b)
		}
	}
	return out
}

// notASentence reports a text of fewer than notSentenceWords words that
// does not end in sentence-final punctuation (closing quotes and brackets
// aside).
func notASentence(s string) bool {
	if len(strings.Fields(s)) >= notSentenceWords {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(strings.TrimRight(s, "\"'”’“‘»«›‹)]"))
	return !strings.ContainsRune(".!?…。！？", last)
}

// danglingOpener reports a summary whose first word points back at
// something said before it (backReference) while the text does not open
// with the summary's first sentence.
func danglingOpener(summary, text string) bool {
	first := strings.TrimLeftFunc(summary, func(r rune) bool { return !unicode.IsLetter(r) })
	word, rest, _ := strings.Cut(first, " ")
	next, rest, _ := strings.Cut(rest, " ")
	third, _, _ := strings.Cut(rest, " ")
	lower := func(w string) string {
		return strings.ToLower(strings.TrimRightFunc(w, func(r rune) bool { return !unicode.IsLetter(r) }))
	}
	// "This Endorsement Agreement": one capitalised word may name the
	// document's kind.
	named := documentNoun(lower(next)) || unicode.IsUpper(firstRune(next)) && documentNoun(lower(third))
	if !backReference(lower(word)) || named {
		return false
	}
	lead := sentences.Strings(summary)
	opening := sentences.Strings(text)
	return len(lead) == 0 || len(opening) == 0 || CollapseSpace(opening[0]) != CollapseSpace(lead[0])
}

// backReference reports the pronouns and connectives, in English and
// German, that open a sentence pointing back at the one before it ("It",
// "This", "They", "However", "Also", "Damit", "Jedoch"). Words as often
// used otherwise ("Es gibt", "Auch wenn") are not among them.
func backReference(w string) bool {
	switch w {
	case "it", "its", "they", "their", "them", "he", "she", "his", "her", "this", "these", "those", "such",
		"however", "also", "moreover", "furthermore", "additionally", "therefore", "thus", "hence", "consequently",
		"nevertheless", "nonetheless", "besides", "meanwhile", "similarly", "likewise", "but", "and", "so", "yet",
		"er", "dies", "diese", "dieser", "dieses", "jedoch", "außerdem", "daher", "deshalb", "damit",
		"dadurch", "dabei", "zudem", "allerdings":
		return true
	}
	return false
}

// documentNoun reports the nouns with which a demonstrative names the
// document itself ("This paper", "Dieser Beitrag") rather than pointing
// back.
func documentNoun(w string) bool {
	switch w {
	case "paper", "study", "report", "article", "work", "document", "chapter", "review", "thesis", "book",
		"survey", "guide", "manual", "letter", "note", "section", "analysis", "testimony", "statement", "guidance",
		"guidelines", "publication", "post", "page", "agreement", "contract", "amendment", "policy", "license",
		"licence", "lease", "beitrag", "artikel", "bericht", "studie", "text", "seite", "vertrag", "vereinbarung":
		return true
	}
	return false
}

// firstRune returns the first rune of s, or utf8.RuneError for "".
func firstRune(s string) rune {
	r, _ := utf8.DecodeRuneInString(s)
	return r
}

// The short-text view of a hygiene set: a document longer than
// shortViewMin code points is cut, at the last sentence end that fits, to
// its first shortViewMin to shortViewMax code points (the length spread
// over the documents by their order).
const (
	// leadWords is the fewest words of a text's lead: a shorter
	// sentence is a heading or a label.
	leadWords    = 3
	shortViewMin = 1500
	shortViewMax = 4000
)

// shortView returns the opening of text that the short-text view digests
// for the i-th document: whole sentences of at most shortViewMin +
// (i·997 mod (shortViewMax−shortViewMin)) code points, or "" for a text no
// longer than shortViewMin or without a sentence end in reach.
func shortView(text string, i int) string {
	if utf8.RuneCountInString(text) <= shortViewMin {
		return ""
	}
	limit := shortViewMin + i*997%(shortViewMax-shortViewMin)
	// The byte offset of code point limit.
	end, n := len(text), 0
	for b := range text {
		if n == limit {
			end = b
			break
		}
		n++
	}
	cut := 0
	for _, sp := range sentences.Split(text) {
		if sp.End > end {
			break
		}
		cut = sp.End
	}
	if utf8.RuneCountInString(text[:cut]) < shortViewMin/2 {
		return ""
	}
	return text[:cut]
}

// digested is one document of a hygiene run: its digest, the canonical
// text's blocks (white space collapsed) and the question it was asked.
type digested struct {
	blocks   []string
	d        EvidenceDigest
	question string
}

// tallyHygiene counts what a reader would not keep in the digests ds and
// writes the counts (see Hygiene) into m, each name after prefix.
// boilerplate reports a text inside a block of blocks that the set holds
// on boilerplatePages documents or more.
func tallyHygiene(m map[string]float64, prefix string, ds []digested, boilerplate func(blocks []string, s string) bool) {
	var kps, sums, notSentence, boiler, dangling, kpRepeats, repeated, longer, empty, notLead int
	for _, doc := range ds {
		d, blocks := doc.d, doc.blocks
		p := d.Payload
		if p.DigestChars > p.OriginalChars {
			longer++
		}
		textSentences := sentences.Strings(d.Canonical)
		if strings.TrimSpace(p.Summary) == "" && len(textSentences) >= 2 {
			empty++
		}
		isBlock := map[string]bool{}
		for _, b := range blocks {
			isBlock[b] = true
		}
		summary := sentences.Strings(p.Summary)
		for i := range summary {
			summary[i] = CollapseSpace(summary[i])
		}
		if lead := leadSentence(textSentences); lead != "" && (len(summary) == 0 || summary[0] != lead) {
			notLead++
		}
		sums += len(summary)
		for _, s := range summary {
			if boilerplate(blocks, s) {
				boiler++
			}
		}
		if danglingOpener(p.Summary, d.Canonical) {
			dangling++
		}
		for _, e := range p.EvidenceSnippets {
			if e := CollapseSpace(e.Text); containsAny(e, summary) {
				repeated++
				break
			}
		}
		for _, k := range p.KeyPoints {
			kps++
			k = CollapseSpace(k)
			if isBlock[k] && notASentence(k) {
				notSentence++
			}
			if boilerplate(blocks, k) {
				boiler++
			}
			for _, s := range summary {
				if repeats(k, s) {
					kpRepeats++
					break
				}
			}
		}
	}
	m[prefix+"hygiene_documents"] = float64(len(ds))
	m[prefix+"hygiene_key_points"] = float64(kps)
	m[prefix+"hygiene_summary_sentences"] = float64(sums)
	m[prefix+"key_points_not_sentences"] = float64(notSentence)
	m[prefix+"boilerplate_lines"] = float64(boiler)
	m[prefix+"dangling_summary_openers"] = float64(dangling)
	m[prefix+"key_points_repeating_summary"] = float64(kpRepeats)
	m[prefix+"repeated_sentences"] = float64(repeated)
	m[prefix+"digests_longer_than_source"] = float64(longer)
	m[prefix+"empty_summaries"] = float64(empty)
	m[prefix+"summaries_not_opening_lead"] = float64(notLead)
	m[prefix+"key_points_not_sentences_share"] = share(notSentence, kps)
	m[prefix+"boilerplate_share"] = share(boiler, kps+sums)
}

// leadSentence returns the text's lead, the first of its sentences that
// reads as a statement (at least leadWords words and sentence-final
// punctuation), white space collapsed; "" when there is none.
func leadSentence(sents []string) string {
	for _, s := range sents {
		s = CollapseSpace(s)
		last, _ := utf8.DecodeLastRuneInString(strings.TrimRight(s, "\"'”’“‘»«›‹)]"))
		if len(strings.Fields(s)) >= leadWords && strings.ContainsRune(".!?。！？", last) {
			return s
		}
	}
	return ""
}
