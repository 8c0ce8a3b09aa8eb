package doctext_test

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/digestd/digestd/evaluate"
	"github.com/digestd/digestd/ingest/doctext"
	"github.com/digestd/digestd/ingest/format"
	"github.com/digestd/digestd/normalize"
)

var update = flag.Bool("update", false, "rewrite testdata/devset/expected from the converter's output")

// canonical converts a document and returns its canonical text as ingest
// builds it.
func canonical(t testing.TB, kind string, raw []byte) (string, *doctext.Result) {
	t.Helper()
	res, err := doctext.Extract(kind, raw, doctext.Limits{})
	if err != nil {
		t.Fatalf("Extract %s: %v", kind, err)
	}
	if res.Paginated {
		return normalize.Pages(res.Pages), res
	}
	return normalize.Canonical(res.Pages[0]), res
}

// The dev set's documents convert to their expected canonical text
// (testdata/devset/expected, rewritten by -update), and detection finds
// each one's kind from its name and from its bytes alone.
func TestDevSetGolden(t *testing.T) {
	for _, c := range devCases {
		t.Run(c.File, func(t *testing.T) {
			raw, err := os.ReadFile(filepath.Join(devset, c.File))
			if err != nil {
				t.Fatal(err)
			}
			if k := format.Detect("", c.File, raw); k != c.Kind {
				t.Errorf("Detect by name = %q, want %q", k, c.Kind)
			}
			if slices.Contains([]string{"docx", "pptx", "xlsx", "odt", "odp", "ods", "epub"}, c.Kind) {
				if k := format.Detect("application/octet-stream", "", raw); k != c.Kind {
					t.Errorf("Detect by bytes = %q, want %q", k, c.Kind)
				}
			}
			got, _ := canonical(t, c.Kind, raw)
			golden := filepath.Join(devset, "expected", c.File+".txt")
			if *update {
				if err := os.MkdirAll(filepath.Dir(golden), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(golden, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(golden)
			if err != nil {
				t.Fatal(err)
			}
			if got != string(want) {
				t.Errorf("canonical text differs from %s:\n got: %q\nwant: %q", golden, got, want)
			}
		})
	}
}

// Every format of the dev set reaches word F1 ≥ 0.98 against the Markdown
// source it was generated from, through digestd eval extract's scoring.
func TestDevSetWordF1(t *testing.T) {
	run, err := evaluate.RunExtract(context.Background(), devset, func(_ context.Context, kind string, raw []byte, _ string) (string, error) {
		text, _ := canonical(t, kind, raw)
		return text, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if run.Report.Errors != 0 {
		t.Fatalf("%d errors", run.Report.Errors)
	}
	for _, kind := range format.Documents {
		f1, ok := run.Report.Metrics["word_f1_"+kind]
		if !ok {
			t.Errorf("no dev case of kind %s", kind)
			continue
		}
		if f1 < 0.98 {
			t.Errorf("word_f1_%s = %.4f, want ≥ 0.98", kind, f1)
		}
	}
}

// Tables come out row by row, cells joined by CellSeparator, in every
// format that holds them.
func TestTablesRowByRow(t *testing.T) {
	sep := doctext.CellSeparator
	rows := map[string][]string{
		"report.docx":  {"Zone" + sep + "Wells" + sep + "Mean decline (m)" + sep + "Nitrate (mg/L)", "Central" + sep + "16" + sep + "2.1" + sep + "27"},
		"report.odt":   {"Zone" + sep + "Wells" + sep + "Mean decline (m)" + sep + "Nitrate (mg/L)", "Central" + sep + "16" + sep + "2.1" + sep + "27"},
		"report.md":    {"Zone" + sep + "Wells" + sep + "Mean decline (m)" + sep + "Nitrate (mg/L)", "Central" + sep + "16" + sep + "2.1" + sep + "27"},
		"slides.pptx":  {"Cables" + sep + "18%" + sep + "-1"},
		"slides.odp":   {"Cables" + sep + "18%" + sep + "-1"},
		"sheets.xlsx":  {"Coldwater" + sep + "April" + sep + "1.87" + sep + "12.9", "Gaps" + sep + "Barrow Cross was offline for eleven days in April"},
		"sheets.ods":   {"Coldwater" + sep + "April" + sep + "1.87" + sep + "12.9", "Gaps" + sep + "Barrow Cross was offline for eleven days in April"},
		"stations.csv": {"Station" + sep + "River" + sep + "Elevation" + sep + "Opened", "Dunmore Weir" + sep + "Severn" + sep + "41" + sep + "1983"},
	}
	for file, want := range rows {
		raw, err := os.ReadFile(filepath.Join(devset, file))
		if err != nil {
			t.Fatal(err)
		}
		text, _ := canonical(t, format.KindOfName(file), raw)
		lines := strings.FieldsFunc(text, func(r rune) bool { return r == '\n' || r == normalize.PageSeparator })
		for _, w := range want {
			if !slices.Contains(lines, w) {
				t.Errorf("%s: no block %q", file, w)
			}
		}
	}
}

// Slides and sheets are pages named by their titles and sheet names; a
// slide's speaker notes are on its own page, after its content; notes of
// a text document come last.
func TestPagesAndNotes(t *testing.T) {
	tests := []struct {
		file  string
		names []string
		// on page N (1-based) the text holds these blocks in this order
		page   int
		blocks []string
	}{
		{"slides.pptx", []string{"Quarterly Sales Review", "Revenue grew in every region", "Margins by product line", "Next quarter"},
			3, []string{"Margins by product line", "Services | 44% | +5", "Cables lost margin because copper prices rose in the spring."}},
		{"slides.odp", []string{"Quarterly Sales Review", "Revenue grew in every region", "Margins by product line", "Next quarter"},
			3, []string{"Margins by product line", "Services | 44% | +5", "Cables lost margin because copper prices rose in the spring."}},
		{"sheets.xlsx", []string{"Stations", "Readings", "Notes"}, 2, []string{"Readings", "Station | Month | Level | Flow"}},
		{"sheets.ods", []string{"Stations", "Readings", "Notes"}, 3, []string{"Notes", "Topic | Remark"}},
		{"report.docx", nil, 1, []string{"3. Publish the monthly readings as open data.", "[1] The 1974 baseline comes from the regional water authority’s archive.", "[2] The earlier model was calibrated on data from 1998 to 2005."}},
		{"report.odt", nil, 1, []string{"3. Publish the monthly readings as open data.", "[1] The 1974 baseline comes from the regional water authority’s archive.", "[2] The earlier model was calibrated on data from 1998 to 2005."}},
		{"report.md", nil, 1, []string{"Publish the monthly readings as open data.", "[1] The 1974 baseline comes from the regional water authority's archive.", "[2] The earlier model was calibrated on data from 1998 to 2005."}},
	}
	for _, tt := range tests {
		raw, err := os.ReadFile(filepath.Join(devset, tt.file))
		if err != nil {
			t.Fatal(err)
		}
		text, res := canonical(t, format.KindOfName(tt.file), raw)
		if !slices.Equal(res.PageNames, tt.names) {
			t.Errorf("%s: page names %q, want %q", tt.file, res.PageNames, tt.names)
		}
		pages := strings.Split(text, string(normalize.PageSeparator))
		if tt.names != nil && len(pages) != len(tt.names) {
			t.Errorf("%s: %d pages, want %d", tt.file, len(pages), len(tt.names))
			continue
		}
		lines := strings.Split(pages[tt.page-1], "\n")
		at := -1
		for _, b := range tt.blocks {
			i := slices.Index(lines, b)
			if i <= at {
				t.Errorf("%s page %d: block %q missing or out of order in %q", tt.file, tt.page, b, lines)
				break
			}
			at = i
		}
	}
}
