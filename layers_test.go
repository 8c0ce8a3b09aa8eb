package digestd_test

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

const module = "github.com/digestd/digestd"

// sourceFiles returns the path of every non-test Go file of the module,
// leaving out testdata and hidden or underscored directories.
func sourceFiles(t *testing.T) []string {
	t.Helper()
	var files []string
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if name := d.Name(); path != "." && (name == "testdata" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			return nil
		}
		if strings.HasSuffix(path, ".go") && !strings.HasSuffix(path, "_test.go") {
			files = append(files, path)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}

// moduleImports reads the import clauses of every non-test Go file of the
// module and returns, for each package (by its path below the module), the
// module packages it imports.
func moduleImports(t *testing.T) map[string][]string {
	t.Helper()
	imports := map[string][]string{}
	fset := token.NewFileSet()
	for _, path := range sourceFiles(t) {
		f, err := parser.ParseFile(fset, path, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		pkg := filepath.ToSlash(filepath.Dir(path))
		if _, ok := imports[pkg]; !ok {
			imports[pkg] = nil
		}
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			switch {
			case p == module:
				p = "."
			case strings.HasPrefix(p, module+"/"):
				p = strings.TrimPrefix(p, module+"/")
			default:
				continue
			}
			if !slices.Contains(imports[pkg], p) {
				imports[pkg] = append(imports[pkg], p)
			}
		}
	}
	return imports
}

// deps returns every module package pkg imports, directly or not.
func deps(imports map[string][]string, pkg string) map[string]bool {
	seen := map[string]bool{}
	var walk func(p string)
	walk = func(p string) {
		for _, q := range imports[p] {
			if !seen[q] {
				seen[q] = true
				walk(q)
			}
		}
	}
	walk(pkg)
	return seen
}

// The packages follow the data: the edges (api, mcpserver, batch) stand side
// by side and import none of each other, sharing what they must through
// wire; wire sits under them; the pipeline imports no edge; and no core
// package imports the pipeline, wire or an edge.
func TestPackageLayers(t *testing.T) {
	imports := moduleImports(t)
	edges := []string{"api", "mcpserver", "batch", "web"}
	above := append([]string{"wire", "pipeline", "cmd/digestd"}, edges...)
	for _, p := range append([]string{"wire", "pipeline"}, edges...) {
		if _, ok := imports[p]; !ok {
			t.Fatalf("no package %s: the layering this test checks has changed", p)
		}
	}
	for _, e := range edges {
		d := deps(imports, e)
		for _, other := range edges {
			if other != e && d[other] {
				t.Errorf("edge %s imports edge %s (directly or not); share through wire instead", e, other)
			}
		}
	}
	for _, p := range []string{"wire", "pipeline"} {
		d := deps(imports, p)
		for _, e := range edges {
			if d[e] {
				t.Errorf("%s imports the edge %s", p, e)
			}
		}
	}
	if deps(imports, "pipeline")["wire"] {
		t.Error("pipeline imports wire, the package above it")
	}
	core := 0
	for pkg := range imports {
		if slices.Contains(above, pkg) || pkg == "." || strings.HasPrefix(pkg, "cmd/") || strings.HasPrefix(pkg, "internal/") || strings.HasPrefix(pkg, "e2e/") {
			continue
		}
		core++
		d := deps(imports, pkg)
		for _, a := range above {
			if d[a] {
				t.Errorf("core package %s imports %s", pkg, a)
			}
		}
	}
	if core < 10 {
		t.Errorf("found %d core packages; the walk missed the module's packages", core)
	}
}

// layers orders the module's packages from the bottom up, each by the
// directory it lives under: a package imports only packages of lower
// layers and of its own directory (ingest imports ingest/htmltext). The
// root package holds the embedded documents; internal/ (helpers), e2e/ and
// bench/ (a module of its own) stand outside the order.
var layers = [][]string{
	{".", "normalize", "fault", "lang"},
	{"archive"},
	{"structure"},
	{"ingest", "digest"},
	{"locate", "search"},
	{"pipeline", "evaluate"},
	{"wire"},
	{"api", "mcpserver", "batch", "web"},
	{"cmd"},
}

// TestCoreOrder checks every import of every non-test file against layers.
func TestCoreOrder(t *testing.T) {
	layerOf := map[string]int{}
	for i, l := range layers {
		for _, dir := range l {
			layerOf[dir] = i
		}
	}
	top := func(pkg string) string { return strings.Split(pkg, "/")[0] }
	outside := func(pkg string) bool { return slices.Contains([]string{"internal", "e2e", "bench"}, top(pkg)) }
	for pkg, ims := range moduleImports(t) {
		if outside(pkg) {
			continue
		}
		at, ok := layerOf[top(pkg)]
		if !ok {
			t.Errorf("package %s is in no layer: add %s to layers", pkg, top(pkg))
			continue
		}
		for _, im := range ims {
			if outside(im) || top(im) == top(pkg) {
				continue
			}
			if l, ok := layerOf[top(im)]; ok && l >= at {
				t.Errorf("%s (layer %d) imports %s (layer %d): a package imports only lower layers", pkg, at, im, l)
			}
		}
	}
}
