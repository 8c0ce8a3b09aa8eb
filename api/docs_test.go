package api_test

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"

	"github.com/digestd/digestd"
	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest"
	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/verdict"
	"github.com/digestd/digestd/wire"
)

// openapiDoc loads openapi.yaml.
func openapiDoc(t *testing.T) *openapi3.T {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(digestd.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

// openapiEnum returns the enum of a component schema's property in
// openapi.yaml, by the schema name and a path of property names ("[]"
// steps into array items).
func openapiEnum(t *testing.T, schema string, path ...string) []string {
	t.Helper()
	var out []string
	for _, v := range openapiSchema(t, openapiDoc(t), schema, path...).Enum {
		out = append(out, v.(string))
	}
	sort.Strings(out)
	return out
}

// openapiSchema returns a component schema of doc or one of its properties,
// by a path of property names ("[]" steps into array items).
func openapiSchema(t *testing.T, doc *openapi3.T, schema string, path ...string) *openapi3.Schema {
	t.Helper()
	ref := doc.Components.Schemas[schema]
	for _, k := range path {
		if ref == nil || ref.Value == nil {
			break
		}
		if k == "[]" {
			ref = ref.Value.Items
		} else {
			ref = ref.Value.Properties[k]
		}
	}
	if ref == nil || ref.Value == nil {
		t.Fatalf("openapi.yaml: no %s.%s", schema, strings.Join(path, "."))
	}
	return ref.Value
}

// TestDocsAgreeWithTables ties openapi.yaml and the README to the error and
// warning tables: every error_type, every warning code and its severity.
func TestDocsAgreeWithTables(t *testing.T) {
	if got := openapiEnum(t, "ErrorData", "error_type"); !slices.Equal(got, wire.ErrorTypes()) {
		t.Errorf("openapi.yaml error_type enum %v, the error table has %v", got, wire.ErrorTypes())
	}
	if got := openapiEnum(t, "Meta", "warning_details", "[]", "code"); !slices.Equal(got, wire.WarningCodes()) {
		t.Errorf("openapi.yaml warning code enum %v, the warning table has %v", got, wire.WarningCodes())
	}
	doc, err := openapi3.NewLoader().LoadFromData(digestd.OpenAPI)
	if err != nil {
		t.Fatal(err)
	}
	required := slices.Clone(doc.Components.Schemas["DigestPayload"].Value.Required)
	slices.Sort(required)
	fields := digest.RequiredFields()
	slices.Sort(fields)
	if !slices.Equal(required, fields) {
		t.Errorf("openapi.yaml DigestPayload requires %v, /v1/verify requires %v", required, fields)
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, typ := range wire.ErrorTypes() {
		if !strings.Contains(string(readme), "`"+typ+"`") {
			t.Errorf("README does not list error_type %s", typ)
		}
	}
	for _, code := range wire.WarningCodes() {
		row := regexp.MustCompile("(?m)^\\| `" + code + "` \\| " + wire.WarningSeverity(fault.Warning(code)) + " \\|")
		if !row.Match(readme) {
			t.Errorf("README has no row `| %s | %s |` in its warning table", code, wire.WarningSeverity(fault.Warning(code)))
		}
	}
	for _, capability := range wire.Capabilities() {
		name := strings.SplitN(capability, "/", 2)[0]
		if !strings.Contains(string(readme), name) {
			t.Errorf("README does not mention capability %s", name)
		}
	}
}

// The render modes of openapi.yaml and of the MCP tools' schema are
// ingest's, and the verdict the record states is content alone (a page
// judged otherwise is refused).
func TestDocsRenderModes(t *testing.T) {
	want := slices.Clone(ingest.RenderModes)
	sort.Strings(want)
	if got := openapiEnum(t, "SourceSpec", "render"); !slices.Equal(got, want) {
		t.Errorf("openapi.yaml SourceSpec.render enum %v, ingest has %v", got, want)
	}
	if got := openapiEnum(t, "SourceRecord", "verdict"); !slices.Equal(got, []string{string(verdict.Content)}) {
		t.Errorf("openapi.yaml SourceRecord.verdict enum %v", got)
	}
}

// The OCR modes and the language bound of openapi.yaml are ingest's and
// ocr's.
func TestDocsOCRModes(t *testing.T) {
	want := slices.Clone(ingest.OCRModes)
	sort.Strings(want)
	if got := openapiEnum(t, "SourceSpec", "ocr"); !slices.Equal(got, want) {
		t.Errorf("openapi.yaml SourceSpec.ocr enum %v, ingest has %v", got, want)
	}
	spec := string(digestd.OpenAPI)
	if !strings.Contains(spec, fmt.Sprintf("ocr_languages: {type: array, maxItems: %d,", ocr.MaxLanguages)) {
		t.Errorf("openapi.yaml SourceSpec.ocr_languages does not bound its items to %d", ocr.MaxLanguages)
	}
	if !strings.Contains(spec, fmt.Sprintf("a page under %g is named in an OCR_LOW_CONFIDENCE warning", ocr.ConfidenceFloor)) {
		t.Errorf("openapi.yaml does not state the confidence floor %g", ocr.ConfidenceFloor)
	}
}
