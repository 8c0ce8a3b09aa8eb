package pdftext

import (
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// Running headers and footers: short upright blocks near the top or bottom
// edge of the page whose text, with digits masked, recurs on many pages.
const (
	furnitureBand   = 0.12 // share of the page height at top and bottom
	furnitureWide   = 0.18 // a wider band for lines set well apart from the body
	furnitureApart  = 1.2  // white space (in ems) that sets a line apart
	furnitureMaxLen = 160  // longer blocks are content, not furniture
)

// removeFurniture drops running titles and page numbers from the pages'
// blocks in place. A repeated block is furniture only beside a body: a page
// whose every block repeats keeps them all, so a document whose pages hold
// one line each never loses its text. A block at the top or bottom edge
// that holds only its page's own number is dropped beside a body even when
// nothing repeats it (a document of one page, or numbers on a few pages).
func removeFurniture(pages []pageLayout) {
	for i := range pages {
		p := &pages[i]
		folio := func(b *block) bool {
			// The text first: only a lone number is worth placing.
			return pageNumberText(strings.Join(b.paras, " "), i+1) && furnitureKey(b, p.box, p.blocks) != ""
		}
		if len(p.blocks) < 2 || !slices.ContainsFunc(p.blocks, func(b *block) bool { return !folio(b) }) {
			continue
		}
		p.blocks = slices.DeleteFunc(p.blocks, folio)
	}
	if len(pages) < 2 {
		return
	}
	count := map[string]int{}
	keys := make([][]string, len(pages))
	for i, p := range pages {
		keys[i] = make([]string, len(p.blocks))
		seen := map[string]bool{}
		for j, b := range p.blocks {
			k := furnitureKey(b, p.box, p.blocks)
			keys[i][j] = k
			if k != "" && !seen[k] {
				seen[k] = true
				count[k]++
			}
		}
	}
	furniture := func(k string) bool { return k != "" && count[k] >= 2 && count[k]*3 >= len(pages) }
	for i := range pages {
		body := false
		for j := range pages[i].blocks {
			if !furniture(keys[i][j]) {
				body = true
				break
			}
		}
		if !body {
			continue
		}
		kept := pages[i].blocks[:0]
		for j, b := range pages[i].blocks {
			if furniture(keys[i][j]) {
				continue
			}
			kept = append(kept, b)
		}
		pages[i].blocks = kept
	}
}

// pageNumberText reports whether text is page number n alone, as a folio
// prints it: "7", "- 7 -", "– 7 –", "[7]" or "Page 7".
func pageNumberText(text string, n int) bool {
	t := strings.TrimSpace(text)
	if len(t) > 5 && strings.EqualFold(t[:5], "page ") {
		t = t[5:]
	}
	t = strings.TrimSpace(strings.Trim(t, "-–—[]() "))
	return t == strconv.Itoa(n)
}

// furnitureKey returns the block's text with digits masked when the block
// sits in the top or bottom band of the page, else "".
func furnitureKey(b *block, box [4]float64, all []*block) string {
	if b.dir != 0 {
		return ""
	}
	h := box[3] - box[1]
	if h <= 0 {
		return ""
	}
	inTop := b.bot >= box[3]-furnitureBand*h ||
		b.top >= box[3]-furnitureWide*h && apart(b, all, true)
	inBottom := b.top <= box[1]+furnitureBand*h ||
		b.bot <= box[1]+furnitureWide*h && apart(b, all, false)
	if !inTop && !inBottom {
		return ""
	}
	text := strings.Join(b.paras, " ")
	if text == "" || len(text) > furnitureMaxLen {
		return ""
	}
	var sb strings.Builder
	if inTop {
		sb.WriteString("T:")
	} else {
		sb.WriteString("B:")
	}
	lastDigit := false
	for _, r := range strings.ToLower(text) {
		if unicode.IsDigit(r) {
			if !lastDigit {
				sb.WriteByte('#')
			}
			lastDigit = true
			continue
		}
		lastDigit = false
		if unicode.IsSpace(r) {
			continue
		}
		sb.WriteRune(r)
	}
	return sb.String()
}

// apart reports whether every other upright block lies clearly below b
// (above b when below is false), with at least furnitureApart ems of white
// space between: the position of a running head or foot.
func apart(b *block, all []*block, below bool) bool {
	gap := furnitureApart * b.size
	for _, o := range all {
		if o == b || o.dir != 0 || overlap(o.bot, o.top, b.bot, b.top) > 0 {
			continue // the same row: a page number beside a running title
		}
		if below && o.top > b.bot-gap || !below && o.bot < b.top+gap {
			return false
		}
	}
	return true
}
