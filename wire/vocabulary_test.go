package wire

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/digestd/digestd/fault"
)

// faultCodes returns every Code constant that package fault declares, read
// from its source so that a new code cannot be forgotten here.
func faultCodes(t *testing.T) []string {
	t.Helper()
	f, err := parser.ParseFile(token.NewFileSet(), "../fault/fault.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var codes []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, s := range g.Specs {
			v := s.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != "Code" {
				continue
			}
			for _, val := range v.Values {
				if lit, ok := val.(*ast.BasicLit); ok {
					c, _ := strconv.Unquote(lit.Value)
					codes = append(codes, c)
				}
			}
		}
	}
	slices.Sort(codes)
	return codes
}

// The error vocabulary is closed: every code of package fault has an entry
// in the error table, and the README's error table lists exactly those codes.
func TestErrorVocabulary(t *testing.T) {
	codes := faultCodes(t)
	if len(codes) < 10 {
		t.Fatalf("read only %d codes from fault.go", len(codes))
	}
	for _, c := range codes {
		if _, ok := errorTable[fault.Code(c)]; !ok {
			t.Errorf("%s has no entry in the error table", c)
		}
	}
	for c := range errorTable {
		if _, found := slices.BinarySearch(codes, string(c)); !found {
			t.Errorf("the error table has %s, which fault does not declare", c)
		}
	}
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	section := regexp.MustCompile(`(?s)\n## Errors\n(.*?)\n## `).FindSubmatch(readme)
	if section == nil {
		t.Fatal("README has no Errors section")
	}
	var listed []string
	for _, row := range regexp.MustCompile(`(?m)^\| (.+?) \| \d`).FindAllSubmatch(section[1], -1) {
		for _, m := range regexp.MustCompile("`([A-Z][A-Z0-9_]*)`").FindAllSubmatch(row[1], -1) {
			listed = append(listed, string(m[1]))
		}
	}
	slices.Sort(listed)
	if !slices.Equal(listed, codes) {
		t.Errorf("README error table lists %v\nfault declares %v", listed, codes)
	}
}
