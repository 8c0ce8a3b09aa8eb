package structure

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf8"

	"github.com/digestd/digestd/archive"
)

// OutsideVersion names the format of a page's outside links (its JSON
// encoding and its rules). A change in either is a new OutsideVersion.
const OutsideVersion = "outside-links/1"

// Bounds of a source's links.
const (
	// MaxOutsideLinks bounds the links kept of a page outside its
	// canonical text: the first in document order.
	MaxOutsideLinks = 1000
	// MaxLinkTextChars bounds a link's anchor text, in code points; a
	// longer one is cut there.
	MaxLinkTextChars = 200
)

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
// MaxOutsideLinks of them.
func Outside(anchors []Anchor, base string, main *Structure) []OutsideLink {
	b := parseBase(base)
	seen := make(map[string]bool, len(anchors))
	if main != nil {
		for _, sp := range main.Spans {
			if sp.Kind == Link {
				seen[sp.Href] = true
			}
		}
	}
	var out []OutsideLink
	for _, a := range anchors {
		if len(out) == MaxOutsideLinks {
			break
		}
		href, ok := resolve(a.Href, b)
		if !ok || seen[href] || !utf8.ValidString(href) {
			continue
		}
		seen[href] = true
		out = append(out, OutsideLink{Href: href, Text: cutText(collapse(strings.ToValidUTF8(a.Text, "\uFFFD")))})
	}
	return out
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

// outsideJSON is the encoding of a page's outside links: each an array
// [target, anchor text].
type outsideJSON struct {
	Version  string       `json:"version"`
	TextHash archive.Hash `json:"text_hash"`
	Links    [][2]string  `json:"links"`
}

// WriteOutside checks links, the outside links of the canonical text whose
// hash is textHash, and returns their encoding: compact JSON, the same
// links always the same bytes.
func WriteOutside(links []OutsideLink, textHash archive.Hash) ([]byte, error) {
	if err := checkOutside(links); err != nil {
		return nil, err
	}
	j := outsideJSON{Version: OutsideVersion, TextHash: textHash, Links: make([][2]string, len(links))}
	for i, l := range links {
		j.Links[i] = [2]string{l.Href, l.Text}
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(j); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// ReadOutside decodes data, the outside links of the canonical text whose
// hash is textHash, and checks them: their version, that they belong to
// this text, and every rule WriteOutside keeps.
func ReadOutside(data []byte, textHash archive.Hash) ([]OutsideLink, error) {
	var j outsideJSON
	if err := json.Unmarshal(data, &j); err != nil {
		return nil, fmt.Errorf("outside links: %w", err)
	}
	if j.Version != OutsideVersion {
		return nil, fmt.Errorf("outside links: version %q, want %q", j.Version, OutsideVersion)
	}
	if j.TextHash != textHash {
		return nil, fmt.Errorf("outside links: they belong to %s, not %s", j.TextHash, textHash)
	}
	links := make([]OutsideLink, len(j.Links))
	for i, l := range j.Links {
		links[i] = OutsideLink{Href: l[0], Text: l[1]}
	}
	if err := checkOutside(links); err != nil {
		return nil, err
	}
	return links, nil
}

// checkOutside says which rule links break: at most MaxOutsideLinks, each
// target an absolute URL of at most MaxHrefBytes listed once, each text
// valid UTF-8 of at most MaxLinkTextChars code points.
func checkOutside(links []OutsideLink) error {
	if len(links) > MaxOutsideLinks {
		return fmt.Errorf("outside links: %d, at most %d", len(links), MaxOutsideLinks)
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
