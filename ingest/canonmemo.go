package ingest

import (
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/digestd/digestd/archive"
)

// Texts sent as source.text are often sent again (an agent asks another
// question of the same text, or repeats a request). canonicalForms keeps
// the canonical forms of the texts sent last, by the hash of the text as
// sent, so that a text sent again is not canonicalized again: its hash,
// which its record needs anyway, finds it.
var canonicalForms = newCanonicalMemo(canonicalMemoBytes, canonicalMemoMaxText)

const (
	// canonicalMemoBytes bounds the canonical text the memo holds.
	canonicalMemoBytes = 32 << 20
	// canonicalMemoMaxText is the largest canonical text it holds.
	canonicalMemoMaxText = 1 << 20
	// canonicalMemoTexts bounds the texts it holds, however short.
	canonicalMemoTexts = 16384
)

// canonicalMemo maps the hash of a text as sent to its canonical form,
// holding at most maxBytes of canonical text and canonicalMemoTexts texts,
// the least recently used dropped first.
type canonicalMemo struct {
	maxBytes, maxText int

	mu    sync.Mutex
	bytes int
	forms *lru.Cache[archive.Hash, archive.Blob]
}

func newCanonicalMemo(maxBytes, maxText int) *canonicalMemo {
	m := &canonicalMemo{maxBytes: maxBytes, maxText: maxText}
	forms, err := lru.NewWithEvict(canonicalMemoTexts, func(_ archive.Hash, b archive.Blob) {
		m.bytes -= b.Len() // under m.mu: evictions happen in add
	})
	if err != nil {
		panic(err) // only for a size below 1
	}
	m.forms = forms
	return m
}

// get returns the canonical form of the text whose hash as sent is sent.
func (m *canonicalMemo) get(sent archive.Hash) (archive.Blob, bool) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.forms.Get(sent)
}

// add keeps text as the canonical form of the text whose hash as sent is
// sent, unless it is larger than maxText.
func (m *canonicalMemo) add(sent archive.Hash, text archive.Blob) {
	if text.Len() > m.maxText {
		return
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.forms.Contains(sent) {
		return
	}
	m.forms.Add(sent, text)
	m.bytes += text.Len()
	for m.bytes > m.maxBytes {
		m.forms.RemoveOldest()
	}
}
