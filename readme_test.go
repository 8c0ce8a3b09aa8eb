package digestd_test

import (
	"os"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/digestd/digestd/fault"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/wire"
)

// The README's examples run from the repository's own fixtures: every
// testdata path it names exists.
func TestReadmeFixturesExist(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	paths := regexp.MustCompile(`[A-Za-z0-9_./-]*testdata/[A-Za-z0-9_./-]*[A-Za-z0-9_]`).FindAll(readme, -1)
	if len(paths) < 4 {
		t.Fatalf("the README names %d fixtures; its examples should use testdata/walkthrough", len(paths))
	}
	for _, p := range paths {
		if _, err := os.Stat(string(p)); err != nil {
			t.Errorf("the README names %s: %v", p, err)
		}
	}
}

// userDocs returns the README and the guides under docs/ it links, one
// after the other (the benchmark records, which name the versions they
// were measured at, left out).
func userDocs(t *testing.T) []byte {
	t.Helper()
	files := []string{"README.md", "docs/contract.md", "docs/operations.md", "docs/development.md"}
	var all []byte
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		all = append(append(all, b...), '\n')
	}
	return all
}

// TestDocumentedVersionsAndStatuses: every version the README and the
// guides name (canon/N, html-extractor/N, pdf-extractor/N, digester/N) is
// the service's own, and every HTTP status they give an error code (a row
// of the error table, or prose such as "answers 416 `RANGE_NOT_SATISFIABLE`")
// is the one the error table gives it.
func TestDocumentedVersionsAndStatuses(t *testing.T) {
	docs := string(userDocs(t))
	current := map[string]string{}
	for _, c := range wire.Capabilities() {
		if name, _, ok := strings.Cut(c, "/"); ok {
			current[name] = c
		}
	}
	versions := regexp.MustCompile(`\b(canon|html-extractor|pdf-extractor|digester)/([0-9]+|N)\b`).FindAllStringSubmatch(docs, -1)
	if len(versions) < 4 {
		t.Fatalf("the docs name %d versions; the sample answer alone names four", len(versions))
	}
	for _, v := range versions {
		if v[2] != "N" && v[0] != current[v[1]] {
			t.Errorf("the docs name %s; the service is %s", v[0], current[v[1]])
		}
	}
	checked := 0
	status := func(code string) int {
		st, _, _, _ := wire.Classify(fault.Code(code))
		return st
	}
	for _, row := range regexp.MustCompile("(?m)^\\| ((?:`[A-Z_]+`(?:, )?)+) \\| ([0-9, ]+) \\|").FindAllStringSubmatch(docs, -1) {
		codes := regexp.MustCompile("`([A-Z_]+)`").FindAllStringSubmatch(row[1], -1)
		statuses := strings.Split(row[2], ", ")
		for i, c := range codes {
			want := statuses[min(i, len(statuses)-1)]
			if got := strconv.Itoa(status(c[1])); got != want {
				t.Errorf("the error table gives %s status %s; the service answers %s", c[1], want, got)
			}
			checked++
		}
	}
	for _, m := range regexp.MustCompile("\\b([1-5][0-9][0-9]) `([A-Z][A-Z_]+)`").FindAllStringSubmatch(docs, -1) {
		if slices.Contains(wire.WarningCodes(), m[2]) {
			continue // a warning, not an error
		}
		if m[1] == "431" && m[2] == string(fault.TooLarge) {
			continue // header lines over the limit: the connection framing answers 431, more exact than the table's 413 (cmd/digestd/framing.go)
		}
		if got := strconv.Itoa(status(m[2])); got != m[1] {
			t.Errorf("the docs say %s %s; the service answers %s with %s", m[1], m[2], m[2], got)
		}
		checked++
	}
	if checked < 25 {
		t.Errorf("checked %d documented statuses; the error table alone has more", checked)
	}
}

// TestReadmeSourceKinds: the README's table of source kinds has one row per
// kind of ingest/format, with exactly the media types and file name
// extensions that declare it, and pages where the kind has them.
func TestReadmeSourceKinds(t *testing.T) {
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| `([a-z]+)` \\| (.*) \\| (.*) \\| (.*) \\|$").FindAllSubmatch(readme, -1)
	var kinds []string
	code := regexp.MustCompile("`([^`]+)`")
	cells := func(b []byte) []string {
		var out []string
		for _, m := range code.FindAllSubmatch(b, -1) {
			out = append(out, string(m[1]))
		}
		slices.Sort(out)
		return out
	}
	for _, r := range rows {
		kind := string(r[1])
		if !slices.Contains(format.Kinds, kind) {
			continue // another table's row
		}
		kinds = append(kinds, kind)
		var types, exts []string
		for _, mt := range format.MediaTypes() {
			if format.KindOfMediaType(mt) == kind {
				types = append(types, mt)
			}
		}
		for _, e := range format.Extensions() {
			if format.KindOfName("x"+e) == kind {
				exts = append(exts, e)
			}
		}
		if got := cells(r[2]); !slices.Equal(got, types) {
			t.Errorf("README %s media types %v, format has %v", kind, got, types)
		}
		if got := cells(r[3]); !slices.Equal(got, exts) {
			t.Errorf("README %s file names %v, format has %v", kind, got, exts)
		}
		if paged := string(r[4]) != "—"; paged != format.Paginated(kind) {
			t.Errorf("README %s pages %q, format.Paginated %v", kind, r[4], format.Paginated(kind))
		}
	}
	if !slices.Equal(kinds, format.Kinds) {
		t.Errorf("README lists kinds %v, format.Kinds is %v", kinds, format.Kinds)
	}
}
