package doctext

import (
	"encoding/xml"
	"fmt"
	"strings"

	"github.com/digestd/digestd/structure"
)

// pptx converts a presentation: each slide, in the presentation's order,
// is a page of its shapes' paragraphs and table rows, pictures' alt text
// and charts' data, followed by its speaker notes and its comments; the
// page's name is the slide's title.
func (c *conv) pptx(raw []byte) error {
	z, err := c.openZip(raw)
	if err != nil {
		return err
	}
	if err := c.coreProperties(z, "docProps/core.xml"); err != nil {
		return err
	}
	pres := c.mainPart(z, "ppt/presentation.xml")
	rels, err := c.relsOf(z, pres)
	if err != nil {
		return err
	}
	// The authors of comments: the legacy list (ids by number) and the
	// modern one (ids are GUIDs), whichever the presentation has.
	authors := map[string]string{}
	for _, part := range ofType(rels, "/commentAuthors") {
		if err := c.readAuthors(z, part, "cmAuthor", "id", "name", authors); err != nil {
			return err
		}
	}
	for _, part := range ofType(rels, "/authors") {
		if err := c.readAuthors(z, part, "author", "id", "name", authors); err != nil {
			return err
		}
	}
	data, err := z.read(pres)
	if err != nil {
		return err
	}
	ids := byID(rels)
	var slides []string
	err = c.walkXML(data, xmlHandler{start: func(e xml.StartElement) error {
		if e.Name.Local == "sldId" {
			if target := ids[attrNS(e, "r", "id")]; target != "" {
				slides = append(slides, target)
			}
		}
		return nil
	}})
	if err != nil {
		return err
	}
	if len(slides) == 0 {
		return fmt.Errorf("no slides: %w", ErrUnreadable)
	}
	for _, slide := range slides {
		if err := c.slide(z, slide, authors); err != nil {
			return err
		}
	}
	return nil
}

// slide converts one slide, its notes and its comments into a page.
func (c *conv) slide(z *container, name string, authors map[string]string) error {
	data, err := z.read(name)
	if err != nil {
		return err
	}
	rels, err := c.relsOf(z, name)
	if err != nil {
		return err
	}
	c.startPage("")
	s := newShapeWalker(c, false)
	s.z, s.rels, s.alt = z, byID(rels), "cNvPr"
	if err := c.walkXML(data, s.handler()); err != nil {
		return err
	}
	c.flush()
	c.res.PageNames[len(c.res.PageNames)-1] = strings.Join(strings.Fields(s.title.String()), " ")
	if notes := ofType(rels, "/notesSlide"); len(notes) > 0 {
		data, err = z.read(notes[0])
		if err != nil {
			return err
		}
		n := newShapeWalker(c, true)
		if err := c.walkXML(data, n.handler()); err != nil {
			return err
		}
		c.flush()
	}
	var comments []comment
	for _, part := range ofType(rels, "/comments") {
		cs, err := c.readComments(z, part, pptxComments, authors)
		if err != nil {
			return err
		}
		comments = append(comments, cs...)
	}
	return c.addComments(comments)
}

// shapeWalker reads a slide's shapes (or a notes page's body) with a
// wordWalker, which DrawingML's paragraphs, runs and tables resemble, and
// leaves out placeholders that are not content: slide numbers, dates,
// footers, a notes page's slide image.
type shapeWalker struct {
	*wordWalker
	notes   bool
	depth   int
	shape   int // depth of the open shape, 0 outside
	skipped bool
	isTitle bool
	title   strings.Builder
}

func newShapeWalker(c *conv, notes bool) *shapeWalker {
	return &shapeWalker{wordWalker: &wordWalker{c: c}, notes: notes}
}

func (s *shapeWalker) handler() xmlHandler {
	return xmlHandler{
		start: func(e xml.StartElement) error {
			s.depth++
			switch e.Name.Local {
			case "sp", "graphicFrame":
				if s.shape == 0 {
					s.shape, s.skipped, s.isTitle = s.depth, s.notes, false
				}
			case "ph":
				if s.shape > 0 {
					typ := attr(e, "type")
					switch {
					case s.notes:
						s.skipped = typ != "body"
					case typ == "sldNum" || typ == "dt" || typ == "ftr" || typ == "hdr":
						s.skipped = true
					case typ == "title" || typ == "ctrTitle":
						s.isTitle = true
					}
				}
			}
			if s.shape > 0 && s.skipped {
				return nil
			}
			if e.Name.Local == "p" && s.isTitle && len(s.tables) == 0 {
				// The slide's title is its heading.
				s.c.flush()
				s.c.blockKind(structure.Span{Kind: structure.Heading, Level: 1})
			}
			return s.start(e)
		},
		end: func(e xml.EndElement) error {
			defer func() { s.depth-- }()
			if s.shape > 0 && s.skipped {
				if s.depth == s.shape {
					s.shape = 0
				}
				return nil
			}
			if s.depth == s.shape {
				s.shape = 0
				s.isTitle = false
			}
			return s.end(e)
		},
		text: func(t string) error {
			if s.shape > 0 && s.skipped {
				return nil
			}
			if s.isTitle && s.inText && s.title.Len() < 1024 {
				s.title.WriteString(t)
			}
			return s.chars(t)
		},
	}
}
