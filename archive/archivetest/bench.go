package archivetest

import (
	"bytes"
	"context"
	"encoding/binary"
	"io"
	"slices"
	"testing"
	"time"

	"github.com/digestd/digestd/archive"
)

// BenchSizes are the blob sizes Bench measures.
var BenchSizes = []struct {
	Name string
	Size int
}{
	{"1KB", 1_000},
	{"100KB", 100_000},
	{"10MB", 10_000_000},
}

// Bench measures Put and Get of each of BenchSizes on s, reporting
// throughput (b.SetBytes) and per-operation latency percentiles (p50-ms,
// p99-ms). Each Put stores a new blob; the benchmark deletes them outside the
// timed region.
func Bench(b *testing.B, s archive.Store) {
	for _, sz := range BenchSizes {
		b.Run("Put/"+sz.Name, func(b *testing.B) { benchPut(b, s, sz.Size) })
		b.Run("Get/"+sz.Name, func(b *testing.B) { benchGet(b, s, sz.Size) })
	}
}

func benchPut(b *testing.B, s archive.Store, size int) {
	ctx := context.Background()
	blob := Blob(uint64(size), size)
	lat := make([]time.Duration, 0, 1024)
	var stored []archive.Hash
	b.SetBytes(int64(size))
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		// A distinct blob each time, so no Put is a cheap repeat.
		if size >= 8 {
			binary.LittleEndian.PutUint64(blob, uint64(i)+1)
		}
		start := time.Now()
		d, err := s.Put(ctx, archive.Hash{}, bytes.NewReader(blob))
		lat = append(lat, time.Since(start))
		if err != nil {
			b.Fatalf("Put: %v", err)
		}
		stored = append(stored, d)
		if len(stored) >= 64 || size >= 1_000_000 {
			b.StopTimer()
			for _, d := range stored {
				if err := s.Delete(ctx, d); err != nil {
					b.Fatalf("Delete: %v", err)
				}
			}
			stored = stored[:0]
			b.StartTimer()
		}
	}
	b.StopTimer()
	for _, d := range stored {
		s.Delete(ctx, d)
	}
	reportLatency(b, lat)
}

func benchGet(b *testing.B, s archive.Store, size int) {
	ctx := context.Background()
	blob := Blob(uint64(size)+1, size)
	d, err := archive.PutBytes(ctx, s, blob)
	if err != nil {
		b.Fatalf("Put: %v", err)
	}
	defer s.Delete(ctx, d)
	buf := make([]byte, 256<<10)
	lat := make([]time.Duration, 0, 1024)
	b.SetBytes(int64(size))
	b.ResetTimer()
	for b.Loop() {
		start := time.Now()
		rc, err := s.Get(ctx, d)
		if err != nil {
			b.Fatalf("Get: %v", err)
		}
		n, err := io.CopyBuffer(io.Discard, rc, buf)
		rc.Close()
		lat = append(lat, time.Since(start))
		if err != nil || n != int64(size) {
			b.Fatalf("Get read %d bytes: %v", n, err)
		}
	}
	b.StopTimer()
	reportLatency(b, lat)
}

func reportLatency(b *testing.B, lat []time.Duration) {
	if len(lat) == 0 {
		return
	}
	slices.Sort(lat)
	pct := func(p float64) float64 {
		i := int(p * float64(len(lat)-1))
		return float64(lat[i]) / float64(time.Millisecond)
	}
	b.ReportMetric(pct(0.50), "p50-ms")
	b.ReportMetric(pct(0.99), "p99-ms")
}
