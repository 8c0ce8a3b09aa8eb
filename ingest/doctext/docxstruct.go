package doctext

import (
	"encoding/xml"
	"strconv"
	"strings"

	"github.com/digestd/digestd/structure"
)

// wordStyle is what a paragraph style says of headings: its outline
// level (0 for a first-level heading, -1 when it gives none) and the
// style it is based on.
type wordStyle struct {
	outline int
	basedOn string
}

// maxWordStyles bounds the styles read.
const maxWordStyles = 10000

// readHeadingStyles reads a document's styles part for the paragraph
// styles that make headings: Word's built-in "heading 1" to "heading 9"
// and "Title" (their names are these in every language Word shows them
// in), and any style with an outline level below 9.
func (c *conv) readHeadingStyles(z *container, part string) (map[string]*wordStyle, error) {
	if part == "" || !z.has(part) {
		return nil, nil
	}
	data, err := z.read(part)
	if err != nil {
		return nil, err
	}
	styles := map[string]*wordStyle{}
	var cur *wordStyle
	err = c.walkXML(data, xmlHandler{start: func(e xml.StartElement) error {
		switch e.Name.Local {
		case "style":
			cur = nil
			if attr(e, "type") == "paragraph" && len(styles) < maxWordStyles {
				cur = &wordStyle{outline: -1}
				styles[attr(e, "styleId")] = cur
			}
		case "name":
			if cur == nil {
				return nil
			}
			name := strings.ToLower(attr(e, "val"))
			if name == "title" {
				cur.outline = 0
			} else if n, ok := strings.CutPrefix(name, "heading "); ok {
				if v, err := strconv.Atoi(n); err == nil && v >= 1 && v <= 9 {
					cur.outline = v - 1
				}
			}
		case "basedOn":
			if cur != nil {
				cur.basedOn = attr(e, "val")
			}
		case "outlineLvl":
			if cur != nil {
				if v, err := strconv.Atoi(attr(e, "val")); err == nil && v >= 0 && v < 9 {
					cur.outline = v
				}
			}
		}
		return nil
	}})
	return styles, err
}

// headingLevel is the heading level (1 to 6) of a paragraph of style
// style and outline level outline (-1 when its properties give none), or
// 0 when it is no heading.
func headingLevel(styles map[string]*wordStyle, style string, outline int) int {
	for s, hops := style, 0; outline < 0 && s != "" && hops < 16; hops++ {
		st := styles[s]
		if st == nil {
			break
		}
		outline = st.outline
		s = st.basedOn
	}
	if outline < 0 || outline >= 9 {
		return 0
	}
	return min(outline+1, structure.MaxHeadingLevel)
}

// listOf says whether paragraph p is an item of a list, at which depth
// (1 for the top level), and whether the list is numbered.
func (n *wordNumbering) listOf(p paraNumbering) (depth int, ordered, ok bool) {
	if n == nil {
		return 0, false, false
	}
	numID, level := p.numID, p.level
	for s, hops := p.style, 0; numID == "" && s != "" && hops < 16; hops++ {
		st := n.styles[s]
		if st == nil {
			break
		}
		numID = st.numID
		if level < 0 {
			level = st.level
		}
		s = st.basedOn
	}
	inst := n.nums[numID]
	if inst == nil {
		return 0, false, false
	}
	levels := n.abstract[inst.abstract]
	if levels == nil {
		return 0, false, false
	}
	level = min(max(level, 0), wordLevels-1)
	l := inst.levels[level]
	if l == nil {
		l = levels[level]
	}
	return level + 1, l == nil || l.format != "bullet", true
}
