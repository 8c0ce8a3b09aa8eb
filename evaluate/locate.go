package evaluate

import (
	"context"
	"fmt"
	"hash/fnv"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/digest/sentences"
	"github.com/digestd/digestd/locate"
)

// LocatedSpan is where a quote was located: Match is exact, normalized,
// fuzzy or not_found, and Start/End are code points of the canonical text.
type LocatedSpan struct {
	Match      string
	Start, End int
	Similarity float64
}

// LocateFuncs are the work a locate evaluation measures: Canonical turns a
// document's file text into the canonical text the service archives, and
// Locate finds quotes in that document.
type LocateFuncs struct {
	Canonical func(ctx context.Context, doc string) (string, error)
	Locate    func(ctx context.Context, doc string, quotes []string) ([]LocatedSpan, error)
}

// Perturbations of a quote, in report order. Each applies to the quotes it
// changes (a quote without a dash gets no "dashes" case).
var perturbations = []string{"case", "whitespace", "quotes", "dashes", "hyphenation", "ligatures", "edited_drop", "edited_change"}

// locateCase is one quote to locate and what it was made from.
type locateCase struct {
	kind     string // "exact", a perturbation, or "negative"
	quote    string
	original string // the gold text the quote came from ("" for negatives)
}

// minNegativeWords is the fewest words a negative quote (a sentence of
// another document) has: shorter sentences ("Results.") are in every paper.
const minNegativeWords = 12

// negativesPerDoc is how many sentences of the next document serve as
// negatives for each document.
const negativesPerDoc = 12

// Locate measures quote location on an evidence set, with cases built
// deterministically from it: every gold answer and every sentence of the
// gold evidence that occurs verbatim in its document's canonical text is
// an exact quote; the same quotes perturbed (case, white space, quote
// marks, dashes, hyphenation at a line end, ligatures, and one word in
// ten dropped or changed, for quotes of at least ten words) are the
// perturbed cases; and sentences of at least 12 words of the next
// document (in file order) that do not occur in this one, folded, are
// negatives.
//
// A located quote is right when its span's text folds equal to the
// original's (exact and normalized perturbations), or, for the edited
// ones, when the span overlaps an occurrence of the original by at least
// 0.8 of their union. Metrics: located_<kind> (share right), match_<kind>
// (share reported with the expected match kind: exact, normalized or
// fuzzy), and false_locator_rate (share of negatives given any locator);
// negative_max_similarity is the highest similarity any negative reached
// (its margin below the threshold), edited_min_similarity the lowest of the
// edited quotes located right; n_<kind> counts the cases, and
// n_gold_not_verbatim the gold texts left
// out because they are not verbatim in the canonical text.
func Locate(ctx context.Context, dir string, fn LocateFuncs) (Report, error) {
	cases, err := readCases[EvidenceCase](dir)
	if err != nil {
		return Report{}, fmt.Errorf("evidence set %s: %w", dir, err)
	}
	rep := Report{Set: filepath.Base(filepath.Clean(dir)), Kind: "locate", Metrics: map[string]float64{}}
	var docs []string
	gold := map[string][]string{}
	for _, c := range cases {
		if _, ok := gold[c.Doc]; !ok {
			docs = append(docs, c.Doc)
		}
		gold[c.Doc] = append(gold[c.Doc], c.Answers...)
		for _, ev := range c.Evidence {
			gold[c.Doc] = append(gold[c.Doc], sentences.Strings(ev)...)
		}
	}
	sort.Strings(docs)
	canon := make([]string, len(docs))
	raw := make([]string, len(docs))
	for i, d := range docs {
		b, err := ReadCaseFile(dir, d)
		if err != nil {
			rep.Errors++
			continue
		}
		raw[i] = string(b)
		if canon[i], err = fn.Canonical(ctx, raw[i]); err != nil {
			if ctx.Err() != nil {
				return Report{}, ctx.Err()
			}
			rep.Errors++
		}
	}
	right, total, kindOK := map[string]int{}, map[string]int{}, map[string]int{}
	var elapsed time.Duration
	skipped := 0
	negMax, editMin := 0.0, 1.0
	for i, d := range docs {
		if canon[i] == "" {
			continue
		}
		text := canon[i]
		var lc []locateCase
		seen := map[string]bool{}
		for _, g := range gold[d] {
			g = strings.TrimSpace(g)
			if g == "" || seen[g] {
				continue
			}
			seen[g] = true
			if !strings.Contains(text, g) {
				skipped++ // not verbatim in the canonical text: no exact case
				continue
			}
			lc = append(lc, locateCase{"exact", g, g})
			for _, p := range perturbations {
				if q, ok := perturb(p, g); ok {
					lc = append(lc, locateCase{p, q, g})
				}
			}
		}
		if next := canon[(i+1)%len(docs)]; next != "" && len(docs) > 1 {
			folded := locate.Fold(text)
			var negs []string
			for _, s := range sentences.Strings(next) {
				if len(strings.Fields(s)) >= minNegativeWords && !strings.Contains(folded, locate.Fold(s)) {
					negs = append(negs, s)
				}
			}
			step := max(1, len(negs)/negativesPerDoc)
			for k := 0; k < len(negs) && k/step < negativesPerDoc; k += step {
				lc = append(lc, locateCase{"negative", negs[k], ""})
			}
		}
		quotes := make([]string, len(lc))
		for k, c := range lc {
			quotes[k] = c.quote
		}
		start := time.Now()
		spans, err := fn.Locate(ctx, raw[i], quotes)
		elapsed += time.Since(start)
		if err != nil {
			if ctx.Err() != nil {
				return Report{}, ctx.Err()
			}
			rep.Errors++
			continue
		}
		runes := []rune(text)
		for k, c := range lc {
			total[c.kind]++
			rep.Cases++
			sp := spans[k]
			if c.kind == "negative" {
				negMax = max(negMax, sp.Similarity)
				if sp.Match != string(locate.NotFound) {
					right[c.kind]++ // a false locator
				}
				continue
			}
			if sp.Match == wantMatch(c.kind) {
				kindOK[c.kind]++
			}
			if sp.Match == string(locate.NotFound) || sp.Start < 0 || sp.End > len(runes) || sp.Start > sp.End {
				continue
			}
			got := string(runes[sp.Start:sp.End])
			if strings.HasPrefix(c.kind, "edited") {
				if overlapsOccurrence(text, runes, c.original, sp.Start, sp.End) {
					right[c.kind]++
					editMin = min(editMin, sp.Similarity)
				}
			} else if locate.Fold(got) == locate.Fold(c.original) {
				right[c.kind]++
			}
		}
	}
	var normRight, normTotal, normKind, editRight, editTotal int
	for kind, n := range total {
		rep.Metrics["n_"+kind] = float64(n)
		if kind == "negative" {
			rep.Metrics["false_locator_rate"] = ratio(right[kind], n)
			rep.Metrics["false_locators"] = float64(right[kind])
			continue
		}
		rep.Metrics["located_"+kind] = ratio(right[kind], n)
		rep.Metrics["match_"+kind] = ratio(kindOK[kind], n)
		switch {
		case strings.HasPrefix(kind, "edited"):
			editRight += right[kind]
			editTotal += n
		case kind != "exact":
			normRight += right[kind]
			normTotal += n
			normKind += kindOK[kind]
		}
	}
	rep.Metrics["n_gold_not_verbatim"] = float64(skipped)
	rep.Metrics["negative_max_similarity"] = negMax
	rep.Metrics["edited_min_similarity"] = editMin
	rep.Metrics["located_normalized"] = ratio(normRight, normTotal)
	rep.Metrics["match_normalized"] = ratio(normKind, normTotal)
	rep.Metrics["located_edited"] = ratio(editRight, editTotal)
	rep.Seconds = elapsed.Seconds()
	if rep.Seconds > 0 {
		rep.DocsPerSec = float64(len(docs)) / rep.Seconds
	}
	return rep, nil
}

func ratio(a, b int) float64 {
	if b == 0 {
		return 0
	}
	return float64(a) / float64(b)
}

// wantMatch is the match kind a case of kind should be reported with.
func wantMatch(kind string) string {
	switch {
	case kind == "exact":
		return string(locate.Exact)
	case strings.HasPrefix(kind, "edited"):
		return string(locate.Fuzzy)
	}
	return string(locate.Normalized)
}

// overlapsOccurrence reports whether [s, e) overlaps some occurrence of
// orig in text by at least 0.8 of their union.
func overlapsOccurrence(text string, runes []rune, orig string, s, e int) bool {
	n := utf8.RuneCountInString(orig)
	from := 0
	for {
		b := strings.Index(text[from:], orig)
		if b < 0 {
			return false
		}
		os := utf8.RuneCountInString(text[:from+b])
		oe := os + n
		inter := min(e, oe) - max(s, os)
		union := max(e, oe) - min(s, os)
		if inter > 0 && float64(inter) >= 0.8*float64(union) {
			return true
		}
		from += b + 1
		for from < len(text) && !utf8.RuneStart(text[from]) {
			from++
		}
	}
}

// replacementWords stand in for a changed word.
var replacementWords = []string{"several", "notable", "however", "distinct", "various", "overall", "similar", "certain"}

// perturb returns the quote changed by one perturbation, and false when
// the perturbation does not apply to it (nothing to change).
func perturb(kind, q string) (string, bool) {
	var out string
	switch kind {
	case "case":
		if up := strings.ToUpper(q); up != q {
			out = up
		} else {
			out = strings.ToLower(q)
		}
	case "whitespace":
		words := strings.Fields(q)
		if len(words) < 2 {
			return "", false
		}
		var b strings.Builder
		b.WriteString(" ")
		for i, w := range words {
			if i > 0 {
				b.WriteString([]string{" ", "  ", "\n", " \t ", "\u00a0"}[i%5])
			}
			b.WriteString(w)
		}
		b.WriteString("\n")
		out = b.String()
	case "quotes":
		out = strings.NewReplacer("'", "’", "’", "'", "‘", "'", "\"", "“", "“", "\"", "”", "\"").Replace(q)
	case "dashes":
		out = strings.NewReplacer("-", "–", "–", "-", "—", "-", "‐", "-").Replace(q)
	case "hyphenation":
		// Break the longest word of letters only (at least 8) in two at a
		// line end.
		best := ""
		for _, w := range strings.Fields(q) {
			if len([]rune(w)) >= 8 && len([]rune(w)) > len([]rune(best)) && strings.IndexFunc(w, func(r rune) bool { return !unicode.IsLower(r) }) < 0 {
				best = w
			}
		}
		if best == "" {
			return "", false
		}
		r := []rune(best)
		out = strings.Replace(q, best, string(r[:len(r)/2])+"-\n"+string(r[len(r)/2:]), 1)
	case "ligatures":
		out = strings.NewReplacer("ffi", "ﬃ", "ffl", "ﬄ", "ff", "ﬀ", "fi", "ﬁ", "fl", "ﬂ").Replace(q)
	case "edited_drop", "edited_change":
		words := strings.Fields(q)
		if len(words) < 10 {
			return "", false
		}
		h := fnv.New32a()
		h.Write([]byte(q))
		var kept []string
		for i, w := range words {
			if i%10 == 4 && i/10 < len(words)/10 {
				if kind == "edited_drop" {
					continue
				}
				w = replacementWords[(int(h.Sum32())+i)%len(replacementWords)]
			}
			kept = append(kept, w)
		}
		out = strings.Join(kept, " ")
	default:
		return "", false
	}
	return out, out != q
}
