package evaluate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/digestd/digestd/digest"
)

// DigestFunc digests one document for one query. text is the document's
// file content exactly as read; the function decides how it becomes
// canonical text (the service's own text-source path).
type DigestFunc func(ctx context.Context, text, query string) (*digest.Payload, error)

// EvidenceCase is one line of an evidence set's cases.jsonl.
type EvidenceCase struct {
	ID       string   `json:"id"`
	Doc      string   `json:"doc"`
	Question string   `json:"question"`
	Answers  []string `json:"answers,omitempty"`
	Evidence []string `json:"evidence,omitempty"`
}

// EvidenceK is the rank cut-off of the evidence metrics.
const EvidenceK = 10

// Evidence runs fn over every (document, question) case of the evidence set
// in dir and scores the snippets: answer_recall_at_10, hit_at_1 and
// mrr_at_10 over cases with answers (a snippet hits when its SQuAD-normalised
// text contains a normalised answer), and evidence_hit_at_10 over cases with
// gold evidence paragraphs, and duplicate_key_points, the number of digests
// with a key point that repeats another (see DuplicateKeyPoints). A case whose document cannot be read or whose
// digest fails counts as a miss and in Report.Errors; only cancellation of
// ctx stops the run. Seconds and DocsPerSec time fn alone.
func Evidence(ctx context.Context, dir string, fn DigestFunc) (Report, error) {
	cases, err := readCases[EvidenceCase](dir)
	if err != nil {
		return Report{}, fmt.Errorf("evidence set %s: %w", dir, err)
	}
	rep := Report{Set: filepath.Base(filepath.Clean(dir)), Kind: "evidence", Cases: len(cases), Metrics: map[string]float64{}}
	docs := map[string]string{}
	var elapsed time.Duration
	var answered, evidenced int
	var recall, hit1, mrr, evHit float64
	dupKeyPoints := 0
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return Report{}, fmt.Errorf("evidence run %s: %w", rep.Set, err)
		}
		var snippets []string
		text, ok := docs[c.Doc]
		if !ok {
			b, err := ReadCaseFile(dir, c.Doc)
			if err == nil {
				text = string(b)
				docs[c.Doc] = text
				ok = true
			}
		}
		if !ok {
			rep.Errors++
		} else {
			start := time.Now()
			p, err := fn(ctx, text, c.Question)
			elapsed += time.Since(start)
			if err != nil {
				if ctx.Err() != nil {
					return Report{}, fmt.Errorf("evidence run %s: %w", rep.Set, ctx.Err())
				}
				rep.Errors++
			} else {
				if DuplicateKeyPoints(p.KeyPoints) {
					dupKeyPoints++
				}
				for i, s := range p.EvidenceSnippets {
					if i == EvidenceK {
						break
					}
					snippets = append(snippets, s.Text)
				}
			}
		}
		if len(c.Answers) > 0 {
			answered++
			if r := AnswerRank(snippets, c.Answers); r > 0 {
				recall++
				mrr += 1 / float64(r)
				if r == 1 {
					hit1++
				}
			}
		}
		if len(c.Evidence) > 0 {
			evidenced++
			if EvidenceRank(snippets, c.Evidence) > 0 {
				evHit++
			}
		}
	}
	if answered > 0 {
		rep.Metrics["answer_recall_at_10"] = recall / float64(answered)
		rep.Metrics["hit_at_1"] = hit1 / float64(answered)
		rep.Metrics["mrr_at_10"] = mrr / float64(answered)
	}
	if evidenced > 0 {
		rep.Metrics["evidence_hit_at_10"] = evHit / float64(evidenced)
	}
	rep.Metrics["duplicate_key_points"] = float64(dupKeyPoints)
	rep.Seconds = elapsed.Seconds()
	if elapsed > 0 {
		rep.DocsPerSec = float64(len(cases)) / elapsed.Seconds()
	}
	return rep, nil
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
