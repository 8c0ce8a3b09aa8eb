package doctext

import (
	"encoding/xml"
	"strings"
)

// properties are what a document says about itself: the Dublin Core
// title, creators and description of an OOXML package's core properties
// (docProps/core.xml), an OpenDocument's meta.xml or an EPUB's package
// document.
type properties struct {
	title       string
	creators    []string
	description string
}

// Bounds of the properties read: a field's bytes, and the creators.
const (
	maxPropertyBytes = 4096
	maxCreators      = 16
)

// coreProperties reads the properties of part name, when the package has
// it, and keeps its title and first creator as the document's Title and
// Author (for the record; see docs/contract.md).
func (c *conv) coreProperties(z *container, name string) error {
	p, err := c.readProperties(z, name)
	if err != nil {
		return err
	}
	c.res.Title = p.title
	if len(p.creators) > 0 {
		c.res.Author = p.creators[0]
	}
	return nil
}

// readProperties reads the dc:title, dc:creator and dc:description
// elements of part name (any namespace prefix), the first title and
// description and every creator, each with its white space collapsed. A
// description written as HTML (as publishers write an EPUB's) is read as
// its text.
func (c *conv) readProperties(z *container, name string) (properties, error) {
	var p properties
	if !z.has(name) {
		return p, nil
	}
	data, err := z.read(name)
	if err != nil {
		return p, err
	}
	var field string
	var b strings.Builder
	err = c.walkXML(data, xmlHandler{
		start: func(e xml.StartElement) error {
			field = ""
			switch e.Name.Local {
			case "title", "creator", "description":
				field = e.Name.Local
			}
			b.Reset()
			return nil
		},
		text: func(s string) error {
			if field != "" && b.Len() < maxPropertyBytes {
				b.WriteString(s[:min(len(s), maxPropertyBytes-b.Len())])
			}
			return nil
		},
		end: func(xml.EndElement) error {
			v := strings.Join(strings.Fields(b.String()), " ")
			switch {
			case v == "":
			case field == "title" && p.title == "":
				p.title = v
			case field == "creator" && len(p.creators) < maxCreators:
				p.creators = append(p.creators, v)
			case field == "description" && p.description == "":
				p.description = strings.Join(strings.Fields(htmlText(v)), " ")
			}
			field = ""
			return nil
		},
	})
	return p, err
}

// frontMatter returns the blocks that open a book's text: its title, its
// creators and its description, each labelled, those it has and its
// opening (a title page) does not state already (see docs/contract.md).
func (p properties) frontMatter(opening map[string]bool) []string {
	var out []string
	if p.title != "" && !opening[p.title] {
		out = append(out, "Title: "+p.title)
	}
	if len(p.creators) > 0 && !opening[strings.Join(p.creators, ", ")] && !opening[p.creators[0]] {
		out = append(out, "Authors: "+strings.Join(p.creators, ", "))
	}
	if p.description != "" && !opening[p.description] {
		out = append(out, "Description: "+p.description)
	}
	return out
}
