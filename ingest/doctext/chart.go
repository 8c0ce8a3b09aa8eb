package doctext

import (
	"cmp"
	"encoding/xml"
	"slices"
	"strconv"
	"strings"
)

// chartLines reads a DrawingML chart part (c:chartSpace, the charts of
// DOCX, PPTX and XLSX) into the blocks that stand at the chart's place:
// its title, each axis title, its categories joined by CellSeparator,
// then one line per series, the series' name and its values joined by
// CellSeparator. A series whose part caches no values (as libraries
// write them) takes them from the cells its formulas name, when cells
// can read them (a workbook's own charts). A chart part the package does
// not hold gives no lines.
func (c *conv) chartLines(z *container, name string, cells func(ref string) []string) ([]string, error) {
	if name == "" || !z.has(name) {
		return nil, nil
	}
	data, err := z.read(name)
	if err != nil {
		return nil, err
	}
	r := &chartReader{}
	if err := c.walkXML(data, xmlHandler{start: r.start, end: r.end, text: r.text}); err != nil {
		return nil, err
	}
	if cells != nil {
		r.resolve(cells)
	}
	return r.lines(), nil
}

// chartSeries is one series of a chart: its name, categories and values
// by point index.
type chartSeries struct {
	name       strings.Builder
	cats, vals []chartPoint
	// refs holds the formulas of the name, categories and values
	// ("Sheet1!$B$2:$B$4").
	refs [3]string
}

// Kinds of a series' formulas, indexes of chartSeries.refs.
const (
	refName = iota
	refCats
	refVals
)

type chartPoint struct {
	idx int
	v   string
}

// chartReader collects a chart part's titles and series.
type chartReader struct {
	stack  []string // local names of the open elements
	skip   int      // depth inside parts that hold no data (labels, trend lines, extensions)
	title  *strings.Builder
	titles []string // the chart's title first, when it has one, then the axes'
	chart  string
	series []*chartSeries
	idx    int // the open point's index
	level  int // multi-level categories: the open level's number
}

// chartSkipped are elements whose text is not the chart's data: data
// labels, trend lines, error bars, text formatting and extensions (which
// hold filtered, hidden series).
var chartSkipped = map[string]bool{"dLbls": true, "dLbl": true, "trendline": true, "errBars": true,
	"txPr": true, "spPr": true, "extLst": true, "legend": true, "bubbleSize": true, "AlternateContent": true}

func (r *chartReader) start(e xml.StartElement) error {
	if r.skip > 0 || chartSkipped[e.Name.Local] {
		r.skip++
		return nil
	}
	r.stack = append(r.stack, e.Name.Local)
	switch e.Name.Local {
	case "title":
		if r.title == nil {
			r.title = &strings.Builder{}
		}
	case "ser":
		r.series = append(r.series, &chartSeries{})
	case "pt":
		r.idx, _ = strconv.Atoi(attr(e, "idx"))
	case "lvl":
		r.level++
	case "cat", "xVal":
		r.level = 0
	}
	return nil
}

func (r *chartReader) end(xml.EndElement) error {
	if r.skip > 0 {
		r.skip--
		return nil
	}
	n := len(r.stack)
	if n == 0 {
		return nil
	}
	name := r.stack[n-1]
	r.stack = r.stack[:n-1]
	switch name {
	case "p":
		if r.title != nil {
			r.title.WriteByte(' ')
		}
	case "title":
		if r.title == nil {
			return nil
		}
		t := strings.Join(strings.Fields(r.title.String()), " ")
		r.title = nil
		if t == "" {
			return nil
		}
		if n >= 2 && r.stack[n-2] == "chart" {
			r.chart = t
		} else {
			r.titles = append(r.titles, t)
		}
	}
	return nil
}

// maxChartText bounds one title or series name.
const maxChartText = 4096

func (r *chartReader) text(s string) error {
	n := len(r.stack)
	if r.skip > 0 || n == 0 {
		return nil
	}
	top := r.stack[n-1]
	if top != "t" && top != "v" && top != "f" {
		return nil
	}
	if r.title != nil {
		if top != "f" && r.title.Len() < maxChartText {
			r.title.WriteString(s)
		}
		return nil
	}
	if len(r.series) == 0 || !slices.Contains(r.stack, "ser") {
		return nil
	}
	ser := r.series[len(r.series)-1]
	// The innermost of the series' parts decides what the text is.
	for i := n - 1; i >= 0; i-- {
		if top == "f" {
			switch r.stack[i] {
			case "tx":
				ser.refs[refName] += s
			case "cat", "xVal":
				ser.refs[refCats] += s
			case "val", "yVal":
				ser.refs[refVals] += s
			default:
				continue
			}
			return nil
		}
		switch r.stack[i] {
		case "tx":
			if ser.name.Len() < maxChartText {
				ser.name.WriteString(s)
			}
			return nil
		case "cat", "xVal":
			if r.level <= 1 {
				ser.cats = append(ser.cats, chartPoint{r.idx, s})
			}
			return nil
		case "val", "yVal":
			ser.vals = append(ser.vals, chartPoint{r.idx, s})
			return nil
		case "ser":
			return nil
		}
	}
	return nil
}

// resolve fills what the series do not cache from the cells their
// formulas name.
func (r *chartReader) resolve(cells func(ref string) []string) {
	points := func(ref string) []chartPoint {
		var pts []chartPoint
		for i, v := range cells(ref) {
			pts = append(pts, chartPoint{i, v})
		}
		return pts
	}
	for _, ser := range r.series {
		if ser.name.Len() == 0 && ser.refs[refName] != "" {
			ser.name.WriteString(strings.Join(cells(ser.refs[refName]), " "))
		}
		if len(ser.cats) == 0 && ser.refs[refCats] != "" {
			ser.cats = points(ser.refs[refCats])
		}
		if len(ser.vals) == 0 && ser.refs[refVals] != "" {
			ser.vals = points(ser.refs[refVals])
		}
	}
}

// lines renders what the chart holds, one block a line.
func (r *chartReader) lines() []string {
	var out []string
	if r.chart != "" {
		out = append(out, r.chart)
	}
	out = append(out, r.titles...)
	cells := func(pts []chartPoint) []string {
		slices.SortStableFunc(pts, func(a, b chartPoint) int { return cmp.Compare(a.idx, b.idx) })
		var s []string
		for _, p := range pts {
			s = append(s, chartValue(p.v))
		}
		return s
	}
	for _, ser := range r.series {
		if len(ser.cats) > 0 {
			out = append(out, strings.Join(cells(ser.cats), CellSeparator))
			break
		}
	}
	for _, ser := range r.series {
		row := cells(ser.vals)
		if name := strings.Join(strings.Fields(ser.name.String()), " "); name != "" {
			row = append([]string{name}, row...)
		}
		if len(row) > 0 {
			out = append(out, strings.Join(row, CellSeparator))
		}
	}
	return out
}

// chartValue writes a cached number as the shortest decimal of its 15
// significant digits (a cache may hold 0.30000000000000004), and any
// other text as it is.
func chartValue(s string) string {
	s = strings.TrimSpace(s)
	if s == "" || !strings.ContainsRune("0123456789+-.", rune(s[0])) {
		return s // not a number, nor "NaN" or "Inf" read as one
	}
	v, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return s
	}
	return strconv.FormatFloat(v, 'g', 15, 64)
}
