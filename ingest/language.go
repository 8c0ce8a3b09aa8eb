package ingest

import (
	"sync"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/lang"
)

// detectionMemoSize bounds the texts whose detected language is kept.
const detectionMemoSize = 4096

// detected memoizes lang.Detect by the hash of the canonical text it read.
// Detection is a function of the text alone, and a source sent again (the
// cached path) would otherwise pay for it on every request: it was the
// larger part of a cached digest's CPU.
var detected = &detectionMemo{seen: make(map[archive.Hash]lang.Detection, detectionMemoSize)}

// detectionMemo is a bounded map from a text's hash to its detected
// language, forgetting the oldest entry first when full.
type detectionMemo struct {
	mu    sync.Mutex
	seen  map[archive.Hash]lang.Detection
	order []archive.Hash // a ring of the keys, oldest at next once full
	next  int
}

// detect returns the language of text, whose hash is h.
func (m *detectionMemo) detect(h archive.Hash, text string) lang.Detection {
	m.mu.Lock()
	d, ok := m.seen[h]
	m.mu.Unlock()
	if ok {
		return d
	}
	d = lang.Detect(text)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.seen[h]; ok {
		return d
	}
	if len(m.order) < detectionMemoSize {
		m.order = append(m.order, h)
	} else {
		delete(m.seen, m.order[m.next])
		m.order[m.next] = h
		m.next = (m.next + 1) % detectionMemoSize
	}
	m.seen[h] = d
	return d
}
