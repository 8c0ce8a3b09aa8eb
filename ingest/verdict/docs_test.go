package verdict

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
)

// codeOf is the error code each class answers (package ingest maps it).
var codeOf = map[Class]string{Blocked: "CONTENT_BLOCKED", JSRequired: "JS_REQUIRED", NotContent: "NOT_CONTENT"}

// The contract's table of rules is the rule table: every rule, in order,
// with its code, reason, word bound and doc line; and the README's error
// rows name every reason of their code.
func TestDocsListTheRules(t *testing.T) {
	doc, err := os.ReadFile("../../docs/contract.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| `([a-z_0-9]+)` \\| `([A-Z_]+)` \\| ?(`[a-z_0-9]+`)? ?\\| (\\d+) \\| (.+) \\|$").FindAllStringSubmatch(string(doc), -1)
	if len(rows) != len(rules) {
		t.Fatalf("docs/contract.md lists %d rules, the table has %d", len(rows), len(rules))
	}
	for i, r := range rules {
		reason := ""
		if r.reason != "" {
			reason = "`" + r.reason + "`"
		}
		want := []string{r.name, codeOf[r.class], reason, fmt.Sprint(r.maxWords), r.doc}
		if got := rows[i][1:]; strings.Join(got, "|") != strings.Join(want, "|") {
			t.Errorf("docs/contract.md row %d: %q, want %q", i+1, got, want)
		}
	}
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	reasons := map[string][]string{"NOT_CONTENT": {ReasonRedirectLoop}}
	for _, r := range rules {
		if r.reason != "" {
			reasons[codeOf[r.class]] = append(reasons[codeOf[r.class]], r.reason)
		}
	}
	for code, rs := range reasons {
		row := regexp.MustCompile("(?m)^\\| `" + code + "` \\|.*$").Find(readme)
		for _, r := range rs {
			if !strings.Contains(string(row), "`"+r+"`") {
				t.Errorf("README's %s row does not name reason %s: %s", code, r, row)
			}
		}
	}
}
