package digestd_test

import (
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/pdfworker"
	"github.com/digestd/digestd/locate"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/structure"
	"github.com/digestd/digestd/wire"
)

// TestReadmeBounds holds the bounds the README and the docs it links state
// in prose to their constants: each phrase is written here from the
// constant, and must be in the README or docs/ (line breaks aside).
func TestReadmeBounds(t *testing.T) {
	readme := regexp.MustCompile(`\s+`).ReplaceAllString(string(userDocs(t)), " ")
	recount := fmt.Sprintf("at most every %d minutes", int(pipeline.ArchiveRecount.Minutes()))
	share := map[int]string{2: "a half", 3: "a third", 4: "a quarter", 5: "a fifth"}[structure.OutsideTextShare]
	for _, phrase := range []string{
		fmt.Sprintf("summary ≤ %d characters; ≤ %d key points of ≤ %d; ≤ %d evidence snippets of ≤ %d",
			digest.MaxSummaryChars, digest.MaxKeyPoints, digest.MaxKeyPointChars, digest.MaxEvidence, digest.MaxSnippetChars),
		fmt.Sprintf("**DigestPayload v%s**", digest.PayloadVersion),
		fmt.Sprintf("with an optional `section` of ≤ %d headings of ≤ %d characters", digest.MaxSectionDepth, digest.MaxSectionHeadingChars),
		fmt.Sprintf("cut to its first %d code points after the last whole word that fits (at %d when", digest.MaxSectionHeadingChars, digest.MaxSectionHeadingChars),
		fmt.Sprintf("a path keeps at most %d headings", digest.MaxSectionDepth),
		fmt.Sprintf("Version %s is %s without sections", digest.PayloadVersions[0], digest.PayloadVersion),
		fmt.Sprintf("`max_evidence` (1–%d)", digest.MaxEvidence),
		fmt.Sprintf("`max_key_points` (0–%d)", digest.MaxKeyPoints),
		fmt.Sprintf("`snippet_max_chars` (%d–%d)", digest.MinSnippetChars, digest.MaxSnippetChars),
		fmt.Sprintf("`summary_max_chars` (%d–%d)", digest.MinSummaryChars, digest.MaxSummaryChars),
		fmt.Sprintf("digests up to %d sources", wire.MaxSources),
		fmt.Sprintf("digest up to %d `sources`", wire.MaxSources),
		fmt.Sprintf("tokens at %d characters each", pipeline.CharsPerToken),
		fmt.Sprintf("(at most %d); at most %d quotes of ≤ %d characters", pipeline.MaxLocateSources, pipeline.MaxQuotes, pipeline.MaxQuoteChars),
		fmt.Sprintf("default %g", locate.DefaultMinSimilarity),
		fmt.Sprintf("`limit` 1–%d", pipeline.MaxListLimit),
		fmt.Sprintf("`limit` is at most %d a page", pipeline.MaxSearchLimit),
		fmt.Sprintf("`data.source.links` lists at most %d links", pipeline.MaxSourceLinks),
		fmt.Sprintf("(`limit` 1–%d, default %d,", pipeline.MaxLinksLimit, pipeline.DefaultLinksLimit),
		fmt.Sprintf("its anchor text (at most %d code points, cut there)", structure.MaxLinkTextChars),
		fmt.Sprintf("(the first %d of them are kept, as many as fit in %s of the text's bytes, or %d bytes when that is more)", structure.MaxOutsideLinks, share, structure.MinOutsideBytes),
		fmt.Sprintf("at most %d, as many as fit in its budget: the blob is at most %s of the canonical text's bytes, or %d bytes when that is more, so it is never larger than its text by more than %d bytes", structure.MaxOutsideLinks, share, structure.MinOutsideBytes, structure.MinOutsideBytes),
		fmt.Sprintf("(`context.reason` `%s`, `context.outside_total` the links it had outside its text", pipeline.ReasonOutsideLinks),
		fmt.Sprintf("(`context.reason`: `%s`, `context.outside_total`: the page's outside links, `context.outside_listed`: those listed)", pipeline.ReasonOutsideLinks),
		fmt.Sprintf("(at most %d, each 1–%d characters)", pipeline.MaxLabels, pipeline.MaxLabelChars),
		fmt.Sprintf("A JSON-RPC batch holds at most %d messages", wire.MaxBatchEntries),
		recount,
		fmt.Sprintf("an image of more than %d pixels or %d on a side is `TOO_LARGE`", ocr.MaxPixels, ocr.MaxSide),
		fmt.Sprintf("rendered at %d dpi, or lower down to %d dpi", ocr.RenderDPI, ocr.MinRenderDPI),
		fmt.Sprintf("a page a scanner turned by %g° to %g° is straightened", ocr.MinSkew, ocr.MaxSkew),
		fmt.Sprintf("a mean word confidence of %g is named in an `OCR_LOW_CONFIDENCE` warning", ocr.ConfidenceFloor),
		fmt.Sprintf("names up to %d languages", ocr.MaxLanguages),
		fmt.Sprintf("| `--ocr-max-pages` | %d |", ocr.DefaultMaxPages),
		fmt.Sprintf("| `--ocr-deadline` | %s |", pdfworker.DefaultOCRDeadline),
		ocr.Install,
	} {
		if !strings.Contains(readme, phrase) {
			t.Errorf("neither the README nor docs/ says %q", phrase)
		}
	}
	if !strings.Contains(string(digestd.OpenAPI), recount) {
		t.Errorf("openapi.yaml does not say %q", recount)
	}
}
