// Package batch digests many sources in one run: it reads a JSONL manifest
// (or walks a directory), runs every source through the pipeline with
// bounded concurrency and per-host politeness, and appends one JSON line per
// source to an output file. Runs are resumable: lines are written whole and
// fsynced, a torn last line is repaired on start, and ids already present are
// skipped, so every id of the manifest appears in the output exactly once.
//
// batch is an edge package: it calls the pipeline and the api envelope
// helpers, and nothing in the core imports it.
package batch

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"github.com/digestd/digestd/ingest/format"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/wire"
)

// Entry is one source of a batch: an id and exactly one of URL, File, Text
// and Archive, with an optional query that overrides the run's default.
type Entry struct {
	ID      string `json:"id"`
	URL     string `json:"url,omitempty"`
	File    string `json:"file,omitempty"`
	Text    string `json:"text,omitempty"`
	Archive string `json:"archive,omitempty"`
	Query   string `json:"query,omitempty"`
	// Labels are added to the source's labels (a project, a research
	// session); see pipeline.CheckLabels.
	Labels []string `json:"labels,omitempty"`
	// Render is a URL's render mode: never (the default), auto or always
	// (ingest.Source.Render).
	Render string `json:"render,omitempty"`
	// OCR and OCRLanguages are a PDF's, an image's or a URL's OCR mode
	// (auto, the default, never or always) and languages
	// (ingest.Source.OCR and OCRLanguages).
	OCR          string   `json:"ocr,omitempty"`
	OCRLanguages []string `json:"ocr_languages,omitempty"`
	// Line is the 1-based manifest line the entry came from (0 for entries
	// found by ScanDir).
	Line int `json:"-"`
}

// ManifestError is a manifest line that cannot be run. It is fatal for the
// whole batch: a manifest is checked completely before any source runs.
type ManifestError struct {
	Line int // 1-based
	Err  error
}

func (e *ManifestError) Error() string { return fmt.Sprintf("manifest line %d: %v", e.Line, e.Err) }

func (e *ManifestError) Unwrap() error { return e.Err }

// maxManifestLine bounds one manifest line (an inline "text" source may be
// long, but not unbounded).
const maxManifestLine = 64 << 20

// ReadManifest parses a JSONL manifest: one JSON object a line, blank lines
// ignored. Relative "file" paths are resolved against baseDir (the
// manifest's directory). Unknown fields, a missing id, anything other than
// exactly one of url, file, text and archive, or a malformed archive hash are
// a *ManifestError naming the line. Duplicate ids are not checked here (see
// DuplicateIDs).
func ReadManifest(r io.Reader, baseDir string) ([]Entry, error) {
	br := bufio.NewReaderSize(r, 64<<10)
	var entries []Entry
	for n := 1; ; n++ {
		line, err := readLine(br, maxManifestLine)
		if len(bytes.TrimSpace(line)) > 0 {
			e, perr := parseEntry(line, baseDir)
			if perr != nil {
				return nil, &ManifestError{Line: n, Err: perr}
			}
			e.Line = n
			entries = append(entries, e)
		}
		if errors.Is(err, io.EOF) {
			return entries, nil
		}
		if err != nil {
			return nil, &ManifestError{Line: n, Err: err}
		}
	}
}

// readLine returns the next line without its '\n' (and '\r'), or io.EOF
// with the last unterminated line.
func readLine(br *bufio.Reader, max int) ([]byte, error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		buf = append(buf, chunk...)
		if len(buf) > max {
			return nil, fmt.Errorf("line longer than %d bytes", max)
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		buf = bytes.TrimSuffix(buf, []byte("\n"))
		buf = bytes.TrimSuffix(buf, []byte("\r"))
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("read: %w", err)
		}
		return buf, err
	}
}

func parseEntry(line []byte, baseDir string) (Entry, error) {
	var e Entry
	if err := wire.CheckUTF8(line); err != nil {
		return e, err
	}
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&e); err != nil {
		return e, fmt.Errorf("not a manifest object: %w", err)
	}
	if dec.More() {
		return e, errors.New("more than one JSON value on the line")
	}
	if strings.TrimSpace(e.ID) == "" {
		return e, errors.New(`"id" is required`)
	}
	set := 0
	for _, v := range []string{e.URL, e.File, e.Text, e.Archive} {
		if v != "" {
			set++
		}
	}
	if set != 1 {
		return e, fmt.Errorf("id %q: give exactly one of url, file, text and archive", e.ID)
	}
	if e.Render != "" && (e.URL == "" || !slices.Contains(ingest.RenderModes, e.Render)) {
		return e, fmt.Errorf("id %q: render is for a url, one of %s", e.ID, strings.Join(ingest.RenderModes, ", "))
	}
	if e.OCR != "" && !slices.Contains(ingest.OCRModes, e.OCR) {
		return e, fmt.Errorf("id %q: ocr is one of %s", e.ID, strings.Join(ingest.OCRModes, ", "))
	}
	if (e.OCR != "" || len(e.OCRLanguages) > 0) && e.URL == "" && e.File == "" {
		return e, fmt.Errorf("id %q: ocr and ocr_languages are for a url or a file", e.ID)
	}
	if e.Archive != "" {
		if _, err := archive.ParseHash(e.Archive); err != nil {
			return e, fmt.Errorf("id %q: archive must be sha256:<64 hex digits>", e.ID)
		}
	}
	if e.File != "" && !filepath.IsAbs(e.File) {
		e.File = filepath.Join(baseDir, filepath.FromSlash(e.File))
	}
	return e, nil
}

// ScanDir returns an entry for every file whose extension names a kind of
// source (format.Extensions: .html, .pdf, .txt, .docx, .xlsx, .epub, .md,
// .csv, …), and such a file compressed (.html.gz…, which digesting refuses
// with a reason), under root (extensions compared case-insensitively), in lexical order,
// with the file's slash-separated path relative to root as its id.
// Directories reached through symbolic links are not followed.
func ScanDir(root string) ([]Entry, error) {
	var entries []Entry
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		ext := strings.ToLower(filepath.Ext(path))
		if ext == ".gz" {
			// A compressed page or paper is listed, so that its output line
			// says why it is refused, rather than being passed over.
			ext = strings.ToLower(filepath.Ext(strings.TrimSuffix(path, filepath.Ext(path))))
		}
		if d.IsDir() || format.KindOfName(ext) == "" {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		entries = append(entries, Entry{ID: filepath.ToSlash(rel), File: path})
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("scan %s: %w", root, err)
	}
	return entries, nil
}

// Duplicate is an id that occurs on more than one manifest line.
type Duplicate struct {
	ID    string
	Lines []int // 1-based manifest lines, in order
}

// DuplicateIDs returns every id that occurs more than once in entries,
// ordered by its first line.
func DuplicateIDs(entries []Entry) []Duplicate {
	lines := map[string][]int{}
	var order []string
	for _, e := range entries {
		if _, seen := lines[e.ID]; !seen {
			order = append(order, e.ID)
		}
		lines[e.ID] = append(lines[e.ID], e.Line)
	}
	var dups []Duplicate
	for _, id := range order {
		if ls := lines[id]; len(ls) > 1 {
			dups = append(dups, Duplicate{ID: id, Lines: ls})
		}
	}
	return dups
}
