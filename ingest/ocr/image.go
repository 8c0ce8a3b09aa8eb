package ocr

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"image"
	"image/jpeg"
	"image/png"
	"io"

	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"
)

// The image formats read, by the name Format returns.
const (
	PNG  = "png"
	JPEG = "jpeg"
	TIFF = "tiff"
	WebP = "webp"
)

// Format names an image's format from its first bytes, or "".
func Format(head []byte) string {
	switch {
	case bytes.HasPrefix(head, []byte("\x89PNG\r\n\x1a\n")):
		return PNG
	case bytes.HasPrefix(head, []byte("\xff\xd8\xff")):
		return JPEG
	case bytes.HasPrefix(head, []byte("II*\x00")), bytes.HasPrefix(head, []byte("MM\x00*")):
		return TIFF
	case len(head) >= 12 && bytes.Equal(head[:4], []byte("RIFF")) && bytes.Equal(head[8:12], []byte("WEBP")):
		return WebP
	}
	return ""
}

// decoders read one format's header and pixels. A TIFF's decoder reads
// the page its header names first (imagePages names each in turn).
var decoders = map[string]struct {
	config func(io.Reader) (image.Config, error)
	decode func(io.Reader) (image.Image, error)
}{
	PNG:  {png.DecodeConfig, png.Decode},
	JPEG: {jpeg.DecodeConfig, jpeg.Decode},
	TIFF: {tiff.DecodeConfig, tiff.Decode},
	WebP: {webp.DecodeConfig, webp.Decode},
}

// CheckSize returns an error wrapping ErrTooLarge when a w×h image is over
// MaxPixels or MaxSide.
func CheckSize(w, h int) error {
	if w > MaxSide || h > MaxSide || int64(w)*int64(h) > MaxPixels {
		return fmt.Errorf("%w: %d × %d pixels (at most %d, and %d on a side)", ErrTooLarge, w, h, MaxPixels, MaxSide)
	}
	return nil
}

// Config reads an image's format and size from its header alone, and
// checks the size against the caps: a decompression bomb is refused here,
// before a pixel is decoded.
func Config(raw []byte) (format string, w, h int, err error) {
	format = Format(raw)
	d, ok := decoders[format]
	if !ok {
		return "", 0, 0, fmt.Errorf("%w: not a PNG, JPEG, TIFF or WebP image", ErrUnreadable)
	}
	cfg, err := d.config(bytes.NewReader(raw))
	if err != nil {
		return format, 0, 0, fmt.Errorf("%w: %s header: %v", ErrUnreadable, format, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return format, 0, 0, fmt.Errorf("%w: %s of %d × %d pixels", ErrUnreadable, format, cfg.Width, cfg.Height)
	}
	return format, cfg.Width, cfg.Height, CheckSize(cfg.Width, cfg.Height)
}

// imagePages returns the number of an image's pages and a function that
// returns the bytes of page i (0-based) as an image of that page alone:
// the image itself for a PNG, JPEG or WebP; for a TIFF, the file with its
// header naming that page's directory first (the bytes are valid until
// the next call). An image of more than maxPages pages is ErrTooLarge, one
// whose directories cannot be followed ErrUnreadable.
func imagePages(raw []byte, maxPages int) (int, func(i int) []byte, error) {
	if Format(raw) != TIFF {
		return 1, func(int) []byte { return raw }, nil
	}
	dirs, err := tiffDirectories(raw, maxPages)
	if err != nil {
		return 0, nil, err
	}
	if len(dirs) > maxPages {
		return 0, nil, fmt.Errorf("%w: a TIFF of more than %d pages to read by OCR", ErrTooLarge, maxPages)
	}
	if len(dirs) == 1 {
		return 1, func(int) []byte { return raw }, nil
	}
	bo := tiffByteOrder(raw)
	page := bytes.Clone(raw)
	return len(dirs), func(i int) []byte {
		bo.PutUint32(page[4:8], dirs[i])
		return page
	}, nil
}

func tiffByteOrder(raw []byte) binary.ByteOrder {
	if raw[0] == 'M' {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// tiffDirectories returns the offsets of a TIFF's image file directories,
// one a page, in the order the file chains them: at most max+1, enough to
// tell that there are more than max. A directory that does not lie whole
// in the file, or that the chain names twice, makes it ErrUnreadable.
func tiffDirectories(raw []byte, max int) ([]uint32, error) {
	if len(raw) < 8 {
		return nil, fmt.Errorf("%w: tiff: a header cut short", ErrUnreadable)
	}
	bo := tiffByteOrder(raw)
	var dirs []uint32
	seen := map[uint32]bool{}
	for off := bo.Uint32(raw[4:8]); off != 0 && len(dirs) <= max; {
		if seen[off] {
			return nil, fmt.Errorf("%w: tiff: its directories form a loop", ErrUnreadable)
		}
		seen[off] = true
		if int64(off)+2 > int64(len(raw)) {
			return nil, fmt.Errorf("%w: tiff: a directory at byte %d, past the file's end", ErrUnreadable, off)
		}
		end := int64(off) + 2 + 12*int64(bo.Uint16(raw[off:])) + 4
		if end > int64(len(raw)) {
			return nil, fmt.Errorf("%w: tiff: the directory at byte %d runs past the file's end", ErrUnreadable, off)
		}
		dirs = append(dirs, off)
		off = bo.Uint32(raw[end-4 : end])
	}
	if len(dirs) == 0 {
		return nil, fmt.Errorf("%w: tiff: no image directory", ErrUnreadable)
	}
	return dirs, nil
}

// greyMap decodes an image (after Config) and returns it as a binary PGM
// grey map, transparent pixels over white: the only image Tesseract is
// given.
func greyMap(raw []byte) ([]byte, error) {
	format, w, h, err := Config(raw)
	if err != nil {
		return nil, err
	}
	img, err := decoders[format].decode(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("%w: %s: %v", ErrUnreadable, format, err)
	}
	if b := img.Bounds(); b.Dx() != w || b.Dy() != h {
		return nil, fmt.Errorf("%w: %s decodes to %v, its header says %d × %d", ErrUnreadable, format, b, w, h)
	}
	return pgm(img), nil
}

// pgm writes img as a binary grey map (P5), with fast paths for the
// decoders' usual pixel layouts.
func pgm(img image.Image) []byte {
	b := img.Bounds()
	w, h := b.Dx(), b.Dy()
	head := fmt.Sprintf("P5\n%d %d\n255\n", w, h)
	out := make([]byte, len(head), len(head)+w*h)
	copy(out, head)
	switch m := img.(type) {
	case *image.Gray:
		for y := range h {
			out = append(out, m.Pix[y*m.Stride:y*m.Stride+w]...)
		}
	case *image.YCbCr:
		for y := range h {
			out = append(out, m.Y[y*m.YStride:y*m.YStride+w]...)
		}
	case *image.NRGBA:
		for y := range h {
			row := m.Pix[y*m.Stride : y*m.Stride+4*w]
			for x := 0; x < len(row); x += 4 {
				out = append(out, overWhite(luma(uint32(row[x]), uint32(row[x+1]), uint32(row[x+2])), uint32(row[x+3])))
			}
		}
	case *image.RGBA:
		// Premultiplied: over white adds the missing coverage.
		for y := range h {
			row := m.Pix[y*m.Stride : y*m.Stride+4*w]
			for x := 0; x < len(row); x += 4 {
				out = append(out, uint8(min(255, luma(uint32(row[x]), uint32(row[x+1]), uint32(row[x+2]))+255-uint32(row[x+3]))))
			}
		}
	default:
		for y := b.Min.Y; y < b.Max.Y; y++ {
			for x := b.Min.X; x < b.Max.X; x++ {
				r, g, bl, a := img.At(x, y).RGBA()
				v := min(0xffff, (299*r+587*g+114*bl)/1000+0xffff-a)
				out = append(out, uint8(v>>8))
			}
		}
	}
	return out
}

// luma is the grey of an 8-bit RGB colour (ITU-R 601 weights).
func luma(r, g, b uint32) uint32 { return (299*r + 587*g + 114*b) / 1000 }

// overWhite composites a grey of alpha a (not premultiplied) over white.
func overWhite(v, a uint32) uint8 { return uint8((v*a + 255*(255-a)) / 255) }
