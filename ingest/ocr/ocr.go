// Package ocr reads the text of images and of PDF pages without a text
// layer with Tesseract, the engine of Debian's tesseract-ocr package.
//
// Untrusted bytes never reach the engine: an image's header is checked
// against the pixel caps before it is decoded (by Go's decoders), and what
// Tesseract reads is a grey map this package wrote; a PDF page is measured
// (poppler's pdfinfo) and refused over the caps before poppler's pdftoppm
// renders it. Every program runs as a child under prlimit with an address
// space and CPU limit. Call Read and ReadPDF only inside a worker process
// (ingest/pdfworker), whose process group is killed at its deadline.
package ocr

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Bounds of what is read by OCR, in one place (the README's OCR section
// and the error messages quote them).
const (
	// MaxPixels bounds the pixels of one image or rendered page: a letter
	// page at 600 dpi has 34 million. An image over it is TOO_LARGE before
	// it is decoded.
	MaxPixels = 40_000_000
	// MaxSide bounds an image's width and height in pixels (Tesseract
	// reads at most 32,767).
	MaxSide = 32_000
	// RenderDPI is the resolution a PDF page is rendered at for OCR;
	// a page too large for MaxPixels at it is rendered at the highest
	// resolution that fits, down to MinRenderDPI, below which it is
	// TOO_LARGE.
	RenderDPI    = 300
	MinRenderDPI = 150
	// ImageDPI is the resolution an image is taken to have: images rarely
	// say, and Tesseract's layout analysis needs one.
	ImageDPI = 300
	// DefaultMaxPages bounds the pages of one PDF read by OCR; a PDF with
	// more pages to read is TOO_LARGE.
	DefaultMaxPages = 30
	// MaxLanguages bounds the languages of one request.
	MaxLanguages = 4
	// ConfidenceFloor is the mean word confidence, in [0, 1], under which
	// a page read by OCR is named in an OCR_LOW_CONFIDENCE warning.
	ConfidenceFloor = 0.6
	// DefaultLanguage is read when neither the request nor the text
	// names a language (Tesseract's code for English).
	DefaultLanguage = "eng"
)

// Install is what to run to enable OCR on a Debian or Ubuntu machine.
const Install = "apt-get install tesseract-ocr tesseract-ocr-eng poppler-utils"

// Errors of reading. Callers map them to fault codes.
var (
	// ErrNotInstalled: Tesseract (or prlimit) is not on the machine.
	ErrNotInstalled = errors.New("ocr: tesseract is not installed")
	// ErrTooLarge: an image or page over MaxPixels or MaxSide, or a PDF
	// with more pages to read than the cap.
	ErrTooLarge = errors.New("ocr: over the OCR limits")
	// ErrUnreadable: an image no decoder reads, or an engine that failed.
	ErrUnreadable = errors.New("ocr: unreadable image")
)

// Engine is the OCR engine found on the machine: the absolute paths of the
// programs the worker runs (its environment has no PATH), Tesseract's
// version and its installed language packs. It travels to the worker as
// JSON.
type Engine struct {
	Tesseract string `json:"tesseract"`
	Prlimit   string `json:"prlimit"`
	// PDFToPPM and PDFInfo are poppler-utils' programs; without them
	// scanned PDFs are not read (images still are).
	PDFToPPM string `json:"pdftoppm,omitempty"`
	PDFInfo  string `json:"pdfinfo,omitempty"`
	// Version is Tesseract's version ("5.3.0").
	Version string `json:"version"`
	// Languages are the installed packs, Tesseract's codes ("eng",
	// "deu"), sorted, without the script and orientation packs.
	Languages []string `json:"languages"`
}

// EngineName names the engine in a source record.
const EngineName = "tesseract"

// Name names the engine and its version, as a record states it.
func (e *Engine) Name() string { return EngineName + " " + e.Version }

// ReadsPDF reports whether scanned PDF pages can be rendered.
func (e *Engine) ReadsPDF() bool { return e.PDFToPPM != "" && e.PDFInfo != "" }

// Find looks for Tesseract, prlimit and poppler's programs on PATH and asks
// Tesseract its version and languages. It returns ErrNotInstalled when
// Tesseract, prlimit or every language pack is missing.
func Find(ctx context.Context) (*Engine, error) {
	var e Engine
	var err error
	if e.Tesseract, err = exec.LookPath("tesseract"); err != nil {
		return nil, ErrNotInstalled
	}
	if e.Prlimit, err = exec.LookPath("prlimit"); err != nil {
		return nil, fmt.Errorf("%w (prlimit, of util-linux, is missing)", ErrNotInstalled)
	}
	e.PDFToPPM, _ = exec.LookPath("pdftoppm")
	e.PDFInfo, _ = exec.LookPath("pdfinfo")
	if e.PDFToPPM == "" || e.PDFInfo == "" {
		e.PDFToPPM, e.PDFInfo = "", ""
	}
	out, err := exec.CommandContext(ctx, e.Tesseract, "--version").CombinedOutput()
	if err != nil {
		return nil, fmt.Errorf("%w: tesseract --version: %v", ErrNotInstalled, err)
	}
	first, _, _ := strings.Cut(string(out), "\n")
	e.Version = strings.TrimSpace(strings.TrimPrefix(first, "tesseract "))
	out, err = exec.CommandContext(ctx, e.Tesseract, "--list-langs").Output()
	if err != nil {
		return nil, fmt.Errorf("%w: tesseract --list-langs: %v", ErrNotInstalled, err)
	}
	e.Languages = parseLanguages(out)
	if len(e.Languages) == 0 {
		return nil, fmt.Errorf("%w: no language pack (install tesseract-ocr-eng)", ErrNotInstalled)
	}
	return &e, nil
}

// parseLanguages reads tesseract --list-langs: a heading, then one code a
// line. The orientation and equation packs read no language.
func parseLanguages(out []byte) []string {
	var langs []string
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		l := strings.TrimSpace(sc.Text())
		if l == "" || strings.Contains(l, " ") || l == "osd" || l == "equ" {
			continue
		}
		langs = append(langs, l)
	}
	slices.Sort(langs)
	return slices.Compact(langs)
}

// iso6391 maps the ISO 639-1 codes package lang detects to Tesseract's
// language packs, for the languages Debian packs.
var iso6391 = map[string]string{
	"af": "afr", "ar": "ara", "bg": "bul", "bn": "ben", "ca": "cat", "cs": "ces", "da": "dan",
	"de": "deu", "el": "ell", "en": "eng", "es": "spa", "et": "est", "fa": "fas", "fi": "fin",
	"fr": "fra", "he": "heb", "hi": "hin", "hr": "hrv", "hu": "hun", "id": "ind", "it": "ita",
	"ja": "jpn", "ko": "kor", "lt": "lit", "lv": "lav", "nl": "nld", "no": "nor", "pl": "pol",
	"pt": "por", "ro": "ron", "ru": "rus", "sk": "slk", "sl": "slv", "sv": "swe", "th": "tha",
	"tr": "tur", "uk": "ukr", "vi": "vie", "zh": "chi_sim",
}

// PackOf returns the Tesseract pack of a language given as an ISO 639-1
// code or as a pack name, or "" when there is none.
func PackOf(code string) string {
	code = strings.ToLower(strings.TrimSpace(code))
	if p, ok := iso6391[code]; ok {
		return p
	}
	if len(code) >= 3 && len(code) <= 16 && strings.Trim(code, "abcdefghijklmnopqrstuvwxyz_") == "" {
		return code
	}
	return ""
}

// Choose returns the packs to read with: the requested ones (already
// checked by Check), else the pack of the detected language when it is
// installed, else DefaultLanguage.
func Choose(requested []string, detected string, installed []string) []string {
	if len(requested) > 0 {
		return requested
	}
	if p := PackOf(detected); p != "" && slices.Contains(installed, p) {
		return []string{p}
	}
	return []string{DefaultLanguage}
}

// Check returns the packs the requested languages name (ISO 639-1 codes or
// pack names), or an error saying which is not installed.
func Check(requested []string, installed []string) ([]string, error) {
	if len(requested) > MaxLanguages {
		return nil, fmt.Errorf("at most %d languages", MaxLanguages)
	}
	var out []string
	for _, r := range requested {
		p := PackOf(r)
		if p == "" || !slices.Contains(installed, p) {
			return nil, fmt.Errorf("%q is not an installed language (installed: %s)", r, strings.Join(installed, ", "))
		}
		if !slices.Contains(out, p) {
			out = append(out, p)
		}
	}
	return out, nil
}

// Limits bound each program the engine runs.
type Limits struct {
	// MemoryBytes is each program's address-space limit.
	MemoryBytes int64
	// CPUSeconds is each program's CPU time limit.
	CPUSeconds int64
}

// run runs one of the engine's programs under prlimit with lim, in dir,
// with one thread for Tesseract's OpenMP (the pool runs workers side by
// side), and returns its stdout.
func (e *Engine) run(ctx context.Context, lim Limits, dir string, prog string, args ...string) ([]byte, error) {
	argv := append([]string{
		"--as=" + strconv.FormatInt(lim.MemoryBytes, 10),
		"--cpu=" + strconv.FormatInt(max(lim.CPUSeconds, 1), 10),
		"--", prog}, args...)
	cmd := exec.CommandContext(ctx, e.Prlimit, argv...)
	cmd.Dir = dir
	cmd.Env = []string{"OMP_THREAD_LIMIT=1", "PATH=/usr/bin:/bin"}
	var stderr bytes.Buffer
	cmd.Stderr = &capped{buf: &stderr, max: 4 << 10}
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("%s: %w (%s)", filepath.Base(prog), err, strings.TrimSpace(stderr.String()))
	}
	return out, nil
}

// capped keeps the first max bytes written to it.
type capped struct {
	buf *bytes.Buffer
	max int
}

func (c *capped) Write(p []byte) (int, error) {
	if room := c.max - c.buf.Len(); room > 0 {
		c.buf.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}

// tempDir makes the directory one reading works in.
func tempDir() (string, func(), error) {
	dir, err := os.MkdirTemp("", "digestd-ocr-")
	if err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// Request is what one reading asks for.
type Request struct {
	// Always reads every page of a PDF by OCR, even pages with text.
	Always bool `json:"always,omitempty"`
	// Languages are the packs to read with (checked by Check); empty
	// chooses (Choose) by Detected, the ISO 639-1 language found in a
	// PDF's text layer.
	Languages []string `json:"languages,omitempty"`
	Detected  string   `json:"detected,omitempty"`
	// Pages are the 1-based pages of a PDF to read; nil reads every page.
	Pages []int `json:"pages,omitempty"`
}

// Report says what OCR read, for a source's record.
type Report struct {
	// Engine names the engine and its version ("tesseract 5.3.0").
	Engine string `json:"engine"`
	// Languages are the packs read with.
	Languages []string `json:"languages"`
	// Pages lists the 1-based pages read by OCR, ascending.
	Pages []int `json:"pages"`
	// Confidence holds each page's mean word confidence, in [0, 1], in
	// the order of Pages; 0 for a page on which no word was read.
	Confidence []float64 `json:"confidence"`
}

// Mean returns the mean confidence of the pages on which words were
// read, in [0, 1], rounded to two decimals (0 when there are none).
func (r *Report) Mean() float64 {
	var s float64
	n := 0
	for _, c := range r.Confidence {
		if c > 0 {
			s, n = s+c, n+1
		}
	}
	if n == 0 {
		return 0
	}
	return float64(int(s/float64(n)*100+0.5)) / 100
}

// LowConfidence returns the pages whose words were read under
// ConfidenceFloor.
func (r *Report) LowConfidence() []int {
	var low []int
	for i, c := range r.Confidence {
		if c > 0 && c < ConfidenceFloor {
			low = append(low, r.Pages[i])
		}
	}
	return low
}
