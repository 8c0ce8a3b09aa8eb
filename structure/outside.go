package structure

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
)

// OutsideVersion names the format outside links are written in (its
// encoding and its rules). A change in either is a new OutsideVersion.
const OutsideVersion = "outside-links/2"

// OutsideVersion1 is the first format of outside links, still read: each
// link an array [target, anchor text].
const OutsideVersion1 = "outside-links/1"

// Bounds of a source's links.
const (
	// MaxOutsideLinks bounds the links kept of a page outside its
	// canonical text: the first in document order, no more than an
	// answer lists of a source's links.
	MaxOutsideLinks = 500
	// maxOutsideLinks1 bounded them in outside-links/1.
	maxOutsideLinks1 = 1000
	// OutsideTextShare and MinOutsideBytes bound the encoded outside
	// links of a text of n bytes: at most n/OutsideTextShare bytes, or
	// MinOutsideBytes when that is more (see OutsideBudget).
	OutsideTextShare = 4
	MinOutsideBytes  = 2048
	// MaxLinkTextChars bounds a link's anchor text, in code points; a
	// longer one is cut there.
	MaxLinkTextChars = 200
)

// OutsideBudget is the most bytes the outside links of a canonical text
// of textBytes bytes are written in: a quarter of the text, or
// MinOutsideBytes for a shorter text, so that they are never larger than
// the text by more than MinOutsideBytes.
func OutsideBudget(textBytes int) int {
	return max(textBytes/OutsideTextShare, MinOutsideBytes)
}

// OutsideLink is a link a page holds outside its canonical text (its
// navigation, footers, sidebars, or a link whose anchor the text does not
// hold): its absolute target and its anchor text.
type OutsideLink struct {
	Href string
	Text string
}

// Anchor is a link of a page as its markup writes it: its target (href,
// relative or not) and its anchor text.
type Anchor struct {
	Href string
	Text string
}

// Outside returns the page's anchors (in document order) that lead
// somewhere its canonical text's links, main (nil for none), do not: each
// target resolved against base as ResolveLinks resolves a link span's and
// dropped as it drops one, listed once (its first anchor's text), its text
// white space collapsed, bytes that are not UTF-8 replaced by U+FFFD, and
// cut at MaxLinkTextChars, and at most
// MaxOutsideLinks of them; total counts all of them, those past the bound
// too.
func Outside(anchors []Anchor, base string, main *Structure) (links []OutsideLink, total int) {
	b := parseBase(base)
	seen := make(map[string]bool, len(anchors))
	if main != nil {
		for _, sp := range main.Spans {
			if sp.Kind == Link {
				seen[sp.Href] = true
			}
		}
	}
	for _, a := range anchors {
		href, ok := resolve(a.Href, b)
		if !ok || seen[href] || !utf8.ValidString(href) {
			continue
		}
		seen[href] = true
		total++
		if len(links) < MaxOutsideLinks {
			links = append(links, OutsideLink{Href: href, Text: cutText(collapse(strings.ToValidUTF8(a.Text, "\uFFFD")))})
		}
	}
	return links, total
}

// collapse returns s with its white space runs one space and none at its
// ends (s itself when it is so already).
func collapse(s string) string {
	prev := byte(' ')
	for i := 0; i < len(s); i++ {
		c := s[i]
		space := c == ' ' || '\t' <= c && c <= '\r'
		if space && (prev == ' ' || c != ' ') || c >= utf8.RuneSelf {
			return strings.Join(strings.Fields(s), " ")
		}
		prev = c
	}
	if prev == ' ' && s != "" {
		return strings.TrimRight(s, " ")
	}
	return s
}

// cutText cuts s at MaxLinkTextChars code points.
func cutText(s string) string {
	if len(s) <= MaxLinkTextChars {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxLinkTextChars {
			return strings.TrimRight(s[:i], " ")
		}
		n++
	}
	return s
}

// outsideJSON is the encoding of a page's outside links, in either
// version. In outside-links/2, Total counts the page's outside links when
// it had more than are kept (nil when all are), Targets and Shared are the
// table of the kept links' targets (see writeTargets), Order the index in
// it of each link's target in the page's order, and Texts their anchor
// texts in that order. In outside-links/1, Links holds each link as
// [target, anchor text].
type outsideJSON struct {
	Version  string       `json:"version"`
	TextHash archive.Hash `json:"text_hash"`
	Total    *int         `json:"total"`
	Targets  []string     `json:"targets"`
	Shared   []int        `json:"shared"`
	Order    []int        `json:"order"`
	Texts    []string     `json:"texts"`
	Links    [][2]string  `json:"links"`
}

// WriteOutside checks links, the first outside links of the canonical
// text whose hash is textHash and which is textBytes long, of total the
// page has (total ≥ len(links), as Outside returns them), and returns the
// encoding in OutsideVersion of the first of them that fit in
// OutsideBudget(textBytes), with how many those are. The same links
// and total always encode to the same bytes.
//
// The encoding is a JSON object: the version, the text's hash, "total",
// the page's outside links, when fewer are kept, then, when there are
// links, the table of their targets (distinct, in byte order,
// each written after what it shares with the one before it, as a
// structure/2 sidecar writes its links' targets), "order", the index in
// the table of each link's target in the page's order, and "texts", their
// anchor texts in that order.
func WriteOutside(links []OutsideLink, total int, textHash archive.Hash, textBytes int) ([]byte, int, error) {
	if err := checkOutside(links, MaxOutsideLinks); err != nil {
		return nil, 0, err
	}
	if total < len(links) {
		return nil, 0, fmt.Errorf("outside links: %d of a page's %d", len(links), total)
	}
	budget := OutsideBudget(textBytes)
	data, err := encodeOutside(links, total, textHash)
	if err != nil || len(data) <= budget {
		return data, len(links), err
	}
	n := fitOutside(links, total, textHash, budget)
	for {
		data, err := encodeOutside(links[:n], total, textHash)
		switch {
		case err != nil:
			return nil, 0, err
		case len(data) <= budget:
			return data, n, nil
		case n == 0:
			return nil, 0, fmt.Errorf("outside links: %d bytes without links, over the budget of %d", len(data), budget)
		}
		// fitOutside counts as encodeOutside writes: this is not reached.
		n--
	}
}

// fitOutside is how many of links, the first in the page's order, fit in
// budget bytes as encodeOutside writes them. Each link lengthens the
// encoding: its target enters the table between two others, and the one
// after it shares with it at least what it shared with the one before,
// so it is written no longer (its shared count gains no more digits than
// its rest loses bytes). The size of each first n is counted as the table
// grows, without writing it. The page's total, more than fit, is written
// with them.
func fitOutside(links []OutsideLink, total int, textHash archive.Hash, budget int) int {
	// Without links: the version, hash and total. With some, the four
	// members' names and brackets, and a comma between two of each.
	size := len(`{"version":"` + OutsideVersion + `","text_hash":"` + textHash.String() + `","total":}`)
	size += digits(total)
	size += len(`,"targets":[],"shared":[],"order":[],"texts":[]`) - 4
	entry := func(t, prev string) int {
		n := sharedPrefix(prev, t)
		return jsonLen(t[n:]) + digits(n)
	}
	table := make([]string, 0, len(links))
	for n, l := range links {
		k, _ := slices.BinarySearch(table, l.Href)
		prev := ""
		if k > 0 {
			prev = table[k-1]
		}
		size += 4 + entry(l.Href, prev) + digits(n) + jsonLen(l.Text)
		if k < len(table) {
			size += entry(table[k], l.Href) - entry(table[k], prev)
		}
		if size > budget {
			return n
		}
		table = slices.Insert(table, k, l.Href)
	}
	return len(links)
}

// digits is the number of decimal digits of n ≥ 0.
func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// asciiJSONLen is the length of each ASCII byte in a JSON string as
// encoding/json writes it without escaping HTML (1, 2 for an escape such
// as \n, 6 for \u0001).
var asciiJSONLen = func() (lens [utf8.RuneSelf]uint8) {
	for c := range lens {
		var b bytes.Buffer
		if err := writeJSON(&b, string(rune(c))); err != nil {
			panic(err)
		}
		lens[c] = uint8(b.Len() - 2)
	}
	return lens
}()

// jsonLen is the length of s as a JSON string, with its quotes, as
// encoding/json writes it without escaping HTML.
func jsonLen(s string) int {
	n := 2
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			n += int(asciiJSONLen[c])
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1, r == '\u2028', r == '\u2029':
			n += 6
		default:
			n += size
		}
		i += size
	}
	return n
}

// encodeOutside writes links, the first of the page's total, in
// OutsideVersion (see WriteOutside).
func encodeOutside(links []OutsideLink, total int, textHash archive.Hash) ([]byte, error) {
	var b bytes.Buffer
	b.WriteString(`{"version":"` + OutsideVersion + `","text_hash":"` + textHash.String() + `"`)
	if total > len(links) {
		b.WriteString(`,"total":` + strconv.Itoa(total))
	}
	if len(links) > 0 {
		targets := make([]string, len(links))
		texts := make([]string, len(links))
		for i, l := range links {
			targets[i], texts[i] = l.Href, l.Text
		}
		slices.Sort(targets)
		if err := writeTargets(&b, targets); err != nil {
			return nil, err
		}
		b.WriteString(`,"order":[`)
		for i, l := range links {
			if i > 0 {
				b.WriteByte(',')
			}
			n, _ := slices.BinarySearch(targets, l.Href)
			b.WriteString(strconv.Itoa(n))
		}
		b.WriteString(`],"texts":`)
		if err := writeJSON(&b, texts); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// ReadOutside decodes data, the outside links of the canonical text whose
// hash is textHash and which is textBytes long, in OutsideVersion or
// OutsideVersion1, and checks them: their version, that they belong to
// this text, and every rule WriteOutside keeps (the budget from
// outside-links/2 on). total is how many outside links the page had: more
// than it returns when some were not kept, else as many (always so in
// outside-links/1, which does not count them, and in outside-links/2
// written before the total was).
func ReadOutside(data []byte, textHash archive.Hash, textBytes int) (links []OutsideLink, total int, err error) {
	var j outsideJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, 0, fmt.Errorf("outside links: %w", err)
	}
	if j.TextHash != textHash {
		return nil, 0, fmt.Errorf("outside links: they belong to %s, not %s", j.TextHash, textHash)
	}
	bound := MaxOutsideLinks
	switch j.Version {
	case OutsideVersion:
		if j.Links != nil {
			return nil, 0, fmt.Errorf("outside links: %s has no links' pairs", OutsideVersion)
		}
		if budget := OutsideBudget(textBytes); len(data) > budget {
			return nil, 0, fmt.Errorf("outside links: %d bytes, over the budget of %d", len(data), budget)
		}
		targets, err := decodeTargets(j.Targets, j.Shared)
		if err != nil {
			return nil, 0, fmt.Errorf("outside links: %w", err)
		}
		if len(j.Order) != len(targets) || len(j.Texts) != len(targets) {
			return nil, 0, fmt.Errorf("outside links: %d targets, %d in order and %d texts", len(targets), len(j.Order), len(j.Texts))
		}
		used := make([]bool, len(targets))
		links = make([]OutsideLink, len(targets))
		for i, n := range j.Order {
			if n < 0 || n >= len(targets) || used[n] {
				return nil, 0, fmt.Errorf("outside links: link %d: target %d of %d, or one listed before", i, n, len(targets))
			}
			used[n] = true
			links[i] = OutsideLink{Href: targets[n], Text: j.Texts[i]}
		}
	case OutsideVersion1:
		if j.Total != nil || j.Targets != nil || j.Shared != nil || j.Order != nil || j.Texts != nil {
			return nil, 0, fmt.Errorf("outside links: %s has no total nor targets' table", OutsideVersion1)
		}
		links = make([]OutsideLink, len(j.Links))
		for i, l := range j.Links {
			links[i] = OutsideLink{Href: l[0], Text: l[1]}
		}
		bound = maxOutsideLinks1
	default:
		return nil, 0, fmt.Errorf("outside links: version %q, want %q or %q", j.Version, OutsideVersion, OutsideVersion1)
	}
	if err := checkOutside(links, bound); err != nil {
		return nil, 0, err
	}
	total = len(links)
	if j.Total != nil {
		// Written only when more than the links kept, so that the same
		// links have one encoding.
		if *j.Total <= len(links) {
			return nil, 0, fmt.Errorf("outside links: a total of %d for %d links kept", *j.Total, len(links))
		}
		total = *j.Total
	}
	return links, total, nil
}

// checkOutside says which rule links break: at most bound of them, each
// target an absolute URL of at most MaxHrefBytes listed once, each text
// valid UTF-8 of at most MaxLinkTextChars code points.
func checkOutside(links []OutsideLink, bound int) error {
	if len(links) > bound {
		return fmt.Errorf("outside links: %d, at most %d", len(links), bound)
	}
	seen := make(map[string]bool, len(links))
	for i, l := range links {
		u, err := url.Parse(l.Href)
		switch {
		case l.Href == "" || len(l.Href) > MaxHrefBytes || !utf8.ValidString(l.Href) || err != nil || !u.IsAbs():
			return fmt.Errorf("outside links: link %d: a target that is not an absolute URL of at most %d bytes", i, MaxHrefBytes)
		case seen[l.Href]:
			return fmt.Errorf("outside links: link %d: a target listed twice", i)
		case !utf8.ValidString(l.Text) || utf8.RuneCountInString(l.Text) > MaxLinkTextChars:
			return fmt.Errorf("outside links: link %d: a text that is not UTF-8 of at most %d code points", i, MaxLinkTextChars)
		}
		seen[l.Href] = true
	}
	return nil
}

// SourceLink is one link of a source, as its links are listed (see
// Links).
type SourceLink struct {
	// Href is the link's absolute target.
	Href string
	// Text is its anchor text, cut at MaxLinkTextChars code points.
	Text string
	// InMain says the link is in the canonical text (the main content),
	// its anchor at the code points [Start, End); an outside link has
	// neither.
	InMain     bool
	Start, End int
}

// Links lists a source's links: the link spans of s (nil for none) over
// text, its canonical text, in the text's order, then its outside links in
// the page's order, each target once: where it first appears in the text,
// with that anchor's text and place, else as the first outside link to it.
func Links(text string, s *Structure, outside []OutsideLink) []SourceLink {
	var out []SourceLink
	seen := map[string]bool{}
	if s != nil {
		// The spans are ordered by start: code points are counted once,
		// along the text.
		cp, b := 0, 0
		byteAt := func(c int) int {
			for cp < c && b < len(text) {
				_, size := utf8.DecodeRuneInString(text[b:])
				b += size
				cp++
			}
			return b
		}
		for _, sp := range s.Spans {
			if sp.Kind != Link {
				continue
			}
			from := byteAt(sp.Start)
			// The end may lie past a later span's start: count it apart.
			to := from
			for n := sp.Start; n < sp.End && to < len(text); n++ {
				_, size := utf8.DecodeRuneInString(text[to:])
				to += size
			}
			if seen[sp.Href] {
				continue
			}
			seen[sp.Href] = true
			out = append(out, SourceLink{Href: sp.Href, Text: cutText(text[from:to]), InMain: true, Start: sp.Start, End: sp.End})
		}
	}
	for _, l := range outside {
		if seen[l.Href] {
			continue
		}
		seen[l.Href] = true
		out = append(out, SourceLink{Href: l.Href, Text: l.Text})
	}
	return out
}
