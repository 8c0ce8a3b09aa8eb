package evaluate

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"time"
)

// SBDCase is one line of a sentence-boundary set's cases.jsonl.
type SBDCase struct {
	ID        string   `json:"id"`
	Text      string   `json:"text"`
	Sentences []string `json:"sentences"`
	// Lang is the case's language (ISO 639-1), when the set gives one.
	Lang string `json:"lang,omitempty"`
}

// SBD runs split over every case of the sentence-boundary set in dir and
// reports sbd_accuracy: the share of cases whose sentence list, each
// sentence trimmed of white space, equals the expected list exactly; and,
// for each language that cases carry, sbd_accuracy_<lang> over that
// language's cases. Only cancellation of ctx stops the run. Seconds and
// DocsPerSec time split alone.
func SBD(ctx context.Context, dir string, split func(string) []string) (Report, error) {
	cases, err := readCases[SBDCase](dir)
	if err != nil {
		return Report{}, fmt.Errorf("sbd set %s: %w", dir, err)
	}
	rep := Report{Set: filepath.Base(filepath.Clean(dir)), Kind: "sbd", Cases: len(cases), Metrics: map[string]float64{}}
	var elapsed time.Duration
	correct := 0
	type tally struct{ correct, cases int }
	perLang := map[string]*tally{}
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return Report{}, fmt.Errorf("sbd run %s: %w", rep.Set, err)
		}
		start := time.Now()
		got := split(c.Text)
		elapsed += time.Since(start)
		ok := SameSentences(got, c.Sentences)
		if ok {
			correct++
		}
		if c.Lang == "" {
			continue
		}
		t := perLang[c.Lang]
		if t == nil {
			t = &tally{}
			perLang[c.Lang] = t
		}
		t.cases++
		if ok {
			t.correct++
		}
	}
	if len(cases) > 0 {
		rep.Metrics["sbd_accuracy"] = float64(correct) / float64(len(cases))
	}
	for lang, t := range perLang {
		rep.Metrics["sbd_accuracy_"+lang] = float64(t.correct) / float64(t.cases)
	}
	rep.Seconds = elapsed.Seconds()
	if elapsed > 0 {
		rep.DocsPerSec = float64(len(cases)) / elapsed.Seconds()
	}
	return rep, nil
}

// SameSentences reports whether got and want are the same list once each
// sentence is trimmed of surrounding white space.
func SameSentences(got, want []string) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if strings.TrimSpace(got[i]) != strings.TrimSpace(want[i]) {
			return false
		}
	}
	return true
}
