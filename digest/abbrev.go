package digest

import (
	"strings"
	"unicode/utf8"

	"github.com/digestd/digestd/normalize"
)

// abbreviation is a short form defined in the text as "long form (SF)".
type abbreviation struct {
	short int32   // term id of the short form
	long  []int32 // content term ids of the long form, in order
}

// abbreviations finds short forms the text defines in parentheses after
// their long form, matched as Schwartz and Hearst (2003) do: every letter
// and digit of the short form appears, in order, in the words before the
// parenthesis, the first one at a word start. Each short form is reported
// once, with its first definition.
func abbreviations(d *document) []abbreviation {
	var out []abbreviation
	seen := map[int32]bool{}
	text := d.text
	for p := 0; ; {
		k := strings.IndexByte(text[p:], '(')
		if k < 0 {
			break
		}
		open := p + k
		p = open + 1
		sf, ok := shortForm(text[open+1:])
		if !ok {
			continue
		}
		id, ok := d.forms[strings.ToLower(sf)]
		if !ok || seen[id] {
			continue
		}
		// The long form lies in the words just before the parenthesis, on
		// the same line and after any earlier parenthesis.
		from := max(0, open-160)
		lf := text[from:open]
		if i := strings.LastIndexAny(lf, "\n"+normalize.PageBreak+"()[];:."); i >= 0 {
			lf = lf[i+1:]
		}
		for len(lf) > 0 && !utf8.ValidString(lf[:1]) {
			lf = lf[1:]
		}
		lf = strings.TrimRight(lf, " ,")
		core := strings.TrimSuffix(sf, "s")
		if len(core) < 2 {
			continue
		}
		start, ok := matchLongForm(core, lf)
		if !ok {
			continue
		}
		lf = lf[start:]
		if words := len(strings.FieldsFunc(lf, func(r rune) bool { return r == ' ' || r == '-' })); words < 2 || words > min(len(core)+5, 2*len(core)) {
			continue
		}
		var long []int32
		tokenize(lf, nil, func(tok []byte, stop bool, _ int) {
			if stop {
				return
			}
			if t, ok := d.forms[string(tok)]; ok && t != id {
				long = append(long, t)
			}
		})
		if len(long) < 2 {
			continue
		}
		seen[id] = true
		out = append(out, abbreviation{short: id, long: long})
	}
	return out
}

// shortForm returns the token that opens s if it reads as a short form: 2
// to 10 letters and digits, at least two upper-case letters (one if it has
// no lower-case letter), closed by ")".
func shortForm(s string) (string, bool) {
	n := 0
	upper, lower := 0, 0
	for n < len(s) && n <= 10 {
		c := s[n]
		switch {
		case 'A' <= c && c <= 'Z':
			upper++
		case 'a' <= c && c <= 'z':
			lower++
		case '0' <= c && c <= '9':
		default:
			goto done
		}
		n++
	}
done:
	if n < 2 || n > 10 || upper == 0 || upper < 2 && lower > 0 || n >= len(s) || s[n] != ')' {
		return "", false
	}
	c := s[0]
	if !('A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9') {
		return "", false
	}
	return s[:n], true
}

// matchLongForm returns the byte offset in lf where the long form of sf
// starts, matching sf's characters right to left.
func matchLongForm(sf, lf string) (int, bool) {
	lower := func(c byte) byte {
		if 'A' <= c && c <= 'Z' {
			return c + 'a' - 'A'
		}
		return c
	}
	alnum := func(c byte) bool {
		return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c >= utf8.RuneSelf
	}
	l := len(lf) - 1
	for s := len(sf) - 1; s >= 0; s-- {
		c := lower(sf[s])
		if !alnum(c) {
			continue
		}
		for l >= 0 && (lower(lf[l]) != c || (s == 0 && l > 0 && alnum(lf[l-1]))) {
			l--
		}
		if l < 0 {
			return 0, false
		}
		l--
	}
	start := l + 1
	for start > 0 && alnum(lf[start-1]) {
		start--
	}
	return start, true
}
