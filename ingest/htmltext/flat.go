package htmltext

import (
	"bytes"
	"strings"

	"golang.org/x/net/html"
)

// flatBlocks is the fallback for documents the tree parser rejects (nesting
// beyond its limit): a single linear pass over the tokens that keeps visible
// text, breaks blocks at block-level tags and skips non-content elements.
func flatBlocks(decoded []byte) []string {
	z := html.NewTokenizer(bytes.NewReader(decoded))
	var blocks []string
	var cur strings.Builder
	skip := 0 // depth inside skipped elements such as script
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			blocks = append(blocks, s)
		}
		cur.Reset()
	}
	for {
		switch z.Next() {
		case html.ErrorToken:
			flush()
			return blocks
		case html.TextToken:
			if skip == 0 {
				cur.WriteString(spaceRun(string(z.Text())))
			}
		case html.StartTagToken:
			name, _ := z.TagName()
			tag := string(name)
			if dropTags[tag] && !voidTags[tag] && !impliedEndTags[tag] {
				skip++
			} else if blockTags[tag] || tag == "br" {
				flush()
			}
		case html.EndTagToken:
			// Indexing with string(name) does not allocate.
			name, _ := z.TagName()
			if dropTags[string(name)] && !voidTags[string(name)] && !impliedEndTags[string(name)] {
				if skip > 0 {
					skip--
				}
			} else if blockTags[string(name)] {
				flush()
			}
		}
	}
}

// spaceRun replaces every run of white space in s with one space.
func spaceRun(s string) string {
	if !strings.ContainsAny(s, " \t\n\r\f\v") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	space := false
	for _, r := range s {
		switch r {
		case ' ', '\t', '\n', '\r', '\f', '\v':
			space = true
			continue
		}
		if space {
			b.WriteByte(' ')
			space = false
		}
		b.WriteRune(r)
	}
	if space {
		b.WriteByte(' ')
	}
	return b.String()
}
