package doctext

import (
	"cmp"
	"encoding/xml"
	"slices"
	"strconv"
	"strings"
)

// maxDiagramPoints bounds the points and connections of one SmartArt
// diagram's data model.
const maxDiagramPoints = 10000

// diagramLines reads a SmartArt diagram's data part (dgm:dataModel, the
// part a dgm:relIds element's r:dm names, in DOCX, PPTX and XLSX) into
// the blocks that stand at the diagram's place: one line per node that
// holds text, in the diagram's outline order (each node before its
// children, siblings in their srcOrd order); nodes no connection reaches
// follow in the order of the point list. The points that are not nodes
// (the document, presentation points, transitions) give no line. A part
// the package does not hold gives none.
func (c *conv) diagramLines(z *container, name string) ([]string, error) {
	if name == "" || !z.has(name) {
		return nil, nil
	}
	data, err := z.read(name)
	if err != nil {
		return nil, err
	}
	r := &diagramReader{text: map[string]string{}, children: map[string][]diagramEdge{}}
	if err := c.walkXML(data, xmlHandler{start: r.start, end: r.end, text: r.chars}); err != nil {
		return nil, err
	}
	return r.lines(), nil
}

// diagramEdge is a parent-of connection to a child, with its order among
// the parent's children.
type diagramEdge struct {
	order int
	child string
}

// diagramReader collects a data model's points and connections.
type diagramReader struct {
	points   []string          // model ids in the order of the point list
	text     map[string]string // a node's text by model id
	roots    []string          // the document points
	children map[string][]diagramEdge
	edges    int
	// point is the open point's model id ("": none, or not a node), para
	// counts its paragraphs, inT is true inside its text run, and b holds
	// its text.
	point string
	para  int
	inT   bool
	b     strings.Builder
}

func (r *diagramReader) start(e xml.StartElement) error {
	switch e.Name.Local {
	case "pt":
		if len(r.points) >= maxDiagramPoints {
			return nil
		}
		id := attr(e, "modelId")
		switch attr(e, "type") {
		case "", "node", "asst":
			r.point = id
			r.points = append(r.points, id)
			r.para = 0
			r.b.Reset()
		case "doc":
			r.roots = append(r.roots, id)
		}
	case "cxn":
		// A connection of no type is a parent-of connection.
		if typ := attr(e, "type"); (typ == "" || typ == "parOf") && r.edges < maxDiagramPoints {
			r.edges++
			order, _ := strconv.Atoi(attr(e, "srcOrd"))
			src := attr(e, "srcId")
			r.children[src] = append(r.children[src], diagramEdge{order, attr(e, "destId")})
		}
	case "p":
		if r.point != "" {
			if r.para > 0 {
				r.b.WriteByte(' ')
			}
			r.para++
		}
	case "t":
		// A run's text, inside a paragraph of the point's text body.
		r.inT = r.point != "" && r.para > 0
	case "br", "tab":
		if r.point != "" {
			r.b.WriteByte(' ')
		}
	}
	return nil
}

func (r *diagramReader) end(e xml.EndElement) error {
	switch e.Name.Local {
	case "pt":
		if r.point != "" {
			if t := strings.Join(strings.Fields(r.b.String()), " "); t != "" {
				r.text[r.point] = t
			}
			r.point = ""
		}
	case "t":
		r.inT = false
	}
	return nil
}

func (r *diagramReader) chars(s string) error {
	if r.inT && r.b.Len() < maxChartText {
		r.b.WriteString(s)
	}
	return nil
}

// lines walks the outline from the document points, each point once,
// then adds the nodes it did not reach.
func (r *diagramReader) lines() []string {
	var out []string
	seen := map[string]bool{}
	take := func(id string) {
		if t, ok := r.text[id]; ok && !seen[id] {
			out = append(out, t)
		}
		seen[id] = true
	}
	// The walk is depth first, children in srcOrd order, with a stack of
	// its own: a data model's depth is not bounded by its nesting.
	stack := slices.Clone(r.roots)
	slices.Reverse(stack)
	for len(stack) > 0 {
		id := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if seen[id] {
			continue
		}
		take(id)
		kids := r.children[id]
		slices.SortStableFunc(kids, func(a, b diagramEdge) int { return cmp.Compare(a.order, b.order) })
		for i := len(kids) - 1; i >= 0; i-- {
			if !seen[kids[i].child] {
				stack = append(stack, kids[i].child)
			}
		}
	}
	for _, id := range r.points {
		take(id)
	}
	return out
}
