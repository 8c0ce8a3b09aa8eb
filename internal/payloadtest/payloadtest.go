// Package payloadtest tampers with digest payloads as clients send them back
// (wire.Payload), for the tests of verification, in the way a payload can be
// changed without its own numbers telling.
package payloadtest

import (
	"strings"
	"unicode"

	"github.com/digestd/digestd/wire"
)

// SwapWord changes one word of a snippet of p for another of the same
// length, so that every bound and every derived number of p still holds and
// only the archived text can tell. The word is one the summary and key
// points do not contain, so the change is outside any sentence a snippet
// shares with the summary (which digest_chars counts once). It returns the
// index of the snippet changed, and false when no snippet has such a word.
// The snippet is changed in place: give it a copy of the snippets to keep.
func SwapWord(p *wire.Payload) (int, bool) {
	said := p.Summary + "\n" + strings.Join(p.KeyPoints, "\n")
	for i := len(p.EvidenceSnippets) - 1; i >= 0; i-- {
		text := p.EvidenceSnippets[i].Text
		for _, w := range strings.FieldsFunc(text, func(r rune) bool { return r > unicode.MaxASCII || !unicode.IsLetter(r) }) {
			if len(w) < 3 || strings.Contains(said, w) {
				continue
			}
			p.EvidenceSnippets[i].Text = strings.Replace(text, w, other(w), 1)
			return i, true
		}
	}
	return -1, false
}

// other returns a word of w's length that differs from w.
func other(w string) string {
	if w[0] == 'x' {
		return strings.Repeat("y", len(w))
	}
	return strings.Repeat("x", len(w))
}
