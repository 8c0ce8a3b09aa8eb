package adversarial

import (
	"bytes"
	"compress/flate"
	"context"
	"encoding/base64"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"hash/adler32"
	"mime/multipart"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
)

// pdfOutcomes are the answers a hostile PDF may get: text, or a typed
// extraction refusal. Any 5xx, an untyped error or a crashed server fails.
var pdfOutcomes = want{"200", "422 PDF_UNREADABLE", "422 PDF_TIMEOUT", "422 PDF_ENCRYPTED", "422 NO_EXTRACTABLE_TEXT", "413 TOO_LARGE"}

// validPDF is a small two-line PDF.
func validPDF() []byte {
	return pdfgen.Build("valid", []pdfgen.Page{{Texts: pdfgen.Paragraph(72, 720, 12, 16, "Hello, world.", "Second line of the document.")}})
}

// pdfFile assembles a PDF from object bodies (object i+1 is objs[i]) with
// a classic xref table and the given trailer entries.
func pdfFile(objs []string, trailer string) []byte { return pdfgen.Assemble("1.7", objs, trailer) }

// zlibBomb returns a zlib stream that inflates to n MiB of spaces while
// being about n KiB long. It compresses one MiB once and repeats that
// non-final, byte-aligned deflate block, so it stays cheap under -race.
func zlibBomb(n int) []byte {
	chunk := bytes.Repeat([]byte(" "), 1<<20)
	var block bytes.Buffer
	fw, _ := flate.NewWriter(&block, flate.BestCompression)
	fw.Write(chunk)
	fw.Flush() // ends with an empty stored block: byte-aligned, not final
	var out bytes.Buffer
	out.Write([]byte{0x78, 0xda})
	sum := adler32.New()
	for range n {
		out.Write(block.Bytes())
		sum.Write(chunk)
	}
	out.Write([]byte{0x03, 0x00}) // a final, empty fixed-Huffman block
	binary.Write(&out, binary.BigEndian, sum.Sum32())
	return out.Bytes()
}

// generatedHostilePDFs are hostile PDFs built here, in the classes of the
// shared samples: truncation, reference cycles, a size field that asks for
// a huge allocation, a decompression bomb, and a few more.
func generatedHostilePDFs() map[string][]byte {
	valid := validPDF()
	page := "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 4 0 R >> >> /Contents 5 0 R >>"
	font := "<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>"
	content := "BT /F1 12 Tf 72 720 Td (Hello from a hostile file.) Tj ET"
	stream := func(dict, data string) string {
		return fmt.Sprintf("<< %s /Length %d >>\nstream\n%s\nendstream", dict, len(data), data)
	}
	bomb := zlibBomb(256)
	out := map[string][]byte{
		"gen_valid.pdf":            valid,
		"gen_truncated_half.pdf":   valid[:len(valid)/2],
		"gen_truncated_header.pdf": valid[:12],
		"gen_pages_kids_self.pdf": pdfFile([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [2 0 R 3 0 R] /Count 2 >>",
			page, font, stream("", content),
		}, "/Root 1 0 R"),
		"gen_pages_cycle_two.pdf": pdfFile([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [6 0 R] /Count 1 >>",
			page, font, stream("", content),
			"<< /Type /Pages /Parent 2 0 R /Kids [2 0 R] /Count 1 >>",
		}, "/Root 1 0 R"),
		"gen_count_1e9.pdf": pdfFile([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1000000000 >>",
			page, font, stream("", content),
		}, "/Root 1 0 R"),
		"gen_length_1e12.pdf": pdfFile([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			page, font,
			"<< /Length 1000000000000 >>\nstream\n" + content + "\nendstream",
		}, "/Root 1 0 R"),
		"gen_flate_bomb_256MiB.pdf": pdfFile([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			page, font,
			fmt.Sprintf("<< /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream", len(bomb), bomb),
		}, "/Root 1 0 R"),
		"gen_deep_array.pdf": pdfFile([]string{
			"<< /Type /Catalog /Pages 2 0 R /X " + strings.Repeat("[", 200_000) + " >>",
			"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
			page, font, stream("", content),
		}, "/Root 1 0 R"),
		"gen_ref_self.pdf": pdfFile([]string{
			"<< /Type /Catalog /Pages 2 0 R >>",
			"2 0 R",
		}, "/Root 1 0 R"),
	}
	// An xref stream whose /Size and /Index ask for a billion entries.
	var xs bytes.Buffer
	xs.WriteString("%PDF-1.7\n")
	off1 := xs.Len()
	xs.WriteString("1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n")
	off2 := xs.Len()
	xs.WriteString("2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n")
	entries := []byte{0, 0, 0, 0, 0, 0xff, 0xff}
	for _, o := range []int{off1, off2} {
		entries = append(entries, 1, byte(o>>24), byte(o>>16), byte(o>>8), byte(o), 0, 0)
	}
	xoff := xs.Len()
	fmt.Fprintf(&xs, "3 0 obj\n<< /Type /XRef /Size 1000000000 /Index [0 1000000000] /W [1 4 2] /Root 1 0 R /Length %d >>\nstream\n", len(entries))
	xs.Write(entries)
	fmt.Fprintf(&xs, "\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n", xoff)
	out["gen_xrefstream_size_1e9.pdf"] = xs.Bytes()
	// An object stream that holds itself.
	objstm := "3 0 "
	out["gen_objstm_self.pdf"] = pdfFile([]string{
		"<< /Type /Catalog /Pages 2 0 3 R >>",
		"<< /Type /Pages /Kids [] /Count 0 >>",
		fmt.Sprintf("<< /Type /ObjStm /N 1 /First %d /Extends 3 0 R /Length %d >>\nstream\n%s3 0 R\nendstream", len(objstm), len(objstm)+5, objstm),
	}, "/Root 1 0 R")
	return out
}

// pdfSubmission is one way of sending a PDF.
type pdfSubmission struct {
	name string
	make func(pdf []byte) (path, contentType string, body []byte)
}

var pdfSubmissions = []pdfSubmission{
	{"raw", func(pdf []byte) (string, string, []byte) {
		return "/v1/digest?query=what+is+here", "application/pdf", pdf
	}},
	{"json", func(pdf []byte) (string, string, []byte) {
		b, _ := json.Marshal(map[string]any{"query": "what is here", "source": map[string]string{"pdf_base64": base64.StdEncoding.EncodeToString(pdf)}})
		return "/v1/digest", "application/json", b
	}},
	{"multipart", func(pdf []byte) (string, string, []byte) {
		var b bytes.Buffer
		mw := multipart.NewWriter(&b)
		mw.WriteField("query", "what is here")
		fw, _ := mw.CreateFormFile("file", "upload.pdf")
		fw.Write(pdf)
		mw.Close()
		return "/v1/digest", mw.FormDataContentType(), b.Bytes()
	}},
}

// runHostilePDFs sends every PDF by every submission, four at once, and
// checks outcomes, stability and latency.
func runHostilePDFs(t *testing.T, s *server, pdfs map[string][]byte) {
	t.Helper()
	names := make([]string, 0, len(pdfs))
	for n := range pdfs {
		names = append(names, n)
	}
	sort.Strings(names)
	type job struct {
		name string
		sub  pdfSubmission
	}
	var jobs []job
	for _, sub := range pdfSubmissions {
		for _, n := range names {
			jobs = append(jobs, job{n, sub})
		}
	}
	// Interleave so that heavy files run alongside each other.
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
				path, ct, body := j.sub.make(pdfs[j.name])
				start := time.Now()
				r, err := s.try("POST", path, ct, body)
				el := time.Since(start)
				o := "transport error: " + fmt.Sprint(err)
				if err == nil {
					o = r.outcome()
				}
				mu.Lock()
				if outcomes[j.name] == nil {
					outcomes[j.name] = map[string]int{}
				}
				outcomes[j.name][o]++
				slowest = max(slowest, el)
				mu.Unlock()
				if el > pdfDeadline+10*time.Second {
					t.Errorf("%s (%s): answered after %v, want within the %v deadline plus 10s", j.name, j.sub.name, el, pdfDeadline)
				}
			}
		}()
	}
	step := 5
	for gcd(step, len(jobs)) != 1 {
		step++
	}
	for i := range jobs {
		ch <- jobs[(i*step)%len(jobs)]
	}
	close(ch)
	wg.Wait()
	for _, n := range names {
		got := outcomes[n]
		var stable []string
		for o := range got {
			if !pdfOutcomes.has(o) {
				t.Errorf("%s: got %q, want one of %q", n, o, pdfOutcomes)
			}
			// A timeout depends on the machine's load; any other
			// difference between repeats is instability.
			if o != "422 PDF_TIMEOUT" {
				stable = append(stable, o)
			}
		}
		if len(stable) > 1 {
			t.Errorf("%s: unstable outcomes %v", n, got)
		}
		if strings.Contains(n, "valid") && got["200"] != len(pdfSubmissions) {
			t.Errorf("%s: a valid PDF got %v, want 200 every time", n, got)
		}
		t.Logf("%-32s %v", n, got)
	}
	t.Logf("slowest answer %v", slowest)
}

func gcd(a, b int) int {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// TestHostilePDFsGenerated sends the generated hostile PDFs, raw, as
// base64 JSON and as multipart uploads, four at once.
func TestHostilePDFsGenerated(t *testing.T) {
	s := startServer(t)
	pdfs := generatedHostilePDFs()
	ctx, stop := context.WithCancel(context.Background())
	go s.sampleRSS(ctx)
	runHostilePDFs(t, s, pdfs)
	stop()
	s.checkHealthy(t)
}

// TestHostilePDFsShared sends the shared hostile samples the same way,
// twice over.
func TestHostilePDFsShared(t *testing.T) {
	dir := sharedData(t, "hostile-pdf-samples")
	files, err := filepath.Glob(filepath.Join(dir, "*.pdf"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no PDFs in %s: %v", dir, err)
	}
	pdfs := map[string][]byte{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		pdfs[filepath.Base(f)] = b
	}
	s := startServer(t)
	ctx, stop := context.WithCancel(context.Background())
	go s.sampleRSS(ctx)
	for round := range 2 {
		t.Logf("round %d", round+1)
		runHostilePDFs(t, s, pdfs)
	}
	stop()
	s.checkHealthy(t)
}
