package ocr_test

import (
	"context"
	"errors"
	"testing"

	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/ocr/ocrtest"
)

// TestHostileImages: bombs are refused from their headers, and a strip
// that claims more bytes than the file holds is unreadable, not a crash.
func TestHostileImages(t *testing.T) {
	e := ocrtest.Engine(t)
	for _, tc := range []struct {
		name string
		raw  []byte
		err  error
	}{
		{"png 100000×100000", ocrtest.BombPNG(100_000, 100_000), ocr.ErrTooLarge},
		{"jpeg 65000×65000", ocrtest.BombJPEG(65_000, 65_000), ocr.ErrTooLarge},
		{"tiff 50000×50000 in one strip", ocrtest.TIFF(50_000, 50_000, 2_500_000_000, nil), ocr.ErrTooLarge},
		{"tiff 1000000×1", ocrtest.TIFF(1_000_000, 1, 1_000_000, nil), ocr.ErrTooLarge},
		{"tiff strip of 4 GiB in 100 bytes", ocrtest.TIFF(4000, 4000, 0xffff_fff0, make([]byte, 100)), ocr.ErrUnreadable},
	} {
		_, err := e.ReadImage(context.Background(), tc.raw, []string{"eng"}, ocr.Limits{MemoryBytes: 1 << 30, CPUSeconds: 10}, ocr.DefaultMaxPages)
		if !errors.Is(err, tc.err) {
			t.Errorf("%s: %v, want %v", tc.name, err, tc.err)
		}
	}
}
