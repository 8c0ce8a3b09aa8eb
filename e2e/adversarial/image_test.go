package adversarial

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/ocr/ocrtest"
)

// imageDeadline is how soon a hostile image must be answered: the caps are
// checked from its header (a PDF page's from pdfinfo) before anything is
// decoded or rendered.
const imageDeadline = 5 * time.Second

// TestHostileImages sends decompression bombs, TIFFs whose strips claim
// gigabytes, and a PDF whose page asks for an enormous render, by every
// submission, four at once: each is TOO_LARGE (a strip longer than its
// file DOCUMENT_UNREADABLE) within imageDeadline, the server's resident
// set stays under rssBound, and it still reads a scanned page after them.
func TestHostileImages(t *testing.T) {
	eng := ocrtest.Engine(t)
	scan := ocrtest.Page(1275, 40, "A page that a scanner read.")
	files := map[string][]byte{
		"bomb_100000x100000.png":  ocrtest.BombPNG(100_000, 100_000),
		"bomb_65000x65000.jpg":    ocrtest.BombJPEG(65_000, 65_000),
		"strip_2500000000.tif":    ocrtest.TIFF(50_000, 50_000, 2_500_000_000, nil),
		"row_of_1000000.tif":      ocrtest.TIFF(1_000_000, 1, 1_000_000, nil),
		"strip_past_its_file.tif": ocrtest.TIFF(4000, 4000, 0xffff_fff0, make([]byte, 100)),
		"page_200x200_inches.pdf": ocrtest.ScannedPDF(ocrtest.ScanPage{Image: scan, Width: 14400, Height: 14400}),
	}
	wantOf := map[string]string{
		"strip_past_its_file.tif": "422 DOCUMENT_UNREADABLE",
	}
	if !eng.ReadsPDF() {
		delete(files, "page_200x200_inches.pdf")
	}
	s := startServer(t)
	ctx, stop := context.WithCancel(context.Background())
	go s.sampleRSS(ctx)
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	type job struct{ name, sub string }
	ch := make(chan job)
	var mu sync.Mutex
	outcomes := map[string]map[string]int{}
	var slowest time.Duration
	var wg sync.WaitGroup
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range ch {
				var path, ct string
				var body []byte
				for _, sub := range documentSubmissions {
					if sub.name == j.sub {
						path, ct, body = sub.make(j.name, files[j.name])
					}
				}
				start := time.Now()
				r, err := s.try("POST", path, ct, body)
				el := time.Since(start)
				o := "transport error: " + fmt.Sprint(err)
				if err == nil {
					o = r.outcome()
				}
				if el > imageDeadline {
					t.Errorf("%s (%s): answered after %v, want within %v", j.name, j.sub, el, imageDeadline)
				}
				mu.Lock()
				if outcomes[j.name] == nil {
					outcomes[j.name] = map[string]int{}
				}
				outcomes[j.name][o]++
				slowest = max(slowest, el)
				mu.Unlock()
			}
		}()
	}
	for _, sub := range documentSubmissions {
		for _, n := range names {
			ch <- job{n, sub.name}
		}
	}
	close(ch)
	wg.Wait()
	stop()
	for _, n := range names {
		w, ok := wantOf[n]
		if !ok {
			w = "413 TOO_LARGE"
		}
		for o, count := range outcomes[n] {
			if o != w {
				t.Errorf("%s: got %q %d times, want %q", n, o, count, w)
			}
		}
		t.Logf("%-26s %v", n, outcomes[n])
	}
	t.Logf("slowest answer %v", slowest)
	// The server still reads a scanned page.
	for _, sub := range documentSubmissions {
		path, ct, body := sub.make("scan.png", ocrtest.PNG(scan))
		if r := s.do(t, "POST", path, ct, body); r.outcome() != "200" {
			t.Errorf("a scanned page after the attack (%s): %s", sub.name, r.outcome())
		}
	}
	s.checkHealthy(t)
}
