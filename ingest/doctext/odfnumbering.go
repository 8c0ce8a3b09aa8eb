package doctext

import (
	"encoding/xml"
	"strconv"
	"strings"
)

// odfLevels is the number of levels of an OpenDocument list style and of
// the outline style.
const odfLevels = 10

// odfLevel is one level of a list style (text:list-level-style-number or
// -bullet) or of the outline style (text:outline-level-style).
type odfLevel struct {
	format         string // style:num-format: "1", "a", "A", "i", "I", "" (no number)
	prefix, suffix string // style:num-prefix, style:num-suffix
	display        int    // text:display-levels: how many levels the number shows
	start          int    // text:start-value
	bullet         bool
}

type odfListStyle [odfLevels]*odfLevel

// odfCounts holds a list's (or the headings') current number at each
// level; 0: not started.
type odfCounts [odfLevels]int

// odfList is an open text:list: its style (its own, or the enclosing
// list's), the counts it shares with the lists it is nested in, and its
// open item.
type odfList struct {
	style    string
	counts   *odfCounts
	id       string // xml:id, which text:continue-list may name
	item     int    // depth of the open text:list-item (0: none)
	start    int    // the open item's text:start-value (0: none)
	numbered bool   // the open item's first paragraph is numbered, or the item is a list header
}

// odfNumbering computes the numbers an office suite shows before the
// numbered list items and headings of an OpenDocument text, from the list
// styles (content.xml's and styles.xml's) and the outline style, as
// wordNumbering does for DOCX: an item's number opens its first
// paragraph, a heading's its text, each followed by a space. A list
// starts counting again unless it continues another
// (text:continue-numbering, text:continue-list); an item may set its own
// number (text:start-value), as a heading may.
type odfNumbering struct {
	styles   map[string]*odfListStyle
	outline  *odfListStyle
	headings odfCounts
	lists    []*odfList
	// last holds the counts of the last list of each style that ended,
	// byID those of the lists that have an xml:id.
	last, byID map[string]*odfCounts
	reading    *odfListStyle // the list or outline style being read
}

func newODFNumbering() *odfNumbering {
	return &odfNumbering{styles: map[string]*odfListStyle{}, last: map[string]*odfCounts{}, byID: map[string]*odfCounts{}}
}

// levelIndex reads a text:level (1-based) as an index of the levels.
func levelIndex(e xml.StartElement) int {
	n, err := strconv.Atoi(attrNS(e, "text", "level"))
	if err != nil {
		return -1
	}
	return min(max(n, 1), odfLevels) - 1
}

// positive reads an attribute that is a positive integer; 0 when it is
// not one.
func positive(e xml.StartElement, space, local string) int {
	n, err := strconv.Atoi(attrNS(e, space, local))
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// style reads the definitions of list styles and of the outline style,
// in styles.xml or content.xml's automatic styles.
func (n *odfNumbering) style(e xml.StartElement) {
	switch e.Name.Space + ":" + e.Name.Local {
	case "text:list-style":
		n.reading = nil
		if len(n.styles) < maxNumberings {
			n.reading = &odfListStyle{}
			n.styles[attrNS(e, "style", "name")] = n.reading
		}
	case "text:outline-style":
		n.reading = &odfListStyle{}
		n.outline = n.reading
	case "text:list-level-style-number", "text:outline-level-style", "text:list-level-style-bullet", "text:list-level-style-image":
		i := levelIndex(e)
		if n.reading == nil || i < 0 {
			return
		}
		l := &odfLevel{format: attrNS(e, "style", "num-format"), prefix: attrNS(e, "style", "num-prefix"), suffix: attrNS(e, "style", "num-suffix"),
			display: max(positive(e, "text", "display-levels"), 1), start: max(positive(e, "text", "start-value"), 1)}
		if e.Name.Local != "list-level-style-number" && e.Name.Local != "outline-level-style" {
			l.bullet, l.format = true, ""
		}
		n.reading[i] = l
	}
}

// endStyle ends the list or outline style being read.
func (n *odfNumbering) endStyle(e xml.EndElement) {
	if s := e.Name.Space + ":" + e.Name.Local; s == "text:list-style" || s == "text:outline-style" {
		n.reading = nil
	}
}

// openList opens a text:list.
func (n *odfNumbering) openList(e xml.StartElement) {
	l := &odfList{style: attrNS(e, "text", "style-name"), id: attrNS(e, "xml", "id")}
	if k := len(n.lists); k > 0 {
		// A nested list is a level of the list that holds it.
		outer := n.lists[k-1]
		if l.style == "" {
			l.style = outer.style
		}
		l.counts = outer.counts
	} else {
		switch {
		case attrNS(e, "text", "continue-list") != "" && n.byID[attrNS(e, "text", "continue-list")] != nil:
			l.counts = n.byID[attrNS(e, "text", "continue-list")]
		case attrNS(e, "text", "continue-numbering") == "true" && n.last[l.style] != nil:
			l.counts = n.last[l.style]
		default:
			l.counts = &odfCounts{}
		}
	}
	n.lists = append(n.lists, l)
}

// closeList closes the innermost text:list.
func (n *odfNumbering) closeList() {
	k := len(n.lists)
	if k == 0 {
		return
	}
	l := n.lists[k-1]
	n.lists = n.lists[:k-1]
	if k > 1 {
		return
	}
	if len(n.last) < maxNumberings {
		n.last[l.style] = l.counts
	}
	if l.id != "" && len(n.byID) < maxNumberings {
		n.byID[l.id] = l.counts
	}
}

// openItem opens a text:list-item or text:list-header at depth; it
// reports whether the item is numbered (its level's style gives numbers).
func (n *odfNumbering) openItem(e xml.StartElement, depth int) bool {
	k := len(n.lists)
	if k == 0 {
		return false
	}
	l := n.lists[k-1]
	l.item, l.start, l.numbered = depth, positive(e, "text", "start-value"), e.Name.Local == "list-header"
	def := n.level(n.styles[l.style], k-1)
	return def != nil && def.format != "" && !l.numbered
}

// closeItem closes the innermost list's open item.
func (n *odfNumbering) closeItem() {
	if k := len(n.lists); k > 0 {
		n.lists[k-1].item = 0
	}
}

// level returns the definition of level i of s, nil when it has none.
func (n *odfNumbering) level(s *odfListStyle, i int) *odfLevel {
	if s == nil || i < 0 {
		return nil
	}
	return s[min(i, odfLevels-1)]
}

// paragraph returns the number that opens a paragraph or heading at
// depth ("" for none), counting it: the number of the list item it is
// the first paragraph of, or else a heading's number in the outline
// (outline is the heading's level, 0 for a paragraph).
func (n *odfNumbering) paragraph(e xml.StartElement, depth, outline int) string {
	if k := len(n.lists); k > 0 {
		l := n.lists[k-1]
		if l.item > 0 && depth == l.item+1 {
			if l.numbered {
				return ""
			}
			l.numbered = true
			return n.label(n.styles[l.style], l.counts, min(k, odfLevels)-1, l.start)
		}
	}
	if outline < 1 || attrNS(e, "text", "is-list-header") == "true" {
		return ""
	}
	if attrNS(e, "text", "restart-numbering") == "true" {
		n.headings = odfCounts{}
	}
	return n.label(n.outline, &n.headings, min(outline, odfLevels)-1, positive(e, "text", "start-value"))
}

// label counts an item at level i of counts (start, when not 0, is its
// number), the deeper levels starting again, and returns the number it
// shows in style s.
func (n *odfNumbering) label(s *odfListStyle, counts *odfCounts, i, start int) string {
	def := n.level(s, i)
	if def == nil {
		return ""
	}
	switch {
	case start > 0:
		counts[i] = start
	case counts[i] == 0:
		counts[i] = def.start
	default:
		counts[i]++
	}
	for k := i + 1; k < odfLevels; k++ {
		counts[k] = 0
	}
	if def.format == "" {
		return ""
	}
	var parts []string
	for k := max(i-def.display+1, 0); k <= i; k++ {
		d := n.level(s, k)
		if d == nil {
			d = def
		}
		c := counts[k]
		if c == 0 {
			c = d.start
		}
		parts = append(parts, formatNumber(c, odfFormat(d.format)))
	}
	return strings.TrimSpace(def.prefix + strings.Join(parts, ".") + def.suffix)
}

// odfFormat names an OpenDocument number format as formatNumber knows
// it.
func odfFormat(f string) string {
	switch f {
	case "a":
		return "lowerLetter"
	case "A":
		return "upperLetter"
	case "i":
		return "lowerRoman"
	case "I":
		return "upperRoman"
	}
	return "decimal"
}
