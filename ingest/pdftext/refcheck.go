package pdftext

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
)

// Bounds of the reference check.
const (
	// maxXrefSections bounds a /Prev chain of cross-reference sections.
	maxXrefSections = 10_000
	// maxObjStmObjects bounds an object stream's /N: the reader reads N
	// pairs of numbers before each object it looks up there. Writers put
	// a few hundred objects in one stream.
	maxObjStmObjects = 100_000
	// maxObjStms bounds the object streams whose dictionaries are checked.
	maxObjStms = 100_000
)

var (
	prevRe    = regexp.MustCompile(`/Prev\s+(\d+)`)
	objHeadRe = regexp.MustCompile(`(\d+)\s+\d+\s+obj\s*$`)
	objNRe    = regexp.MustCompile(`/N\s+(\d+)`)
	extendsRe = regexp.MustCompile(`/Extends\s+(\d+)\s+\d+\s+R`)
)

// checkReferences fails with ErrUnreadable, before the reader sees raw, on
// the reference structures the reader would follow without end: a /Prev
// chain of cross-reference sections that comes back to a section, an
// object stream that /Extends itself (directly or through others), and an
// object stream whose /N is beyond any real one. It scans bytes only and
// takes milliseconds; structures it cannot read are left to the reader.
func checkReferences(raw []byte) error {
	if err := checkPrevChain(raw); err != nil {
		return err
	}
	return checkObjectStreams(raw)
}

// checkPrevChain follows startxref and every /Prev from the last section.
func checkPrevChain(raw []byte) error {
	i := bytes.LastIndex(raw, []byte("startxref"))
	if i < 0 {
		return nil
	}
	off, ok := leadingInt(raw[i+len("startxref"):])
	seen := map[int]bool{}
	for ok {
		if seen[off] {
			return fmt.Errorf("%w: the cross-reference sections' /Prev chain returns to offset %d", ErrUnreadable, off)
		}
		if len(seen) >= maxXrefSections {
			return fmt.Errorf("%w: more than %d cross-reference sections", ErrUnreadable, maxXrefSections)
		}
		seen[off] = true
		if off < 0 || off >= len(raw) {
			return nil
		}
		dict := sectionDict(raw[off:])
		m := prevRe.FindSubmatch(dict)
		if m == nil {
			return nil
		}
		off, ok = atoi(m[1])
	}
	return nil
}

// sectionDict returns the dictionary of the cross-reference section at the
// start of b: a table's trailer, or an xref stream's dictionary; nil when
// b holds neither.
func sectionDict(b []byte) []byte {
	t := bytes.TrimLeft(b, " \t\r\n\f\x00")
	if bytes.HasPrefix(t, []byte("xref")) {
		k := bytes.Index(t, []byte("trailer"))
		if k < 0 {
			return nil
		}
		return dictAt(t[k:])
	}
	if len(t) > 0 && t[0] >= '0' && t[0] <= '9' {
		end := min(len(t), 64)
		if k := bytes.Index(t[:end], []byte("obj")); k > 0 {
			return dictAt(t[k:])
		}
	}
	return nil
}

// dictAt returns the first dictionary in b, "<<" to its matching ">>".
func dictAt(b []byte) []byte {
	start := bytes.Index(b, []byte("<<"))
	if start < 0 {
		return nil
	}
	depth := 0
	for i := start; i+1 < len(b); i++ {
		switch {
		case b[i] == '<' && b[i+1] == '<':
			depth++
			i++
		case b[i] == '>' && b[i+1] == '>':
			depth--
			i++
			if depth == 0 {
				return b[start : i+1]
			}
		}
	}
	return nil
}

// checkObjectStreams reads the dictionary of every object stream.
func checkObjectStreams(raw []byte) error {
	extends := map[int]int{}
	for at, n := 0, 0; n < maxObjStms; n++ {
		k := bytes.Index(raw[at:], []byte("/ObjStm"))
		if k < 0 {
			break
		}
		pos := at + k
		at = pos + len("/ObjStm")
		// The dictionary opens after "N G obj" a little before the name.
		from := max(0, pos-4096)
		open := bytes.LastIndex(raw[from:pos], []byte("<<"))
		if open < 0 {
			continue
		}
		open += from
		head := objHeadRe.FindSubmatch(bytes.TrimRight(raw[max(0, open-64):open], " \t\r\n\f\x00"))
		dict := dictAt(raw[open:])
		if head == nil || dict == nil {
			continue
		}
		id, _ := atoi(head[1])
		if m := objNRe.FindSubmatch(dict); m != nil {
			if n, ok := atoi(m[1]); !ok || n > maxObjStmObjects {
				return fmt.Errorf("%w: object stream %d claims %s objects (at most %d)", ErrUnreadable, id, m[1], maxObjStmObjects)
			}
		}
		if m := extendsRe.FindSubmatch(dict); m != nil {
			if ext, ok := atoi(m[1]); ok {
				extends[id] = ext
			}
		}
	}
	for start := range extends {
		seen := map[int]bool{}
		for id, ok := start, true; ok; id, ok = extends[id] {
			if seen[id] {
				return fmt.Errorf("%w: object stream %d extends itself", ErrUnreadable, id)
			}
			seen[id] = true
		}
	}
	return nil
}

// leadingInt parses the integer after leading white space in b.
func leadingInt(b []byte) (int, bool) {
	b = bytes.TrimLeft(b, " \t\r\n\f\x00")
	n := 0
	for n < len(b) && n < 20 && b[n] >= '0' && b[n] <= '9' {
		n++
	}
	return atoi(b[:n])
}

// atoi parses a decimal of at most 12 digits.
func atoi(b []byte) (int, bool) {
	if len(b) == 0 || len(b) > 12 {
		return 0, false
	}
	n, err := strconv.Atoi(string(b))
	return n, err == nil
}
