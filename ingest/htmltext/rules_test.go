package htmltext

import (
	"errors"
	"strings"
	"testing"
)

// TestRuleTable holds the table to its form: unique names, a line of doc
// each, and named thresholds.
func TestRuleTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		if r.Name == "" || seen[r.Name] {
			t.Errorf("rule %q: empty or repeated name", r.Name)
		}
		seen[r.Name] = true
		if r.Doc == "" || strings.Contains(r.Doc, "\n") {
			t.Errorf("rule %s: doc must be one line, got %q", r.Name, r.Doc)
		}
		for name := range r.Limits {
			if name == "" {
				t.Errorf("rule %s: a threshold without a name", r.Name)
			}
		}
		for _, e := range r.Unless {
			if e.Name == "" || e.Doc == "" || seen[r.Name+"/"+e.Name] {
				t.Errorf("rule %s: exception %q without a name or doc, or repeated", r.Name, e.Name)
			}
			seen[r.Name+"/"+e.Name] = true
		}
		if r.Routine && r.Action != "keep" {
			t.Errorf("rule %s: a routine rule must keep, it does %s", r.Name, r.Action)
		}
	}
}

const tracedPage = `<html><body>
<nav><a href="/">Home</a> <a href="/news">News</a></nav>
<!-- a comment -->
<article>
<h1>The harbour reopens</h1>
<p>The old harbour reopened on Monday after two years of repairs to its walls, which the storms of the last winters had broken in three places.</p>
<div hidden><p>Subscribe to read more of the harbour's news every morning in your mailbox.</p></div>
<p>Fishing boats were the first to come back, followed by the ferry to the islands, which runs twice a day until the autumn.</p>
</article>
<footer>Copyright the harbour gazette</footer>
</body></html>`

// TestTrace shows that a trace names the rule of every block the cleaner
// removes, with its numbers, and that taking one changes nothing.
func TestTrace(t *testing.T) {
	plain, err := Extract([]byte(tracedPage), "", "")
	if err != nil {
		t.Fatal(err)
	}
	var tr Trace
	traced, err := ExtractWith([]byte(tracedPage), "", "", Options{Trace: &tr})
	if err != nil {
		t.Fatal(err)
	}
	if traced.Text != plain.Text {
		t.Errorf("a trace changed the text:\n%s\nwithout one:\n%s", traced.Text, plain.Text)
	}
	want := map[string]string{"nav": "nav-aside-footer", "#comment": "markup-comment", "div": "hidden", "footer": "nav-aside-footer"}
	for _, d := range tr.Decisions {
		if d.Reading != "strict" {
			continue
		}
		if rule, ok := want[d.Element]; ok && rule == d.Rule && d.Action == "drop" {
			delete(want, d.Element)
		}
		if d.Rule == "hidden" && (d.Chars == 0 || !strings.HasPrefix(d.Text, "Subscribe")) {
			t.Errorf("hidden block traced without its numbers or text: %+v", d)
		}
	}
	for el, rule := range want {
		t.Errorf("no %s decision of rule %s on %s in the trace:\n%+v", "drop", rule, el, tr.Decisions)
	}
	var b strings.Builder
	if err := tr.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(b.String(), "drop          nav-aside-footer     footer chars=") {
		t.Errorf("text trace lacks the footer's line:\n%s", b.String())
	}
}

// TestRuleOff shows that turning a rule off changes what it decided, and
// that an unknown name is refused.
func TestRuleOff(t *testing.T) {
	res, err := ExtractWith([]byte(tracedPage), "", "", Options{Off: []string{"hidden"}})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "Subscribe to read more") {
		t.Errorf("with the hidden rule off, the hidden paragraph is still left out:\n%s", res.Text)
	}
	plain, _ := Extract([]byte(tracedPage), "", "")
	if strings.Contains(plain.Text, "Subscribe to read more") {
		t.Errorf("the hidden paragraph is kept with every rule on:\n%s", plain.Text)
	}
	if _, err := ExtractWith([]byte(tracedPage), "", "", Options{Off: []string{"no-such-rule"}}); !errors.Is(err, ErrUnknownRule) {
		t.Errorf("unknown rule: err = %v, want ErrUnknownRule", err)
	}
}

const tabPanelPage = `<html><body><article><h1>Trains to the coast</h1>
<p>Trains to the coast leave every hour from the main station, and the journey takes a little under two hours in all.</p>
<div role="tabpanel" hidden><p>On Sundays the first train leaves at nine, and bicycles travel free of charge in the last carriage.</p></div>
</article></body></html>`

// TestRuleException shows that an exception keeps what its rule would
// drop, that the trace names it, and that it can be turned off alone.
func TestRuleException(t *testing.T) {
	var tr Trace
	res, err := ExtractWith([]byte(tabPanelPage), "", "", Options{Trace: &tr})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(res.Text, "On Sundays the first train") {
		t.Errorf("the hidden tab panel of text is left out:\n%s", res.Text)
	}
	named := false
	for _, d := range tr.Decisions {
		named = named || d.Rule == "hidden/tab-panel" && d.Action == "keep" && strings.HasPrefix(d.Text, "On Sundays")
	}
	if !named {
		t.Errorf("no hidden/tab-panel keep in the trace: %+v", tr.Decisions)
	}
	res, err = ExtractWith([]byte(tabPanelPage), "", "", Options{Off: []string{"hidden/tab-panel"}})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Text, "On Sundays the first train") {
		t.Errorf("with hidden/tab-panel off, the panel is still kept:\n%s", res.Text)
	}
	if _, err := ExtractWith([]byte(tabPanelPage), "", "", Options{Off: []string{"hidden/no-such-exception"}}); !errors.Is(err, ErrUnknownRule) {
		t.Errorf("unknown exception: err = %v, want ErrUnknownRule", err)
	}
}

const repeatPage = `<html><body><article><h1>Trains to the coast</h1>
<p>Trains to the coast leave every hour from the main station, and the journey takes a little under two hours in all.</p>
<p>On Sundays the first train leaves at nine, and bicycles travel free of charge in the last carriage of every train.</p>
<p>Trains to the coast leave every hour from the main station, and the journey takes a little under two hours in all.</p>
</article></body></html>`

// TestStageRuleOff shows that Options.Off turns a stage's rule off (the
// repeat rule: the second copy of a paragraph stays), that every stage
// rule but the fixed ones can be turned off, and that a fixed one is
// refused.
func TestStageRuleOff(t *testing.T) {
	const para = "Trains to the coast leave every hour"
	plain, err := Extract([]byte(repeatPage), "", "")
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(plain.Text, para); n != 1 {
		t.Errorf("with every rule on, the repeated paragraph is read %d times, want 1:\n%s", n, plain.Text)
	}
	res, err := ExtractWith([]byte(repeatPage), "", "", Options{Off: []string{"repeat"}})
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(res.Text, para); n != 2 {
		t.Errorf("with repeat off, the repeated paragraph is read %d times, want 2:\n%s", n, res.Text)
	}
	fixed := 0
	for _, r := range Stages() {
		_, err := ExtractWith([]byte(repeatPage), "", "", Options{Off: []string{r.Name}})
		if r.Fixed {
			fixed++
			if !errors.Is(err, ErrUnknownRule) {
				t.Errorf("fixed rule %s turned off: err = %v, want ErrUnknownRule", r.Name, err)
			}
			if !strings.Contains(r.Doc, "fixed:") {
				t.Errorf("fixed rule %s: its doc does not say why it is fixed", r.Name)
			}
			continue
		}
		if err != nil {
			t.Errorf("stage rule %s off: %v", r.Name, err)
		}
	}
	if fixed == 0 || fixed > 5 {
		t.Errorf("%d fixed stage rules, want main-top, main-body, outside-main, strict-reading, outside-list", fixed)
	}
}
