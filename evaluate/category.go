package evaluate

import (
	"hash/maphash"
	"strings"
)

// A set whose every question names a category in double quotes (CUAD's
// "Highlight the parts (if any) of this contract related to "Governing
// Law" …") asks, across a corpus, for that kind of passage in any
// document: search is measured there also by category, a passage relevant
// when it is a gold passage of any case of the question's category.

// questionCategory returns the first double-quoted name in question,
// lower-cased, or "".
func questionCategory(question string) string {
	for _, q := range [][2]string{{`"`, `"`}, {"“", "”"}} {
		_, rest, ok := strings.Cut(question, q[0])
		if !ok {
			continue
		}
		name, _, ok := strings.Cut(rest, q[1])
		if name = strings.TrimSpace(name); ok && name != "" {
			return strings.ToLower(name)
		}
	}
	return ""
}

// categories returns each case's category, and the gold evidence of each
// category pooled over its cases, or nil when some case of cases names
// none (the set is not one of categories).
func categories(cases []EvidenceCase) ([]string, map[string]*goldRuns) {
	of := make([]string, len(cases))
	pooled := map[string][]string{}
	for i, c := range cases {
		of[i] = questionCategory(c.Question)
		if of[i] == "" {
			return nil, nil
		}
		pooled[of[i]] = append(pooled[of[i]], c.Evidence...)
	}
	runs := map[string]*goldRuns{}
	for cat, gold := range pooled {
		runs[cat] = newGoldRuns(gold)
	}
	return of, runs
}

// goldRuns holds every run of min(50, length) code points of a set of gold
// passages (white space collapsed), by hash: a snippet hits a gold passage
// as EvidenceRank counts it when it holds one of its runs, and a category
// pools hundreds of passages, too many to compare each in turn.
type goldRuns struct {
	seed  maphash.Seed
	byLen map[int]map[uint64]bool
}

func newGoldRuns(gold []string) *goldRuns {
	g := &goldRuns{seed: maphash.MakeSeed(), byLen: map[int]map[uint64]bool{}}
	seen := map[string]bool{}
	for _, p := range gold {
		r := []rune(CollapseSpace(p))
		if len(r) == 0 || seen[string(r)] {
			continue
		}
		seen[string(r)] = true
		n := min(50, len(r))
		set := g.byLen[n]
		if set == nil {
			set = map[uint64]bool{}
			g.byLen[n] = set
		}
		for i := 0; i+n <= len(r); i++ {
			set[g.hash(r[i:i+n])] = true
		}
	}
	return g
}

func (g *goldRuns) hash(r []rune) uint64 {
	return maphash.String(g.seed, string(r))
}

// rank returns the 1-based rank of the first of snippets (at most EvidenceK
// read) that holds a run of a gold passage, or 0.
func (g *goldRuns) rank(snippets []string) int {
	for i, s := range snippets {
		if i == EvidenceK {
			break
		}
		r := []rune(CollapseSpace(s))
		for n, set := range g.byLen {
			for k := 0; k+n <= len(r); k++ {
				if set[g.hash(r[k:k+n])] {
					return i + 1
				}
			}
		}
	}
	return 0
}
