package htmltext

import (
	"go/ast"
	"go/parser"
	"go/token"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

// TestRuleLimits holds every rule to its limits value (see limitsOf): a
// struct of its own, each field named for the docs and the trace, a
// float64 field a share (its name ends in "Pct") or a whole number; a
// threshold belongs to one rule, and a rule reading another's names it;
// and what the docs print (Rules, Stages, DocumentRules) is the value the
// rule's logic reads.
func TestRuleLimits(t *testing.T) {
	owner := map[any]string{}    // limits value -> rule
	named := map[string]string{} // limit name -> rule
	type described struct {
		name  string
		lim   any
		reads []string
	}
	var all []described
	for _, r := range append(append([]rule(nil), cleanRules...), documentRules...) {
		all = append(all, described{r.name, r.lim, r.reads})
	}
	for _, r := range append(slices.Clone(stageRules), &ruleRunningHead) {
		all = append(all, described{r.name, r.lim, r.reads})
	}
	for _, r := range all {
		if r.lim == nil {
			continue
		}
		v := reflect.ValueOf(r.lim)
		if v.Kind() != reflect.Pointer || v.Elem().Kind() != reflect.Struct {
			t.Errorf("%s: limits %T is not a pointer to a struct", r.name, r.lim)
			continue
		}
		if o, ok := owner[r.lim]; ok && o != r.name {
			t.Errorf("%s and %s share one limits value", o, r.name)
		}
		owner[r.lim] = r.name
		checkLimitFields(t, r.name, v.Elem(), named)
	}
	// Every limits value declared belongs to a rule.
	f, err := parser.ParseFile(token.NewFileSet(), "limits.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := 0
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.VAR {
			declared += len(g.Specs)
		}
	}
	if declared != len(owner) {
		t.Errorf("limits.go declares %d limits values, the rules hold %d", declared, len(owner))
	}
	for _, r := range all {
		for _, name := range r.reads {
			if o, ok := named[name]; !ok || o == r.name {
				t.Errorf("%s reads %s, which no other rule owns", r.name, name)
			}
		}
	}
	// The docs print each rule's limits from the value its logic reads.
	want := map[string]map[string]int{}
	for _, r := range all {
		m := map[string]int{}
		for _, l := range limitsOf(r.lim) {
			m[l.name] = l.value
		}
		for _, name := range r.reads {
			for _, o := range all {
				if o.name == named[name] {
					for _, l := range limitsOf(o.lim) {
						if l.name == name {
							m[name] = l.value
						}
					}
				}
			}
		}
		want[r.name] = m
	}
	for _, d := range slices.Concat(Rules(), Stages(), DocumentRules()) {
		got := d.Limits
		if got == nil {
			got = map[string]int{}
		}
		if !reflect.DeepEqual(got, want[d.Name]) {
			t.Errorf("%s: described with limits %v, its values are %v", d.Name, got, want[d.Name])
		}
	}
}

// checkLimitFields checks the fields of v, the limits value of rule
// rule: each tagged with its name, a share or a whole number, not zero,
// and of no other rule (named: each limit's rule so far).
func checkLimitFields(t *testing.T, rule string, v reflect.Value, named map[string]string) {
	t.Helper()
	for i := range v.NumField() {
		f, val := v.Type().Field(i), v.Field(i)
		name := f.Tag.Get("limit")
		switch {
		case name == "":
			t.Errorf("%s: field %s has no limit tag", rule, f.Name)
		case f.Type.Kind() == reflect.Float64 && !strings.HasSuffix(name, "Pct") && val.Float() != math.Round(val.Float()):
			t.Errorf("%s: %s = %g is neither a share (…Pct) nor a whole number", rule, name, val.Float())
		case val.IsZero():
			t.Errorf("%s: %s is zero", rule, name)
		}
		if o, ok := named[name]; ok && o != rule {
			t.Errorf("%s and %s both own a limit %s", o, rule, name)
		}
		named[name] = rule
	}
}

// numbersAllowed are the numeric literals the package's logic may write
// outside the rules' limits values, by function: bounds on the input a
// walk or a parse reads, formats and units, none of them a rule's
// threshold. 0, 1 and 2 (none, one, a half or a pair) are allowed
// everywhere.
var numbersAllowed = map[string][]string{
	"scanTokens":       {"64", "3"}, // how far back an end tag looks, how many reopenings make a loop
	"tagAtom":          {"32"},      // longer than any atom
	"findBody":         {"3"},       // how deep <body> is looked for
	"hintText":         {"3"},       // class, id and custom tag: an array's length
	"hintNames":        {"64", "512", "256", "3"},
	"contentWeight":    {"0.0", "256"},
	"isHidden":         {"4096"},
	"itemShape":        {"128"},
	"cardsIn":          {"30"}, // -1 << 30: a count no key reaches
	"isLinkedRun":      {"30"},
	"score":            {"1.0"},
	"withSiblings":     {"0.0"},
	"traceSearch":      {"0.0"},
	"isCitationList":   {"100"}, // per cent
	"truncatedCopy":    {"100"}, // per cent
	"findArticle":      {"8"},   // how deep JSON-LD is read
	"ldString":         {"4"},
	"findProduct":      {"8"},
	"declaredProducts": {"8"},
	"declaresBusiness": {"8"},
	"isCartControl":    {"64", "512"},
	"matchLoose":       {"0x20"},       // ASCII case bit
	"hasPostRun":       {"5"},          // thread detection, a page kind, not a rule
	"hasDate":          {"4", "3"},     // a year's digits
	"init":             {"64"},         // bits of a stageSet
	"pct":              {"100", "0.5"}, // rounding
	"recordRule":       {"100"},
	"describe":         {"40", "3"},
}

// TestNoBareThresholds holds the package's logic to its rules' limits
// values: no numeric literal in a function of the package (a rule's
// predicate or step included) but 0, 1, 2 and those numbersAllowed names,
// and no constant or variable declared with one outside limits.go but
// those constantsAllowed names, so that a threshold written inline or
// named beside its rule's limits, where the docs and the trace do not see
// it, fails here.
func TestNoBareThresholds(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, file := range files {
		if strings.HasSuffix(file, "_test.go") {
			continue
		}
		src, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, file, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		check := func(fn string, body ast.Node) {
			ast.Inspect(body, func(n ast.Node) bool {
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.INT && lit.Kind != token.FLOAT {
					return true
				}
				if slices.Contains([]string{"0", "1", "2"}, lit.Value) || slices.Contains(numbersAllowed[fn], lit.Value) {
					return true
				}
				t.Errorf("%s: %s writes %s: a rule's threshold belongs in its limits value (limits.go)", fset.Position(lit.Pos()), fn, lit.Value)
				return true
			})
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Body != nil {
					check(d.Name.Name, d.Body)
				}
			case *ast.GenDecl:
				if file != "limits.go" {
					checkNamedNumbers(t, fset, d)
				}
				// A rule table's predicates are functions too.
				ast.Inspect(d, func(n ast.Node) bool {
					if fl, ok := n.(*ast.FuncLit); ok {
						check("a rule's predicate", fl.Body)
						return false
					}
					return true
				})
			}
		}
	}
}

// checkNamedNumbers fails on a constant or variable of declaration d
// whose value writes a number other than 0, 1 and 2 (outside a function
// literal, which TestNoBareThresholds checks as a predicate), unless
// constantsAllowed names it.
func checkNamedNumbers(t *testing.T, fset *token.FileSet, d *ast.GenDecl) {
	t.Helper()
	if d.Tok != token.CONST && d.Tok != token.VAR {
		return
	}
	for _, spec := range d.Specs {
		vs := spec.(*ast.ValueSpec)
		for i, v := range vs.Values {
			if i >= len(vs.Names) {
				break
			}
			name := vs.Names[i].Name
			ast.Inspect(v, func(n ast.Node) bool {
				if _, ok := n.(*ast.FuncLit); ok {
					return false
				}
				lit, ok := n.(*ast.BasicLit)
				if !ok || lit.Kind != token.INT && lit.Kind != token.FLOAT || slices.Contains([]string{"0", "1", "2"}, lit.Value) {
					return true
				}
				if _, ok := constantsAllowed[name]; !ok {
					t.Errorf("%s: %s = %s: a rule's threshold belongs in its limits value (limits.go)", fset.Position(lit.Pos()), name, lit.Value)
				}
				return false
			})
		}
	}
}

// constantsAllowed are the named numbers the package declares outside the
// rules' limits values, each with why it is not a rule's threshold.
var constantsAllowed = map[string]string{
	"maxReopened":        "a bound on the input the tree parser is given",
	"DefaultMaxNodes":    "a bound on the input (the node budget)",
	"MaxInputBytes":      "a bound on the input",
	"MaxElements":        "a bound on the input the search weighs",
	"maxDepth":           "a bound on the trees walked",
	"maxControlsLen":     "a bound on an attribute read",
	"maxNoscriptRepairs": "a bound on the repairs of one page",
	"maxJSONLD":          "a bound on a script decoded",
	"maxTypeDepth":       "a bound on a JSON-LD value read",
	"maxSearch":          "a bound on a search of the tree's text",
	"maxShapes":          "a bound on the shapes counted under one parent",
	"uuidDashes":         "a format",
	"traceTextChars":     "a bound on the text a trace quotes",
	"maxCartControls":    "page kind detection (isProductPage), not a rule",
	"postRunMin":         "page kind detection (hasPostRun), not a rule",
	"postRunDated":       "page kind detection (hasPostRun), not a rule",
	"postRunShare":       "page kind detection (hasPostRun), not a rule",
	"postRunParagraphs":  "page kind detection (hasPostRun), not a rule",
	"commentThreadShare": "page kind detection (isCommentThread), not a rule",
	"missingShare":       "withDescription's, a step of the page that no rule names",
}
