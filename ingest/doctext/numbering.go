package doctext

import (
	"encoding/xml"
	"strconv"
	"strings"
)

// wordLevels is the number of levels of a Word list.
const wordLevels = 9

// numLevel is one level of a Word numbering definition.
type numLevel struct {
	start   int
	format  string // numFmt: decimal, lowerLetter, upperRoman, bullet, none, …
	text    string // lvlText, "%1.%2." with %N the number of level N
	restart int    // lvlRestart: the level (1-based) after which this one restarts; 0 never, -1 after any higher one
	legal   bool   // isLgl: every level's number in decimal
	suffix  string // suff: tab (read as a space), space or nothing
	style   string // pStyle: the paragraph style this level belongs to
}

// numInstance is a w:num: an abstract numbering and its level overrides.
type numInstance struct {
	abstract string
	levels   [wordLevels]*numLevel // a level an override redefines
	starts   [wordLevels]int       // startOverride + 1 (0: none)
	used     [wordLevels]bool      // the override was applied
}

// styleNumbering is what a paragraph style says of numbering.
type styleNumbering struct {
	basedOn, numID string
	level          int // -1: not given
}

// wordNumbering computes the numbers Word shows before numbered
// paragraphs (headings "1.2", list items "a)"), from numbering.xml and the
// paragraph styles. The paragraphs of lists that share an abstract
// numbering continue one count, as Word shows them, unless a list's
// startOverride restarts it.
type wordNumbering struct {
	abstract map[string]*[wordLevels]*numLevel
	nums     map[string]*numInstance
	styles   map[string]*styleNumbering
	counts   map[string]*[wordLevels]int // by abstract numbering; 0: not started
}

// maxNumberings bounds the definitions, lists and styles read.
const maxNumberings = 100000

// readNumbering reads a document's numbering and styles parts (either may
// be missing); nil when the document numbers nothing.
func (c *conv) readNumbering(z *container, numbering, styles string) (*wordNumbering, error) {
	if numbering == "" || !z.has(numbering) {
		return nil, nil
	}
	n := &wordNumbering{abstract: map[string]*[wordLevels]*numLevel{}, nums: map[string]*numInstance{},
		styles: map[string]*styleNumbering{}, counts: map[string]*[wordLevels]int{}}
	data, err := z.read(numbering)
	if err != nil {
		return nil, err
	}
	var (
		abs      *[wordLevels]*numLevel
		num      *numInstance
		lvl      *numLevel
		override = -1
	)
	val := func(e xml.StartElement) int {
		v, _ := strconv.Atoi(attr(e, "val"))
		return v
	}
	err = c.walkXML(data, xmlHandler{start: func(e xml.StartElement) error {
		if len(n.abstract)+len(n.nums) > maxNumberings {
			return nil
		}
		switch e.Name.Local {
		case "abstractNum":
			abs = &[wordLevels]*numLevel{}
			n.abstract[attr(e, "abstractNumId")] = abs
		case "num":
			num = &numInstance{}
			n.nums[attr(e, "numId")] = num
		case "abstractNumId":
			if num != nil {
				num.abstract = attr(e, "val")
			}
		case "lvlOverride":
			override, _ = strconv.Atoi(attr(e, "ilvl"))
		case "startOverride":
			if num != nil && override >= 0 && override < wordLevels {
				num.starts[override] = val(e) + 1
			}
		case "lvl":
			i, err := strconv.Atoi(attr(e, "ilvl"))
			if err != nil || i < 0 || i >= wordLevels {
				lvl = nil
				return nil
			}
			lvl = &numLevel{restart: -1, format: "decimal"}
			switch {
			case num != nil && override >= 0:
				num.levels[i] = lvl
			case abs != nil:
				abs[i] = lvl
			}
		}
		if lvl == nil {
			return nil
		}
		switch e.Name.Local {
		case "start":
			lvl.start = val(e)
		case "numFmt":
			lvl.format = attr(e, "val")
		case "lvlText":
			lvl.text = attr(e, "val")
		case "lvlRestart":
			lvl.restart = val(e)
		case "isLgl":
			lvl.legal = attr(e, "val") != "0" && attr(e, "val") != "false"
		case "suff":
			lvl.suffix = attr(e, "val")
		case "pStyle":
			lvl.style = attr(e, "val")
		}
		return nil
	}, end: func(e xml.EndElement) error {
		switch e.Name.Local {
		case "abstractNum":
			abs = nil
		case "num":
			num = nil
		case "lvlOverride":
			override = -1
		case "lvl":
			lvl = nil
		}
		return nil
	}})
	if err != nil {
		return nil, err
	}
	if styles == "" || !z.has(styles) {
		return n, nil
	}
	if data, err = z.read(styles); err != nil {
		return nil, err
	}
	var st *styleNumbering
	err = c.walkXML(data, xmlHandler{start: func(e xml.StartElement) error {
		switch e.Name.Local {
		case "style":
			st = nil
			if attr(e, "type") == "paragraph" && len(n.styles) < maxNumberings {
				st = &styleNumbering{level: -1}
				n.styles[attr(e, "styleId")] = st
			}
		case "basedOn":
			if st != nil {
				st.basedOn = attr(e, "val")
			}
		case "numId":
			if st != nil {
				st.numID = attr(e, "val")
			}
		case "ilvl":
			if st != nil {
				st.level, _ = strconv.Atoi(attr(e, "val"))
			}
		}
		return nil
	}})
	return n, err
}

// paraNumbering is what a paragraph's own properties say of its
// numbering.
type paraNumbering struct {
	style, numID string
	level        int // -1: not given
}

// label returns the number Word shows before a paragraph and the text
// that follows it (a space, or nothing), counting the paragraph; "" for a
// paragraph that is not numbered or is bulleted.
func (n *wordNumbering) label(p paraNumbering) (string, string) {
	numID, level := p.numID, p.level
	if numID == "" {
		// The style, or a style it is based on, numbers the paragraph.
		for s, hops := p.style, 0; s != "" && hops < 16 && numID == ""; hops++ {
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
	}
	inst := n.nums[numID]
	if inst == nil {
		return "", "" // no list, or numId 0: numbering removed
	}
	levels := n.abstract[inst.abstract]
	if levels == nil {
		return "", ""
	}
	if level < 0 {
		level = 0
		for i, l := range levels {
			if l != nil && p.style != "" && l.style == p.style {
				level = i
			}
		}
	}
	if level >= wordLevels {
		return "", ""
	}
	def := func(i int) *numLevel {
		if inst.levels[i] != nil {
			return inst.levels[i]
		}
		if levels[i] != nil {
			return levels[i]
		}
		return &numLevel{restart: -1, format: "decimal"}
	}
	counts := n.counts[inst.abstract]
	if counts == nil {
		counts = &[wordLevels]int{}
		n.counts[inst.abstract] = counts
	}
	switch {
	case inst.starts[level] > 0 && !inst.used[level]:
		inst.used[level] = true
		counts[level] = inst.starts[level]
	case counts[level] == 0:
		counts[level] = def(level).start + 1
	default:
		counts[level]++
	}
	// Deeper levels start again, unless their lvlRestart says otherwise.
	for k := level + 1; k < wordLevels; k++ {
		if r := def(k).restart; r < 0 || r > 0 && level < r {
			counts[k] = 0
		}
	}
	l := def(level)
	if l.format == "bullet" {
		return "", ""
	}
	var b strings.Builder
	for i := 0; i < len(l.text); i++ {
		d := l.text[i]
		if d == '%' && i+1 < len(l.text) && l.text[i+1] >= '1' && l.text[i+1] <= '9' {
			k := int(l.text[i+1] - '1')
			i++
			count := counts[k] - 1
			if counts[k] == 0 {
				count = def(k).start
			}
			format := def(k).format
			if l.legal {
				format = "decimal"
			}
			b.WriteString(formatNumber(count, format))
			continue
		}
		b.WriteByte(d)
	}
	text := strings.TrimSpace(b.String())
	if text == "" {
		return "", ""
	}
	if l.suffix == "nothing" {
		return text, ""
	}
	return text, " "
}

// formatNumber writes n in a numFmt of WordprocessingML; formats this
// package does not know are written in decimal.
func formatNumber(n int, format string) string {
	switch format {
	case "none":
		return ""
	case "decimalZero":
		if n >= 0 && n < 10 {
			return "0" + strconv.Itoa(n)
		}
	case "lowerLetter", "upperLetter":
		if n >= 1 {
			// a … z, then aa … zz, aaa …, as Word counts.
			s := strings.Repeat(string(rune('a'+(n-1)%26)), (n-1)/26+1)
			if len(s) > 64 {
				break
			}
			if format == "upperLetter" {
				s = strings.ToUpper(s)
			}
			return s
		}
	case "lowerRoman", "upperRoman":
		if n >= 1 && n < 4000 {
			s := roman(n)
			if format == "lowerRoman" {
				s = strings.ToLower(s)
			}
			return s
		}
	case "ordinal":
		suffix := "th"
		if n%100 < 11 || n%100 > 13 {
			switch n % 10 {
			case 1:
				suffix = "st"
			case 2:
				suffix = "nd"
			case 3:
				suffix = "rd"
			}
		}
		return strconv.Itoa(n) + suffix
	}
	return strconv.Itoa(n)
}

// roman writes 1 ≤ n < 4000 in Roman numerals.
func roman(n int) string {
	values := []int{1000, 900, 500, 400, 100, 90, 50, 40, 10, 9, 5, 4, 1}
	symbols := []string{"M", "CM", "D", "CD", "C", "XC", "L", "XL", "X", "IX", "V", "IV", "I"}
	var b strings.Builder
	for i, v := range values {
		for n >= v {
			b.WriteString(symbols[i])
			n -= v
		}
	}
	return b.String()
}
