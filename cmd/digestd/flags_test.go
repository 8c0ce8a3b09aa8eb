package main

import (
	"fmt"
	"os"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/digestd/digestd/digest"
)

// helpDefaults reads the flags and their defaults from a command's --help
// (flag.PrintDefaults: "  -name type\n    \tusage (default X)"). A flag
// whose default is the zero value has none.
func helpDefaults(t *testing.T, cmd string) (map[string]string, map[string]string) {
	t.Helper()
	_, help, _ := runCLI(t, "", cmd, "--help")
	defaults, usage := map[string]string{}, map[string]string{}
	name := ""
	for _, line := range strings.Split(help, "\n") {
		if m := regexp.MustCompile(`^  -([a-z0-9-]+)`).FindStringSubmatch(line); m != nil {
			name = m[1]
			usage[name] = ""
			continue
		}
		if name == "" {
			continue
		}
		usage[name] += strings.TrimSpace(line) + " "
		if m := regexp.MustCompile(`\(default "?([^")]*)"?\)\s*$`).FindStringSubmatch(line); m != nil {
			defaults[name] = m[1]
		}
	}
	if len(usage) == 0 {
		t.Fatalf("%s --help lists no flags: %s", cmd, help)
	}
	return defaults, usage
}

// TestReadmeFlagDefaults holds the README's configuration table to serve's
// flags: every default the table states as a value is the flag's.
func TestReadmeFlagDefaults(t *testing.T) {
	readme, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	defaults, usage := helpDefaults(t, "serve")
	rows := regexp.MustCompile("(?m)^\\| (`--[^|]+) \\| ([^|]+) \\|").FindAllStringSubmatch(string(readme), -1)
	checked := 0
	for _, r := range rows {
		flags := strings.Split(r[1], ", ")
		vals := strings.Split(strings.TrimSpace(r[2]), ", ")
		for i, f := range flags {
			f = strings.Trim(f, "`-")
			if _, ok := usage[f]; !ok {
				t.Errorf("README names --%s, which serve does not have", f)
				continue
			}
			if len(vals) != len(flags) || strings.ContainsAny(vals[i], " ()") || vals[i] == "none" || vals[i] == "random" {
				continue // described in words
			}
			checked++
			want := strings.Trim(vals[i], "`")
			if a, err1 := time.ParseDuration(want); err1 == nil {
				if b, err2 := time.ParseDuration(defaults[f]); err2 == nil && a == b {
					continue
				}
			}
			if defaults[f] != want {
				t.Errorf("README: --%s defaults to %s, serve --help says %q", f, want, defaults[f])
			}
		}
	}
	if checked < 15 {
		t.Errorf("checked %d defaults of the README's table", checked)
	}
}

// TestOptionFlagsStateTheBounds checks the digest size flags' help of the
// digest and batch commands against digest's constants.
func TestOptionFlagsStateTheBounds(t *testing.T) {
	d := digest.DefaultOptions()
	want := map[string]string{
		"max-evidence":      fmt.Sprintf("%d-%d (default %d)", 1, digest.MaxEvidence, d.MaxEvidence),
		"max-key-points":    fmt.Sprintf("%d-%d (default %d)", 0, digest.MaxKeyPoints, d.MaxKeyPoints),
		"snippet-max-chars": fmt.Sprintf("%d-%d (default %d)", digest.MinSnippetChars, digest.MaxSnippetChars, d.SnippetMaxChars),
		"summary-max-chars": fmt.Sprintf("%d-%d (default %d)", digest.MinSummaryChars, digest.MaxSummaryChars, d.SummaryMaxChars),
	}
	for _, cmd := range []string{"digest", "batch"} {
		_, usage := helpDefaults(t, cmd)
		for f, phrase := range want {
			if !strings.Contains(usage[f], phrase) {
				t.Errorf("%s --help: -%s says %q, want %q", cmd, f, usage[f], phrase)
			}
		}
	}
}
