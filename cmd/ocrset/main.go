// Command ocrset makes the OCR evaluation sets: it renders the pages of the
// PDF extraction sets (cases with a reference text) to images with poppler's
// pdftoppm, clean and degraded the way scanners degrade them, and writes
// one extract set per condition into a cache directory, never into the
// repository:
//
//	go run ./cmd/ocrset --out ~/.cache/digestd/ocr-eval ../shared/data/extract-pdf-pdfbox
//	digestd eval extract ~/.cache/digestd/ocr-eval/extract-ocr-*
//
// The conditions are clean and degraded pages at 300 and 200 dpi; a
// degraded page is rotated by up to 2°, blurred, given noise and saved as a
// JPEG of quality 40 to 70. Each set holds every document as a scanned PDF
// (its pages as images, no text layer; kind pdf) and its first page as an
// image (kind image, when the document has one page), with the source
// set's reference text. Beside each case, a bare run of tesseract on the
// same images (its default page segmentation, English, no worker) is the
// floor: its text in floor/ and its time in the case's floor_seconds, which
// digestd eval extract reports as floor_word_f1 and floor_seconds.
//
// --max-pages bounds the pages of a set (documents are taken in order while
// they fit); --seed fixes the degradations.
package main

import (
	"bufio"
	"bytes"
	"compress/zlib"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/digestd/digestd/normalize"
)

// condition is one way pages are scanned.
type condition struct {
	name     string
	dpi      int
	degraded bool
}

var conditions = []condition{
	{"clean-300", 300, false},
	{"clean-200", 200, false},
	{"degraded-300", 300, true},
	{"degraded-200", 200, true},
}

// sourceCase is a line of a PDF set's cases.jsonl.
type sourceCase struct {
	ID            string `json:"id"`
	Kind          string `json:"kind"`
	File          string `json:"file"`
	ReferenceFile string `json:"reference_file"`
}

// outCase is a line of a generated set's cases.jsonl.
type outCase struct {
	ID            string  `json:"id"`
	Kind          string  `json:"kind"`
	File          string  `json:"file"`
	ReferenceFile string  `json:"reference_file"`
	FloorFile     string  `json:"floor_file"`
	FloorSeconds  float64 `json:"floor_seconds"`
	Pages         int     `json:"pages"`
}

func main() {
	if err := run(os.Args[1:], os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "ocrset:", err)
		os.Exit(1)
	}
}

func run(args []string, stderr io.Writer) error {
	fs := flag.NewFlagSet("ocrset", flag.ContinueOnError)
	cache, _ := os.UserCacheDir()
	out := fs.String("out", filepath.Join(cache, "digestd", "ocr-eval"), "directory the sets are written into (one extract-ocr-CONDITION folder each)")
	maxPages := fs.Int("max-pages", 40, "most pages of each set")
	seed := fs.Uint64("seed", 53, "seed of the degradations")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() == 0 {
		return errors.New("name one or more PDF extraction sets (folders with cases.jsonl)")
	}
	for _, c := range conditions {
		if err := makeSet(filepath.Join(*out, "extract-ocr-"+c.name), fs.Args(), c, *maxPages, rand.New(rand.NewPCG(*seed, uint64(c.dpi)))); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
		fmt.Fprintf(stderr, "ocrset: wrote %s\n", filepath.Join(*out, "extract-ocr-"+c.name))
	}
	return nil
}

// makeSet writes one condition's set.
func makeSet(dir string, sources []string, c condition, maxPages int, rng *rand.Rand) error {
	for _, sub := range []string{"pdf", "image", "reference", "floor", "pages"} {
		if err := os.MkdirAll(filepath.Join(dir, sub), 0o755); err != nil {
			return err
		}
	}
	var cases []outCase
	pages := 0
	for _, src := range sources {
		b, err := os.ReadFile(filepath.Join(src, "cases.jsonl"))
		if err != nil {
			return err
		}
		sc := bufio.NewScanner(bytes.NewReader(b))
		for sc.Scan() {
			var in sourceCase
			if json.Unmarshal(sc.Bytes(), &in) != nil || in.Kind != "pdf" || in.ReferenceFile == "" {
				continue
			}
			n, err := pageCount(filepath.Join(src, in.File))
			if err != nil || n == 0 || pages+n > maxPages {
				continue
			}
			made, err := makeCase(dir, src, in, n, c, rng)
			if err != nil {
				fmt.Fprintf(os.Stderr, "ocrset: %s: %v\n", in.ID, err)
				continue
			}
			pages += n
			cases = append(cases, made...)
		}
	}
	var jl bytes.Buffer
	for _, oc := range cases {
		b, _ := json.Marshal(oc)
		jl.Write(b)
		jl.WriteByte('\n')
	}
	return os.WriteFile(filepath.Join(dir, "cases.jsonl"), jl.Bytes(), 0o644)
}

// makeCase renders one document's pages, degrades them, and writes its
// scanned PDF, its image (a one-page document), its reference and the
// floor's text.
func makeCase(dir, src string, in sourceCase, n int, c condition, rng *rand.Rand) ([]outCase, error) {
	ref, err := os.ReadFile(filepath.Join(src, in.ReferenceFile))
	if err != nil {
		return nil, err
	}
	refName := filepath.Join("reference", in.ID+".txt")
	if err := os.WriteFile(filepath.Join(dir, refName), ref, 0o644); err != nil {
		return nil, err
	}
	tmp, err := os.MkdirTemp("", "ocrset-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if out, err := exec.Command("pdftoppm", "-r", strconv.Itoa(c.dpi), "-gray", "-png", filepath.Join(src, in.File), filepath.Join(tmp, "p")).CombinedOutput(); err != nil {
		return nil, fmt.Errorf("pdftoppm: %v: %s", err, out)
	}
	files, _ := filepath.Glob(filepath.Join(tmp, "p-*.png"))
	if len(files) != n {
		return nil, fmt.Errorf("%d pages rendered of %d", len(files), n)
	}
	var scans []scanned
	var floor []string
	var floorSeconds float64
	for i, f := range files {
		img, err := readPNG(f)
		if err != nil {
			return nil, err
		}
		s := scanned{gray: img, dpi: c.dpi}
		ext := ".png"
		if c.degraded {
			s.gray = degrade(img, c.dpi, rng)
			var jb bytes.Buffer
			if err := jpeg.Encode(&jb, s.gray, &jpeg.Options{Quality: 40 + rng.IntN(31)}); err != nil {
				return nil, err
			}
			s.jpeg = jb.Bytes()
			ext = ".jpg"
		}
		pageFile := filepath.Join(dir, "pages", fmt.Sprintf("%s-%d%s", in.ID, i+1, ext))
		if err := os.WriteFile(pageFile, s.encoded(), 0o644); err != nil {
			return nil, err
		}
		start := time.Now()
		text, err := exec.Command("tesseract", pageFile, "stdout", "-l", "eng").Output()
		if err != nil {
			return nil, fmt.Errorf("tesseract: %v", err)
		}
		floorSeconds += time.Since(start).Seconds()
		floor = append(floor, string(text))
		scans = append(scans, s)
	}
	floorName := filepath.Join("floor", in.ID+".txt")
	if err := os.WriteFile(filepath.Join(dir, floorName), []byte(strings.Join(floor, string(normalize.PageSeparator))), 0o644); err != nil {
		return nil, err
	}
	pdfName := filepath.Join("pdf", in.ID+".pdf")
	if err := os.WriteFile(filepath.Join(dir, pdfName), scannedPDF(scans), 0o644); err != nil {
		return nil, err
	}
	out := []outCase{{ID: in.ID, Kind: "pdf", File: pdfName, ReferenceFile: refName, FloorFile: floorName, FloorSeconds: floorSeconds, Pages: n}}
	if n == 1 {
		ext := ".png"
		if c.degraded {
			ext = ".jpg"
		}
		imgName := filepath.Join("image", in.ID+ext)
		if err := os.WriteFile(filepath.Join(dir, imgName), scans[0].encoded(), 0o644); err != nil {
			return nil, err
		}
		out = append(out, outCase{ID: in.ID + "-image", Kind: "image", File: imgName, ReferenceFile: refName, FloorFile: floorName, FloorSeconds: floorSeconds, Pages: 1})
	}
	return out, nil
}

// pageCount asks pdfinfo for a PDF's pages.
func pageCount(pdf string) (int, error) {
	out, err := exec.Command("pdfinfo", pdf).Output()
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(out), "\n") {
		if rest, ok := strings.CutPrefix(l, "Pages:"); ok {
			return strconv.Atoi(strings.TrimSpace(rest))
		}
	}
	return 0, errors.New("no page count")
}

func readPNG(name string) (*image.Gray, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	img, err := png.Decode(f)
	if err != nil {
		return nil, err
	}
	g, ok := img.(*image.Gray)
	if !ok {
		b := img.Bounds()
		g = image.NewGray(b)
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				g.Set(x, y, img.At(x, y))
			}
		}
	}
	return g, nil
}

// degrade rotates a page by up to 2° (bilinear, white outside), blurs it
// (a Gaussian of 0.5 to 1 pixel at 300 dpi, scaled to the resolution) and
// adds Gaussian noise (σ 4 to 12 grey levels).
func degrade(src *image.Gray, dpi int, rng *rand.Rand) *image.Gray {
	b := src.Bounds()
	w, h := b.Dx(), b.Dy()
	angle := (rng.Float64()*4 - 2) * math.Pi / 180
	sin, cos := math.Sincos(angle)
	cx, cy := float64(w)/2, float64(h)/2
	rot := image.NewGray(image.Rect(0, 0, w, h))
	at := func(x, y int) float64 {
		if x < 0 || y < 0 || x >= w || y >= h {
			return 255
		}
		return float64(src.Pix[y*src.Stride+x])
	}
	for y := range h {
		for x := range w {
			dx, dy := float64(x)-cx, float64(y)-cy
			sx, sy := cos*dx+sin*dy+cx, -sin*dx+cos*dy+cy
			x0, y0 := int(math.Floor(sx)), int(math.Floor(sy))
			fx, fy := sx-float64(x0), sy-float64(y0)
			v := at(x0, y0)*(1-fx)*(1-fy) + at(x0+1, y0)*fx*(1-fy) + at(x0, y0+1)*(1-fx)*fy + at(x0+1, y0+1)*fx*fy
			rot.Pix[y*rot.Stride+x] = uint8(v + 0.5)
		}
	}
	sigma := (0.5 + rng.Float64()*0.5) * float64(dpi) / 300
	out := blur(rot, sigma)
	noise := 4 + rng.Float64()*8
	for i, p := range out.Pix {
		out.Pix[i] = uint8(max(0, min(255, float64(p)+rng.NormFloat64()*noise)))
	}
	return out
}

// blur applies a separable Gaussian of the given σ in pixels.
func blur(src *image.Gray, sigma float64) *image.Gray {
	r := int(math.Ceil(2 * sigma))
	k := make([]float64, 2*r+1)
	var sum float64
	for i := range k {
		d := float64(i - r)
		k[i] = math.Exp(-d * d / (2 * sigma * sigma))
		sum += k[i]
	}
	for i := range k {
		k[i] /= sum
	}
	w, h := src.Bounds().Dx(), src.Bounds().Dy()
	tmp := make([]float64, w*h)
	for y := range h {
		for x := range w {
			var v float64
			for i, kv := range k {
				xx := min(max(x+i-r, 0), w-1)
				v += kv * float64(src.Pix[y*src.Stride+xx])
			}
			tmp[y*w+x] = v
		}
	}
	out := image.NewGray(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			var v float64
			for i, kv := range k {
				yy := min(max(y+i-r, 0), h-1)
				v += kv * tmp[yy*w+x]
			}
			out.Pix[y*out.Stride+x] = uint8(v + 0.5)
		}
	}
	return out
}

// scanned is one scanned page: its grey pixels, and its JPEG when it was
// saved as one.
type scanned struct {
	gray *image.Gray
	jpeg []byte
	dpi  int
}

// encoded is the page as its image file holds it.
func (s scanned) encoded() []byte {
	if s.jpeg != nil {
		return s.jpeg
	}
	var b bytes.Buffer
	png.Encode(&b, s.gray)
	return b.Bytes()
}

// scannedPDF writes a PDF whose every page is one image and nothing else,
// at the page's resolution: DCTDecode for a JPEG page, FlateDecode else.
func scannedPDF(pages []scanned) []byte {
	var objs []string
	add := func(s string) int {
		objs = append(objs, s)
		return len(objs)
	}
	catalog := add("")
	root := add("")
	var kids []string
	for _, p := range pages {
		w, h := p.gray.Bounds().Dx(), p.gray.Bounds().Dy()
		data, filter := p.jpeg, "/DCTDecode"
		if data == nil {
			var z bytes.Buffer
			zw := zlib.NewWriter(&z)
			zw.Write(p.gray.Pix)
			zw.Close()
			data, filter = z.Bytes(), "/FlateDecode"
		}
		im := add(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter %s /Length %d >>\nstream\n%s\nendstream", w, h, filter, len(data), data))
		pw, ph := float64(w)*72/float64(p.dpi), float64(h)*72/float64(p.dpi)
		content := fmt.Sprintf("q %.2f 0 0 %.2f 0 0 cm /Im1 Do Q\n", pw, ph)
		c := add(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(content), content))
		pg := add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.2f %.2f] /Resources << /XObject << /Im1 %d 0 R >> >> /Contents %d 0 R >>", root, pw, ph, im, c))
		kids = append(kids, fmt.Sprintf("%d 0 R", pg))
	}
	objs[catalog-1] = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", root)
	objs[root-1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	var out bytes.Buffer
	out.WriteString("%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
	offs := make([]int, len(objs))
	for i, o := range objs {
		offs[i] = out.Len()
		fmt.Fprintf(&out, "%d 0 obj\n%s\nendobj\n", i+1, o)
	}
	xref := out.Len()
	fmt.Fprintf(&out, "xref\n0 %d\n0000000000 65535 f \n", len(objs)+1)
	for _, o := range offs {
		fmt.Fprintf(&out, "%010d 00000 n \n", o)
	}
	fmt.Fprintf(&out, "trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n", len(objs)+1, catalog, xref)
	return out.Bytes()
}
