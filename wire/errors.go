package wire

import (
	"net/http"
	"regexp"
	"sort"
	"time"

	"github.com/digestd/digestd/fault"
)

// errorClass is what the envelope and HTTP layer say about one error code.
type errorClass struct {
	Status      int
	Type        string // error_type: the kind of failure
	Retryable   bool
	Remediation string
}

// errorTable is the one place where an error code becomes an HTTP status,
// an error_type, retry semantics and a remediation. Handlers never choose
// statuses for errors themselves.
var errorTable = map[fault.Code]errorClass{
	fault.ValidationError:        {http.StatusBadRequest, "validation", false, "Fix the field named in the message and send the request again."},
	fault.InvalidFormat:          {http.StatusBadRequest, "validation", false, "Send the input in the form the message names; the HTTP routes' bodies are described in /openapi.yaml."},
	fault.InvalidURL:             {http.StatusBadRequest, "validation", false, "Give an absolute http:// or https:// URL without credentials."},
	fault.MissingRequired:        {http.StatusBadRequest, "validation", false, "Add the required field the message names, where it says."},
	fault.InvalidFields:          {http.StatusBadRequest, "validation", false, "Ask only for fields listed in details.allowed_fields (the detail level's whitelist)."},
	fault.InvalidCursor:          {http.StatusBadRequest, "validation", false, "Start the listing again without a cursor; cursors are opaque and bound to the listing that issued them."},
	fault.NotFound:               {http.StatusNotFound, "not_found", false, "Check what the message names: archived content is addressed by sha256:<64 hex digits>, routes are listed in /openapi.yaml, and a batch manifest's file paths must name files that exist."},
	fault.MethodNotAllowed:       {http.StatusMethodNotAllowed, "validation", false, "Use a method this route supports (see /openapi.yaml)."},
	fault.TooLarge:               {http.StatusRequestEntityTooLarge, "too_large", false, "Send a smaller input, or split it into several sources."},
	fault.RangeNotSatisfiable:    {http.StatusRequestedRangeNotSatisfiable, "validation", false, "Ask for a range inside the content: text_chars in the details gives a text's length in code points (a locator or start and end), blob_bytes a blob's size in bytes (a Range header)."},
	fault.UnsupportedMediaType:   {http.StatusUnsupportedMediaType, "validation", false, "Send the body with a Content-Type the route takes: one of details.accepted_content_types."},
	fault.UnsupportedContentType: {http.StatusUnprocessableEntity, "unsupported", false, "Give a source of a kind digestd reads: HTML, PDF, plain text, DOCX, PPTX, XLSX, ODT, ODP, ODS, EPUB, Markdown, CSV, JSON, a Jupyter notebook, RSS, Atom, XML or an image (PNG, JPEG, TIFF, WebP)."},
	fault.FeatureDisabled:        {http.StatusNotImplemented, "unsupported", false, "What the message names is not enabled where the request was sent; the message says what would enable it, or where to ask instead."},
	fault.Unauthorized:           {http.StatusUnauthorized, "authentication", false, "Send a valid API key in the Authorization: Bearer header or the X-API-Key header."},
	fault.Forbidden:              {http.StatusForbidden, "authorization", false, "Send the request to the server by its own name: a request that reaches a loopback address must carry a loopback Host header, and a browser page may call /mcp only from the server's own origin or one it allows (digestd serve --mcp-allowed-origins)."},
	fault.RateLimitExceeded:      {http.StatusTooManyRequests, "rate_limit", true, "Wait for the time in Retry-After, then retry."},
	fault.FetchBlocked:           {http.StatusUnprocessableEntity, "fetch", false, "The URL points at an address this service may not reach (private, loopback, link-local or metadata); give a public http(s) URL, or send the content itself."},
	fault.FetchFailed:            {http.StatusBadGateway, "fetch", true, "The remote server did not return the page; details.cause says why (dns, connect, tls, connection_closed, redirects, canceled, network, or upstream_status, with the status it answered in upstream_status): check the URL or send the content itself."},
	fault.FetchTimeout:           {http.StatusGatewayTimeout, "fetch", true, "The remote server was too slow; retry later or send the content itself."},
	fault.PDFUnreadable:          {http.StatusUnprocessableEntity, "extraction", false, "The PDF could not be parsed; check that the file is a complete, valid PDF."},
	fault.PDFTimeout:             {http.StatusUnprocessableEntity, "extraction", false, "The PDF took too long to parse; split it or send its text instead."},
	fault.PDFEncrypted:           {http.StatusUnprocessableEntity, "extraction", false, "The PDF is password-protected; remove the password and send it again."},
	fault.DocumentEncrypted:      {http.StatusUnprocessableEntity, "extraction", false, "The document is password-protected; remove the password and send it again."},
	fault.DocumentUnreadable:     {http.StatusUnprocessableEntity, "extraction", false, "The document could not be read (damaged, truncated or too slow to convert; for a text, Markdown, CSV, JSON or XML file, its charset could not be decided at byte_offset); check that the file is complete and valid, declare a text's charset (a Content-Type charset parameter) or send it as UTF-8, or send its text."},
	fault.NoExtractableText:      {http.StatusUnprocessableEntity, "extraction", false, "The source has no text: for a PDF without a text layer (a scan?) run OCR first; for a web page that its scripts fill, render it in a browser; then send the text or the rendered HTML."},
	fault.ExtractionFailed:       {http.StatusUnprocessableEntity, "extraction", false, "The content could not be extracted; send it as plain text instead."},
	fault.ContentBlocked:         {http.StatusUnprocessableEntity, "extraction", false, "The page is not the content but what stands in front of it (details.reason: challenge, consent, login or paywall): open it in a browser where you may pass that, then send its text or HTML."},
	fault.JSRequired:             {http.StatusUnprocessableEntity, "extraction", false, "The page shows its content only when its scripts run: ask for \"render\": \"auto\" on a server started with --renderer chromium (from the command line: digestd digest --render auto URL), or render it in a browser and send the rendered HTML or its text."},
	fault.RenderFailed:           {http.StatusUnprocessableEntity, "extraction", false, "The browser could not render the page; details.cause says why (timeout, crashed: past its memory limit, navigation, browser): ask for \"render\": \"never\", or send the page's HTML or text."},
	fault.NotContent:             {http.StatusUnprocessableEntity, "extraction", false, "The page holds no content (details.reason: soft_404, empty or redirect_loop): check the URL, or send the content itself."},
	fault.Unavailable:            {http.StatusServiceUnavailable, "unavailable", true, "The service is busy or a dependency is down; retry after the time in Retry-After."},
	fault.ArchiveCorrupt:         {http.StatusInternalServerError, "internal", false, "The archived copy failed its integrity check and is never served; send the same source again to repair it, or report the request_id."},
	fault.Internal:               {http.StatusInternalServerError, "internal", true, "Retry; if it persists, report the request_id."},
}

// namedDetail is how a remediation points a client at a field of the
// error's details.
var namedDetail = regexp.MustCompile(`\bdetails\.([a-z_]+)`)

// NamedDetails returns the fields of details that remediation points the
// client to (written "details.NAME"). Every error answered with that
// remediation carries each of them; the tests of every edge hold it.
func NamedDetails(remediation string) []string {
	var names []string
	for _, m := range namedDetail.FindAllStringSubmatch(remediation, -1) {
		names = append(names, m[1])
	}
	return names
}

// classify returns the class of code; unknown codes are internal errors.
func classify(code fault.Code) errorClass {
	if c, ok := errorTable[code]; ok {
		return c
	}
	return errorTable[fault.Internal]
}

// RetryAdvice reports whether the error table calls err retryable and, when
// err names one (details.retry_after, in seconds), the least wait before
// trying again.
func RetryAdvice(err error) (retry bool, after time.Duration) {
	fe := fault.As(err)
	if !classify(fe.Code).Retryable {
		return false, 0
	}
	if s, ok := fe.Details["retry_after"].(int); ok && s > 0 {
		after = time.Duration(s) * time.Second
	}
	return true, after
}

// Warning severities, from least to most serious.
const (
	SeverityInfo    = "info"
	SeverityWarning = "warning"
	SeverityError   = "error"
)

// warningTable is the one place where a warning code gets its severity:
// info for a remark about how the answer was made, warning for content a
// client asked for and did not get whole, error for a part that failed.
var warningTable = map[fault.Warning]string{
	fault.ContentTruncated:       SeverityInfo,
	fault.QueryFallback:          SeverityInfo,
	fault.NoQueryMatch:           SeverityInfo,
	fault.UnmappedGlyphs:         SeverityWarning,
	fault.OCRLowConfidence:       SeverityWarning,
	fault.RateLimitApproaching:   SeverityWarning,
	fault.PartialFailure:         SeverityWarning,
	fault.QuotesNotFound:         SeverityWarning,
	fault.CitationsMoved:         SeverityWarning,
	fault.CitationsNotFound:      SeverityWarning,
	fault.CitationsUnknownSource: SeverityWarning,
	fault.NoCitations:            SeverityInfo,
	fault.SourcesCorrupt:         SeverityError,
	fault.IndexLagging:           SeverityWarning,
	fault.NoStructure:            SeverityInfo,
}

// WarningSeverity returns the severity of a warning code; a code missing
// from the table is a warning.
func WarningSeverity(code fault.Warning) string {
	if s, ok := warningTable[code]; ok {
		return s
	}
	return SeverityWarning
}

// WarningCodes returns every warning code the service emits, sorted.
func WarningCodes() []string {
	codes := make([]string, 0, len(warningTable))
	for c := range warningTable {
		codes = append(codes, string(c))
	}
	sort.Strings(codes)
	return codes
}

// ErrorTypes returns every error_type of the error table, sorted and
// without repeats.
func ErrorTypes() []string {
	seen := map[string]bool{}
	var types []string
	for _, c := range errorTable {
		if !seen[c.Type] {
			seen[c.Type] = true
			types = append(types, c.Type)
		}
	}
	sort.Strings(types)
	return types
}

// Classify returns what the error table says about code: the HTTP status,
// the error_type, the remediation and whether a retry may succeed. Unknown
// codes are classified as INTERNAL_ERROR.
func Classify(code fault.Code) (status int, errorType, remediation string, retryable bool) {
	c := classify(code)
	return c.Status, c.Type, c.Remediation, c.Retryable
}
