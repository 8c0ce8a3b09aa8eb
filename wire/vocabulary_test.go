package wire

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
)

// faultCodes returns every Code constant that package fault declares, read
// from its source so that a new code cannot be forgotten here.
func faultCodes(t *testing.T) []string { return faultConsts(t, "Code") }

// faultConsts returns the values of the string constants of the named type
// that package fault declares, sorted.
func faultConsts(t *testing.T, typ string) []string {
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
			if id, ok := v.Type.(*ast.Ident); !ok || id.Name != typ {
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

// The warning vocabulary is closed too: every warning of package fault has
// a severity in the warning table, and the table holds no other code (the
// README's warning table is held to the same set by api's docs test).
func TestWarningVocabulary(t *testing.T) {
	warns := faultConsts(t, "Warning")
	if len(warns) < 5 {
		t.Fatalf("read only %d warnings from fault.go", len(warns))
	}
	if got := WarningCodes(); !slices.Equal(got, warns) {
		t.Errorf("the warning table has %v\nfault declares %v", got, warns)
	}
}

// No code is spelled outside package fault: a string literal that equals an
// error or warning code in any other non-test file is a second home for it
// (and a misspelling there would compile).
func TestCodesSpelledOnlyInFault(t *testing.T) {
	known := map[string]bool{}
	for _, c := range append(faultConsts(t, "Code"), faultConsts(t, "Warning")...) {
		known[c] = true
	}
	fset := token.NewFileSet()
	err := filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			switch d.Name() {
			case "fault", "testdata", "node_modules", ".git":
				return filepath.SkipDir
			}
			if path != ".." {
				if _, err := os.Stat(filepath.Join(path, "go.mod")); err == nil {
					return filepath.SkipDir // another module
				}
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			lit, ok := n.(*ast.BasicLit)
			if !ok || lit.Kind != token.STRING {
				return true
			}
			if v, err := strconv.Unquote(lit.Value); err == nil && known[v] {
				t.Errorf("%s: the code %s is spelled here; use package fault's constant", fset.Position(lit.Pos()), v)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
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
