package main

import (
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/htmltext"
)

// TestRulesDoc holds docs/extraction-rules.md, which digestd eval extract
// --ablate --rules-doc generates, to the extractor's table: every rule in
// the table's order with the thresholds it reads, and a measured row for
// each rule that decides, each exception and each stage rule that is not
// fixed.
func TestRulesDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/extraction-rules.md")
	if err != nil {
		t.Fatal(err)
	}
	var listed, measured []string
	for _, m := range regexp.MustCompile("(?m)^\\| \\d+ \\| `([a-z0-9-]+)` \\|").FindAllSubmatch(doc, -1) {
		listed = append(listed, string(m[1]))
	}
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9/-]+)` \\| \\d+ \\|").FindAllSubmatch(doc, -1) {
		measured = append(measured, string(m[1]))
	}
	var names, deciding []string
	for _, r := range htmltext.Rules() {
		names = append(names, r.Name)
		if !r.Routine {
			deciding = append(deciding, r.Name)
		}
		for _, e := range r.Unless {
			deciding = append(deciding, r.Name+"/"+e.Name)
		}
	}
	for _, r := range htmltext.Stages() {
		if !r.Fixed {
			deciding = append(deciding, r.Name)
		}
	}
	if !slices.Equal(listed, names) {
		t.Errorf("docs/extraction-rules.md lists the rules\n%v\nthe table holds\n%v\n(regenerate it: digestd eval extract --ablate --rules-doc docs/extraction-rules.md DATA/extract-html-*)", listed, names)
	}
	if !slices.Equal(measured, deciding) {
		t.Errorf("docs/extraction-rules.md measures the rules\n%v\nthe table's deciding rules are\n%v", measured, deciding)
	}
	if !strings.Contains(string(doc), rulesTable()) {
		t.Errorf("docs/extraction-rules.md's table is not the rules' (their thresholds, their docs); regenerate it: digestd eval extract --ablate --rules-doc docs/extraction-rules.md DATA/extract-html-*")
	}
}

// TestDocumentRulesDoc holds the table of docs/contract.md's "Documents"
// to the rules of a document's reading, in their order.
func TestDocumentRulesDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/contract.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(doc), "\n## Documents\n")
	section, _, _ = strings.Cut(section, "\n## ")
	var listed, names []string
	for _, m := range regexp.MustCompile("(?m)^\\| `([a-z0-9-]+)` \\|").FindAllStringSubmatch(section, -1) {
		listed = append(listed, m[1])
	}
	for _, r := range htmltext.DocumentRules() {
		if !r.Routine {
			names = append(names, r.Name)
		}
	}
	if !slices.Equal(listed, names) {
		t.Errorf("docs/contract.md lists the rules of documents\n%v\nthe extractor's are\n%v", listed, names)
	}
}
