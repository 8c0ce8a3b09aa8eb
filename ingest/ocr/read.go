package ocr

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Page is the text OCR read on one page.
type Page struct {
	// Text is the page's paragraphs in Tesseract's reading order, joined
	// by "\n"; the lines of a paragraph are joined by a space, a hyphen
	// that breaks a word at a line's end undone.
	Text string `json:"text"`
	// Confidence is the mean confidence of the page's words, in [0, 1]
	// (0 for a page without words).
	Confidence float64 `json:"confidence"`
	// Words counts the words read.
	Words int `json:"words"`
}

// ReadImage reads the text of an image (PNG, JPEG, WebP, or every page of
// a TIFF, at most maxPages) in the given language packs, one Page a page,
// after checking the size of every page (Config) before a pixel is
// decoded.
func (e *Engine) ReadImage(ctx context.Context, raw []byte, langs []string, lim Limits, maxPages int) ([]*Page, error) {
	n, page, err := imagePages(raw, maxPages)
	if err != nil {
		return nil, err
	}
	for i := range n {
		if _, _, _, err := Config(page(i)); err != nil {
			if n > 1 {
				err = fmt.Errorf("page %d: %w", i+1, err)
			}
			return nil, err
		}
	}
	dir, done, err := tempDir()
	if err != nil {
		return nil, err
	}
	defer done()
	pages := make([]*Page, 0, n)
	for i := range n {
		grey, err := greyMap(page(i))
		if err != nil {
			if n > 1 {
				err = fmt.Errorf("page %d: %w", i+1, err)
			}
			return nil, err
		}
		if err := os.WriteFile(filepath.Join(dir, "page.pgm"), grey, 0o600); err != nil {
			return nil, err
		}
		grey = nil
		p, err := e.recognize(ctx, dir, "page.pgm", ImageDPI, langs, lim)
		if err != nil {
			return nil, err
		}
		pages = append(pages, p)
	}
	return pages, nil
}

// recognize runs Tesseract on an image file of dir and reads its words.
func (e *Engine) recognize(ctx context.Context, dir, name string, dpi int, langs []string, lim Limits) (*Page, error) {
	out, err := e.run(ctx, lim, dir, e.Tesseract, name, "stdout", "--dpi", strconv.Itoa(dpi), "-l", strings.Join(langs, "+"), "--psm", "3", "tsv")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	return parseTSV(out), nil
}

// word is one word of Tesseract's TSV output and where it stands.
type word struct {
	block, par, line int
	conf             float64
	text             string
}

// parseTSV reads Tesseract's TSV output (level, page, block, paragraph,
// line and word numbers, box, confidence, text) into a page.
func parseTSV(out []byte) *Page {
	var words []word
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		f := strings.Split(sc.Text(), "\t")
		if len(f) < 12 || f[0] != "5" {
			continue
		}
		text := strings.TrimSpace(f[11])
		if text == "" || !utf8.ValidString(text) {
			continue
		}
		conf, err := strconv.ParseFloat(f[10], 64)
		if err != nil || conf < 0 {
			continue
		}
		b, _ := strconv.Atoi(f[2])
		p, _ := strconv.Atoi(f[3])
		l, _ := strconv.Atoi(f[4])
		words = append(words, word{block: b, par: p, line: l, conf: conf, text: text})
	}
	page := &Page{Words: len(words)}
	if len(words) == 0 {
		return page
	}
	var paras []string
	var para strings.Builder
	var sum float64
	for i, w := range words {
		sum += w.conf
		if i > 0 {
			prev := words[i-1]
			switch {
			case w.block != prev.block || w.par != prev.par:
				paras = append(paras, para.String())
				para.Reset()
			case w.line != prev.line && brokenWord(prev.text, w.text):
				// "extrac-" "tion": the hyphen only broke the line.
				s := para.String()
				para.Reset()
				para.WriteString(s[:len(s)-1])
			default:
				para.WriteByte(' ')
			}
		}
		para.WriteString(w.text)
	}
	paras = append(paras, para.String())
	page.Text = strings.Join(paras, "\n")
	page.Confidence = math.Round(sum/float64(len(words))) / 100
	return page
}

// brokenWord reports whether a line ending in end and the next starting
// with next hold one word a hyphen broke: a letter and a hyphen, then a
// lower-case letter.
func brokenWord(end, next string) bool {
	if len(end) < 2 || !strings.HasSuffix(end, "-") {
		return false
	}
	last, _ := utf8.DecodeLastRuneInString(end[:len(end)-1])
	first, _ := utf8.DecodeRuneInString(next)
	return unicode.IsLetter(last) && unicode.IsLower(first)
}
