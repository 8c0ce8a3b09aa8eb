// Package pdfworker runs PDF text extraction in child processes, so that a
// hostile PDF that exhausts memory, overflows the stack or loops forever
// kills one worker and never the service.
//
// The service re-executes itself in worker mode (a hidden subcommand that
// calls Main); a Pool starts one such child per document, feeds it the PDF
// on stdin, reads one JSON answer from stdout and kills the child's whole
// process group at the deadline.
package pdfworker

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/pdftext"
)

// LimitsEnv names the environment variable through which a Pool passes the
// worker its limits (JSON of workerLimits).
const LimitsEnv = "DIGESTD_PDF_WORKER_LIMITS"

// KindEnv names the environment variable through which a Pool asks the
// worker to convert a document of that kind (one of format.Documents)
// with ingest/doctext instead of extracting a PDF.
const KindEnv = "DIGESTD_WORKER_DOCUMENT_KIND"

// OCREnv names the environment variable through which a Pool asks the
// worker to read an image, or a PDF's pages without text, by OCR (JSON of
// ocrJob).
const OCREnv = "DIGESTD_WORKER_OCR"

// ExplainEnv, set to 1 beside KindEnv, asks the worker for the HTML
// extractor's decisions on an EPUB's chapters (doctext.Options.Explain).
const ExplainEnv = "DIGESTD_WORKER_EXPLAIN"

// Defaults for limits a caller leaves zero.
const (
	DefaultMemoryLimit = 1 << 30 // bytes of address space per worker
	DefaultMaxInput    = 64 << 20
	DefaultMaxStack    = 64 << 20
	defaultCPUSeconds  = 21
)

// workerLimits is what the parent tells the worker.
type workerLimits struct {
	MaxInputBytes    int64 `json:"max_input_bytes"`
	MaxPages         int   `json:"max_pages"`
	MaxChars         int   `json:"max_chars"`
	MemoryLimitBytes int64 `json:"memory_limit_bytes"`
	CPUSeconds       int64 `json:"cpu_seconds"`
	// OCR is the engine of OCR jobs (nil: none), which may run for
	// OCRSeconds and read at most MaxOCRPages pages of a PDF.
	OCR         *ocr.Engine `json:"ocr,omitempty"`
	OCRSeconds  int64       `json:"ocr_seconds,omitempty"`
	MaxOCRPages int         `json:"max_ocr_pages,omitempty"`
}

// ocrJob is one OCR reading: an image, or a PDF.
type ocrJob struct {
	Image bool `json:"image,omitempty"`
	ocr.Request
}

func (l *workerLimits) fill() {
	if l.MaxInputBytes <= 0 {
		l.MaxInputBytes = DefaultMaxInput
	}
	if l.MemoryLimitBytes <= 0 {
		l.MemoryLimitBytes = DefaultMemoryLimit
	}
	if l.CPUSeconds <= 0 {
		l.CPUSeconds = defaultCPUSeconds
	}
}

// answer is the worker's one JSON line on stdout.
type answer struct {
	Result   *pdftext.Result `json:"result,omitempty"`
	Document *doctext.Result `json:"document,omitempty"`
	OCR      *ocr.Report     `json:"ocr,omitempty"`
	Error    *Error          `json:"error,omitempty"`
}

// Main is the worker entry point: it limits its own process (address space,
// CPU time, stack, GC target), reads one PDF from stdin (capped), extracts
// its text and writes one JSON answer to stdout. It returns the process exit
// code: 0 whenever an answer, text or typed error, was written.
func Main(stdin io.Reader, stdout io.Writer) int {
	var lim workerLimits
	if s := os.Getenv(LimitsEnv); s != "" {
		if err := json.Unmarshal([]byte(s), &lim); err != nil {
			fmt.Fprintf(os.Stderr, "pdf worker: bad %s: %v\n", LimitsEnv, err)
			return 2
		}
	}
	lim.fill()
	var job *ocrJob
	if s := os.Getenv(OCREnv); s != "" {
		if err := json.Unmarshal([]byte(s), &job); err != nil || lim.OCR == nil {
			fmt.Fprintf(os.Stderr, "ocr worker: bad %s or no engine: %v\n", OCREnv, err)
			return 2
		}
		// The worker waits on its children, whose CPU is theirs.
		lim.CPUSeconds = max(lim.CPUSeconds, lim.OCRSeconds)
	}
	if err := limitSelf(lim); err != nil {
		fmt.Fprintf(os.Stderr, "pdf worker: %v\n", err)
		return 2
	}
	raw, err := io.ReadAll(io.LimitReader(stdin, lim.MaxInputBytes+1))
	var ans answer
	if job != nil {
		ans = readOCR(*job, raw, err, lim)
		if err := json.NewEncoder(stdout).Encode(ans); err != nil {
			fmt.Fprintf(os.Stderr, "ocr worker: write answer: %v\n", err)
			return 2
		}
		return 0
	}
	if kind := os.Getenv(KindEnv); kind != "" {
		ans = convert(kind, raw, err, lim)
		if err := json.NewEncoder(stdout).Encode(ans); err != nil {
			fmt.Fprintf(os.Stderr, "document worker: write answer: %v\n", err)
			return 2
		}
		return 0
	}
	switch {
	case err != nil:
		ans.Error = &Error{Code: CodeUnreadable, Msg: "the PDF could not be read"}
	case int64(len(raw)) > lim.MaxInputBytes:
		ans.Error = &Error{Code: CodeTooLarge, Msg: fmt.Sprintf("the PDF is larger than %d bytes", lim.MaxInputBytes)}
	default:
		res, err := extract(raw, pdftext.Limits{MaxPages: lim.MaxPages, MaxChars: lim.MaxChars})
		if err != nil {
			fmt.Fprintf(os.Stderr, "pdf worker: %v\n", err)
			ans.Error = errorFor(err, truncated(raw))
		} else {
			ans.Result = res
		}
	}
	if err := json.NewEncoder(stdout).Encode(ans); err != nil {
		fmt.Fprintf(os.Stderr, "pdf worker: write answer: %v\n", err)
		return 2
	}
	return 0
}

// convert converts a document read from stdin (or reports why not).
func convert(kind string, raw []byte, readErr error, lim workerLimits) (ans answer) {
	defer func() {
		if r := recover(); r != nil {
			fmt.Fprintf(os.Stderr, "document worker: panic: %v\n", r)
			ans = answer{Error: &Error{Code: CodeDocumentUnreadable, Msg: "the document could not be read"}}
		}
	}()
	switch {
	case readErr != nil:
		return answer{Error: &Error{Code: CodeDocumentUnreadable, Msg: "the document could not be read"}}
	case int64(len(raw)) > lim.MaxInputBytes:
		return answer{Error: &Error{Code: CodeTooLarge, Msg: fmt.Sprintf("the document is larger than %d bytes", lim.MaxInputBytes)}}
	}
	// MaxChars counts code points and doctext's cap bytes: at most four a
	// code point (the ingester then holds the text to MaxChars exactly).
	res, err := doctext.ExtractWith(kind, raw, doctext.Options{
		Limits:  doctext.Limits{MaxChars: 4 * lim.MaxChars, Timeout: time.Duration(lim.CPUSeconds) * time.Second},
		Explain: os.Getenv(ExplainEnv) == "1",
	})
	if err != nil {
		fmt.Fprintf(os.Stderr, "document worker: %v\n", err)
		return answer{Error: DocumentError(err, lim.MaxChars)}
	}
	return answer{Document: res}
}

// DocumentError maps a conversion error to the error clients see. A cap
// reached is named, with its value: the text's with the flag that sets it
// (--max-text-chars, maxTextChars code points, when it is not 0), the
// others as fixed.
func DocumentError(err error, maxTextChars int) *Error {
	var le *doctext.LimitError
	switch {
	case errors.Is(err, doctext.ErrEncrypted):
		return &Error{Code: CodeDocumentEncrypted, Msg: "the document is password-protected"}
	case errors.As(err, &le) && le.Cap == doctext.CapText && maxTextChars > 0:
		return &Error{Code: CodeTooLarge, Msg: fmt.Sprintf("the document's text is longer than --max-text-chars allows (%d code points)", maxTextChars)}
	case errors.As(err, &le):
		return &Error{Code: CodeTooLarge, Msg: le.Error() + ", a fixed limit"}
	case errors.Is(err, doctext.ErrTooLarge):
		return &Error{Code: CodeTooLarge, Msg: "the document exceeds the extraction limits (decompressed size, entries, XML depth or size, or text)"}
	case errors.Is(err, doctext.ErrUnsupported):
		return &Error{Code: CodeUnsupported, Msg: "the document is in a format digestd does not read"}
	case errors.Is(err, doctext.ErrTimeout):
		return &Error{Code: CodeDocumentUnreadable, Msg: "the document took too long to convert"}
	}
	return &Error{Code: CodeDocumentUnreadable, Msg: "the document could not be read; check that the file is complete and valid"}
}

// extract runs pdftext.Extract, turning a panic into an unreadable error.
func extract(raw []byte, lim pdftext.Limits) (res *pdftext.Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("%w: panic: %v", pdftext.ErrUnreadable, r)
		}
	}()
	return pdftext.Extract(raw, lim)
}

// limitSelf applies the operating-system and runtime limits. The address
// space limit is skipped under the race detector, whose shadow memory needs
// far more address space than any real limit allows.
func limitSelf(lim workerLimits) error {
	debug.SetMaxStack(DefaultMaxStack)
	debug.SetMemoryLimit(lim.MemoryLimitBytes / 2)
	cpu := uint64(lim.CPUSeconds)
	if err := syscall.Setrlimit(syscall.RLIMIT_CPU, &syscall.Rlimit{Cur: cpu, Max: cpu + 1}); err != nil {
		return fmt.Errorf("limit cpu: %w", err)
	}
	if !raceEnabled {
		// The Go runtime reserves address space it never touches (over a
		// GiB at start), so the limit is what the worker may add to that.
		as := uint64(addressSpace() + lim.MemoryLimitBytes)
		if err := syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: as, Max: as}); err != nil {
			return fmt.Errorf("limit address space: %w", err)
		}
	}
	return nil
}

// addressSpace returns the process's current virtual memory size, or a
// generous estimate when /proc is not available.
func addressSpace() int64 {
	b, err := os.ReadFile("/proc/self/status")
	if err == nil {
		for _, l := range strings.Split(string(b), "\n") {
			if rest, ok := strings.CutPrefix(l, "VmSize:"); ok {
				f := strings.Fields(rest)
				if kb, err := strconv.ParseInt(f[0], 10, 64); err == nil && len(f) > 0 {
					return kb << 10
				}
			}
		}
	}
	return 2 << 30
}

// truncated reports whether a PDF lacks the %%EOF marker at its end: the
// file was cut short (an interrupted download or upload).
func truncated(raw []byte) bool {
	tail := raw[max(0, len(raw)-2048):]
	return bytes.HasPrefix(raw, []byte("%PDF-")) && !bytes.Contains(tail, []byte("%%EOF"))
}

// errorFor maps an extraction error to the error clients see; a PDF cut
// short is said to be incomplete rather than, say, a scan.
func errorFor(err error, cut bool) *Error {
	switch {
	case cut && !errors.Is(err, pdftext.ErrEncrypted) && !errors.Is(err, pdftext.ErrTooLarge):
		return &Error{Code: CodeUnreadable, Msg: "the PDF is incomplete (it ends before its %%EOF marker): send the whole file"}
	case errors.Is(err, pdftext.ErrEncrypted):
		return &Error{Code: CodeEncrypted, Msg: "the PDF is encrypted"}
	case errors.Is(err, pdftext.ErrNotPDF):
		return &Error{Code: CodeInvalidFormat, Msg: "the input is not a PDF"}
	case errors.Is(err, pdftext.ErrNoText):
		return &Error{Code: CodeNoText, Msg: "the PDF has no extractable text (it may be a scan)"}
	case errors.Is(err, pdftext.ErrTooLarge):
		return &Error{Code: CodeTooLarge, Msg: "the PDF exceeds the extraction limits"}
	default:
		return &Error{Code: CodeUnreadable, Msg: "the PDF could not be parsed"}
	}
}
