package htmltext

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxMethodFiles is the most files of the package that declare methods of
// one type, so that a type's behaviour is read in a few places.
const maxMethodFiles = 3

// TestMethodsInFewFiles holds every type of the package to methods
// declared in at most maxMethodFiles files, its tests included.
func TestMethodsInFewFiles(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	in := map[string]map[string]bool{} // type -> files declaring its methods
	fset := token.NewFileSet()
	for _, file := range files {
		f, err := parser.ParseFile(fset, file, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Recv == nil {
				continue
			}
			typ := fn.Recv.List[0].Type
			if star, ok := typ.(*ast.StarExpr); ok {
				typ = star.X
			}
			name := typ.(*ast.Ident).Name
			if in[name] == nil {
				in[name] = map[string]bool{}
			}
			in[name][file] = true
		}
	}
	if len(in) == 0 {
		t.Fatal("no methods found")
	}
	for typ, fs := range in {
		if len(fs) > maxMethodFiles {
			var names []string
			for f := range fs {
				names = append(names, f)
			}
			t.Errorf("%s has methods in %d files (%s), more than %d", typ, len(fs), strings.Join(names, ", "), maxMethodFiles)
		}
	}
}
