package batch

import (
	"fmt"
	"testing"
)

func TestParseShard(t *testing.T) {
	tests := []struct {
		in      string
		want    Shard
		wantErr bool
	}{
		{"0/1", Shard{0, 1}, false},
		{"1/2", Shard{1, 2}, false},
		{"9/10", Shard{9, 10}, false},
		{"2/2", Shard{}, true},
		{"-1/2", Shard{}, true},
		{"0/0", Shard{}, true},
		{"1", Shard{}, true},
		{"a/b", Shard{}, true},
		{"", Shard{}, true},
	}
	for _, tc := range tests {
		got, err := ParseShard(tc.in)
		if (err != nil) != tc.wantErr || got != tc.want {
			t.Errorf("ParseShard(%q) = %v, %v; want %v, error %v", tc.in, got, err, tc.want, tc.wantErr)
		}
	}
}

// TestShardsPartition checks that the shards of a manifest cover every
// entry exactly once, deterministically, and that no shard is empty or
// lopsided on a manifest of realistic ids.
func TestShardsPartition(t *testing.T) {
	var entries []Entry
	for i := range 1000 {
		entries = append(entries, Entry{ID: fmt.Sprintf("doc-%04d.html", i), Line: i + 1})
	}
	for _, n := range []int{1, 2, 3, 7} {
		seen := map[string]int{}
		for i := range n {
			s, err := NewShard(i, n)
			if err != nil {
				t.Fatal(err)
			}
			part := s.Select(entries)
			if n > 1 && (len(part) < len(entries)/n/2 || len(part) > 2*len(entries)/n) {
				t.Errorf("shard %s holds %d of %d entries", s, len(part), len(entries))
			}
			again := s.Select(entries)
			if len(again) != len(part) {
				t.Errorf("shard %s is not deterministic", s)
			}
			for _, e := range part {
				seen[e.ID]++
			}
		}
		if len(seen) != len(entries) {
			t.Errorf("%d shards cover %d of %d entries", n, len(seen), len(entries))
		}
		for id, c := range seen {
			if c != 1 {
				t.Errorf("%d shards: %s is in %d shards", n, id, c)
			}
		}
	}
}
