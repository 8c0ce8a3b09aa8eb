package digest_test

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/evaluate"
)

// fitCase is one question of an evidence set with its candidate windows.
type fitCase struct {
	wc    *digest.WindowCase // nil when the digest falls back
	set   int
	half  int
	hit   func(text string) bool
	fixed int // the fallback digest's answer rank when wc is nil
	base  int // BM25 sentence windows' answer rank
	bchar int // BM25 sentence windows' characters
}

// hitFunc returns whether a snippet answers c, as eval evidence counts it:
// it holds a normalised answer, or shares min(50, len) code points in a run
// with a gold paragraph.
func hitFunc(c evaluate.EvidenceCase) func(string) bool {
	if len(c.Answers) > 0 {
		var norm []string
		for _, a := range c.Answers {
			if n := evaluate.SQuADNormalize(a); n != "" {
				norm = append(norm, n)
			}
		}
		return func(s string) bool {
			ns := evaluate.SQuADNormalize(s)
			for _, a := range norm {
				if strings.Contains(ns, a) {
					return true
				}
			}
			return false
		}
	}
	type gold struct {
		n    int
		runs map[string]bool
	}
	var golds []gold
	for _, g := range c.Evidence {
		r := []rune(evaluate.CollapseSpace(g))
		if len(r) == 0 {
			continue
		}
		n := min(50, len(r))
		runs := map[string]bool{}
		for i := 0; i+n <= len(r); i++ {
			runs[string(r[i:i+n])] = true
		}
		golds = append(golds, gold{n, runs})
	}
	return func(s string) bool {
		r := []rune(evaluate.CollapseSpace(s))
		for _, g := range golds {
			for i := 0; i+g.n <= len(r); i++ {
				if g.runs[string(r[i:i+g.n])] {
					return true
				}
			}
		}
		return false
	}
}

func rankOf(texts []string, hit func(string) bool) int {
	for i, t := range texts {
		if i == evaluate.EvidenceK {
			break
		}
		if hit(t) {
			return i + 1
		}
	}
	return 0
}

// figures are one set's (or half's) recall@10, hit@1, MRR@10 and
// characters a question.
type figures struct{ R, H1, MRR, Chars float64 }

func (f figures) String() string {
	return fmt.Sprintf("%.3f / %.3f / %.3f, %.0f", f.R, f.H1, f.MRR, f.Chars)
}

type tally struct {
	n, hit10, hit1 int
	rr             float64
	chars          int
}

func (t *tally) add(rank, chars int) {
	t.n++
	t.chars += chars
	if rank > 0 {
		t.hit10++
		t.rr += 1 / float64(rank)
		if rank == 1 {
			t.hit1++
		}
	}
}

func (t tally) figures() figures {
	n := float64(max(t.n, 1))
	return figures{float64(t.hit10) / n, float64(t.hit1) / n, t.rr / n, float64(t.chars) / n}
}

// fitRun is every set's and half's figures for one setting of weights,
// and the BM25 baseline's.
type fitRun struct {
	set, base      []figures
	half, halfBase [][2]figures
}

// windowFitSets are the evidence dev sets the window weights are chosen on:
// the four genres (biomedical papers, encyclopedia articles, NLP papers,
// contracts).
var windowFitSets = []string{"evidence-covidqa", "evidence-squad", "evidence-qasper-train", "evidence-cuad-dev"}

func loadFitCases(t *testing.T) ([]fitCase, []string) {
	var out []fitCase
	var mu sync.Mutex
	for si, name := range windowFitSets {
		cases, docs, _ := readEvidenceSet(t, filepath.Join(sharedData(t), name))
		work := make(chan int)
		var wg sync.WaitGroup
		res := make([]fitCase, len(cases))
		for range runtime.GOMAXPROCS(0) {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range work {
					c := cases[i]
					text := docs[c.Doc]
					fc := fitCase{set: si, half: evaluate.DocHalf(c.Doc), hit: hitFunc(c)}
					// The floor: BM25 windows bounded as snippets are.
					bt := evaluate.BM25Windows(text, c.Question, digest.MaxSnippetChars)
					fc.base = rankOf(bt, fc.hit)
					for _, s := range bt {
						fc.bchar += utf8.RuneCountInString(s)
					}
					fc.wc = digest.NewWindowCase(text, c.Question)
					if fc.wc == nil {
						ss, _, _, err := digest.SnippetFeatures(text, c.Question)
						if err != nil {
							panic(err)
						}
						var ts []string
						for _, s := range ss {
							ts = append(ts, s.Text)
						}
						fc.fixed = rankOf(ts, fc.hit)
					}
					res[i] = fc
				}
			}()
		}
		for i := range cases {
			work <- i
		}
		close(work)
		wg.Wait()
		mu.Lock()
		out = append(out, res...)
		mu.Unlock()
	}
	return out, windowFitSets
}

func runWeights(cases []fitCase, nsets int, w []float64) fitRun {
	type part struct {
		set, base      []tally
		half, halfBase [][2]tally
	}
	np := runtime.GOMAXPROCS(0)
	parts := make([]part, np)
	var wg sync.WaitGroup
	for p := range np {
		parts[p] = part{make([]tally, nsets), make([]tally, nsets), make([][2]tally, nsets), make([][2]tally, nsets)}
		wg.Add(1)
		go func() {
			defer wg.Done()
			pt := &parts[p]
			for i := p; i < len(cases); i += np {
				c := &cases[i]
				rank, chars := c.fixed, 0
				if c.wc != nil {
					texts := c.wc.Pick(w, evaluate.EvidenceK)
					rank = rankOf(texts, c.hit)
					for _, s := range texts {
						chars += utf8.RuneCountInString(s)
					}
				}
				pt.set[c.set].add(rank, chars)
				pt.half[c.set][c.half].add(rank, chars)
				pt.base[c.set].add(c.base, c.bchar)
				pt.halfBase[c.set][c.half].add(c.base, c.bchar)
			}
		}()
	}
	wg.Wait()
	merge := func(a *tally, b tally) {
		a.n += b.n
		a.hit10 += b.hit10
		a.hit1 += b.hit1
		a.rr += b.rr
		a.chars += b.chars
	}
	tot := part{make([]tally, nsets), make([]tally, nsets), make([][2]tally, nsets), make([][2]tally, nsets)}
	for _, pt := range parts {
		for s := range nsets {
			merge(&tot.set[s], pt.set[s])
			merge(&tot.base[s], pt.base[s])
			for h := range 2 {
				merge(&tot.half[s][h], pt.half[s][h])
				merge(&tot.halfBase[s][h], pt.halfBase[s][h])
			}
		}
	}
	var r fitRun
	for s := range nsets {
		r.set = append(r.set, tot.set[s].figures())
		r.base = append(r.base, tot.base[s].figures())
		r.half = append(r.half, [2]figures{tot.half[s][0].figures(), tot.half[s][1].figures()})
		r.halfBase = append(r.halfBase, [2]figures{tot.halfBase[s][0].figures(), tot.halfBase[s][1].figures()})
	}
	return r
}

// objective is the sum over the sets in use of recall@10 + hit@1 +
// MRR@10 above the baseline's, each half below the baseline counted twice
// against it, and characters above the baseline's counted against it.
func (r fitRun) objective(use []bool) float64 {
	var v float64
	for s := range r.set {
		if !use[s] {
			continue
		}
		f, b := r.set[s], r.base[s]
		if floor != nil {
			// No set may fall below the floor on any figure.
			fl := floor.set[s]
			if f.R < fl.R || f.H1 < fl.H1 || f.MRR < fl.MRR {
				return math.Inf(-1)
			}
		}
		v += f.R + f.H1 + f.MRR - b.R - b.H1 - b.MRR
		for h := range 2 {
			f, b := r.half[s][h], r.halfBase[s][h]
			for _, d := range []float64{f.R - b.R, f.H1 - b.H1, f.MRR - b.MRR} {
				if d < 0 {
					v += 2 * d
				}
			}
		}
		if f.Chars > b.Chars {
			v -= (f.Chars - b.Chars) / b.Chars
		}
	}
	return v
}

// searchWeights improves w by coordinate search on the sets in use.
func searchWeights(t *testing.T, cases []fitCase, nsets int, w0 []float64, steps []float64, use []bool, rounds int) ([]float64, fitRun) {
	w := append([]float64(nil), w0...)
	// penalty pulls each weight toward its prior (w0): lambda per step
	// of distance, squared.
	penalty := func(w []float64) float64 {
		var p float64
		for k := range w {
			if steps[k] > 0 {
				d := (w[k] - w0[k]) / steps[k]
				p += fitLambda * d * d
			}
		}
		return p
	}
	best := runWeights(cases, nsets, w)
	bestV := best.objective(use) - penalty(w)
	step := append([]float64(nil), steps...)
	for round := 0; round < rounds; round++ {
		improved := false
		for k := range w {
			if step[k] == 0 {
				continue
			}
			for _, dir := range []float64{1, -1} {
				for {
					try := append([]float64(nil), w...)
					try[k] += dir * step[k]
					r := runWeights(cases, nsets, try)
					v := r.objective(use) - penalty(try)
					if v <= bestV+fitMinGain {
						break
					}
					w, best, bestV, improved = try, r, v, true
					t.Logf("  w[%d]=%.3f objective %.4f %v", k, w[k], v, r.set)
				}
			}
		}
		if !improved {
			for k := range step {
				step[k] /= 2
			}
		}
	}
	return w, best
}

// floor, when set, is a run no set of a search may fall below on any
// figure (DIGESTD_FIT_PARETO=1: the weights as shipped).
var floor *fitRun

// fitMinGain is the least gain of the objective a step must make: a
// step that moves the figures by noise leaves the weight at its prior.
var fitMinGain = 1e-9

// fitLambda weighs the pull of each weight toward its prior.
var fitLambda = 0.0

// TestFitWindowWeights searches the window ranking weights on the evidence
// sets pooled and with each set left out. It runs only with
// DIGESTD_FIT=windows.
func TestFitWindowWeights(t *testing.T) {
	if os.Getenv("DIGESTD_FIT") != "windows" {
		t.Skip("set DIGESTD_FIT=windows to search the window weights")
	}
	if v := os.Getenv("DIGESTD_FIT_WINDOW_SENTENCES"); v != "" {
		var k int
		fmt.Sscan(v, &k)
		defer digest.SetEvidenceChoices(0, 0, k)()
	}
	cases, names := loadFitCases(t)
	n := len(names)
	w0 := digest.DefaultWindowWeights()
	if v := os.Getenv("DIGESTD_FIT_FROM"); v != "" {
		for k, f := range strings.Fields(v) {
			fmt.Sscan(f, &w0[k])
		}
	}
	r0 := runWeights(cases, n, w0)
	for s := range names {
		t.Logf("%s: as shipped %v; halves %v %v; BM25 %v; halves %v %v", names[s], r0.set[s], r0.half[s][0], r0.half[s][1], r0.base[s], r0.halfBase[s][0], r0.halfBase[s][1])
	}
	if v := os.Getenv("DIGESTD_FIT_MINGAIN"); v != "" {
		fmt.Sscan(v, &fitMinGain)
	}
	if v := os.Getenv("DIGESTD_FIT_LAMBDA"); v != "" {
		fmt.Sscan(v, &fitLambda)
	}
	if os.Getenv("DIGESTD_FIT_ROUNDS") == "0" {
		// Ablation: each weight of w0 set to 0 in turn.
		for k := range w0 {
			if w0[k] == 0 {
				continue
			}
			w := append([]float64(nil), w0...)
			w[k] = 0
			r := runWeights(cases, n, w)
			t.Logf("feature %d off: %v", k, r.set)
		}
		return
	}
	if os.Getenv("DIGESTD_FIT_PARETO") == "1" {
		floor = &r0
	}
	if os.Getenv("DIGESTD_FIT_ABLATE") == "1" {
		ablateWindowChoices(t, cases, n, w0)
		return
	}
	steps := make([]float64, len(w0))
	copy(steps, []float64{0, 0.2, 0.1, 0.2, 0.2, 0.2})
	all := slices.Repeat([]bool{true}, n)
	w, r := searchWeights(t, cases, n, w0, steps, all, 3)
	t.Logf("pooled: w %.3f", w)
	for s := range names {
		t.Logf("%s: pooled %v; halves %v %v", names[s], r.set[s], r.half[s][0], r.half[s][1])
	}
	for s := range names {
		use := slices.Repeat([]bool{true}, n)
		use[s] = false
		wl, rl := searchWeights(t, cases, n, w0, steps, use, 3)
		t.Logf("%s left out: w %.3f → %v (pooled %v)", names[s], wl, rl.set[s], r.set[s])
	}
}

// ablateWindowChoices measures, on every set and half, each of the
// evidence choices of digester/30 undone alone (docs/evidence.md): the
// heading weight, idf^1.25 with framing words at 0.3, windows of at most
// four sentences, the second anchor at 0.25 (0.5 before), and the lead
// prior's removal (a lead weight of 0.8 as before, and the near lead).
// Choices of the query model and the windows rebuild the cases.
func ablateWindowChoices(t *testing.T, cases []fitCase, n int, w0 []float64) {
	report := func(name string, r fitRun) {
		for s := range n {
			t.Logf("%-28s %-22s %v | halves %v %v", name, windowFitSets[s], r.set[s], r.half[s][0], r.half[s][1])
		}
	}
	r0 := runWeights(cases, n, w0)
	for s := range n {
		t.Logf("%-28s %-22s %v | halves %v %v", "floor (bounded BM25)", windowFitSets[s], r0.base[s], r0.halfBase[s][0], r0.halfBase[s][1])
	}
	report("as shipped", r0)
	with := func(k int, v float64) []float64 {
		w := slices.Clone(w0)
		w[k] = v
		return w
	}
	report("no heading weight", runWeights(cases, n, with(digest.WindowFeatureHeading, 0)))
	report("second anchor 0.5", runWeights(cases, n, with(digest.WindowFeatureSecond, 0.5)))
	for _, v := range []float64{0.2, 0.4, 0.8} {
		report(fmt.Sprintf("lead %.1f", v), runWeights(cases, n, with(digest.WindowFeatureLead, v)))
		report(fmt.Sprintf("near lead %.1f", v), runWeights(cases, n, with(digest.WindowFeatureLeadNear, v)))
		for _, p := range []float64{0.25, 0} {
			restore := digest.SetFirstLead(p)
			report(fmt.Sprintf("lead %.1f, first at ^%.2f", v, p), runWeights(cases, n, with(digest.WindowFeatureLead, v)))
			restore()
		}
	}
	if os.Getenv("DIGESTD_FIT_ABLATE_LEAD_ONLY") == "1" {
		return
	}
	for _, k := range []struct {
		name         string
		idf, framing float64
		sentences    int
	}{
		{"idf^1, framing 1", 1, 1, 0},
		{"idf^1.25, framing 1", 1.25, 1, 0},
		{"idf^1, framing 0.3", 1, 0.3, 0},
		{"windows of any sentences", 0, 0, 100},
		{"windows of at most 3 sentences", 0, 0, 3},
	} {
		restore := digest.SetEvidenceChoices(k.idf, k.framing, k.sentences)
		c, _ := loadFitCases(t)
		report(k.name, runWeights(c, n, w0))
		restore()
	}
}
