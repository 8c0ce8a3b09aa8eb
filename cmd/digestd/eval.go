package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/search"
)

const evalUsage = `Usage: digestd eval KIND [--json] DIR...

Measures quality on evaluation sets (folders with cases.jsonl, see the README):
  all        every kind below on every set under each DIR that fits it, by
             the set's name: extract-* extract and hygiene; evidence-*
             evidence, sources, search, locate and hygiene; summary-*
             summary and hygiene; sbd-* sbd. One report a kind and set: the
             table docs/eval-baseline.json holds as last landed
  extract    main-content extraction of cases of any source kind (html, pdf,
             docx, pptx, xlsx, odt, odp, ods, epub, markdown, csv, json,
             ipynb, rss, atom, xml, image): shingle, snippet and word F1
             (word_f1 for PDFs, word_f1_<kind>
             for the document kinds and images); floor_word_f1(_<kind>) and
             floor_seconds where cases carry another reader's text (the OCR
             sets of cmd/ocrset: bare tesseract), pages_per_sec where they
             count pages; WCXB's word_f1_lc overall and per page type
             where cases carry page_type; verdicts counts the pages answered
             CONTENT_BLOCKED, JS_REQUIRED or NOT_CONTENT, and false_verdicts
             those of them whose case says the page has content,
             word_f1_lc_nonempty over the pages whose reference is not
             empty, and empty_reference_pages; --ablate turns each rule of
             the HTML extractor off in turn and reports the pages it
             changes and the change of each metric per set (--rules-doc
             FILE writes it beside the table)
  evidence   evidence selection (answer_recall_at_10, hit_at_1, mrr_at_10;
             snippet shape, calibration with no_query_match_max_score, and
             a BM25 sentence-window baseline beside them;
             duplicate_key_points counts digests whose key points repeat;
             half0_/half1_ figures per half of the set by document)
  sources    cross-source ranking of an evidence set: each question's document
             among 9 others through the multi-source path (sources_p_at_1,
             sources_mrr, and BM25 over whole documents on the same draws;
             half0_/half1_ figures per half)
  summary    summaries (ROUGE-1/2/L of the summary and of its first 3
             sentences; empty_summaries counts empty summaries)
  sbd        sentence boundaries (sbd_accuracy)
  hygiene    on any extract, evidence or summary set: each document digested once
             (a page with an empty query, an evidence document with its first
             question) and counted what a reader would not keep:
             key_points_not_sentences (and _share), boilerplate_lines (key points
             and summary sentences inside a block found on 3+ documents of the
             set; boilerplate_share), dangling_summary_openers,
             key_points_repeating_summary, repeated_sentences,
             digests_longer_than_source, empty_summaries (texts of two or
             more sentences), summaries_not_opening_lead; every count also
             short_ on a short-text view (each text over 1,500 code points
             cut at a sentence end to its first 1,500-4,000)
  search     search across a whole evidence set: every document put into a fresh
             index, each question asked across all of them (answer_recall_at_10,
             hit_at_1, mrr_at_10, evidence_* where cases have gold evidence,
             source_in_top_3 and source_mrr_at_10 for the question's own
             document; the same for BM25 over the same passages, prefixed bm25_;
             half0_/half1_ figures per half, lang_<lang>_ per language where
             cases carry one; index_bytes against text_bytes); --index
             postgres://… runs it on that PostgreSQL database, every source
             it holds removed first, instead of a fresh embedded index
  locate     quote location on evidence sets: gold answers and evidence sentences
             exact and perturbed, sentences of other documents as negatives
             (located_<kind>, match_<kind>, false_locator_rate)

Sources go through the same code paths as the service: HTML through the
extractor, PDFs through the isolated worker pool, office documents, EPUB,
Markdown, CSV, JSON, notebooks, feeds and XML through the document converter, evaluation documents
through the text source path. A failing case counts as empty output and in "errors".
`

func runEval(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if len(args) == 0 || args[0] == "-h" || args[0] == "--help" {
		fmt.Fprint(stderr, evalUsage)
		if len(args) == 0 {
			return &exitError{code: 2, err: errors.New("eval: no kind given")}
		}
		return nil
	}
	kind := args[0]
	fs := newFlagSet("eval "+kind, evalUsage, stderr)
	var c config
	c.register(fs)
	asJSON := fs.Bool("json", false, "print exactly one JSON object per set, one per line")
	ablate := fs.Bool("ablate", false, "extract: turn each rule of the HTML extractor off in turn and report the pages it changes and the metrics' change on each set")
	rulesDoc := fs.String("rules-doc", "", "extract --ablate: also write the rule table with each rule's measured contribution to this Markdown file")
	onlyRules := fs.String("rules", "", "extract --ablate: measure only these rules and exceptions (comma-separated names, rule/exception for an exception)")
	if err := parseFlags(fs, args[1:]); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return &exitError{code: 2, err: errors.New("eval: no evaluation set given")}
	}
	if (*ablate || *rulesDoc != "" || *onlyRules != "") && (kind != "extract" || !*ablate) || *rulesDoc != "" && *onlyRules != "" {
		return &exitError{code: 2, err: errors.New("eval: --ablate is for eval extract, --rules-doc and --rules need --ablate, and --rules-doc measures every rule (no --rules)")}
	}
	// The evaluation archives into a scratch directory so measuring never
	// fills the real archive.
	scratch, err := os.MkdirTemp("", "digestd-eval-*")
	if err != nil {
		return err
	}
	defer os.RemoveAll(scratch)
	c.archive = scratch
	// Only eval search uses an index, a fresh embedded one per set of its
	// own, or the shared (server) index --index names, emptied per set.
	searchIndex := c.index
	if searchIndex != "" {
		if b, err := indexBackendOf(searchIndex); kind != "search" || err != nil || !b.shared {
			return &exitError{code: 2, err: errors.New("eval: --index is for eval search, and names a PostgreSQL database (postgres://…)")}
		}
	}
	c.index = "off"
	a, err := openApp(ctx, &c, slog.New(slog.NewJSONHandler(io.Discard, nil)))
	if err != nil {
		return err
	}
	defer a.Close()

	if *ablate {
		var only []string
		if *onlyRules != "" {
			only = strings.Split(*onlyRules, ",")
		}
		abl, err := runAblation(ctx, a.pipe.Ingester, fs.Args(), only)
		if err != nil {
			return err
		}
		if *rulesDoc != "" {
			if err := writeRulesDoc(*rulesDoc, abl); err != nil {
				return err
			}
		}
		return writeAblation(stdout, abl, *asJSON)
	}
	if kind == "all" {
		return evalAll(ctx, a, scratch, fs.Args(), stdout, *asJSON)
	}
	for _, dir := range fs.Args() {
		rep, err := evalOne(ctx, a, scratch, kind, dir, searchIndex)
		if err != nil {
			return err
		}
		if err := writeReport(stdout, rep, *asJSON); err != nil {
			return err
		}
	}
	return nil
}

// writeReport writes rep as one JSON line or as a table.
func writeReport(w io.Writer, rep evaluate.Report, asJSON bool) error {
	if asJSON {
		return rep.WriteJSON(w)
	}
	return rep.WriteTable(w)
}

// evalOne measures one kind on the set in dir; search runs on the index at
// searchIndex (a PostgreSQL database), or a fresh embedded one when it is
// empty.
func evalOne(ctx context.Context, a *app, scratch, kind, dir, searchIndex string) (evaluate.Report, error) {
	var rep evaluate.Report
	var err error
	switch kind {
	case "extract":
		rep, err = evaluate.Extract(ctx, dir, extractFunc(a.pipe.Ingester))
	case "search":
		rep, err = evalSearch(ctx, dir, a.pipe, scratch, searchIndex)
	case "hygiene":
		rep, err = evaluate.Hygiene(ctx, dir, extractFunc(a.pipe.Ingester), evidenceFunc(a.pipe))
	default:
		err = evalKind(ctx, kind, dir, a.pipe, &rep)
	}
	if err != nil {
		return rep, fmt.Errorf("eval %s %s: %w", kind, dir, err)
	}
	return rep, nil
}

// evalAll runs every kind on every set under the data roots that fits it
// (evaluate.KindsFor), one report a kind and set, in the sets' name order.
func evalAll(ctx context.Context, a *app, scratch string, roots []string, stdout io.Writer, asJSON bool) error {
	for _, root := range roots {
		sets, err := evaluate.Sets(root)
		if err != nil {
			return fmt.Errorf("eval all: %w", err)
		}
		for _, dir := range sets {
			for _, kind := range evaluate.KindsFor(filepath.Base(dir)) {
				rep, err := evalOne(ctx, a, scratch, kind, dir, "")
				if err != nil {
					return err
				}
				if err := writeReport(stdout, rep, asJSON); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// evalSearch runs evaluate.Search on a fresh embedded index in scratch, or
// on the index at at (a PostgreSQL database, every source it holds removed
// first), documents archived through the pipeline's text path and
// questions asked through its search, and adds the index's size on disk
// against the canonical text's (index_bytes, text_bytes; the embedded
// engine's).
func evalSearch(ctx context.Context, dir string, p *pipeline.Pipeline, scratch, at string) (evaluate.Report, error) {
	if at == "" {
		loc, err := os.MkdirTemp(scratch, "search-*")
		if err != nil {
			return evaluate.Report{}, err
		}
		at = filepath.Join(loc, "index")
	}
	backend, err := indexBackendOf(at)
	if err != nil {
		return evaluate.Report{}, err
	}
	idx, _, err := backend.open(ctx, at, "eval")
	if err != nil {
		return evaluate.Report{}, err
	}
	var held []archive.Hash
	if err := idx.Sources(ctx, func(s search.Source) error { held = append(held, s.Hash); return nil }); err != nil {
		idx.Close()
		return evaluate.Report{}, err
	}
	for _, h := range held {
		if err := idx.Remove(ctx, h); err != nil {
			idx.Close()
			return evaluate.Report{}, err
		}
	}
	prev := p.Index
	p.Index = idx
	defer func() { p.Index = prev; idx.Close() }()
	var textBytes int64
	add := func(ctx context.Context, text string) (string, string, error) {
		info, err := p.Archive(ctx, pipeline.Request{Source: ingest.Source{Text: text}})
		if err != nil {
			return "", "", err
		}
		b, err := p.Blob(ctx, info.ArchiveHash)
		if err != nil {
			return "", "", err
		}
		textBytes += int64(len(b))
		return info.ArchiveHash.String(), string(b), nil
	}
	ask := func(ctx context.Context, question string) ([]evaluate.SearchHit, error) {
		page, err := p.Search(ctx, pipeline.SearchRequest{Query: question, Limit: evaluate.EvidenceK})
		if err != nil {
			return nil, err
		}
		hits := make([]evaluate.SearchHit, len(page.Hits))
		for i, h := range page.Hits {
			hits[i] = evaluate.SearchHit{Source: h.Source.String(), Text: h.Text}
		}
		return hits, nil
	}
	rep, err := evaluate.Search(ctx, dir, add, ask)
	if err != nil {
		return rep, err
	}
	rep.Metrics["text_bytes"] = float64(textBytes)
	if backend.size == nil {
		return rep, nil
	}
	size, err := backend.size(at)
	if err != nil {
		return rep, err
	}
	rep.Metrics["index_bytes"] = float64(size)
	return rep, nil
}

// extractFunc extracts through the service's ingester.
func extractFunc(in *ingest.Ingester) evaluate.ExtractFunc {
	return func(ctx context.Context, kind string, raw []byte, pageURL string) (string, error) {
		src := ingest.Source{File: raw, Kind: kind}
		if kind == "" {
			src.Kind = ingest.KindHTML
		}
		doc, err := in.Ingest(ctx, src)
		if err != nil {
			return "", err
		}
		return doc.Text.String(), nil
	}
}

// digestFunc digests a document through the text source path of the
// pipeline, exactly as POST /v1/digest with source.text does.
func digestFunc(p *pipeline.Pipeline) func(ctx context.Context, text, query string) (*digest.Payload, error) {
	return func(ctx context.Context, text, query string) (*digest.Payload, error) {
		res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: text}, Query: query})
		if err != nil {
			return nil, err
		}
		return res.Payload, nil
	}
}

// evidenceFunc digests a document as digestFunc does and also returns the
// archived canonical text its locators point into and the warnings' codes.
func evidenceFunc(p *pipeline.Pipeline) evaluate.EvidenceFunc {
	return func(ctx context.Context, text, query string) (evaluate.EvidenceDigest, error) {
		res, err := p.Digest(ctx, pipeline.Request{Source: ingest.Source{Text: text}, Query: query})
		if err != nil {
			return evaluate.EvidenceDigest{}, err
		}
		b, err := p.Blob(ctx, res.Source.ArchiveHash)
		if err != nil {
			return evaluate.EvidenceDigest{}, err
		}
		d := evaluate.EvidenceDigest{Payload: res.Payload, Canonical: string(b)}
		for _, w := range res.Warnings {
			d.Warnings = append(d.Warnings, w.Code)
		}
		return d, nil
	}
}

// rankFunc ranks documents through the multi-source path, exactly as POST
// /v1/digests with source.text items and no budget does.
func rankFunc(p *pipeline.Pipeline) evaluate.RankFunc {
	return func(ctx context.Context, texts []string, query string) ([]int, error) {
		req := pipeline.ManyRequest{Query: query}
		for i, t := range texts {
			req.Sources = append(req.Sources, pipeline.Request{ID: strconv.Itoa(i), Source: ingest.Source{Text: t}})
		}
		res, err := p.DigestMany(ctx, req)
		if err != nil {
			return nil, err
		}
		var order []int
		for _, it := range append(res.Items, res.Dropped...) {
			i, err := strconv.Atoi(it.ID)
			if err != nil {
				return nil, fmt.Errorf("rank: unexpected source id %q", it.ID)
			}
			order = append(order, i)
		}
		return order, nil
	}
}
