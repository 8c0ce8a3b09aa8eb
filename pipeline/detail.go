package pipeline

// Disclosure levels of a multi-source answer, from least to most content.
// Each has a whitelist of the item fields a client may ask for
// (wire.DetailFields); ids_only and metadata items are packed at
// FidelityReferenceOnly, summary items at FidelitySummary.
const (
	DetailIDsOnly  = "ids_only"
	DetailMetadata = "metadata"
	DetailSummary  = "summary"
	DetailFull     = "full"
)

// DetailFidelity is the most an item may carry at each disclosure level.
var DetailFidelity = map[string]string{
	DetailIDsOnly:  FidelityReferenceOnly,
	DetailMetadata: FidelityReferenceOnly,
	DetailSummary:  FidelitySummary,
	DetailFull:     FidelityFull,
}
