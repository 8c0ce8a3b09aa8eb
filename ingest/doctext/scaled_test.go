package doctext_test

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/xuri/excelize/v2"
)

// scaled is where TestScaledFixtures writes the speed benchmark's inputs
// (scripts/bench-documents.sh): Markdown sources of a 300-page report and a
// 200-chapter book, for pandoc to turn into DOCX and EPUB, and a 50-sheet
// workbook.
var scaled = flag.String("scaled", "", "write the speed benchmark's scaled-up sources into this directory")

var benchWords = strings.Fields(`the survey measured groundwater levels across valley wells between march
and october levels fell average metres steepest decline since records began nitrate concentrations rose
with depth central zone irrigation return flow reaches deeper aquifer faster than earlier model assumed
monitoring extend upper before next dry season replace transducers drifted publish monthly readings open
data station river elevation opened gauges recalibrated after flood offline eleven days april`)

// sentence is a pseudo-random sentence of n words.
func sentence(r *rand.Rand, n int) string {
	w := make([]string, n)
	for i := range w {
		w[i] = benchWords[r.IntN(len(benchWords))]
	}
	w[0] = strings.ToUpper(w[0][:1]) + w[0][1:]
	return strings.Join(w, " ") + "."
}

// paragraph is a paragraph of k sentences.
func paragraph(r *rand.Rand, k int) string {
	s := make([]string, k)
	for i := range s {
		s[i] = sentence(r, 8+r.IntN(14))
	}
	return strings.Join(s, " ")
}

func TestScaledFixtures(t *testing.T) {
	if *scaled == "" {
		t.Skip("run with -scaled DIR to write the speed benchmark's sources")
	}
	r := rand.New(rand.NewPCG(1, 2))
	// A report of 300 pages: about 500 words a page, in sections with
	// paragraphs, a list and a table each.
	var report strings.Builder
	report.WriteString("% A Scaled Survey Report\n% Benchmark Generator\n\n")
	for sec := 1; sec <= 225; sec++ {
		fmt.Fprintf(&report, "# Section %d\n\n", sec)
		for range 4 {
			report.WriteString(paragraph(r, 10) + "\n\n")
		}
		for range 3 {
			report.WriteString("- " + sentence(r, 10) + "\n")
		}
		report.WriteString("\n| Zone | Wells | Decline | Nitrate |\n|---|---|---|---|\n")
		for row := range 5 {
			fmt.Fprintf(&report, "| Zone %d | %d | %.1f | %d |\n", row, r.IntN(40), r.Float64()*3, r.IntN(60))
		}
		report.WriteString("\n")
	}
	// A book of 200 chapters.
	var book strings.Builder
	book.WriteString("% A Scaled Book\n% Benchmark Generator\n\n")
	for ch := 1; ch <= 200; ch++ {
		fmt.Fprintf(&book, "# Chapter %d\n\n", ch)
		for range 6 {
			book.WriteString(paragraph(r, 6) + "\n\n")
		}
	}
	for name, text := range map[string]string{"report-300p.md": report.String(), "book-200ch.md": book.String()} {
		if err := os.WriteFile(filepath.Join(*scaled, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// A workbook of 50 sheets of 400 rows and 8 columns.
	f := excelize.NewFile()
	defer f.Close()
	for s := 1; s <= 50; s++ {
		name := fmt.Sprintf("Sheet %d", s)
		if s == 1 {
			if err := f.SetSheetName("Sheet1", name); err != nil {
				t.Fatal(err)
			}
		} else if _, err := f.NewSheet(name); err != nil {
			t.Fatal(err)
		}
		sw, err := f.NewStreamWriter(name)
		if err != nil {
			t.Fatal(err)
		}
		for row := 1; row <= 400; row++ {
			cells := make([]any, 8)
			for c := range cells {
				if c%2 == 0 {
					cells[c] = benchWords[r.IntN(len(benchWords))]
				} else {
					cells[c] = r.IntN(10000)
				}
			}
			cell, _ := excelize.CoordinatesToCellName(1, row)
			if err := sw.SetRow(cell, cells); err != nil {
				t.Fatal(err)
			}
		}
		if err := sw.Flush(); err != nil {
			t.Fatal(err)
		}
	}
	if err := f.SaveAs(filepath.Join(*scaled, "sheets-50.xlsx")); err != nil {
		t.Fatal(err)
	}
}
