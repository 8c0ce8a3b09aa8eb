package digest

import (
	"slices"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/fault"
)

// SnippetFeatures returns the snippets Build chooses for text and query,
// the calibration features of each (see featSaturated), and whether the
// digest falls back to describing the whole document (its scores are then
// capped at fallbackScore).
func SnippetFeatures(text, query string) ([]EvidenceSnippet, [][]float64, bool, error) {
	b, err := build(archive.NewBlob(text), query, Options{})
	if err != nil {
		return nil, nil, false, err
	}
	xs := make([][]float64, len(b.features))
	for i := range b.features {
		xs[i] = b.features[i][:]
	}
	fallback := false
	for _, w := range b.warns {
		fallback = fallback || w.Code == fault.NoQueryMatch || w.Code == fault.QueryFallback
	}
	return b.payload.EvidenceSnippets, xs, fallback, nil
}

// FallbackScore is the most a snippet without a query term scores.
var FallbackScore = fallbackScore

// SourceFeatures returns RankSources' features of each source.
func SourceFeatures(matches []*Match, tops []float64) [][]float64 {
	fs := sourceFeaturesOf(matches, tops)
	xs := make([][]float64, len(fs))
	for i := range fs {
		xs[i] = fs[i][:]
	}
	return xs
}

// Model is a fitted logistic model, for the calibration generator.
type Model struct {
	Bias float64
	W    []float64
}

// P returns the model's probability for features x.
func (m Model) P(x []float64) float64 { return logit{m.Bias, m.W}.p(x) }

// WindowCase is one question's candidate windows over one text, for
// fitting the window weights (TestFitWindowWeights).
type WindowCase struct {
	d     *document
	cands []candidate
	sc    *windowScorer
}

// WindowFeatureCount is the number of window ranking features.
const WindowFeatureCount = windowFeatures

// Window ranking features, by name.
const (
	WindowFeatureSecond   = wfSecond
	WindowFeatureHeading  = wfHeading
	WindowFeatureLead     = wfLead
	WindowFeatureLeadNear = wfLeadNear
)

// SetFirstLead sets the power of the lead factor the first window is
// chosen by, and returns a function that restores it.
func SetFirstLead(v float64) (restore func()) {
	old := firstLead
	firstLead = v
	return func() { firstLead = old }
}

// SetEvidenceChoices sets the query terms' idf power, the framing words'
// weight and the most sentences a window holds (each only when not zero),
// and returns a function that restores them, for the fit's ablation.
func SetEvidenceChoices(idfPower, framing float64, sentences int) (restore func()) {
	p, f, n := termIDFPower, framingWeight, windowSentences
	if idfPower != 0 {
		termIDFPower = idfPower
	}
	if framing != 0 {
		framingWeight = framing
	}
	if sentences != 0 {
		windowSentences = sentences
	}
	return func() { termIDFPower, framingWeight, windowSentences = p, f, n }
}

// DefaultWindowWeights returns the window weights in use.
func DefaultWindowWeights() []float64 { return slices.Clone(windowWeights[:]) }

// NewWindowCase returns the candidate windows Build scores for text and
// query, or nil when the digest would fall back.
func NewWindowCase(text, query string) *WindowCase {
	d := analyze(text)
	ids := d.queryTerms(query)
	if len(ids) == 0 {
		return nil
	}
	q := newQueryModel(d, ids)
	q.expandSpelling(d, query)
	q.expandAbbreviations(d)
	q.expandPrefixes(d)
	if !slices.ContainsFunc(scoreSentences(d, q), func(v float64) bool { return v > 0 }) {
		return nil
	}
	q = q.forEvidence(d)
	q.expandSemantic(d, query)
	cands, sc := windowCandidates(d, q, query, MaxSnippetChars)
	if sc == nil {
		return nil
	}
	return &WindowCase{d: d, cands: cands, sc: sc}
}

// Pick returns the texts of the n windows chosen with weights w.
func (wc *WindowCase) Pick(w []float64, n int) []string {
	var ww [windowFeatures]float64
	copy(ww[:], w)
	sc := *wc.sc
	sc.w = &ww
	cands := slices.Clone(wc.cands)
	for i := range cands {
		sc.score(&cands[i])
	}
	sortCandidates(cands)
	var out []string
	for _, c := range pickWindows(wc.d, cands, n, &sc) {
		out = append(out, wc.d.text[c.w.bstart:c.w.bend])
	}
	return out
}
