package locate

import (
	"regexp"
	"strings"
	"unicode/utf8"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/digest/sentences"
)

// Citation is one citation of a report: a marker naming a source and,
// optionally, a locator and a quote.
//
// The accepted forms:
//
//   - [sha256:<64 hex>] or [sha256:<64 hex>#char:S-E] (or #page:N:char:S-E):
//     an archived text by hash, with the cited span;
//   - [id] or [id#char:S-E]: a source of the request by its id (a bare
//     number such as [1] is an id too); several may share one bracket,
//     separated by commas or semicolons: [a; b];
//   - footnotes [^n], with a definition line "[^n]: REF" anywhere in the
//     report, where REF is one of the forms above, with or without
//     brackets, optionally followed by a quote in double quotes.
//
// A quote is text in double quotes (straight “curly” or «guillemets») in
// the definition of a footnote, or else in the sentence of the marker
// between the previous marker (or the sentence's start) and this one; a
// quote after the sentence's last marker belongs to that marker. A bracket
// followed by "(" (a markdown link) or holding words with spaces is not a
// citation.
type Citation struct {
	// Marker is the marker as written, e.g. "[a]" or "[^2]".
	Marker string
	// Start and End are the marker's span in the report, in code points.
	Start, End int
	// Ref names the source: an id, or "sha256:<hex>".
	Ref string
	// Locator is the cited locator as written ("" when none), and Cited
	// the span it names, read as the report is parsed (nil when there is
	// no locator or it does not parse).
	Locator string
	Cited   *digest.Locator
	// Quote is the quoted text ("" when none).
	Quote string
	// Sentence is the citing sentence without its markers.
	Sentence string
}

var (
	footnoteDef = regexp.MustCompile(`(?m)^[ \t]*\[\^([^\]\s]{1,64})\]:[ \t]*(.*)$`)
	bracket     = regexp.MustCompile(`!?\[([^\[\]\n]{1,800})\]`)
	refItem     = regexp.MustCompile(`^(sha256:[0-9a-fA-F]{64}|[A-Za-z0-9_.:/\-]{1,200}?)(?:#((?:page:\d+:)?char:\d+-\d+))?$`)
	quoted      = regexp.MustCompile(`"((?:[^"\n]|\n[^"\n]){2,1000})"|“((?:[^”\n]|\n[^”\n]){2,1000})”|«\s*((?:[^»\n]|\n[^»\n]){2,1000}?)\s*»`)
)

type footnote struct {
	ref, locator, quote string
	ok                  bool
}

// ParseCitations returns the citations of report in order of their
// markers.
func ParseCitations(report string) []Citation {
	// Footnote definitions, and the body with them blanked (same lengths,
	// so offsets hold).
	notes := map[string]footnote{}
	body := []byte(report)
	for _, m := range footnoteDef.FindAllStringSubmatchIndex(report, -1) {
		label, def := report[m[2]:m[3]], report[m[4]:m[5]]
		notes[label] = parseFootnote(def)
		for i := m[0]; i < m[1]; i++ {
			if body[i] != '\n' {
				body[i] = ' '
			}
		}
	}
	type marker struct {
		start, end int // bytes
		items      []footnote
		text       string
	}
	var markers []marker
	for _, m := range bracket.FindAllStringSubmatchIndex(string(body), -1) {
		if body[m[0]] == '!' || m[1] < len(body) && (body[m[1]] == '(' || body[m[1]] == ':') {
			continue
		}
		inner := string(body[m[2]:m[3]])
		var items []footnote
		if label, ok := strings.CutPrefix(inner, "^"); ok {
			items = append(items, notes[label]) // a missing definition: no source
		} else {
			for _, part := range strings.FieldsFunc(inner, func(r rune) bool { return r == ',' || r == ';' }) {
				f := parseRef(strings.TrimSpace(part))
				if !f.ok {
					items = nil
					break
				}
				items = append(items, f)
			}
		}
		if len(items) == 0 {
			continue
		}
		markers = append(markers, marker{m[0], m[1], items, string(body[m[0]:m[1]])})
	}
	if len(markers) == 0 {
		return nil
	}
	// Sentences of the body with the markers blanked; a marker in the gap
	// after a sentence (after its full stop) belongs to that sentence.
	plain := append([]byte(nil), body...)
	for _, mk := range markers {
		for i := mk.start; i < mk.end; i++ {
			plain[i] = ' '
		}
	}
	spans := sentences.Split(string(plain))
	sentenceOf := func(pos int) (int, int) {
		best := -1
		for i, s := range spans {
			if s.Start <= pos {
				best = i
			}
		}
		if best < 0 {
			return 0, 0
		}
		s := spans[best]
		if pos >= s.End && strings.Contains(string(plain[s.End:pos]), "\n") {
			return pos, pos // a marker on a line of its own
		}
		return s.Start, s.End
	}
	// Quotes of the body (they may wrap lines, not paragraphs); a quote
	// belongs to the marker by where it ends.
	type quote struct {
		end  int
		text string
	}
	var qs []quote
	for _, m := range quoted.FindAllStringSubmatchIndex(string(plain), -1) {
		for g := 2; g+1 < len(m); g += 2 {
			if m[g] >= 0 {
				if t := collapse(string(plain[m[g]:m[g+1]])); t != "" {
					qs = append(qs, quote{m[1], t})
				}
			}
		}
	}
	var out []Citation
	prevSentence, prevEnd := -1, 0
	for k, mk := range markers {
		ss, se := sentenceOf(mk.start)
		from := ss
		if ss == prevSentence {
			from = prevEnd
		}
		to := mk.start
		lastInSentence := k+1 == len(markers) || func() bool { s, _ := sentenceOf(markers[k+1].start); return s != ss }()
		if lastInSentence {
			to = max(to, se)
		}
		sentence := collapse(string(plain[ss:max(se, ss)]))
		var zoneQuotes []string
		for _, q := range qs {
			if q.end > from && q.end <= to {
				zoneQuotes = append(zoneQuotes, q.text)
			}
		}
		prevSentence, prevEnd = ss, mk.end
		start := utf8.RuneCount(body[:mk.start])
		end := start + utf8.RuneCount(body[mk.start:mk.end])
		for _, it := range mk.items {
			c := Citation{Marker: mk.text, Start: start, End: end, Ref: it.ref, Locator: it.locator, Cited: citedSpan(it.locator), Sentence: sentence}
			qs := zoneQuotes
			if it.quote != "" {
				qs = []string{it.quote}
			}
			if len(qs) == 0 {
				out = append(out, c)
				continue
			}
			for _, q := range qs {
				c.Quote = q
				out = append(out, c)
			}
		}
	}
	return out
}

// citedSpan reads a cited locator: nil when there is none or it does not
// parse.
func citedSpan(locator string) *digest.Locator {
	if locator == "" {
		return nil
	}
	loc, err := digest.ParseLocator(locator)
	if err != nil {
		return nil
	}
	return &loc
}

func parseRef(s string) footnote {
	s = strings.TrimSuffix(strings.TrimPrefix(s, "["), "]")
	m := refItem.FindStringSubmatch(s)
	if m == nil {
		return footnote{}
	}
	ref := m[1]
	if strings.HasPrefix(strings.ToLower(ref), "sha256:") {
		ref = strings.ToLower(ref)
	}
	return footnote{ref: ref, locator: m[2], ok: true}
}

func parseFootnote(def string) footnote {
	def = strings.TrimSpace(def)
	var quote string
	if q := quotesIn(def); len(q) > 0 {
		quote = q[0]
		loc := quoted.FindStringIndex(def)
		def = strings.TrimSpace(def[:loc[0]] + def[loc[1]:])
	}
	fields := strings.Fields(def)
	if len(fields) == 0 {
		return footnote{quote: quote}
	}
	f := parseRef(strings.TrimRight(fields[0], ".,;"))
	f.quote = quote
	return f
}

func quotesIn(s string) []string {
	var out []string
	for _, m := range quoted.FindAllStringSubmatch(s, -1) {
		for _, g := range m[1:] {
			if g = strings.TrimSpace(g); g != "" {
				out = append(out, g)
			}
		}
	}
	return out
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }
