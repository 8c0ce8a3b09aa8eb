package digestd_test

import (
	"go/ast"
	"go/constant"
	"go/parser"
	"go/token"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/digestd/digestd/normalize"
)

// separatorSyntax are the packages that read an input format in which
// U+000C FORM FEED is a character of the format's own syntax, not the page
// separator: HTML's ASCII white space (WHATWG Infra) and PDF's white space
// and string escape "\f" (ISO 32000-1, 7.2.2 and 7.3.4.2). What they read
// becomes canonical text only through normalize, where a form feed is a
// block break.
var separatorSyntax = []string{"ingest/htmltext/", "ingest/pdftext/"}

// The page separator has one home: no non-test Go file outside normalize
// spells U+000C, whatever the spelling ('\f', "\x0c", '\u000c', '\014',
// 0x0c, 0o14, rune(12), a raw form feed in a string); everything else names
// normalize.PageSeparator or normalize.PageBreak.
func TestPageSeparatorSpelledInNormalizeOnly(t *testing.T) {
	files := sourceFiles(t)
	fset := token.NewFileSet()
	spelled := 0
	for _, path := range files {
		slash := filepath.ToSlash(path)
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, at := range separatorSpellings(f) {
			pos := fset.Position(at)
			switch {
			case strings.HasPrefix(slash, "normalize/"):
				spelled++
			case hasAnyPrefix(slash, separatorSyntax):
			default:
				t.Errorf("%s:%d spells the page separator (use normalize.PageSeparator or normalize.PageBreak)", path, pos.Line)
			}
		}
	}
	if spelled == 0 || len(files) < 50 {
		t.Fatalf("found the separator %d times in normalize, in %d Go files; the walk or the matcher is broken", spelled, len(files))
	}
}

// The matcher sees every spelling it promises to see.
func TestSeparatorSpellingsFound(t *testing.T) {
	src := "package p\n" +
		"var a = '\\f'\n" +
		"var b = \"x\\x0cy\"\n" +
		"var c = '\\u000C'\n" +
		"var d = '\\014'\n" +
		"var e = 0x0c\n" +
		"var f = 0o14\n" +
		"var g = rune(12)\n" +
		"var h = byte(12)\n" +
		"var i = `raw\fform feed`\n" +
		"var j = \"\\U0000000c\"\n" +
		"var fine = []int{12, '\\n', 0x0d, \"\\\\f\"[0]}\n"
	f, err := parser.ParseFile(token.NewFileSet(), "p.go", src, 0)
	if err != nil {
		t.Fatal(err)
	}
	if got := len(separatorSpellings(f)); got != 10 {
		t.Errorf("found %d spellings, want 10", got)
	}
	if normalize.PageSeparator != 0x0c || normalize.PageBreak != "\f" {
		t.Errorf("the page separator is %q, not U+000C as DESIGN.md says", normalize.PageBreak)
	}
}

// separatorSpellings returns where f spells U+000C: a character or string
// literal holding it, a hexadecimal, octal or binary integer literal of 12,
// or a decimal 12 converted to a rune, byte or string.
func separatorSpellings(f *ast.File) []token.Pos {
	var at []token.Pos
	ast.Inspect(f, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.CallExpr:
			id, ok := n.Fun.(*ast.Ident)
			if lit, isLit := oneArg(n); ok && isLit && lit.Kind == token.INT && lit.Value == "12" {
				switch id.Name {
				case "rune", "byte", "int32", "uint8", "string":
					at = append(at, lit.Pos())
				}
			}
		case *ast.BasicLit:
			switch n.Kind {
			case token.CHAR, token.STRING:
				v := constant.MakeFromLiteral(n.Value, n.Kind, 0)
				switch {
				case v.Kind() == constant.Int:
					if c, exact := constant.Int64Val(v); exact && c == normalize.PageSeparator {
						at = append(at, n.Pos())
					}
				case v.Kind() == constant.String && strings.ContainsRune(constant.StringVal(v), normalize.PageSeparator):
					at = append(at, n.Pos())
				}
			case token.INT:
				if c, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64); err == nil && c == normalize.PageSeparator && n.Value != "12" {
					at = append(at, n.Pos())
				}
			}
		}
		return true
	})
	return at
}

func oneArg(c *ast.CallExpr) (*ast.BasicLit, bool) {
	if len(c.Args) != 1 {
		return nil, false
	}
	lit, ok := c.Args[0].(*ast.BasicLit)
	return lit, ok
}

func hasAnyPrefix(s string, prefixes []string) bool {
	for _, p := range prefixes {
		if strings.HasPrefix(s, p) {
			return true
		}
	}
	return false
}
