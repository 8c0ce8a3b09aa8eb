package evaluate

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/format"
)

// ExtractFunc turns one source (its kind, one of format.Kinds, its raw
// bytes and its URL, which may be empty or not a real URL) into canonical
// text. An error makes the case count as empty output.
type ExtractFunc func(ctx context.Context, kind string, raw []byte, pageURL string) (string, error)

// ExtractCase is one line of an extract set's cases.jsonl.
type ExtractCase struct {
	ID             string   `json:"id"`
	Kind           string   `json:"kind"`
	File           string   `json:"file"`
	URL            string   `json:"url,omitempty"`
	ReferenceFile  string   `json:"reference_file,omitempty"`
	MustContain    []string `json:"must_contain,omitempty"`
	MustNotContain []string `json:"must_not_contain,omitempty"`
	Encrypted      bool     `json:"encrypted,omitempty"`
	// PageType is the kind of page (WCXB: article, forum, product, ...);
	// cases that carry it are also scored with WCXB's word metric.
	PageType string `json:"page_type,omitempty"`
	// FloorFile is another reader's text of the same input (the OCR sets'
	// bare tesseract run), scored beside digestd's as floor_word_f1 (and
	// floor_word_f1_<kind> beside word_f1_<kind>), and FloorSeconds the
	// time it took (summed as floor_seconds).
	FloorFile    string  `json:"floor_file,omitempty"`
	FloorSeconds float64 `json:"floor_seconds,omitempty"`
	// Pages counts the input's pages, where the set says (summed as
	// pages, for pages_per_sec).
	Pages int `json:"pages,omitempty"`
}

// ReadExtractCases reads dir/cases.jsonl.
func ReadExtractCases(dir string) ([]ExtractCase, error) {
	return readCases[ExtractCase](dir)
}

// ReadCaseFile reads a file named in a case, relative to the set's folder,
// gunzipping it when its name ends in ".gz".
func ReadCaseFile(dir, name string) ([]byte, error) {
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		return nil, err
	}
	if !strings.HasSuffix(name, ".gz") {
		return b, nil
	}
	zr, err := gzip.NewReader(bytes.NewReader(b))
	if err != nil {
		return nil, fmt.Errorf("gunzip %s: %w", name, err)
	}
	defer zr.Close()
	out, err := io.ReadAll(zr)
	if err != nil {
		return nil, fmt.Errorf("gunzip %s: %w", name, err)
	}
	return out, nil
}

// ExtractOutput is the outcome of one case of an extract run.
type ExtractOutput struct {
	Case ExtractCase
	Text string
	Err  error
}

// Extract runs fn over every case of the extract set in dir, in file order on
// one goroutine, and scores the outputs. A case whose input cannot be read or
// whose extraction fails counts as empty output and in Report.Errors; it never
// stops the run. Only cancellation of ctx does, returning ctx's error.
// Seconds and DocsPerSec time fn alone, not reading inputs or scoring.
func Extract(ctx context.Context, dir string, fn ExtractFunc) (Report, error) {
	outs, err := RunExtract(ctx, dir, fn)
	if err != nil {
		return Report{}, err
	}
	return outs.Report, nil
}

// ExtractRun is the full result of an extract run: the report and every
// case's output, in case order.
type ExtractRun struct {
	Report  Report
	Outputs []ExtractOutput
}

// RunExtract is Extract that also returns each case's output, for tests and
// error analysis.
func RunExtract(ctx context.Context, dir string, fn ExtractFunc) (ExtractRun, error) {
	cases, err := ReadExtractCases(dir)
	if err != nil {
		return ExtractRun{}, err
	}
	run := ExtractRun{
		Report:  Report{Set: filepath.Base(filepath.Clean(dir)), Kind: "extract", Metrics: map[string]float64{}},
		Outputs: make([]ExtractOutput, 0, len(cases)),
	}
	var elapsed time.Duration
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return ExtractRun{}, fmt.Errorf("extract run %s: %w", run.Report.Set, err)
		}
		out := ExtractOutput{Case: c}
		raw, err := ReadCaseFile(dir, c.File)
		if err != nil {
			out.Err = fmt.Errorf("case %s: %w", c.ID, err)
		} else {
			start := time.Now()
			text, err := fn(ctx, c.Kind, raw, c.URL)
			elapsed += time.Since(start)
			if err != nil {
				out.Err = fmt.Errorf("case %s: %w", c.ID, err)
			} else {
				out.Text = text
			}
		}
		run.Outputs = append(run.Outputs, out)
	}
	run.Report.Cases = len(cases)
	run.Report.Seconds = elapsed.Seconds()
	if elapsed > 0 {
		run.Report.DocsPerSec = float64(len(cases)) / elapsed.Seconds()
	}
	if err := scoreExtract(dir, &run); err != nil {
		return ExtractRun{}, err
	}
	return run, nil
}

// scoreExtract fills the report's error count and metrics from the outputs.
func scoreExtract(dir string, run *ExtractRun) error {
	var shingleMatches, pdfMatches []Match
	var wordF1Sum float64
	docWordF1 := map[string][]float64{} // by document kind
	floorF1 := map[string][]float64{}   // by kind, where cases give a floor
	var floorSeconds float64
	pages := 0
	var pageWords []typedPRF
	var snippets SnippetCounts
	hasSnippets := false
	verdicts, falseVerdicts, html := 0, 0, false
	for _, o := range run.Outputs {
		if o.Err != nil {
			run.Report.Errors++
		}
		c := o.Case
		html = html || c.Kind == "html"
		if isVerdict(o.Err) {
			verdicts++
			if hasContent, err := caseHasContent(dir, c); err != nil {
				return err
			} else if hasContent {
				falseVerdicts++
			}
		}
		if len(c.MustContain) > 0 || len(c.MustNotContain) > 0 {
			hasSnippets = true
			snippets.Add(o.Text, c.MustContain, c.MustNotContain)
		}
		if c.ReferenceFile == "" {
			continue
		}
		ref, err := ReadCaseFile(dir, c.ReferenceFile)
		if err != nil {
			return fmt.Errorf("case %s: reference: %w", c.ID, err)
		}
		if c.PageType != "" {
			pageWords = append(pageWords, typedPRF{c.PageType, len(LowerTokens(string(ref))) == 0, LowerWordPRF(o.Text, string(ref))})
		}
		m := ShingleMatch(o.Text, string(ref))
		shingleMatches = append(shingleMatches, m)
		if c.Kind == "pdf" {
			pdfMatches = append(pdfMatches, m)
			wordF1Sum += WordF1(o.Text, string(ref))
		}
		if slices.Contains(format.Documents, c.Kind) || c.Kind == format.Image {
			docWordF1[c.Kind] = append(docWordF1[c.Kind], WordF1(o.Text, string(ref)))
		}
		if c.FloorFile != "" {
			floor, err := ReadCaseFile(dir, c.FloorFile)
			if err != nil {
				return fmt.Errorf("case %s: floor: %w", c.ID, err)
			}
			floorF1[c.Kind] = append(floorF1[c.Kind], WordF1(string(floor), string(ref)))
			floorSeconds += c.FloorSeconds
		}
		pages += c.Pages
	}
	for kind, scores := range floorF1 {
		var sum float64
		for _, f := range scores {
			sum += f
		}
		// Named as the kind's own word F1 is: floor_word_f1 beside a
		// PDF's word_f1, floor_word_f1_image beside word_f1_image.
		name := "floor_word_f1"
		if kind != format.PDF {
			name += "_" + kind
		}
		run.Report.Metrics[name] = sum / float64(len(scores))
		run.Report.Metrics["floor_seconds"] = floorSeconds
	}
	if pages > 0 && run.Report.Seconds > 0 {
		run.Report.Metrics["pages"] = float64(pages)
		run.Report.Metrics["pages_per_sec"] = float64(pages) / run.Report.Seconds
	}
	metrics := run.Report.Metrics
	if html {
		metrics["verdicts"] = float64(verdicts)
		metrics["false_verdicts"] = float64(falseVerdicts)
	}
	if len(shingleMatches) > 0 {
		s := ShingleScore(shingleMatches)
		metrics["shingle_precision"] = s.Precision
		metrics["shingle_recall"] = s.Recall
		metrics["shingle_f1"] = s.F1
	}
	if hasSnippets {
		s := snippets.Score()
		metrics["snippet_precision"] = s.Precision
		metrics["snippet_recall"] = s.Recall
		metrics["snippet_f1"] = s.F1
	}
	if len(pdfMatches) > 0 {
		var sum float64
		for _, m := range pdfMatches {
			sum += DocShingleF1(m)
		}
		metrics["word_f1"] = wordF1Sum / float64(len(pdfMatches))
		metrics["word_shingle_f1"] = sum / float64(len(pdfMatches))
	}
	addPageTypeWords(metrics, pageWords)
	for kind, scores := range docWordF1 {
		var sum float64
		for _, s := range scores {
			sum += s
		}
		metrics["word_f1_"+kind] = sum / float64(len(scores))
	}
	return nil
}

// isVerdict reports whether err is a page's verdict: a challenge, consent,
// login or paywall page (CONTENT_BLOCKED), a page that needs its scripts
// (JS_REQUIRED), or a soft 404 or empty page (NOT_CONTENT).
func isVerdict(err error) bool {
	if err == nil {
		return false
	}
	switch fault.CodeOf(err) {
	case fault.ContentBlocked, fault.JSRequired, fault.NotContent:
		return true
	}
	return false
}

// caseHasContent reports whether a case says its page has content: text
// it must contain, or a reference with a word in it. A verdict on such a
// page is a false verdict.
func caseHasContent(dir string, c ExtractCase) (bool, error) {
	if len(c.MustContain) > 0 {
		return true, nil
	}
	if c.ReferenceFile == "" {
		return false, nil
	}
	ref, err := ReadCaseFile(dir, c.ReferenceFile)
	if err != nil {
		return false, fmt.Errorf("case %s: reference: %w", c.ID, err)
	}
	return strings.IndexFunc(string(ref), isWordRune) >= 0, nil
}

// typedPRF is one page's WCXB word metric with its page type.
type typedPRF struct {
	pageType string
	// emptyRef: the reference holds no word, so an empty output scores 1.
	emptyRef bool
	PRF
}

// addPageTypeWords sets WCXB's word metric from per-page scores: the mean
// per-page precision, recall and F1 over all pages (word_precision_lc,
// word_recall_lc, word_f1_lc) and the mean F1 per page type
// (word_f1_lc_<type>). A page whose reference is empty scores 1 for an
// empty output, so an extractor that gives up on a page can gain there:
// word_f1_lc_nonempty is the mean F1 over the pages whose reference holds
// a word, and empty_reference_pages counts the others.
func addPageTypeWords(metrics map[string]float64, pages []typedPRF) {
	if len(pages) == 0 {
		return
	}
	var all PRF
	var nonEmpty float64
	empty := 0
	sums := map[string]float64{}
	counts := map[string]int{}
	for _, p := range pages {
		all.Precision += p.Precision
		all.Recall += p.Recall
		all.F1 += p.F1
		sums[p.pageType] += p.F1
		counts[p.pageType]++
		if p.emptyRef {
			empty++
		} else {
			nonEmpty += p.F1
		}
	}
	n := float64(len(pages))
	metrics["word_precision_lc"] = all.Precision / n
	metrics["word_recall_lc"] = all.Recall / n
	metrics["word_f1_lc"] = all.F1 / n
	metrics["empty_reference_pages"] = float64(empty)
	if empty < len(pages) {
		metrics["word_f1_lc_nonempty"] = nonEmpty / float64(len(pages)-empty)
	}
	for t, s := range sums {
		metrics["word_f1_lc_"+t] = s / float64(counts[t])
	}
}
