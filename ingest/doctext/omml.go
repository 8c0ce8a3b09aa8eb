package doctext

import (
	"encoding/xml"
	"fmt"
	"strings"
	"unicode"
)

// An Office Math (OMML) equation reads in a linear form close to
// UnicodeMath and LaTeX: x^2 and x_i for scripts, (a+b)/(2a) for a
// fraction, √(x) and √[3](x) for roots, ∑_(i=1)^n x_i for an n-ary
// operator, a delimiter with its own characters, sin x for a function,
// lim_(n→∞) for a limit, [a, b; c, d] for a matrix's rows, and the rows of
// an equation array joined by "; ". A script, numerator or denominator of
// more than one character is put in parentheses unless it is a number or
// already in brackets.

// mathNode is one element of an equation: its local name, its w:val or
// m:val, and its children or text.
type mathNode struct {
	name     string
	val      string
	hasVal   bool
	children []*mathNode
	text     strings.Builder
}

// maxMathNodes bounds the elements of one equation.
const maxMathNodes = 100000

// mathReader builds an equation's tree from the walker's tokens.
type mathReader struct {
	stack []*mathNode
	nodes int
	root  *mathNode
}

func (m *mathReader) start(e xml.StartElement) error {
	m.nodes++
	if m.nodes > maxMathNodes {
		return fmt.Errorf("an equation of over %d elements: %w", maxMathNodes, ErrTooLarge)
	}
	n := &mathNode{name: e.Name.Local}
	for _, a := range e.Attr {
		if a.Name.Local == "val" {
			n.val, n.hasVal = a.Value, true
		}
	}
	if len(m.stack) == 0 {
		m.root = n
	} else {
		top := m.stack[len(m.stack)-1]
		top.children = append(top.children, n)
	}
	m.stack = append(m.stack, n)
	return nil
}

// end closes an element; true when it closed the equation.
func (m *mathReader) end() bool {
	if len(m.stack) > 0 {
		m.stack = m.stack[:len(m.stack)-1]
	}
	return len(m.stack) == 0
}

func (m *mathReader) text(s string, room int) {
	if n := len(m.stack); n > 0 && m.stack[n-1].name == "t" && m.stack[n-1].text.Len() < room {
		m.stack[n-1].text.WriteString(s)
	}
}

// child returns n's first child named name, or nil.
func (n *mathNode) child(name string) *mathNode {
	for _, c := range n.children {
		if c.name == name {
			return c
		}
	}
	return nil
}

// prop returns the value of the property name in n's properties (the
// child named props, such as m:dPr), and whether it is set.
func (n *mathNode) prop(props, name string) (string, bool) {
	p := n.child(props)
	if p == nil {
		return "", false
	}
	if c := p.child(name); c != nil {
		return c.val, c.hasVal
	}
	return "", false
}

// on reports whether an on/off property is on (present, and not "0",
// "off" or "false").
func (n *mathNode) on(props, name string) bool {
	p := n.child(props)
	if p == nil || p.child(name) == nil {
		return false
	}
	v, set := n.prop(props, name)
	return !set || (v != "0" && v != "off" && v != "false")
}

// arg renders n's child named name ("" when it has none).
func (n *mathNode) arg(name string) string {
	if c := n.child(name); c != nil {
		return c.linear()
	}
	return ""
}

// linear renders an equation's element in the linear form.
func (n *mathNode) linear() string {
	switch n.name {
	case "t":
		return n.text.String()
	case "f":
		num, den := n.arg("num"), n.arg("den")
		if typ, _ := n.prop("fPr", "type"); typ == "noBar" {
			return "(" + num + "¦" + den + ")" // a binomial coefficient
		}
		return group(num) + "/" + group(den)
	case "sSup":
		return group(n.arg("e")) + "^" + group(n.arg("sup"))
	case "sSub":
		return group(n.arg("e")) + "_" + group(n.arg("sub"))
	case "sSubSup":
		return group(n.arg("e")) + "_" + group(n.arg("sub")) + "^" + group(n.arg("sup"))
	case "sPre":
		return "_" + group(n.arg("sub")) + "^" + group(n.arg("sup")) + group(n.arg("e"))
	case "rad":
		deg := n.arg("deg")
		if deg == "" || n.on("radPr", "degHide") {
			return "√(" + n.arg("e") + ")"
		}
		return "√[" + deg + "](" + n.arg("e") + ")"
	case "nary":
		chr, ok := n.prop("naryPr", "chr")
		if !ok {
			chr = "∫"
		}
		s := chr
		if sub := n.arg("sub"); sub != "" {
			s += "_" + group(sub)
		}
		if sup := n.arg("sup"); sup != "" {
			s += "^" + group(sup)
		}
		return s + " " + n.arg("e")
	case "d":
		beg, ok := n.prop("dPr", "begChr")
		if !ok {
			beg = "("
		}
		end, ok := n.prop("dPr", "endChr")
		if !ok {
			end = ")"
		}
		sep, ok := n.prop("dPr", "sepChr")
		if !ok {
			sep = "|"
		}
		var parts []string
		for _, c := range n.children {
			if c.name == "e" {
				parts = append(parts, c.linear())
			}
		}
		return beg + strings.Join(parts, sep) + end
	case "func":
		name, e := n.arg("fName"), n.arg("e")
		if strings.HasPrefix(e, "(") || strings.HasPrefix(e, "[") || name == "" {
			return name + e
		}
		return name + " " + e
	case "limLow":
		return n.arg("e") + "_" + group(n.arg("lim"))
	case "limUpp":
		return n.arg("e") + "^" + group(n.arg("lim"))
	case "acc":
		chr, ok := n.prop("accPr", "chr")
		if !ok {
			chr = "\u0302"
		}
		return n.arg("e") + chr
	case "m":
		var rows []string
		for _, r := range n.children {
			if r.name != "mr" {
				continue
			}
			var cells []string
			for _, c := range r.children {
				if c.name == "e" {
					cells = append(cells, c.linear())
				}
			}
			rows = append(rows, strings.Join(cells, ", "))
		}
		return "[" + strings.Join(rows, "; ") + "]"
	case "eqArr":
		var rows []string
		for _, c := range n.children {
			if c.name == "e" {
				rows = append(rows, c.linear())
			}
		}
		return strings.Join(rows, "; ")
	}
	if strings.HasSuffix(n.name, "Pr") {
		return "" // properties: fonts, styles, the characters read above
	}
	var b strings.Builder
	for _, c := range n.children {
		b.WriteString(c.linear())
	}
	return b.String()
}

// group puts s in parentheses unless it reads as one unit: a single
// character, a number, or text already in one pair of brackets.
func group(s string) string {
	if len([]rune(s)) <= 1 || isNumber(s) || enclosed(s) {
		return s
	}
	return "(" + s + ")"
}

func isNumber(s string) bool {
	for _, r := range s {
		if !unicode.IsDigit(r) && r != '.' && r != ',' {
			return false
		}
	}
	return s != ""
}

// enclosed reports whether s is one bracketed group: its first character
// opens a bracket its last closes.
func enclosed(s string) bool {
	pairs := map[rune]rune{'(': ')', '[': ']', '{': '}', '|': '|', '⟨': '⟩', '‖': '‖'}
	rs := []rune(s)
	if len(rs) < 2 || pairs[rs[0]] != rs[len(rs)-1] {
		return false
	}
	depth := 0
	for i, r := range rs {
		switch {
		case r == rs[0] && (i == 0 || rs[0] != rs[len(rs)-1]):
			depth++
		case r == rs[len(rs)-1]:
			depth--
			if depth == 0 && i < len(rs)-1 {
				return false // "(a)+(b)"
			}
		}
	}
	return depth == 0
}
