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

// recognize reads the words of the grey map file name of dir: its skew
// undone first (the file rewritten), then read by Tesseract; when marks of
// letters' size are left outside every word it read (a line of small type
// under a large title, which Tesseract's layout analysis drops), the part
// of the page that holds them, its words painted out, is read again and
// the sure lines found there join the page at their height.
func (e *Engine) recognize(ctx context.Context, dir, name string, dpi int, langs []string, lim Limits) (*Page, error) {
	path := filepath.Join(dir, name)
	raw, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	g, err := parsePGM(raw)
	if err != nil {
		return nil, err
	}
	if straight := g.straighten(); straight != nil {
		g = straight
		if err := os.WriteFile(path, g.encode(), 0o600); err != nil {
			return nil, err
		}
	}
	words, err := e.tesseract(ctx, dir, name, dpi, langs, lim)
	if err != nil {
		return nil, err
	}
	if rest, at := g.residue(words, dpi); rest != nil {
		if err := os.WriteFile(path, rest.encode(), 0o600); err != nil {
			return nil, err
		}
		more, err := e.tesseract(ctx, dir, name, dpi, langs, lim)
		if err != nil {
			return nil, err
		}
		for i := range more {
			more[i].left += at.X
			more[i].top += at.Y
		}
		words = merge(words, sureLines(more))
	}
	return layout(words), nil
}

// tesseract runs Tesseract on an image file of dir and returns the words
// of its TSV output.
func (e *Engine) tesseract(ctx context.Context, dir, name string, dpi int, langs []string, lim Limits) ([]word, error) {
	out, err := e.run(ctx, lim, dir, e.Tesseract, name, "stdout", "--dpi", strconv.Itoa(dpi), "-l", strings.Join(langs, "+"), "--psm", "3", "tsv")
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrUnreadable, err)
	}
	return tsvWords(out), nil
}

// word is one word of Tesseract's TSV output and where it stands: its
// block, paragraph and line numbers and its box in pixels.
type word struct {
	block, par, line         int
	left, top, width, height int
	conf                     float64
	text                     string
}

// tsvWords reads the words of Tesseract's TSV output (level, page, block,
// paragraph, line and word numbers, box, confidence, text), in its order.
func tsvWords(out []byte) []word {
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
		var n [8]int // block, paragraph, line, word; left, top, width, height
		for i := range n {
			n[i], _ = strconv.Atoi(f[2+i])
		}
		words = append(words, word{block: n[0], par: n[1], line: n[2], left: n[4], top: n[5], width: n[6], height: n[7], conf: conf, text: text})
	}
	return words
}

// parseTSV reads Tesseract's TSV output into a page.
func parseTSV(out []byte) *Page { return layout(tsvWords(out)) }

// layout writes words, in their order, as a page: its paragraphs joined by
// "\n", the lines of a paragraph by a space, a hyphen that broke a word
// at a line's end undone.
func layout(words []word) *Page {
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
