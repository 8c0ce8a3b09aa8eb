package htmltext

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode"

	"golang.org/x/net/html"

	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/internal/testenv"
)

// TestExplainNamesRemoved extracts every page of the HTML dev sets with a
// trace and holds the trace to the bar of explaining every removal: each
// block of text the page shows in its body (its blocks as emitted from the
// whole body, nothing filtered) that is not in the extracted text has a
// final decision naming a rule that removed it, or part of it. The traced
// text must be the pinned one (see TestDevTextHashes): a trace changes
// nothing.
func TestExplainNamesRemoved(t *testing.T) {
	testenv.FullSuite(t, "extracts every page of the HTML dev sets with a trace")
	root := sharedData(t)
	sets, err := filepath.Glob(filepath.Join(root, "extract-html-*"))
	if err != nil || len(sets) == 0 {
		t.Fatalf("no extract-html-* set under %s (%v)", root, err)
	}
	pinned := readPinnedHashes(t)
	known := knownRules()
	pages, blocks, unexplained := 0, 0, 0
	for _, dir := range sets {
		set := filepath.Base(dir)
		cases, err := evaluate.ReadExtractCases(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			if c.Kind != "html" {
				continue
			}
			raw, err := evaluate.ReadCaseFile(dir, c.File)
			if err != nil {
				t.Fatal(err)
			}
			var tr Trace
			res, err := ExtractWith(raw, "", c.URL, Options{Trace: &tr})
			if err != nil {
				continue
			}
			pages++
			h := sha256.Sum256([]byte(res.Text))
			if want := pinned[set+"\t"+c.ID]; hex.EncodeToString(h[:]) != want {
				t.Errorf("%s %s: the traced text differs from the pinned one", set, c.ID)
			}
			for _, d := range tr.Decisions {
				if name, _, _ := strings.Cut(d.Rule, "/"); !known[name] {
					t.Fatalf("%s %s: a decision of rule %q, which neither Rules nor Stages lists", set, c.ID, d.Rule)
				}
			}
			missing := unexplainedBlocks(raw, res, &tr)
			blocks += len(missing)
			for _, b := range missing {
				unexplained++
				if unexplained <= 20 {
					t.Errorf("%s %s: a block left out without a rule: %q", set, c.ID, clip(b, 120))
				}
			}
		}
	}
	if unexplained > 0 {
		t.Errorf("%d blocks on %d pages left out without a rule", unexplained, pages)
	}
	t.Logf("%d pages traced", pages)
}

// knownRules returns the names Rules and Stages list.
func knownRules() map[string]bool {
	known := map[string]bool{}
	for _, r := range append(Rules(), Stages()...) {
		known[r.Name] = true
	}
	return known
}

// TestStageTable holds the stages' rules to the table's form: names unique
// among all rules, a line of doc each, a stage after the cleaner's, and
// named thresholds.
func TestStageTable(t *testing.T) {
	seen := map[string]bool{}
	for _, r := range Rules() {
		seen[r.Name] = true
	}
	stages := map[string]bool{stageSearch: true, stageEmit: true, stagePage: true}
	for _, r := range Stages() {
		if r.Name == "" || seen[r.Name] {
			t.Errorf("stage rule %q: empty or repeated name", r.Name)
		}
		seen[r.Name] = true
		if r.Doc == "" || strings.Contains(r.Doc, "\n") {
			t.Errorf("stage rule %s: doc must be one line, got %q", r.Name, r.Doc)
		}
		if !stages[r.Stage] {
			t.Errorf("stage rule %s: stage %q", r.Name, r.Stage)
		}
		for name := range r.Limits {
			if name == "" {
				t.Errorf("stage rule %s: a threshold without a name", r.Name)
			}
		}
	}
}

// unexplainedBlocks returns the blocks of raw's body (see pageBlocks) that
// are not in res and not explained by the final drops of tr: a block is
// explained when a drop removed it whole, or when a drop removed some of
// its text nodes and each of the others is in res or removed too (a line
// made of parts that several rules, or a rule and the text, took apart).
func unexplainedBlocks(raw []byte, res *Result, tr *Trace) []string {
	out := squeeze(strings.Join(res.Blocks, ""))
	var removed []string
	for _, d := range tr.Decisions {
		if d.Final && d.Action != "keep" {
			if r := squeeze(d.removed); r != "" {
				removed = append(removed, r)
			}
		}
	}
	all := strings.Join(removed, "\x00")
	var missing []string
	for _, b := range pageBlocks(raw) {
		sb := squeeze(strings.Join(b, ""))
		if sb == "" || strings.Contains(out, sb) || strings.Contains(all, sb) {
			continue
		}
		dropped, unaccounted := false, false
		for _, part := range b {
			switch p := squeeze(part); {
			case p == "":
			case strings.Contains(all, p):
				dropped = true
			case !strings.Contains(out, p):
				unaccounted = true
			}
		}
		if !dropped || unaccounted {
			missing = append(missing, strings.Join(b, ""))
		}
	}
	return missing
}

// pageBlocks returns the blocks of raw's body, each as its text nodes:
// every text node, scripts' included, broken at the elements that start a
// block and at line breaks.
func pageBlocks(raw []byte) [][]string {
	decoded, _ := decode(raw, "")
	doc, err := parse(decoded)
	if err != nil {
		return nil
	}
	var blocks [][]string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			blocks = append(blocks, cur)
		}
		cur = nil
	}
	var walk func(n *html.Node)
	walk = func(n *html.Node) {
		for c := n.FirstChild; c != nil; c = c.NextSibling {
			switch {
			case c.Type == html.TextNode:
				cur = append(cur, c.Data)
			case c.Type == html.ElementNode && (blockTags[c.Data] || c.Data == "br"):
				flush()
				walk(c)
				flush()
			case c.Type == html.ElementNode:
				walk(c)
			}
		}
	}
	walk(findBody(doc))
	flush()
	return blocks
}

// squeeze returns s without its white space.
func squeeze(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
}

const stagedPage = `<html><body>
<div class="box"><span>Win a trip to the islands this summer</span></div>
<article>
<h1>The harbour reopens</h1>
<p>The old harbour reopened on Monday after two years of repairs to its walls, which the storms of the last winters had broken in three places.</p>
<p>Fishing boats were the first to come back, followed by the ferry to the islands, which runs twice a day until the autumn.</p>
<p><a href="/a">Harbour news</a> <a href="/b">Ferry times</a> <a href="/c">Island walks</a></p>
<p>The harbour master expects the first cruise ship in May, when the new quay is finished and the cranes are gone from the water.</p>
</article>
</body></html>`

// TestTraceStages shows that the stages after the cleaner name their
// decisions: the search keeps its container and drops what lies outside it
// with the scores it compared, the emission drops a block of links, and
// the page says which reading gave the text; all of them final.
func TestTraceStages(t *testing.T) {
	var tr Trace
	res, err := ExtractWith([]byte(stagedPage), "", "", Options{Trace: &tr})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(res.Text, "Win a trip") || strings.Contains(res.Text, "Ferry times") {
		t.Fatalf("the promotion or the links are in the text:\n%s", res.Text)
	}
	want := map[string]bool{"main-top": false, "outside-main": false, "link-dense-block": false, "strict-reading": false}
	for _, d := range tr.Decisions {
		if _, ok := want[d.Rule]; !ok || !d.Final {
			continue
		}
		switch d.Rule {
		case "main-top":
			want[d.Rule] = d.Stage == "search" && d.Element == "article" && d.Score > 0
		case "outside-main":
			want[d.Rule] = d.Action == "drop" && d.Element == "div.box" && d.Limits["topScore"] > 0 && strings.HasPrefix(d.Text, "Win a trip")
		case "link-dense-block":
			want[d.Rule] = d.Stage == "emit" && d.Action == "drop" && d.LinkChars == d.Chars && strings.HasPrefix(d.Text, "Harbour news")
		case "strict-reading":
			want[d.Rule] = d.Reading == "page" && d.Limits["retryChars"] == lenientReadingLimits.retryChars
		}
	}
	for rule, ok := range want {
		if !ok {
			t.Errorf("no final %s decision with its numbers in the trace", rule)
		}
	}
	if t.Failed() {
		var b strings.Builder
		_ = tr.WriteText(&b)
		t.Log(b.String())
	}
}

// stagesDoc is the documentation of the stages' rules, generated from
// Stages by TestStagesDoc -update.
const stagesDoc = "../../docs/extraction-stages.md"

// TestStagesDoc holds docs/extraction-stages.md to Stages: the doc is the
// table as this test writes it (go test -run TestStagesDoc -update).
func TestStagesDoc(t *testing.T) {
	var b strings.Builder
	b.WriteString(`# The HTML extractor's stages

Generated from ` + "`Stages()`" + ` in ` + "`ingest/htmltext/stages.go`" + ` by
` + "`go test ./ingest/htmltext -run TestStagesDoc -update`" + `; do not edit by hand. After the
cleaner's table (docs/extraction-rules.md) the extractor decides in three stages: the search
chooses the containers of the main content (the page is read strictly, with class and id
hints, then leniently or with its hidden parts when that finds little), the emission writes
them as blocks and leaves some out, and the page's outcome picks the reading the text comes
from. Each decision is a named rule with its thresholds; ` + "`digestd extract --explain`" + ` and
` + "`POST /v1/digest?explain=1`" + ` name the rule of every block kept or removed, with its
numbers, and mark final the decisions of the reading the text came from. The ablation
(` + "`digestd eval extract --ablate`" + `) turns each rule off in turn, as it does the cleaner's:
a search step off passes on the containers it would widen unchanged, an emission's drop off
keeps the block, a page's choice off does not choose its reading. A fixed rule is the method
itself, with nothing to turn off; docs/extraction-rules.md gives the others' measured
contribution.

| stage | rule | action | thresholds | what it decides |
|---|---|---|---|---|
`)
	for _, r := range Stages() {
		var lim []string
		for _, name := range slices.Sorted(maps.Keys(r.Limits)) {
			lim = append(lim, fmt.Sprintf("%s=%d", name, r.Limits[name]))
		}
		fmt.Fprintf(&b, "| %s | `%s` | %s | %s | %s |\n", r.Stage, r.Name, r.Action, strings.Join(lim, ", "), strings.ReplaceAll(r.Doc, "|", "\\|"))
	}
	got := b.String()
	if *update {
		if err := os.WriteFile(stagesDoc, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(stagesDoc)
	if err != nil {
		t.Fatal(err)
	}
	if string(want) != got {
		t.Errorf("%s is not the stages' table (go test ./ingest/htmltext -run TestStagesDoc -update)", stagesDoc)
	}
}
