package doctext

import (
	"encoding/xml"
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/digestd/digestd/ingest/htmltext"
)

// epub converts a book: a front matter of its title, creators and
// description (see properties.frontMatter), then its chapters in spine
// order, each read by the HTML extractor as a document (see
// htmltext.Options.Document), without the running heads they repeat, as
// blocks of one unpaginated text. The navigation document is not read.
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
	props, err := c.readProperties(z, opf)
	if err != nil {
		return err
	}
	c.res.Title = props.title
	if len(props.creators) > 0 {
		c.res.Author = props.creators[0]
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
	var chapters []*htmltext.Result
	size := 0
	for _, id := range spine {
		it, ok := items[id]
		if !ok || slices.Contains(strings.Fields(it.props), "nav") || !strings.Contains(it.mediaType, "html") {
			continue
		}
		page, err := z.read(it.href)
		if err != nil {
			return err
		}
		res, err := htmltext.ExtractWith(page, "application/xhtml+xml", "", htmltext.Options{Document: true, Trace: c.res.Trace})
		switch {
		case errors.Is(err, htmltext.ErrTooLarge):
			return limitErr(CapChapterBytes, htmltext.MaxInputBytes)
		case errors.Is(err, htmltext.ErrTooManyNodes):
			return limitErr(CapChapterNodes, htmltext.DefaultMaxNodes)
		case errors.Is(err, htmltext.ErrNotHTML):
			continue
		case err != nil:
			return fmt.Errorf("chapter: %v: %w", err, ErrUnreadable)
		}
		// The chapters are held until their running heads are known:
		// their text counts against the cap as it is read.
		if size += len(res.Text); size > c.lim.MaxChars {
			return c.textTooLarge()
		}
		chapters = append(chapters, res)
	}
	htmltext.RunningHeads(chapters, c.res.Trace)
	for _, b := range props.frontMatter(opening(chapters)) {
		if err := c.text(b); err != nil {
			return err
		}
		c.flush()
	}
	for _, res := range chapters {
		for _, b := range res.Blocks {
			if err := c.text(b); err != nil {
				return err
			}
			c.flush()
		}
	}
	return nil
}

// openingBlocks is how many blocks of a book's first chapters make its
// opening, where a title page states its title and authors.
const openingBlocks = 5

// opening returns the first openingBlocks blocks of chapters.
func opening(chapters []*htmltext.Result) map[string]bool {
	out := map[string]bool{}
	for _, ch := range chapters {
		for _, b := range ch.Blocks {
			if len(out) == openingBlocks {
				return out
			}
			out[b] = true
		}
	}
	return out
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
