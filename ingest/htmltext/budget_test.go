package htmltext

import (
	"errors"
	"strings"
	"testing"
)

func TestNodeBudget(t *testing.T) {
	list := "<ul>" + strings.Repeat("<li>x", 1000) + "</ul>"
	for _, c := range []struct {
		name     string
		page     string
		maxNodes int
		tooLarge bool
	}{
		{"list under its budget", list, 5000, false},
		{"list over its budget", list, 1000, true},
		{"comments and text count", strings.Repeat("<!--c-->t", 600), 1000, true},
		{"one big text run", "<p>" + strings.Repeat("word ", 10000), 100, false},
	} {
		_, err := Extract([]byte(c.page), "text/html", "", Limits{MaxNodes: c.maxNodes})
		if got := errors.Is(err, ErrTooManyNodes); got != c.tooLarge || (c.tooLarge && !errors.Is(err, ErrTooLarge)) {
			t.Errorf("%s: err %v, want too large %t", c.name, err, c.tooLarge)
		}
	}
}
