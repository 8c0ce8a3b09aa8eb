package digest

import "fmt"

// Bounds on the options a request may set. The maxima are the payload bounds;
// the minima keep a digest useful (a 10-character snippet proves nothing).
const (
	MinSnippetChars = 50
	MinSummaryChars = 1
)

// Options bounds one digest. A zero field means "use the default"; see
// WithDefaults. Validate reports fields outside their range.
type Options struct {
	// MaxEvidence is the most evidence snippets to return, 1–10.
	MaxEvidence int `json:"max_evidence"`
	// MaxKeyPoints is the most key points to return, 0–10 (0 takes the default).
	MaxKeyPoints int `json:"max_key_points"`
	// SnippetMaxChars bounds each snippet's length in code points, 50–500.
	SnippetMaxChars int `json:"snippet_max_chars"`
	// SummaryMaxChars bounds the summary's length in code points, 1–2000.
	SummaryMaxChars int `json:"summary_max_chars"`
}

// NoKeyPoints as MaxKeyPoints asks for no key points at all (0 takes the
// default): clients that send max_key_points 0 get it.
const NoKeyPoints = -1

// DefaultOptions returns the payload maxima: 10 snippets, 10 key points,
// 500-character snippets and a 2000-character summary.
func DefaultOptions() Options {
	return Options{
		MaxEvidence:     MaxEvidence,
		MaxKeyPoints:    MaxKeyPoints,
		SnippetMaxChars: MaxSnippetChars,
		SummaryMaxChars: MaxSummaryChars,
	}
}

// WithDefaults returns o with every zero field set to its default, so a
// request that omits a field gets the default. Negative fields are kept so
// that Validate can reject them.
func (o Options) WithDefaults() Options {
	d := DefaultOptions()
	if o.MaxEvidence == 0 {
		o.MaxEvidence = d.MaxEvidence
	}
	if o.MaxKeyPoints == 0 {
		o.MaxKeyPoints = d.MaxKeyPoints
	}
	if o.SnippetMaxChars == 0 {
		o.SnippetMaxChars = d.SnippetMaxChars
	}
	if o.SummaryMaxChars == 0 {
		o.SummaryMaxChars = d.SummaryMaxChars
	}
	return o
}

// Validate returns an error naming the first field outside its range and the
// range, e.g. "max_evidence: must be between 1 and 10". Zero fields are
// accepted where WithDefaults would fill them (max_key_points 0 is in range).
func (o Options) Validate() error {
	check := func(field string, v, lo, hi int) error {
		if v < lo || v > hi {
			return fmt.Errorf("%s: must be between %d and %d (got %d)", field, lo, hi, v)
		}
		return nil
	}
	o = o.WithDefaults()
	if err := check("max_evidence", o.MaxEvidence, 1, MaxEvidence); err != nil {
		return err
	}
	if o.MaxKeyPoints != NoKeyPoints {
		if err := check("max_key_points", o.MaxKeyPoints, 0, MaxKeyPoints); err != nil {
			return err
		}
	}
	if err := check("snippet_max_chars", o.SnippetMaxChars, MinSnippetChars, MaxSnippetChars); err != nil {
		return err
	}
	return check("summary_max_chars", o.SummaryMaxChars, MinSummaryChars, MaxSummaryChars)
}
