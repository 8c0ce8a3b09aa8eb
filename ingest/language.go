package ingest

import (
	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/lang"
)

// detectionMemoSize bounds the texts whose detected language is kept.
const detectionMemoSize = 4096

// detected memoizes lang.Detect by the hash of the canonical text it read,
// forgetting the least recently used text first. Detection is a function
// of the text alone, and a source sent again (the cached path) would
// otherwise pay for it on every request: it was the larger part of a
// cached digest's CPU.
var detected = newDetectionMemo(detectionMemoSize)

// detectionMemo is a bounded map from a text's hash to its detected
// language.
type detectionMemo struct {
	seen *lru.Cache[archive.Hash, lang.Detection]
}

func newDetectionMemo(size int) detectionMemo {
	seen, err := lru.New[archive.Hash, lang.Detection](size)
	if err != nil {
		panic(err) // only for a size below 1
	}
	return detectionMemo{seen: seen}
}

// detect returns the language of text, whose hash is h.
func (m detectionMemo) detect(h archive.Hash, text string) lang.Detection {
	if d, ok := m.seen.Get(h); ok {
		return d
	}
	d := lang.Detect(text)
	m.seen.Add(h, d)
	return d
}
