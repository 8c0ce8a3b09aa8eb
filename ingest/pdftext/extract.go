// Package pdftext extracts the text of a PDF with its layout: words from glyph
// gaps, lines from baselines, columns read one after the other, paragraphs
// joined, ligatures expanded and running headers and footers left out.
//
// Parsing a PDF can exhaust memory, overflow the stack or loop (see the
// PDF reader's advisories); Extract must therefore only run inside an
// isolated worker process (package pdfworker), never in the service itself.
package pdftext

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/ledongthuc/pdf"

	"github.com/digestd/digestd/structure"
)

// ExtractorName and ExtractorVersion identify this extractor in provenance
// records. The version changes whenever the text produced for some PDF does.
const (
	ExtractorName    = "digestd-pdftext"
	ExtractorVersion = "13"
)

// Default caps used when a Limits field is zero.
const (
	DefaultMaxPages = 2000
	DefaultMaxChars = 20_000_000
)

// Errors returned by Extract; test with errors.Is.
var (
	// ErrEncrypted: the document is encrypted and cannot be opened without a password.
	ErrEncrypted = errors.New("pdf is encrypted")
	// ErrNoText: the document has no text layer (for example a scan), or none
	// of its glyphs can be mapped to Unicode.
	ErrNoText = errors.New("pdf has no extractable text")
	// ErrNotPDF: the input does not start with a %PDF- header.
	ErrNotPDF = errors.New("not a pdf")
	// ErrUnreadable: the file is damaged beyond repair or not well formed.
	ErrUnreadable = errors.New("pdf is unreadable")
	// ErrTooLarge: a cap (pages, characters, glyphs, decompressed bytes) was exceeded.
	ErrTooLarge = errors.New("pdf exceeds extraction limits")
)

// Limits caps the work and output of one extraction. Zero fields take the
// defaults DefaultMaxPages and DefaultMaxChars.
type Limits struct {
	MaxPages int // documents with more pages fail with ErrTooLarge
	MaxChars int // total characters of page text (code points) before ErrTooLarge
}

// Result is the text of a PDF, one string per page of the document.
type Result struct {
	// Pages holds the text of every page in order (len(Pages) is the
	// document's page count); blocks within a page are separated by "\n".
	Pages []string
	// Title and Author come from the document information dictionary.
	Title, Author string
	// EmptyPages lists 1-based pages without any text.
	EmptyPages []int
	// UnmappedPages lists 1-based pages whose glyphs cannot be mapped to
	// Unicode; their text is left out rather than emitted as garbage.
	UnmappedPages []int
	// Spans are the headings of the text, in byte offsets of Pages joined
	// by normalize.PageSeparator: structure.Map carries them onto the
	// canonical text.
	Spans []structure.Span
}

// Extract parses raw as a PDF and returns its text. It recovers from panics
// in the PDF reader but cannot contain runaway memory or stack use: call it
// only inside a worker process with operating-system limits.
func Extract(raw []byte, lim Limits) (res *Result, err error) {
	if lim.MaxPages <= 0 {
		lim.MaxPages = DefaultMaxPages
	}
	if lim.MaxChars <= 0 {
		lim.MaxChars = DefaultMaxChars
	}
	head := raw[:min(len(raw), 1024)]
	at := bytes.Index(head, []byte("%PDF-"))
	if at < 0 {
		return nil, ErrNotPDF
	}
	var firstErr error
	for cand := range candidates(raw, at) {
		if err := checkReferences(cand); err != nil {
			// A reference cycle the reader would follow forever: try the
			// next view (a rebuilt cross-reference table has no /Prev).
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		res, err := extractFrom(cand, lim)
		if err == nil || errors.Is(err, ErrEncrypted) || errors.Is(err, ErrTooLarge) || errors.Is(err, ErrNoText) {
			return res, err
		}
		if firstErr == nil {
			firstErr = err
		}
	}
	return nil, firstErr
}

// candidates returns the byte views to try in order: the file with a
// header the reader accepts, the file cut after its last %%EOF, and the file
// with a rebuilt cross-reference table.
func candidates(raw []byte, at int) func(yield func([]byte) bool) {
	return func(yield func([]byte) bool) {
		fixed := fixHeader(raw, at)
		if !yield(fixed) {
			return
		}
		if i := bytes.LastIndex(fixed, []byte("%%EOF")); i > 0 && len(bytes.TrimRight(fixed[i+5:], "\r\n\t \x00")) > 0 {
			if !yield(fixed[:i+5]) {
				return
			}
		}
		if rebuilt := rebuildXref(fixed); rebuilt != nil {
			yield(rebuilt)
		}
	}
}

// fixHeader gives the reader the "%PDF-1.x" first line it insists on,
// keeping every byte offset unchanged.
func fixHeader(raw []byte, at int) []byte {
	ok := len(raw) > 9 && at == 0 && bytes.HasPrefix(raw, []byte("%PDF-1.")) &&
		raw[7] >= '0' && raw[7] <= '7' && (raw[8] == '\r' || raw[8] == '\n')
	if ok || len(raw) < 10 {
		return raw
	}
	out := append([]byte(nil), raw...)
	copy(out, "%PDF-1.7\n")
	if at > 0 && at < 9 {
		// The real header overlaps the patched one; nothing else to do.
		return out
	}
	return out
}

var (
	objRe     = regexp.MustCompile(`(?m)(?:^|[\r\n\s])(\d{1,9})\s+(\d{1,5})\s+obj\b`)
	rootRe    = regexp.MustCompile(`/Root\s+(\d+)\s+(\d+)\s+R`)
	infoRe    = regexp.MustCompile(`/Info\s+(\d+)\s+(\d+)\s+R`)
	encryptRe = regexp.MustCompile(`/Encrypt\s+(\d+\s+\d+\s+R)`)
	idRe      = regexp.MustCompile(`/ID\s*\[[^\]]{0,600}\]`)
	catalogRe = regexp.MustCompile(`/Type\s*/Catalog\b`)
)

const maxRebuiltObjects = 1 << 21

// rebuildXref scans for "N G obj" and appends a fresh cross-reference table
// and trailer, the usual repair for truncated files and wrong offsets.
func rebuildXref(raw []byte) []byte {
	locs := objRe.FindAllSubmatchIndex(raw, maxRebuiltObjects)
	if len(locs) == 0 {
		return nil
	}
	type entry struct {
		off int
		gen int
	}
	table := map[int]entry{}
	maxID := 0
	root := ""
	for _, m := range locs {
		id, _ := strconv.Atoi(string(raw[m[2]:m[3]]))
		gen, _ := strconv.Atoi(string(raw[m[4]:m[5]]))
		if id <= 0 || id >= maxRebuiltObjects {
			continue
		}
		table[id] = entry{off: m[2], gen: gen}
		maxID = max(maxID, id)
		if root == "" {
			end := min(len(raw), m[1]+300)
			if catalogRe.Match(raw[m[1]:end]) {
				root = fmt.Sprintf("%d %d R", id, gen)
			}
		}
	}
	if all := rootRe.FindAllSubmatch(raw, -1); len(all) > 0 {
		last := all[len(all)-1]
		root = fmt.Sprintf("%s %s R", last[1], last[2])
	}
	if root == "" {
		return nil
	}
	var b bytes.Buffer
	b.Write(raw)
	b.WriteString("\n")
	xrefAt := b.Len()
	fmt.Fprintf(&b, "xref\n0 %d\n0000000000 65535 f \n", maxID+1)
	for id := 1; id <= maxID; id++ {
		if e, ok := table[id]; ok {
			fmt.Fprintf(&b, "%010d %05d n \n", e.off, e.gen)
		} else {
			b.WriteString("0000000000 65535 f \n")
		}
	}
	fmt.Fprintf(&b, "trailer\n<< /Size %d /Root %s", maxID+1, root)
	if all := infoRe.FindAllSubmatch(raw, -1); len(all) > 0 {
		last := all[len(all)-1]
		fmt.Fprintf(&b, " /Info %s %s R", last[1], last[2])
	}
	if m := encryptRe.FindSubmatch(raw); m != nil {
		fmt.Fprintf(&b, " /Encrypt %s", m[1])
	}
	if m := idRe.Find(raw); m != nil {
		b.Write(m)
	}
	fmt.Fprintf(&b, " >>\nstartxref\n%d\n%%%%EOF\n", xrefAt)
	return b.Bytes()
}

func isTooLarge(err error) bool { return errors.Is(err, ErrTooLarge) }

func classifyOpenError(err error) error {
	msg := strings.ToLower(err.Error())
	if errors.Is(err, pdf.ErrInvalidPassword) || strings.Contains(msg, "encrypt") || strings.Contains(msg, "password") {
		return fmt.Errorf("%w: %v", ErrEncrypted, err)
	}
	return fmt.Errorf("%w: %v", ErrUnreadable, err)
}

// pageRef is one leaf of the page tree with its inherited attributes.
type pageRef struct {
	v   pdf.Value
	res pdf.Value
	box [4]float64
}

const maxTreeDepth = 64

// collectPages walks the page tree, carrying inherited resources and boxes.
// It bounds depth and nodes, so a tree that contains itself fails instead of
// looping.
func collectPages(root pdf.Value, maxPages int) ([]pageRef, error) {
	var pages []pageRef
	nodes := 0
	maxNodes := 4*maxPages + 1000
	var walk func(n pdf.Value, res pdf.Value, box [4]float64, depth int) error
	walk = func(n pdf.Value, res pdf.Value, box [4]float64, depth int) error {
		if depth > maxTreeDepth {
			return fmt.Errorf("%w: page tree deeper than %d", ErrUnreadable, maxTreeDepth)
		}
		nodes++
		if nodes > maxNodes {
			return fmt.Errorf("%w: page tree has more than %d nodes", ErrUnreadable, maxNodes)
		}
		if r := n.Key("Resources"); r.Kind() == pdf.Dict {
			res = r
		}
		if b, ok := rectOf(n.Key("MediaBox")); ok {
			box = b
		}
		if b, ok := rectOf(n.Key("CropBox")); ok {
			box = b
		}
		kids := n.Key("Kids")
		if n.Key("Type").Name() != "Page" && kids.Kind() == pdf.Array {
			for i := 0; i < kids.Len(); i++ {
				k := kids.Index(i)
				if k.Kind() != pdf.Dict {
					continue
				}
				if err := walk(k, res, box, depth+1); err != nil {
					return err
				}
			}
			return nil
		}
		if len(pages) >= maxPages {
			return fmt.Errorf("%w: more than %d pages", ErrTooLarge, maxPages)
		}
		pages = append(pages, pageRef{v: n, res: res, box: box})
		return nil
	}
	err := walk(root, pdf.Value{}, [4]float64{0, 0, 612, 792}, 0)
	return pages, err
}

func rectOf(v pdf.Value) ([4]float64, bool) {
	var r [4]float64
	if v.Kind() != pdf.Array || v.Len() != 4 {
		return r, false
	}
	for i := range 4 {
		r[i] = v.Index(i).Float64()
		if math.IsNaN(r[i]) || math.IsInf(r[i], 0) {
			return r, false
		}
	}
	if r[0] > r[2] {
		r[0], r[2] = r[2], r[0]
	}
	if r[1] > r[3] {
		r[1], r[3] = r[3], r[1]
	}
	return r, r[2]-r[0] > 1 && r[3]-r[1] > 1
}

// pageLayout is one page after layout, before running headers are removed.
type pageLayout struct {
	blocks   []*block
	box      [4]float64
	unmapped bool
}

func extractFrom(raw []byte, lim Limits) (res *Result, err error) {
	defer func() {
		if r := recover(); r != nil {
			res, err = nil, fmt.Errorf("%w: %v", ErrUnreadable, r)
		}
	}()
	rd, err := pdf.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return nil, classifyOpenError(err)
	}
	trailer := rd.Trailer()
	root := trailer.Key("Root").Key("Pages")
	if root.Kind() != pdf.Dict {
		return nil, fmt.Errorf("%w: no page tree", ErrUnreadable)
	}
	refs, err := collectPages(root, lim.MaxPages)
	if err != nil {
		return nil, err
	}
	if len(refs) == 0 {
		return nil, fmt.Errorf("%w: no pages", ErrUnreadable)
	}
	res = &Result{}
	info := trailer.Key("Info")
	res.Title = strings.TrimSpace(info.Key("Title").Text())
	res.Author = strings.TrimSpace(info.Key("Author").Text())

	budget := &streamBudget{left: maxStreamBytes}
	fonts := fontCache{}
	maxGlyphs := 4*lim.MaxChars + 100_000
	layouts := make([]pageLayout, len(refs))
	glyphTotal, mappedTotal, pageErrs := 0, 0, 0
	for i, ref := range refs {
		pl, n, mapped, perr := extractPage(ref, fonts, budget, maxGlyphs-glyphTotal)
		if perr != nil {
			if isTooLarge(perr) {
				return nil, fmt.Errorf("page %d: %w", i+1, perr)
			}
			pageErrs++
		}
		glyphTotal += n
		mappedTotal += mapped
		layouts[i] = pl
	}
	removeFurniture(layouts)

	body := bodySize(layouts)
	pageParas := make([][]string, len(layouts))
	paraSizes := make([][]float64, len(layouts))
	for i, pl := range layouts {
		var paras []string
		var sizes []float64
		for _, b := range pl.blocks {
			hs := headingSize(b, body)
			for _, p := range b.paras {
				if p = strings.TrimSpace(p); p == "" {
					continue
				}
				// A word divided at the foot of one column or block ends
				// at the head of the next.
				if n := len(paras); n > 0 && endsDivided(paras[n-1], p) {
					paras[n-1] = joinLines(paras[n-1], p)
					sizes[n-1] = 0
					continue
				}
				paras = append(paras, p)
				sizes = append(sizes, hs)
			}
		}
		pageParas[i], paraSizes[i] = paras, sizes
	}
	resolveHyphens(pageParas)

	chars := 0
	for i, pl := range layouts {
		text := strings.Join(pageParas[i], "\n")
		chars += len([]rune(text))
		if chars > lim.MaxChars {
			return nil, fmt.Errorf("%w: more than %d characters", ErrTooLarge, lim.MaxChars)
		}
		res.Pages = append(res.Pages, text)
		switch {
		case pl.unmapped:
			res.UnmappedPages = append(res.UnmappedPages, i+1)
		case text == "":
			res.EmptyPages = append(res.EmptyPages, i+1)
		}
	}
	res.Spans = headingSpans(pageParas, headingLevels(paraSizes))
	if chars == 0 {
		switch {
		case len(res.UnmappedPages) > 0:
			return nil, fmt.Errorf("%w: glyphs on %d pages cannot be mapped to Unicode", ErrNoText, len(res.UnmappedPages))
		case pageErrs > 0 && glyphTotal == 0:
			return nil, fmt.Errorf("%w: %d pages could not be read", ErrUnreadable, pageErrs)
		default:
			return nil, ErrNoText
		}
	}
	return res, nil
}

// extractPage interprets one page and lays it out. It returns the number of
// glyphs shown and how many of them were mapped to Unicode.
func extractPage(ref pageRef, fonts fontCache, budget *streamBudget, maxGlyphs int) (pl pageLayout, n, mapped int, err error) {
	pl.box = ref.box
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("%w: page: %v", ErrUnreadable, r)
		}
	}()
	contents := ref.v.Key("Contents")
	var data []byte
	switch contents.Kind() {
	case pdf.Stream:
		data, err = readStream(contents, budget)
	case pdf.Array:
		for i := 0; i < contents.Len() && err == nil; i++ {
			var part []byte
			part, err = readStream(contents.Index(i), budget)
			data = append(append(data, part...), '\n')
		}
	}
	if err != nil && (isTooLarge(err) || len(data) == 0) {
		return pl, 0, 0, err
	}
	p := &pageInterp{fonts: fonts, budget: budget, maxGlph: max(maxGlyphs, 0), box: ref.box}
	p.run(data, ref.res, identity, 0)
	if p.err != nil && isTooLarge(p.err) {
		return pl, 0, 0, p.err
	}
	visible := 0
	for _, g := range p.glyphs {
		if g.space {
			continue
		}
		visible++
		if g.s != "" {
			mapped++
		}
	}
	if visible > 0 && mapped*2 < visible {
		pl.unmapped = true
		return pl, visible, mapped, nil
	}
	settleVertical(p.glyphs)
	pl.blocks = layoutPage(p.glyphs)
	return pl, visible, mapped, p.err
}
