package pipeline

import (
	"slices"
	"sync"

	lru "github.com/hashicorp/golang-lru/v2"

	"github.com/digestd/digestd/archive"
	"github.com/digestd/digestd/digest"
)

// digestMemoSize bounds the archived digests kept decoded in memory. A
// stored digest is a few kilobytes (its payload is bounded), so the memo
// holds a few megabytes at most.
const digestMemoSize = 1024

// digestMemo keeps archived digests decoded and validated, by the hash of
// their blob, least recently used forgotten first. A digest blob is
// addressed by its content, so what was read, verified and validated once
// stays true of that hash: a cached request then costs the lookup of its
// reference, not a read, a hash, a decode and a validation of the blob.
type digestMemo struct {
	once sync.Once
	held *lru.Cache[archive.Hash, *storedDigest]
}

func (m *digestMemo) cache() *lru.Cache[archive.Hash, *storedDigest] {
	m.once.Do(func() {
		held, err := lru.New[archive.Hash, *storedDigest](digestMemoSize)
		if err != nil {
			panic(err) // only for a size below 1
		}
		m.held = held
	})
	return m.held
}

// get returns a copy of the digest memoized under d, which its caller may
// change.
func (m *digestMemo) get(d archive.Hash) (*storedDigest, bool) {
	sd, ok := m.cache().Get(d)
	if !ok {
		return nil, false
	}
	return sd.clone(), true
}

// add memoizes a copy of sd, the digest whose blob is d.
func (m *digestMemo) add(d archive.Hash, sd *storedDigest) {
	m.cache().Add(d, sd.clone())
}

// clone copies sd deeply enough that no change to the copy's payload,
// warnings or match reaches sd.
func (sd *storedDigest) clone() *storedDigest {
	c := &storedDigest{Warnings: slices.Clone(sd.Warnings)}
	if sd.Payload != nil {
		p := *sd.Payload
		p.KeyPoints = slices.Clone(p.KeyPoints)
		p.EvidenceSnippets = slices.Clone(p.EvidenceSnippets)
		for i := range p.EvidenceSnippets {
			p.EvidenceSnippets[i].Section = slices.Clone(p.EvidenceSnippets[i].Section)
		}
		c.Payload = &p
	}
	if sd.Match != nil {
		m := digest.Match{Terms: slices.Clone(sd.Match.Terms), Counts: slices.Clone(sd.Match.Counts), Length: sd.Match.Length}
		c.Match = &m
	}
	return c
}
