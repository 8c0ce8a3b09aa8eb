package batch

import (
	"errors"
	"fmt"
	"hash/fnv"
	"strconv"
	"strings"
)

// Shard is one of Count deterministic, disjoint shares of a manifest: an
// entry belongs to shard Index when the FNV-1a 64-bit hash of its id,
// modulo Count, is Index. The zero Shard (Count 0) holds everything.
type Shard struct {
	Index int
	Count int
}

// ParseShard parses "i/n" with 0 <= i < n.
func ParseShard(s string) (Shard, error) {
	is, ns, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q: want i/n", s)
	}
	i, err1 := strconv.Atoi(is)
	n, err2 := strconv.Atoi(ns)
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q: want i/n with integers", s)
	}
	return NewShard(i, n)
}

// NewShard returns shard i of n, checking 0 <= i < n.
func NewShard(i, n int) (Shard, error) {
	if n < 1 {
		return Shard{}, errors.New("shard count must be at least 1")
	}
	if i < 0 || i >= n {
		return Shard{}, fmt.Errorf("shard index %d out of range for %d shards (0-%d)", i, n, n-1)
	}
	return Shard{Index: i, Count: n}, nil
}

// String returns "i/n", or "all" for the zero Shard.
func (s Shard) String() string {
	if s.Count == 0 {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// Contains reports whether the entry with this id belongs to the shard.
func (s Shard) Contains(id string) bool {
	if s.Count <= 1 {
		return true
	}
	h := fnv.New64a()
	h.Write([]byte(id))
	return h.Sum64()%uint64(s.Count) == uint64(s.Index)
}

// Select returns the entries that belong to the shard, in their order.
func (s Shard) Select(entries []Entry) []Entry {
	if s.Count <= 1 {
		return entries
	}
	var out []Entry
	for _, e := range entries {
		if s.Contains(e.ID) {
			out = append(out, e)
		}
	}
	return out
}
