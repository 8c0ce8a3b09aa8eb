package digest

import (
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
const FallbackScore = fallbackScore

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
