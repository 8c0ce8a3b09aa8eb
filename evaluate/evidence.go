package evaluate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/normalize"
)

// DigestFunc digests one document for one query. text is the document's
// file content exactly as read; the function decides how it becomes
// canonical text (the service's own text-source path).
type DigestFunc func(ctx context.Context, text, query string) (*digest.Payload, error)

// EvidenceFunc is a DigestFunc that also returns the canonical text the
// payload's locators point into and the codes of the digest's warnings.
type EvidenceFunc func(ctx context.Context, text, query string) (EvidenceDigest, error)

// EvidenceDigest is one digest of an evidence run.
type EvidenceDigest struct {
	Payload *digest.Payload
	// Canonical is the text the payload's locators point into.
	Canonical string
	// Warnings are the codes of the digest's warnings (for example
	// fault.NoQueryMatch).
	Warnings []fault.Warning
}

// fallback reports a digest that describes the whole document instead of
// answering the query (fault.NoQueryMatch or fault.QueryFallback).
func (d EvidenceDigest) fallback() bool {
	return slices.Contains(d.Warnings, fault.NoQueryMatch) || slices.Contains(d.Warnings, fault.QueryFallback)
}

// EvidenceCase is one line of an evidence set's cases.jsonl.
type EvidenceCase struct {
	ID       string   `json:"id"`
	Doc      string   `json:"doc"`
	Question string   `json:"question"`
	Answers  []string `json:"answers,omitempty"`
	Evidence []string `json:"evidence,omitempty"`
	Lang     string   `json:"lang,omitempty"`
}

// groupsOf returns the prefixes of the groups case c is reported in
// beside the whole set: its half (half0_, half1_, by DocHalf) and, where
// the case carries a language, lang_<lang>_.
func groupsOf(c EvidenceCase) []string {
	g := []string{fmt.Sprintf("half%d_", DocHalf(c.Doc))}
	if c.Lang != "" {
		g = append(g, "lang_"+c.Lang+"_")
	}
	return g
}

// EvidenceK is the rank cut-off of the evidence metrics.
const EvidenceK = 10

// UnanswerableScore is the relevance_score at or above which a digest of a
// document that does not answer the question counts as overconfident.
const UnanswerableScore = 0.5

// Evidence runs fn over every (document, question) case of the evidence set
// in dir and scores the first EvidenceK snippets:
//
//   - answer_recall_at_10, hit_at_1 and mrr_at_10 over cases with answers
//     (a snippet hits when its SQuAD-normalised text contains a normalised
//     answer); evidence_hit_at_10, evidence_hit_at_1 and
//     evidence_mrr_at_10 over cases with gold evidence paragraphs (a set
//     without answers also reports these as hit_at_1 and mrr_at_10);
//   - duplicate_key_points, the number of digests with a key point that
//     repeats another (see DuplicateKeyPoints);
//   - shape: snippet_overlap_share (digests in which two snippets share
//     text or one repeats another's text), snippet_aligned_share (snippets
//     that start at a sentence start and end at a sentence end of
//     digest.Sentences), evidence_chars_per_question (code points);
//   - calibration: unanswerable_top_ge_0_5_share, the share of digests of
//     the question with another document of the set (a deterministic
//     draw) whose top relevance_score is at least UnanswerableScore, and
//     answered_top_ge_0_5_share, the same for the case's own document;
//     no_query_match_digests, the number of digests (of both kinds) that
//     fall back to describing the whole document (NO_QUERY_MATCH or
//     QUERY_FALLBACK), and no_query_match_max_score, the highest
//     relevance_score of any of their snippets (0 when there is none);
//   - the answer and evidence figures of each half of the set
//     (DocHalf), prefixed half0_ and half1_, with the baseline's beside
//     them: a change of method should hold on both; and of each language
//     where cases carry one, prefixed lang_<lang>_; each group's number of
//     cases as <group>cases;
//   - the BM25 sentence-window baseline on the same canonical texts, with
//     the same figures as the digests: bm25_window_answer_recall_at_10,
//     bm25_window_hit_at_1, bm25_window_mrr_at_10,
//     bm25_window_evidence_hit_at_10, bm25_window_evidence_hit_at_1,
//     bm25_window_evidence_mrr_at_10 and bm25_window_chars_per_question;
//   - the same baseline with each window bounded as a snippet is
//     (digest.MaxSnippetChars: its last sentences left out, a longer first
//     sentence cut), the same figures prefixed bm25_window500_. The
//     baseline proper is unbounded: about a third of its windows on the
//     biomedical papers run past the bound digests are held to;
//   - the digests' figures of the one-line view (OneLine: every line of
//     the document joined into one, as a table, a transcript or a page
//     without paragraph marks reads), prefixed oneline_: where the
//     punctuation and the line breaks fall must not decide what is found.
//
// A case whose document cannot be read or whose digest fails counts as a
// miss and in Report.Errors; only cancellation of ctx stops the run.
// Seconds and DocsPerSec time fn alone on the cases' own documents.
func Evidence(ctx context.Context, dir string, fn EvidenceFunc) (Report, error) {
	cases, err := readCases[EvidenceCase](dir)
	if err != nil {
		return Report{}, fmt.Errorf("evidence set %s: %w", dir, err)
	}
	rep := Report{Set: filepath.Base(filepath.Clean(dir)), Kind: "evidence", Cases: len(cases), Metrics: map[string]float64{}}
	docs := map[string]string{}
	read := func(name string) (string, bool) {
		if t, ok := docs[name]; ok {
			return t, true
		}
		b, err := ReadCaseFile(dir, name)
		if err != nil {
			return "", false
		}
		docs[name] = string(b)
		return string(b), true
	}
	names := docNames(cases)
	var elapsed time.Duration
	var answered, evidenced, digests, overlapping, snippets, aligned, chars, others, otherHigh, ownHigh int
	var baseChars, boundedChars, dupKeyPoints, fallbacks int
	fallbackMax := 0.0
	noteFallback := func(d EvidenceDigest) {
		if !d.fallback() {
			return
		}
		fallbacks++
		for _, s := range d.Payload.EvidenceSnippets {
			fallbackMax = max(fallbackMax, s.RelevanceScore)
		}
	}
	// The digests' figures and the baselines', each over the same cases,
	// and the digests' of the one-line view.
	var dig, base, bounded, oneLine methodTally
	groupAnswered, groupEvidenced := map[string]int{}, map[string]int{}
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return Report{}, fmt.Errorf("evidence run %s: %w", rep.Set, err)
		}
		var texts, baseTexts, boundedTexts, oneLineTexts []string
		if text, ok := read(c.Doc); !ok {
			rep.Errors++
		} else {
			if dg, err := fn(ctx, OneLine(text), c.Question); err == nil {
				for _, s := range dg.Payload.EvidenceSnippets[:min(len(dg.Payload.EvidenceSnippets), EvidenceK)] {
					oneLineTexts = append(oneLineTexts, s.Text)
				}
			} else if ctx.Err() != nil {
				return Report{}, fmt.Errorf("evidence run %s: %w", rep.Set, ctx.Err())
			}
			start := time.Now()
			dg, err := fn(ctx, text, c.Question)
			elapsed += time.Since(start)
			if err != nil {
				if ctx.Err() != nil {
					return Report{}, fmt.Errorf("evidence run %s: %w", rep.Set, ctx.Err())
				}
				rep.Errors++
			} else {
				p, canon := dg.Payload, dg.Canonical
				noteFallback(dg)
				if DuplicateKeyPoints(p.KeyPoints) {
					dupKeyPoints++
				}
				top := p.EvidenceSnippets[:min(len(p.EvidenceSnippets), EvidenceK)]
				for _, s := range top {
					texts = append(texts, s.Text)
					chars += utf8.RuneCountInString(s.Text)
				}
				digests++
				if SnippetsOverlap(top) {
					overlapping++
				}
				snippets += len(top)
				aligned += alignedSnippets(top, digest.Sentences(canon))
				if len(top) > 0 && top[0].RelevanceScore >= UnanswerableScore {
					ownHigh++
				}
				baseTexts = BM25Windows(canon, c.Question, 0)
				for _, s := range baseTexts {
					baseChars += utf8.RuneCountInString(s)
				}
				boundedTexts = BM25Windows(canon, c.Question, digest.MaxSnippetChars)
				for _, s := range boundedTexts {
					boundedChars += utf8.RuneCountInString(s)
				}
			}
		}
		if other := otherDoc(names, c); other != "" {
			if text, ok := read(other); ok {
				dg, err := fn(ctx, text, c.Question)
				if err != nil && ctx.Err() != nil {
					return Report{}, fmt.Errorf("evidence run %s: %w", rep.Set, ctx.Err())
				}
				if err == nil {
					others++
					noteFallback(dg)
					if p := dg.Payload; len(p.EvidenceSnippets) > 0 && p.EvidenceSnippets[0].RelevanceScore >= UnanswerableScore {
						otherHigh++
					}
				}
			}
		}
		groups := groupsOf(c)
		for _, g := range groups {
			rep.Metrics[g+"cases"]++
		}
		if len(c.Answers) > 0 {
			answered++
			for _, g := range groups {
				groupAnswered[g]++
			}
		}
		if len(c.Evidence) > 0 {
			evidenced++
			for _, g := range groups {
				groupEvidenced[g]++
			}
		}
		dig.add(c, groups, texts)
		base.add(c, groups, baseTexts)
		bounded.add(c, groups, boundedTexts)
		oneLine.add(c, groups, oneLineTexts)
	}
	dig.report(rep.Metrics, "", answered, evidenced, groupAnswered, groupEvidenced)
	base.report(rep.Metrics, "bm25_window_", answered, evidenced, groupAnswered, groupEvidenced)
	bounded.report(rep.Metrics, "bm25_window500_", answered, evidenced, groupAnswered, groupEvidenced)
	oneLine.report(rep.Metrics, "oneline_", answered, evidenced, groupAnswered, groupEvidenced)
	if evidenced > 0 && answered == 0 {
		rep.Metrics["hit_at_1"] = rep.Metrics["evidence_hit_at_1"]
		rep.Metrics["mrr_at_10"] = rep.Metrics["evidence_mrr_at_10"]
		rep.Metrics["oneline_hit_at_1"] = rep.Metrics["oneline_evidence_hit_at_1"]
		rep.Metrics["oneline_mrr_at_10"] = rep.Metrics["oneline_evidence_mrr_at_10"]
	}
	rep.Metrics["duplicate_key_points"] = float64(dupKeyPoints)
	rep.Metrics["no_query_match_digests"] = float64(fallbacks)
	rep.Metrics["no_query_match_max_score"] = fallbackMax
	if digests > 0 {
		rep.Metrics["snippet_overlap_share"] = float64(overlapping) / float64(digests)
		rep.Metrics["evidence_chars_per_question"] = float64(chars) / float64(digests)
		rep.Metrics["bm25_window_chars_per_question"] = float64(baseChars) / float64(digests)
		rep.Metrics["bm25_window500_chars_per_question"] = float64(boundedChars) / float64(digests)
		rep.Metrics["answered_top_ge_0_5_share"] = float64(ownHigh) / float64(digests)
	}
	if snippets > 0 {
		rep.Metrics["snippet_aligned_share"] = float64(aligned) / float64(snippets)
	}
	if others > 0 {
		rep.Metrics["unanswerable_top_ge_0_5_share"] = float64(otherHigh) / float64(others)
	}
	rep.Seconds = elapsed.Seconds()
	if elapsed > 0 {
		rep.DocsPerSec = float64(len(cases)) / elapsed.Seconds()
	}
	return rep, nil
}

// ReadEvidenceCases reads the cases of the evidence set in dir.
func ReadEvidenceCases(dir string) ([]EvidenceCase, error) {
	return readCases[EvidenceCase](dir)
}

// DuplicateKeyPoints reports whether two key points say the same thing:
// after SQuAD normalisation one equals or contains the other.
func DuplicateKeyPoints(kps []string) bool {
	norm := make([]string, 0, len(kps))
	for _, k := range kps {
		n := SQuADNormalize(k)
		for _, o := range norm {
			if n != "" && o != "" && (strings.Contains(o, n) || strings.Contains(n, o)) {
				return true
			}
		}
		norm = append(norm, n)
	}
	return false
}

// rankTally sums the 1-based ranks of first hits (0 for a miss).
type rankTally struct{ found, first, rr float64 }

func (t *rankTally) add(rank int) {
	if rank <= 0 {
		return
	}
	t.found++
	t.rr += 1 / float64(rank)
	if rank == 1 {
		t.first++
	}
}

// report writes prefix+recall, prefix+"hit_at_1" and prefix+"mrr_at_10".
func (t rankTally) report(m map[string]float64, prefix, recall string, n int) {
	m[prefix+recall] = t.found / float64(n)
	m[prefix+"hit_at_1"] = t.first / float64(n)
	m[prefix+"mrr_at_10"] = t.rr / float64(n)
}

// methodTally is one method's ranks of first hits over a set's cases:
// answer and evidence ranks, over the whole set and each group of cases
// (see groupsOf).
type methodTally struct {
	ans, ev           rankTally
	groupAns, groupEv map[string]*rankTally
}

// add counts case c, in groups, answered by texts in rank order.
func (t *methodTally) add(c EvidenceCase, groups []string, texts []string) {
	if t.groupAns == nil {
		t.groupAns, t.groupEv = map[string]*rankTally{}, map[string]*rankTally{}
	}
	tally := func(m map[string]*rankTally, g string) *rankTally {
		if m[g] == nil {
			m[g] = &rankTally{}
		}
		return m[g]
	}
	if len(c.Answers) > 0 {
		r := AnswerRank(texts, c.Answers)
		t.ans.add(r)
		for _, g := range groups {
			tally(t.groupAns, g).add(r)
		}
	}
	if len(c.Evidence) > 0 {
		r := EvidenceRank(texts, c.Evidence)
		t.ev.add(r)
		for _, g := range groups {
			tally(t.groupEv, g).add(r)
		}
	}
}

// report writes the figures, prefixed (and prefixed by each group before
// that), of the answered and evidenced cases there are.
func (t *methodTally) report(m map[string]float64, prefix string, answered, evidenced int, groupAnswered, groupEvidenced map[string]int) {
	if answered > 0 {
		t.ans.report(m, prefix, "answer_recall_at_10", answered)
	}
	if evidenced > 0 {
		t.ev.report(m, prefix+"evidence_", "hit_at_10", evidenced)
	}
	for g, n := range groupAnswered {
		if tt := t.groupAns[g]; tt != nil && n > 0 {
			tt.report(m, g+prefix, "answer_recall_at_10", n)
		}
	}
	for g, n := range groupEvidenced {
		if tt := t.groupEv[g]; tt != nil && n > 0 {
			tt.report(m, g+prefix+"evidence_", "hit_at_10", n)
		}
	}
}

// OneLine returns text with every run of line and page breaks (and the
// white space around them) replaced by one space: its paragraphs joined
// into one line.
func OneLine(text string) string {
	var b strings.Builder
	b.Grow(len(text))
	for line := range strings.FieldsFuncSeq(text, func(r rune) bool { return r == '\n' || r == normalize.PageSeparator || r == '\r' }) {
		if line = strings.TrimSpace(line); line == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(line)
	}
	return b.String()
}

// DocHalf splits an evidence set into two halves by document, 0 or 1: the
// parity of the FNV-1a hash of the document's path as cases.jsonl gives
// it. The questions of one document stay together, so a figure measured on
// one half is held out from a choice made on the other.
func DocHalf(doc string) int {
	h := fnv.New32a()
	h.Write([]byte(doc))
	return int(h.Sum32() & 1)
}

// docNames returns the distinct documents of cases, sorted.
func docNames(cases []EvidenceCase) []string {
	var names []string
	for _, c := range cases {
		names = append(names, c.Doc)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// caseRand is a random source determined by the case's id and question
// alone, so draws are the same in every run.
func caseRand(c EvidenceCase) *rand.Rand {
	h := fnv.New64a()
	h.Write([]byte(c.ID))
	h.Write([]byte{0})
	h.Write([]byte(c.Question))
	s := h.Sum64()
	return rand.New(rand.NewPCG(s, s^0x9e3779b97f4a7c15))
}

// otherDoc draws a document of names other than the case's own, or "".
func otherDoc(names []string, c EvidenceCase) string {
	if len(names) < 2 {
		return ""
	}
	r := caseRand(c)
	for {
		if n := names[r.IntN(len(names))]; n != c.Doc {
			return n
		}
	}
}

// SnippetsOverlap reports whether two of snippets share text: their
// locators intersect, or the whitespace-collapsed, lower-cased text of one
// contains the other's.
func SnippetsOverlap(snippets []digest.EvidenceSnippet) bool {
	locs := make([]digest.Locator, len(snippets))
	norm := make([]string, len(snippets))
	for i, s := range snippets {
		locs[i] = s.Locator
		norm[i] = strings.ToLower(CollapseSpace(s.Text))
	}
	for i := range snippets {
		for j := range i {
			if locs[i].Start < locs[j].End && locs[j].Start < locs[i].End {
				return true
			}
			if norm[i] != "" && norm[j] != "" && (strings.Contains(norm[i], norm[j]) || strings.Contains(norm[j], norm[i])) {
				return true
			}
		}
	}
	return false
}

// alignedSnippets counts the snippets whose locator starts at the start of
// a sentence of sents and ends at the end of one.
func alignedSnippets(snippets []digest.EvidenceSnippet, sents []digest.Locator) int {
	starts := make(map[int]bool, len(sents))
	ends := make(map[int]bool, len(sents))
	for _, s := range sents {
		starts[s.Start] = true
		ends[s.End] = true
	}
	n := 0
	for _, s := range snippets {
		if starts[s.Locator.Start] && ends[s.Locator.End] {
			n++
		}
	}
	return n
}

// AnswerRank returns the 1-based rank of the first of the first ten
// snippets whose SQuAD-normalised text contains some normalised answer, or
// 0. Answers that normalise to nothing never match.
func AnswerRank(snippets, answers []string) int {
	norm := make([]string, 0, len(answers))
	for _, a := range answers {
		if n := SQuADNormalize(a); n != "" {
			norm = append(norm, n)
		}
	}
	for i, s := range snippets {
		if i == EvidenceK {
			break
		}
		ns := SQuADNormalize(s)
		for _, a := range norm {
			if strings.Contains(ns, a) {
				return i + 1
			}
		}
	}
	return 0
}

// EvidenceRank returns the 1-based rank of the first of the first ten
// snippets that overlaps some gold paragraph: their whitespace-collapsed
// texts share a common substring of at least min(50, len(gold)) code points.
// It returns 0 when none does.
func EvidenceRank(snippets, gold []string) int {
	golds := make([][]rune, 0, len(gold))
	for _, g := range gold {
		if r := []rune(CollapseSpace(g)); len(r) > 0 {
			golds = append(golds, r)
		}
	}
	for i, s := range snippets {
		if i == EvidenceK {
			break
		}
		sr := []rune(CollapseSpace(s))
		for _, g := range golds {
			if longestCommonSubstring(sr, g) >= min(50, len(g)) {
				return i + 1
			}
		}
	}
	return 0
}

// longestCommonSubstring returns the length of the longest common run of
// a and b.
func longestCommonSubstring(a, b []rune) int {
	best := 0
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for i := range a {
		for j := range b {
			if a[i] == b[j] {
				cur[j+1] = prev[j] + 1
				best = max(best, cur[j+1])
			} else {
				cur[j+1] = 0
			}
		}
		prev, cur = cur, prev
	}
	return best
}

// SQuADNormalize normalises text as the SQuAD evaluation script does:
// lower-case, ASCII punctuation removed, the words a/an/the removed, white
// space collapsed.
func SQuADNormalize(text string) string {
	lower := strings.ToLower(text)
	var b strings.Builder
	b.Grow(len(lower))
	for _, r := range lower {
		if r < utf8.RuneSelf && isASCIIPunct(byte(r)) {
			continue
		}
		b.WriteRune(r)
	}
	return strings.Join(strings.Fields(removeArticles(b.String())), " ")
}

func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// removeArticles replaces each whole word a, an or the with a space, where a
// word character is a Unicode letter, digit or underscore (Python's \b).
func removeArticles(s string) string {
	isWord := func(r rune) bool {
		return r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) || unicode.Is(unicode.Mn, r)
	}
	var b strings.Builder
	b.Grow(len(s))
	prevWord := false
	i := 0
	for i < len(s) {
		if !prevWord {
			matched := false
			for _, art := range [...]string{"the", "an", "a"} {
				if strings.HasPrefix(s[i:], art) {
					r, _ := utf8.DecodeRuneInString(s[i+len(art):])
					if i+len(art) == len(s) || !isWord(r) {
						b.WriteByte(' ')
						i += len(art)
						prevWord = false
						matched = true
						break
					}
				}
			}
			if matched {
				continue
			}
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		b.WriteString(s[i : i+n])
		prevWord = isWord(r)
		i += n
	}
	return b.String()
}

// readCases reads dir/cases.jsonl into values of type T, one per non-blank
// line.
func readCases[T any](dir string) ([]T, error) {
	f, err := os.Open(filepath.Join(dir, "cases.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("read cases: %w", err)
	}
	defer f.Close()
	var cases []T
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		var c T
		if err := json.Unmarshal(b, &c); err != nil {
			return nil, fmt.Errorf("read cases: line %d: %w", line, err)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("read cases: %w", err)
	}
	return cases, nil
}
