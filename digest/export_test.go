package digest

// SnippetFeatures returns the snippets Build chooses for text and query and
// the calibration features of each (see featSaturated).
func SnippetFeatures(text, query string) ([]EvidenceSnippet, [][]float64, error) {
	b, err := build(text, query, Options{})
	if err != nil {
		return nil, nil, err
	}
	xs := make([][]float64, len(b.features))
	for i := range b.features {
		xs[i] = b.features[i][:]
	}
	return b.payload.EvidenceSnippets, xs, nil
}

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
