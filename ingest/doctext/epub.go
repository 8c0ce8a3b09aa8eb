package doctext

import (
	"encoding/xml"
	"errors"
	"fmt"
	"path"
	"strings"

	"github.com/digestd/digestd/ingest/htmltext"
)

// epub converts a book: its chapters in spine order, each through the HTML
// extractor, as blocks of one unpaginated text.
func (c *conv) epub(raw []byte) error {
	z, err := c.openZip(raw)
	if err != nil {
		return err
	}
	if err := c.epubEncrypted(z); err != nil {
		return err
	}
	data, err := z.read("META-INF/container.xml")
	if err != nil {
		return err
	}
	var opf string
	err = c.walkXML(data, xmlHandler{start: func(e xml.StartElement) error {
		if e.Name.Local == "rootfile" && opf == "" {
			opf = resolve("", attr(e, "full-path"))
		}
		return nil
	}})
	if err != nil {
		return err
	}
	if opf == "" {
		return fmt.Errorf("no package document: %w", ErrUnreadable)
	}
	if err := c.coreProperties(z, opf); err != nil {
		return err
	}
	data, err = z.read(opf)
	if err != nil {
		return err
	}
	type item struct{ href, mediaType, props string }
	items := map[string]item{}
	var spine []string
	err = c.walkXML(data, xmlHandler{start: func(e xml.StartElement) error {
		switch e.Name.Local {
		case "item":
			items[attr(e, "id")] = item{resolve(path.Dir(opf), attr(e, "href")), attr(e, "media-type"), attr(e, "properties")}
		case "itemref":
			if attr(e, "linear") != "no" {
				spine = append(spine, attr(e, "idref"))
			}
		}
		return nil
	}})
	if err != nil {
		return err
	}
	for _, id := range spine {
		it, ok := items[id]
		if !ok || strings.Contains(it.props, "nav") || !strings.Contains(it.mediaType, "html") {
			continue
		}
		page, err := z.read(it.href)
		if err != nil {
			return err
		}
		res, err := htmltext.Extract(page, "application/xhtml+xml", "")
		switch {
		case errors.Is(err, htmltext.ErrTooLarge), errors.Is(err, htmltext.ErrTooManyNodes):
			return fmt.Errorf("chapter: %v: %w", err, ErrTooLarge)
		case errors.Is(err, htmltext.ErrNotHTML):
			continue
		case err != nil:
			return fmt.Errorf("chapter: %v: %w", err, ErrUnreadable)
		}
		for _, b := range res.Blocks {
			if err := c.text(b); err != nil {
				return err
			}
			c.flush()
		}
	}
	return nil
}

// epubEncrypted refuses a book whose content documents are encrypted
// (DRM); obfuscated fonts alone are no obstacle.
func (c *conv) epubEncrypted(z *container) error {
	const name = "META-INF/encryption.xml"
	if !z.has(name) {
		return nil
	}
	data, err := z.read(name)
	if err != nil {
		return err
	}
	return c.refuseEncrypted(data, func(e xml.StartElement) bool {
		if e.Name.Local != "CipherReference" {
			return false
		}
		switch strings.ToLower(path.Ext(attr(e, "URI"))) {
		case ".xhtml", ".html", ".htm", ".xml":
			return true
		}
		return false
	})
}

// refuseEncrypted walks a container's encryption manifest and answers
// ErrEncrypted when one of its elements declares encrypted content.
func (c *conv) refuseEncrypted(data []byte, encrypted func(xml.StartElement) bool) error {
	found := false
	err := c.walkXML(data, xmlHandler{start: func(e xml.StartElement) error {
		found = found || encrypted(e)
		return nil
	}})
	if err != nil {
		return err
	}
	if found {
		return ErrEncrypted
	}
	return nil
}
