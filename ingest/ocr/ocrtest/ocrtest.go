// Package ocrtest draws pages of text as images, with Go's own fonts and
// no OCR engine, for the tests of the OCR path, and tells tests whether
// the engine is installed (testenv's rule: skip on a laptop, fail in CI).
package ocrtest

import (
	"bytes"
	"compress/zlib"
	"context"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"strings"
	"testing"

	"github.com/digestd/digestd/ingest/ocr"
	"github.com/digestd/digestd/ingest/pdftext/pdfgen"
	"github.com/digestd/digestd/internal/testenv"
	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Engine returns the installed OCR engine, or skips tb (fails it in CI)
// when Tesseract is not installed.
func Engine(tb testing.TB) *ocr.Engine {
	tb.Helper()
	e, err := ocr.Find(context.Background())
	if err != nil {
		testenv.Missing(tb, "OCR: %v (%s)", err, ocr.Install)
	}
	return e
}

// Page draws paragraphs of black text on a white grey page of the given
// width in pixels, size pixels a line of text, wrapping words at the
// margins; paragraphs are a blank line apart.
func Page(width int, size float64, paragraphs ...string) *image.Gray {
	f, err := opentype.Parse(goregular.TTF)
	if err != nil {
		panic(err)
	}
	face, err := opentype.NewFace(f, &opentype.FaceOptions{Size: size, DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		panic(err)
	}
	defer face.Close()
	margin := int(2 * size)
	lead := int(size * 1.4)
	// Lay out first to know the height.
	type line struct {
		s string
		y int
	}
	var lines []line
	y := margin + int(size)
	space := font.MeasureString(face, " ").Ceil()
	for _, p := range paragraphs {
		cur, curW := "", 0
		for _, w := range bytes.Fields([]byte(p)) {
			ww := font.MeasureString(face, string(w)).Ceil()
			if cur != "" && margin+curW+space+ww > width-margin {
				lines = append(lines, line{cur, y})
				y += lead
				cur, curW = "", 0
			}
			if cur != "" {
				cur += " "
				curW += space
			}
			cur += string(w)
			curW += ww
		}
		if cur != "" {
			lines = append(lines, line{cur, y})
			y += lead
		}
		y += lead
	}
	img := image.NewGray(image.Rect(0, 0, width, y+margin))
	draw.Draw(img, img.Bounds(), image.White, image.Point{}, draw.Src)
	d := font.Drawer{Dst: img, Src: image.NewUniform(color.Black), Face: face}
	for _, l := range lines {
		d.Dot = fixed.P(margin, l.y)
		d.DrawString(l.s)
	}
	return img
}

// PNG encodes img as a PNG.
func PNG(img image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// ScanPage is one page of a PDF ScannedPDF writes: an image across the
// page (a scan), or a line of text in Helvetica (a text layer), or both.
type ScanPage struct {
	Image *image.Gray
	Text  string
	// Invisible draws Text in render mode 3 (neither filled nor stroked),
	// as a text layer over a scan is drawn.
	Invisible bool
	// Width and Height are the page's size in points (default 612×792).
	Width, Height float64
}

// ScannedPDF writes a PDF of pages, each image a DeviceGray Flate image
// drawn across the page's width from its top.
func ScannedPDF(pages ...ScanPage) []byte {
	var objs []string
	add := func(s string) int {
		objs = append(objs, s)
		return len(objs)
	}
	catalog := add("")
	pagesObj := add("")
	font := add("<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>")
	var kids []string
	for _, p := range pages {
		w, h := p.Width, p.Height
		if w == 0 || h == 0 {
			w, h = 612, 792
		}
		var content, xobj string
		if p.Image != nil {
			b := p.Image.Bounds()
			var z bytes.Buffer
			zw := zlib.NewWriter(&z)
			for y := b.Min.Y; y < b.Max.Y; y++ {
				zw.Write(p.Image.Pix[(y-b.Min.Y)*p.Image.Stride : (y-b.Min.Y)*p.Image.Stride+b.Dx()])
			}
			zw.Close()
			im := add(fmt.Sprintf("<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray /BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n%s\nendstream",
				b.Dx(), b.Dy(), z.Len(), z.String()))
			xobj = fmt.Sprintf("/XObject << /Im1 %d 0 R >>", im)
			// Across the page's width, from its top, at the image's aspect.
			ih := w * float64(b.Dy()) / float64(b.Dx())
			content += fmt.Sprintf("q %g 0 0 %g 0 %g cm /Im1 Do Q\n", w, ih, h-ih)
		}
		if p.Text != "" {
			mode := 0
			if p.Invisible {
				mode = 3
			}
			content += fmt.Sprintf("BT /F1 12 Tf %d Tr 72 %g Td (%s) Tj ET\n", mode, h-72, p.Text)
		}
		c := add(fmt.Sprintf("<< /Length %d >>\nstream\n%sendstream", len(content), content))
		pg := add(fmt.Sprintf("<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %g %g] /Resources << /Font << /F1 %d 0 R >> %s >> /Contents %d 0 R >>",
			pagesObj, w, h, font, xobj, c))
		kids = append(kids, fmt.Sprintf("%d 0 R", pg))
	}
	objs[catalog-1] = fmt.Sprintf("<< /Type /Catalog /Pages %d 0 R >>", pagesObj)
	objs[pagesObj-1] = fmt.Sprintf("<< /Type /Pages /Kids [%s] /Count %d >>", strings.Join(kids, " "), len(kids))
	return pdfgen.Assemble("1.4", objs, fmt.Sprintf("/Root %d 0 R", catalog))
}

// BombPNG returns the header of a PNG that claims w×h pixels, followed by
// a little compressed data: a decompression bomb as its header shows it.
func BombPNG(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	chunk := func(typ string, data []byte) {
		binary.Write(&b, binary.BigEndian, uint32(len(data)))
		b.WriteString(typ)
		b.Write(data)
		c := crc32.NewIEEE()
		c.Write([]byte(typ))
		c.Write(data)
		binary.Write(&b, binary.BigEndian, c.Sum32())
	}
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 0 // 8-bit greyscale
	chunk("IHDR", ihdr)
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(make([]byte, 1<<20))
	zw.Close()
	chunk("IDAT", z.Bytes())
	chunk("IEND", nil)
	return b.Bytes()
}

// TIFF returns a little-endian greyscale TIFF whose header claims w×h
// pixels in one uncompressed strip of stripBytes bytes at the end of the
// file, and holds only the first data bytes of it: huge strips as a
// header shows them.
func TIFF(w, h, stripBytes uint32, data []byte) []byte {
	var b bytes.Buffer
	b.WriteString("II*\x00")
	binary.Write(&b, binary.LittleEndian, uint32(8))
	type entry struct {
		tag, typ uint16
		value    uint32
	}
	const short, long = 3, 4
	entries := []entry{
		{256, long, w},          // ImageWidth
		{257, long, h},          // ImageLength
		{258, short, 8},         // BitsPerSample
		{259, short, 1},         // Compression: none
		{262, short, 1},         // PhotometricInterpretation: black is zero
		{273, long, 0},          // StripOffsets, set below
		{277, short, 1},         // SamplesPerPixel
		{278, long, h},          // RowsPerStrip
		{279, long, stripBytes}, // StripByteCounts
	}
	ifdLen := 2 + 12*len(entries) + 4
	entries[5].value = uint32(8 + ifdLen)
	binary.Write(&b, binary.LittleEndian, uint16(len(entries)))
	for _, e := range entries {
		binary.Write(&b, binary.LittleEndian, e.tag)
		binary.Write(&b, binary.LittleEndian, e.typ)
		binary.Write(&b, binary.LittleEndian, uint32(1))
		if e.typ == short {
			binary.Write(&b, binary.LittleEndian, uint16(e.value))
			binary.Write(&b, binary.LittleEndian, uint16(0))
		} else {
			binary.Write(&b, binary.LittleEndian, e.value)
		}
	}
	binary.Write(&b, binary.LittleEndian, uint32(0))
	b.Write(data)
	return b.Bytes()
}

// BombJPEG returns the start of a baseline JPEG whose frame header claims
// w×h pixels.
func BombJPEG(w, h uint16) []byte {
	var b bytes.Buffer
	b.WriteString("\xff\xd8")
	b.WriteString("\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00")
	// A quantization table, then the frame: 8-bit, one component.
	b.WriteString("\xff\xdb\x00\x43\x00")
	b.Write(bytes.Repeat([]byte{1}, 64))
	b.WriteString("\xff\xc0\x00\x0b\x08")
	binary.Write(&b, binary.BigEndian, h)
	binary.Write(&b, binary.BigEndian, w)
	b.WriteString("\x01\x01\x11\x00")
	b.WriteString("\xff\xd9")
	return b.Bytes()
}

// PagedTIFF returns a big-endian TIFF of the given grey pages, each an
// uncompressed strip, its directories chained in page order. loop makes
// the last page's directory name the first again.
func PagedTIFF(loop bool, pages ...*image.Gray) []byte {
	bo := binary.BigEndian
	var b bytes.Buffer
	b.WriteString("MM\x00*")
	binary.Write(&b, bo, uint32(8))
	const entries = 9
	const ifdLen = 2 + 12*entries + 4
	first := uint32(8)
	for i, img := range pages {
		w, h := uint32(img.Rect.Dx()), uint32(img.Rect.Dy())
		off := uint32(b.Len())
		data := off + ifdLen
		next := data + w*h
		switch {
		case i == len(pages)-1 && loop:
			next = first
		case i == len(pages)-1:
			next = 0
		}
		binary.Write(&b, bo, uint16(entries))
		for _, e := range [entries][2]uint32{{256, w}, {257, h}, {258, 8}, {259, 1}, {262, 1}, {273, data}, {277, 1}, {278, h}, {279, w * h}} {
			binary.Write(&b, bo, uint16(e[0]))
			binary.Write(&b, bo, uint16(4)) // LONG
			binary.Write(&b, bo, uint32(1))
			binary.Write(&b, bo, e[1])
		}
		binary.Write(&b, bo, next)
		for y := range int(h) {
			b.Write(img.Pix[y*img.Stride : y*img.Stride+int(w)])
		}
	}
	return b.Bytes()
}
