package wire_test

import (
	"encoding/json"
	"errors"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/digest"
	"github.com/digestd/digestd/pipeline"
	"github.com/digestd/digestd/wire"
)

// TestPayloadIsDigestPayload: wire.Payload has the fields of DigestPayload, and a built payload, written through it, is the JSON digest.Payload
// writes (the form the archive keeps), and reads back to the same value.
func TestPayloadIsDigestPayload(t *testing.T) {
	typ := reflect.TypeFor[wire.Payload]()
	var names []string
	for i := range typ.NumField() {
		names = append(names, strings.Split(typ.Field(i).Tag.Get("json"), ",")[0])
	}
	if !slices.Equal(names, digest.RequiredFields()) {
		t.Errorf("wire.Payload fields %v, DigestPayload fields %v", names, digest.RequiredFields())
	}
	text := "First page on tides.\n" + "The moon pulls the sea.\fSecond page: spring tides follow the full moon."
	p, _, err := digest.Build(text, "moon tides", digest.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := digest.PaginateLocators(p, text); err != nil {
		t.Fatal(err)
	}
	if len(p.EvidenceSnippets) < 2 || p.EvidenceSnippets[0].Locator.Page == 0 {
		t.Fatalf("want page-located snippets, got %+v", p.EvidenceSnippets)
	}
	// A section travels both ways, and a snippet has the same fields on
	// the wire as in the archive.
	p.EvidenceSnippets[0].Section = []string{"First page on tides."}
	if w, d := jsonNames(reflect.TypeFor[wire.EvidenceSnippet]()), jsonNames(reflect.TypeFor[digest.EvidenceSnippet]()); !slices.Equal(w, d) {
		t.Errorf("wire.EvidenceSnippet fields %v, digest.EvidenceSnippet fields %v", w, d)
	}
	sent := wire.PayloadOf(p)
	got, _ := json.Marshal(sent)
	want, _ := json.Marshal(p)
	if string(got) != string(want) {
		t.Errorf("wire.Payload JSON\n%s\ndigest.Payload JSON\n%s", got, want)
	}
	if back := sent.Value(); !reflect.DeepEqual(back, p) {
		t.Errorf("read back %+v, want %+v", back, p)
	}
	if wire.PayloadOf(nil) != nil {
		t.Error("PayloadOf(nil) is not nil")
	}
}

// jsonNames are the JSON names of typ's fields.
func jsonNames(typ reflect.Type) []string {
	var names []string
	for i := range typ.NumField() {
		names = append(names, strings.Split(typ.Field(i).Tag.Get("json"), ",")[0])
	}
	return names
}

// TestPayloadValueKeepsBadLocators: a sent locator that does not parse is
// read as digest.Invalid, which the validator names, and the verify report
// echoes the locator exactly as sent.
func TestPayloadValueKeepsBadLocators(t *testing.T) {
	sent := &wire.Payload{KeyPoints: []string{}, EvidenceSnippets: []wire.EvidenceSnippet{
		{Text: "abc", Locator: "char:01-04", RelevanceScore: 0.5},
		{Text: "abc", Locator: "chars:1-4", RelevanceScore: 0.4},
	}}
	p := sent.Value()
	if p.EvidenceSnippets[0].Locator != (digest.Locator{Start: 1, End: 4}) || p.EvidenceSnippets[1].Locator != digest.Invalid {
		t.Errorf("read %+v", p.EvidenceSnippets)
	}
	var ve *digest.ValidationError
	if err := digest.Validate(p); !errors.As(err, &ve) || !slices.ContainsFunc(ve.Problems, func(s string) bool {
		return strings.HasPrefix(s, "evidence_snippets[1].locator: must match")
	}) || slices.ContainsFunc(ve.Problems, func(s string) bool { return strings.HasPrefix(s, "evidence_snippets[0].locator") }) {
		t.Errorf("validate: %v", err)
	}
	rep := &pipeline.VerifyReport{Problems: []string{"x"}, Snippets: []digest.SnippetCheck{
		{Index: 0, Locator: p.EvidenceSnippets[0].Locator}, {Index: 1, Locator: p.EvidenceSnippets[1].Locator, Problem: "bad"},
	}}
	data := wire.VerifyDataOf(rep, sent)
	if data.Snippets[0].Locator != "char:01-04" || data.Snippets[1].Locator != "chars:1-4" || data.Snippets[1].Problem != "bad" {
		t.Errorf("report snippets %+v", data.Snippets)
	}
}
