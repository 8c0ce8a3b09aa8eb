package digest

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Boilerplate: text that is in a document without being what it says —
// author and affiliation lists, legal notices, tables of contents,
// captions, navigation and reference lists. It never enters a summary or a
// key point. Each test reads the sentence's shape and vocabulary, never a
// site's or a file's particulars.

// boilerplate marks the sentences of d that are boilerplate.
func boilerplate(d *document) []bool {
	out := make([]bool, len(d.sents))
	n := len(d.sents)
	refs := referencesStart(d)
	// The front matter: the first tenth, and all before an abstract.
	front := max(n/10+2, openingStart(d))
	var lower []byte
	for i := range d.sents {
		s := d.text[d.sents[i].start:d.sents[i].end]
		// Legal vocabulary and addresses are notices and contacts in the
		// front or back matter; in the body they may be the topic.
		edge := i < front || i >= n-n/10-2
		switch {
		case refs >= 0 && i >= refs,
			edge && (hasLegalMark(&lower, s) || address(s)),
			nameList(s),
			tocLine(s),
			caption(s),
			navigation(s),
			numericResidue(d, &d.sents[i]):
			out[i] = true
		}
	}
	// A short sentence the text repeats word for word is furniture: a
	// button, a label or a notice the page shows more than once. (A long
	// one is a statement an executive summary restates.)
	seen := make(map[string]int)
	for i := range d.sents {
		if s := &d.sents[i]; s.words > 0 && s.words < shortBlockWords {
			seen[d.text[s.start:s.end]]++
		}
	}
	for i := range d.sents {
		if s := &d.sents[i]; s.words < shortBlockWords && seen[d.text[s.start:s.end]] > 1 {
			out[i] = true
		}
	}
	// A title: the first block of a longer text, one short sentence
	// without a full stop ("Is the Vaccine Safe?"). A news lead, one
	// sentence too, ends with one.
	if n > 5 && d.sents[1].block != d.sents[0].block && d.sents[0].words <= 20 &&
		!strings.HasSuffix(strings.TrimRight(d.text[d.sents[0].start:d.sents[0].end], "\"'”’)]"), ".") {
		out[0] = true
	}
	return out
}

// legalMarks counts the legal-notice phrases in s: copyright, trademark,
// licence and rights-reserved wording.
func legalMarks(s string) int {
	l := lowerInto(nil, s)
	n := 0
	for _, m := range legalPhrases {
		if bytes.Contains(l, m) {
			n++
		}
	}
	return n
}

// hasLegalMark reports legalMarks(s) > 0; *scratch is reused space.
func hasLegalMark(scratch *[]byte, s string) bool {
	*scratch = lowerInto(*scratch, s)
	l := *scratch
	// One pass over s, trying at each byte the phrases that start with it.
	for i, c := range l {
		for _, m := range legalByFirst[c] {
			if len(l)-i >= len(m) && l[i+1] == m[1] && bytes.HasPrefix(l[i:], m) {
				return true
			}
		}
	}
	return false
}

// legalByFirst holds the legal phrases by their first byte.
var legalByFirst = func() (t [256][][]byte) {
	for _, m := range legalPhrases {
		t[m[0]] = append(t[m[0]], m)
	}
	return t
}()

// legalPhrases are what legalMarks counts, lower-cased.
var legalPhrases = func() [][]byte {
	var out [][]byte
	for _, m := range []string{"©", "™", "®", "copyright", "all rights reserved", "trademark", "licensed under", "license agreement",
		"licence agreement", "terms of use", "terms and conditions", "privacy policy", "warranty", "warranties", "liability",
		"without permission", "with permission", "permission is granted", "permission notice", "verbatim", "redistribut",
		"creative commons", "(c) 19", "(c) 20", "personal use", "make copies", "proprietary"} {
		out = append(out, []byte(m))
	}
	return out
}()

// address reports a web or e-mail address: in the front or back matter,
// contact and home-page lines.
func address(s string) bool {
	return strings.Contains(s, "://") || strings.Contains(s, "www.") || strings.Contains(s, "@") && strings.Contains(s[strings.Index(s, "@"):], ".")
}

// nameList reports a list of names or affiliations ("Authors: Roe, Ann;
// Poe, Bo", "Dept. of Biology, Univ. of X, Lyon, France"): after an
// optional "Label:", at least three items separated by commas or
// semicolons, nearly all of them short runs of capitalised words,
// initials and connectors.
func nameList(s string) bool {
	if strings.Count(s, ",")+strings.Count(s, ";") < 2 {
		return false
	}
	if i := strings.IndexByte(s, ':'); i > 0 && i < 30 && !strings.Contains(s[:i], " ") {
		s = s[i+1:]
	}
	// The items are the non-empty runs between commas and semicolons.
	items, named := 0, 0
	for s != "" {
		it := s
		if k := indexSeparator(s); k >= 0 {
			it, s = s[:k], s[k+1:]
		} else {
			s = ""
		}
		if it == "" {
			continue
		}
		items++
		if namedItem(it) {
			named++
		}
	}
	if items < 3 {
		return false
	}
	return named*10 >= items*9
}

// indexSeparator returns the offset of the first comma or semicolon of s,
// or -1.
func indexSeparator(s string) int {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' || s[i] == ';' {
			return i
		}
	}
	return -1
}

// namedItem reports an item of a name list: one to six words, each
// capitalised, a short number or a connector, at least one capitalised.
func namedItem(it string) bool {
	words, caps := 0, 0
	var buf [8]byte
	for w, rest := nextField(strings.TrimRight(it, ". ")); w != ""; w, rest = nextField(rest) {
		words++
		if words > 6 {
			return false
		}
		r, _ := utf8.DecodeRuneInString(w)
		switch {
		case unicode.IsUpper(r):
			caps++
		case unicode.IsDigit(r) && len(w) <= 6: // postcodes, superscript marks
		default:
			switch string(lowerInto(buf[:], w)) {
			case "of", "and", "for", "the", "de", "del", "der", "van", "von", "le", "la", "du", "da", "di", "y", "&", "at":
			default:
				return false
			}
		}
	}
	return words > 0 && caps > 0
}

// tocLine reports a table-of-contents entry: a dot leader ("Methods
// ........ 12") or an entry ending in a page number after a run of dots.
func tocLine(s string) bool {
	return strings.Contains(s, ".....") || strings.Contains(s, ". . . . .") || strings.Contains(s, "……") ||
		strings.Count(s, "…") >= 3
}

// caption reports a figure or table caption: "Figure 3:", "Fig. 2.",
// "Table 1 –", "Exhibit 4".
func caption(s string) bool {
	// Every label word below starts with one of these letters.
	if s == "" || !strings.ContainsRune("abcefgpstABCEFGPST", rune(s[0])) {
		return false
	}
	// The first three fields of the first three words.
	var f [3]string
	nf := 0
	for w, rest := nextField(firstWords(s, 3)); w != "" && nf < len(f); w, rest = nextField(rest) {
		f[nf] = w
		nf++
	}
	if nf < 2 {
		return false
	}
	var buf [16]byte
	switch string(lowerInto(buf[:], strings.TrimRight(f[0], "."))) {
	case "figure", "fig", "figs", "table", "exhibit", "chart", "graph", "plate", "scheme", "box", "panel", "appendix":
	default:
		return false
	}
	// A label follows: "3:", "2.", "S1 –"; "Table 1 shows …" is prose.
	label := f[1]
	if !strings.HasSuffix(label, ":") && !strings.HasSuffix(label, ".") && !strings.HasSuffix(label, "|") {
		if nf < 3 || strings.Trim(f[2], ":.–—-|") != "" {
			return false
		}
	}
	r, _ := utf8.DecodeRuneInString(label)
	return unicode.IsDigit(r) || unicode.IsUpper(r) && utf8.RuneCountInString(strings.TrimRight(label, ":.|")) <= 4
}

// navigation reports menu and breadcrumb residue: items joined by " | ",
// " › ", " » " or " > ".
func navigation(s string) bool {
	// ContainsAny is slow for non-ASCII sets; most sentences have none
	// of the separators.
	if strings.IndexByte(s, '|') < 0 && strings.IndexByte(s, '>') < 0 &&
		!strings.Contains(s, "›") && !strings.Contains(s, "»") && !strings.Contains(s, "·") {
		return false
	}
	n := 0
	for _, sep := range []string{" | ", " › ", " » ", " > ", " · "} {
		n += strings.Count(s, sep)
	}
	return n >= 2
}

// numericResidue reports dates, times, figures and codes with few words:
// fewer than half of s's content terms are words of three letters or more.
func numericResidue(d *document, s *sentence) bool {
	words := 0
	for _, t := range s.terms {
		if d.lettered[t] {
			words++
		}
	}
	return len(s.terms) > 0 && words*2 < len(s.terms)
}

// lettered reports a stem of three or more letters and nothing else.
func lettered(st string) bool {
	letters := 0
	for _, r := range st {
		if !unicode.IsLetter(r) {
			return false
		}
		letters++
	}
	return letters >= 3
}

// referencesStart returns the index of the first sentence after a heading
// that opens a reference list ("References", "Bibliography", "Works
// Cited") in the second half of d, or -1.
func referencesStart(d *document) int {
	for i := len(d.sents) / 2; i < len(d.sents); i++ {
		s := &d.sents[i]
		if s.words > 3 {
			continue
		}
		h := strings.ToLower(strings.Trim(d.text[s.start:s.end], " .:0123456789"))
		switch h {
		case "references", "reference", "bibliography", "works cited", "literature cited", "references cited", "sources", "notes", "endnotes", "footnotes":
			if i+1 < len(d.sents) {
				return i + 1
			}
		}
	}
	return -1
}

// openingStart returns the index of the first sentence of a document's own
// summary — after a heading or label "Abstract", "Summary", "Executive
// Summary", "Highlights" or "Key Findings" in the first third of d — or
// -1 when there is none.
func openingStart(d *document) int {
	for i := 0; i < len(d.sents) && d.sents[i].cstart*3 <= d.sents[len(d.sents)-1].cend; i++ {
		s := d.text[d.sents[i].start:d.sents[i].end]
		head, rest := s, ""
		if k := strings.IndexAny(s, ":—"); k > 0 {
			head, rest = s[:k], strings.TrimSpace(strings.TrimLeft(s[k:], ":—"))
		}
		label := strings.Trim(head, " .0123456789")
		if number := strings.Trim(strings.TrimSuffix(head, label), " ."); number != "" && number != "0" && number != "1" {
			// A document's own summary is its first part: a label
			// numbered 2 or later ("2. Highlights: …") is a list
			// item or a later section.
			continue
		}
		switch strings.ToLower(label) {
		case "abstract", "summary", "executive summary", "highlights", "key findings", "synopsis":
			if rest != "" {
				return i
			}
			if i+1 < len(d.sents) && d.sents[i].words <= 3 {
				return i + 1
			}
		}
	}
	return -1
}

// labelLines returns s without leading lines that are labels rather than
// prose — headings and formula residue, with no lower-case word of three
// letters or more — when a line break ran them into the sentence.
func labelLines(s string) string {
	for {
		k := strings.IndexByte(s, '\n')
		if k < 0 {
			return s
		}
		line, rest := s[:k], strings.TrimSpace(s[k+1:])
		if rest == "" || hasLowerWord(line) {
			return s
		}
		s = rest
	}
}

// hasLowerWord reports whether s holds a word of three or more lower-case
// letters.
func hasLowerWord(s string) bool {
	run := 0
	for _, r := range s {
		if unicode.IsLower(r) {
			run++
			if run >= 3 {
				return true
			}
		} else {
			run = 0
		}
	}
	return false
}
