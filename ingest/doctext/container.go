package doctext

import (
	"archive/zip"
	"bytes"
	"encoding/xml"
	"errors"
	"fmt"
	"io"
	"path"
	"strings"
)

// container is a zip archive read under the conversion's caps.
type container struct {
	c     *conv
	files map[string]*zip.File
}

// openZip reads a zip archive's directory, refusing one with more entries
// than the cap or whose declared sizes already pass the unpacked cap.
func (c *conv) openZip(raw []byte) (*container, error) {
	if bytes.HasPrefix(raw, oleMagic) {
		if bytes.Contains(raw, encryptedPackage) {
			return nil, ErrEncrypted
		}
		return nil, fmt.Errorf("a legacy (OLE) Office file: %w", ErrUnsupported)
	}
	zr, err := zip.NewReader(bytes.NewReader(raw), int64(len(raw)))
	if err != nil {
		return nil, fmt.Errorf("zip: %v: %w", err, ErrUnreadable)
	}
	if len(zr.File) > c.lim.MaxEntries {
		return nil, limitErr(CapEntries, c.lim.MaxEntries)
	}
	z := &container{c: c, files: make(map[string]*zip.File, len(zr.File))}
	for _, f := range zr.File {
		z.files[strings.TrimPrefix(f.Name, "/")] = f
	}
	return z, nil
}

var (
	oleMagic         = []byte{0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1}
	encryptedPackage = []byte("E\x00n\x00c\x00r\x00y\x00p\x00t\x00e\x00d\x00P\x00a\x00c\x00k\x00a\x00g\x00e\x00")
)

// has reports whether the archive holds an entry.
func (z *container) has(name string) bool { return z.files[name] != nil }

// read returns an entry's bytes, counting them against the unpacked cap
// whatever its header claims (a zip bomb's headers lie).
func (z *container) read(name string) ([]byte, error) {
	f := z.files[name]
	if f == nil {
		return nil, fmt.Errorf("no part %q: %w", name, ErrUnreadable)
	}
	room := z.c.lim.MaxUnpackedBytes - z.c.unpacked
	if int64(f.UncompressedSize64) > room || f.UncompressedSize64 > 1<<62 {
		return nil, limitErr(CapUnpackedBytes, z.c.lim.MaxUnpackedBytes)
	}
	rc, err := f.Open()
	if err != nil {
		return nil, fmt.Errorf("part %q: %v: %w", name, err, ErrUnreadable)
	}
	defer rc.Close()
	b, err := io.ReadAll(io.LimitReader(rc, room+1))
	z.c.unpacked += int64(len(b))
	if int64(len(b)) > room {
		return nil, limitErr(CapUnpackedBytes, z.c.lim.MaxUnpackedBytes)
	}
	if err != nil {
		return nil, fmt.Errorf("part %q: %v: %w", name, err, ErrUnreadable)
	}
	return b, nil
}

// xmlHandler receives a part's tokens: start and end elements with the
// depth of the element, and character data.
type xmlHandler struct {
	start func(e xml.StartElement) error
	end   func(e xml.EndElement) error
	text  func(s string) error
}

// walkXML streams an XML document through h under the depth and token
// caps. A DTD's entities are never expanded: encoding/xml refuses any
// entity it does not know, so a "billion laughs" is a malformed part.
func (c *conv) walkXML(data []byte, h xmlHandler) error {
	return c.walkXMLFrom(bytes.NewReader(data), h)
}

// walkPart streams part name through h (see walkXML), unpacking it as the
// walk reads under the unpacked cap: a walk that stops at a cap never
// unpacks the rest, nor holds the part in memory.
func (c *conv) walkPart(z *container, name string, h xmlHandler) error {
	f := z.files[name]
	if f == nil {
		return fmt.Errorf("no part %q: %w", name, ErrUnreadable)
	}
	room := c.lim.MaxUnpackedBytes - c.unpacked
	if int64(f.UncompressedSize64) > room || f.UncompressedSize64 > 1<<62 {
		return limitErr(CapUnpackedBytes, c.lim.MaxUnpackedBytes)
	}
	rc, err := f.Open()
	if err != nil {
		return fmt.Errorf("part %q: %v: %w", name, err, ErrUnreadable)
	}
	defer rc.Close()
	return c.walkXMLFrom(&unpacking{c: c, r: rc}, h)
}

// unpacking counts the bytes read from a part against the unpacked cap,
// whatever its header claims.
type unpacking struct {
	c *conv
	r io.Reader
}

func (u *unpacking) Read(p []byte) (int, error) {
	n, err := u.r.Read(p)
	u.c.unpacked += int64(n)
	if u.c.unpacked > u.c.lim.MaxUnpackedBytes {
		return n, limitErr(CapUnpackedBytes, u.c.lim.MaxUnpackedBytes)
	}
	return n, err
}

// walkXMLFrom is walkXML of the document r reads.
func (c *conv) walkXMLFrom(r io.Reader, h xmlHandler) error {
	d := xml.NewDecoder(r)
	d.Strict = true
	d.CharsetReader = func(label string, input io.Reader) (io.Reader, error) {
		if strings.EqualFold(label, "utf-8") || strings.EqualFold(label, "utf8") {
			return input, nil
		}
		return nil, fmt.Errorf("charset %q: %w", label, ErrUnsupported)
	}
	return c.walkDecoder(d, h)
}

// walkDecoder streams d's tokens through h under the depth and token caps,
// refusing a DTD that declares entities.
func (c *conv) walkDecoder(d *xml.Decoder, h xmlHandler) error {
	depth := 0
	for {
		tok, err := d.RawToken()
		if errors.Is(err, io.EOF) {
			if depth != 0 {
				return fmt.Errorf("xml ends inside an element: %w", ErrUnreadable)
			}
			return nil
		}
		if err != nil {
			if errors.Is(err, ErrUnsupported) || errors.Is(err, ErrTooLarge) {
				return err
			}
			return fmt.Errorf("xml: %v: %w", err, ErrUnreadable)
		}
		c.tokens++
		if c.tokens > c.lim.MaxXMLTokens {
			return limitErr(CapXMLTokens, c.lim.MaxXMLTokens)
		}
		if c.tokens > c.lim.MaxBareMarkup && c.tokens-c.lim.MaxBareMarkup > MarkupTokensPerTextByte*c.textBytes {
			return limitErr(CapBareMarkup, c.lim.MaxBareMarkup)
		}
		if err := c.tick(); err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			depth++
			if depth > c.lim.MaxXMLDepth {
				return limitErr(CapXMLDepth, c.lim.MaxXMLDepth)
			}
			if h.start != nil {
				if err := h.start(t); err != nil {
					return err
				}
			}
		case xml.EndElement:
			depth--
			if depth < 0 {
				return fmt.Errorf("xml: unbalanced end element: %w", ErrUnreadable)
			}
			if h.end != nil {
				if err := h.end(t); err != nil {
					return err
				}
			}
		case xml.CharData:
			c.textBytes += len(bytes.TrimSpace(t))
			if h.text != nil {
				if err := h.text(string(t)); err != nil {
					return err
				}
			}
		case xml.Directive:
			if bytes.Contains(bytes.ToUpper(t), []byte("<!ENTITY")) {
				return fmt.Errorf("xml declares entities: %w", ErrUnreadable)
			}
		}
	}
}

// attr returns the value of an element's attribute by local name.
func attr(e xml.StartElement, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local {
			return a.Value
		}
	}
	return ""
}

// attrNS returns the value of an attribute by prefix and local name (raw
// tokens keep the prefix in Space).
func attrNS(e xml.StartElement, space, local string) string {
	for _, a := range e.Attr {
		if a.Name.Local == local && a.Name.Space == space {
			return a.Value
		}
	}
	return ""
}

// rel is one relationship of an OPC part to a part of the same package.
type rel struct {
	id, typ, target string
}

// readRels reads an OPC relationships part: its internal relationships,
// targets resolved against the directory of the part they belong to. A
// package without the part has none.
func (c *conv) readRels(z *container, relsPath, baseDir string) ([]rel, error) {
	if !z.has(relsPath) {
		return nil, nil
	}
	data, err := z.read(relsPath)
	if err != nil {
		return nil, err
	}
	var out []rel
	err = c.walkXML(data, xmlHandler{start: func(e xml.StartElement) error {
		if e.Name.Local == "Relationship" && attr(e, "TargetMode") != "External" && len(out) < c.lim.MaxEntries {
			out = append(out, rel{attr(e, "Id"), attr(e, "Type"), resolve(baseDir, attr(e, "Target"))})
		}
		return nil
	}})
	return out, err
}

// relsOf reads the relationships of a part, from _rels/NAME.rels beside it.
func (c *conv) relsOf(z *container, part string) ([]rel, error) {
	dir := path.Dir(part)
	return c.readRels(z, path.Join(dir, "_rels", path.Base(part)+".rels"), dir)
}

// byID maps relationship ids to their targets.
func byID(rels []rel) map[string]string {
	m := make(map[string]string, len(rels))
	for _, r := range rels {
		m[r.id] = r.target
	}
	return m
}

// ofType returns the targets of the relationships whose type ends in
// suffix ("/comments", "/notesSlide"), in order.
func ofType(rels []rel, suffix string) []string {
	var out []string
	for _, r := range rels {
		if strings.HasSuffix(r.typ, suffix) {
			out = append(out, r.target)
		}
	}
	return out
}

// mainPart returns the package's main part named by its root
// relationships, or def when they name none.
func (c *conv) mainPart(z *container, def string) string {
	rels, err := c.readRels(z, "_rels/.rels", "")
	if t := ofType(rels, "/officeDocument"); err == nil && len(t) > 0 {
		return t[0]
	}
	return def
}

// resolve joins a relative part name to a base directory inside a package.
func resolve(baseDir, target string) string {
	if strings.HasPrefix(target, "/") {
		return strings.TrimPrefix(path.Clean(target), "/")
	}
	return strings.TrimPrefix(path.Clean(path.Join("/", baseDir, target)), "/")
}

// verifySizes inflates every entry under the unpacked cap and checks that
// each holds exactly the size its header declares, for readers that trust
// the headers.
func (z *container) verifySizes() error {
	var total int64
	for name, f := range z.files {
		if err := z.c.tick(); err != nil {
			return err
		}
		room := z.c.lim.MaxUnpackedBytes - total
		if f.UncompressedSize64 > uint64(room) {
			return limitErr(CapUnpackedBytes, z.c.lim.MaxUnpackedBytes)
		}
		rc, err := f.Open()
		if err != nil {
			return fmt.Errorf("part %q: %v: %w", name, err, ErrUnreadable)
		}
		n, err := io.Copy(io.Discard, io.LimitReader(rc, room+1))
		rc.Close()
		total += n
		switch {
		case n > room:
			return limitErr(CapUnpackedBytes, z.c.lim.MaxUnpackedBytes)
		case err != nil:
			return fmt.Errorf("part %q: %v: %w", name, err, ErrUnreadable)
		case uint64(n) != f.UncompressedSize64:
			return fmt.Errorf("part %q holds %d bytes, declares %d: %w", name, n, f.UncompressedSize64, ErrUnreadable)
		}
	}
	return nil
}
