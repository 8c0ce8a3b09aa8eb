package doctext

import (
	"encoding/xml"
	"slices"
	"strconv"
	"strings"
)

// comment is a reviewer's comment: who wrote it and what it says.
type comment struct {
	author, text string
}

// maxComments bounds the comments read from one document.
const maxComments = 100000

// addComments ends the current page (a slide, a sheet, or an unpaginated
// document) with its comments: a block CommentsHeading, then one block
// "author: text" per comment ("text" when no author is named). Comments
// without text are left out, and without any the page is unchanged.
func (c *conv) addComments(cs []comment) error {
	heading := false
	for _, cm := range cs {
		text := strings.Join(strings.Fields(cm.text), " ")
		if text == "" {
			continue
		}
		if !heading {
			c.flush()
			c.emit(CommentsHeading)
			heading = true
		}
		if author := strings.Join(strings.Fields(cm.author), " "); author != "" {
			text = author + ": " + text
		}
		if err := c.text(text); err != nil {
			return err
		}
		c.flush()
	}
	return nil
}

// commentSpec says how one kind of comments part is laid out: which
// elements open a comment, which attribute names its author, which
// elements hold its text and which hold none.
type commentSpec struct {
	open       []string
	authorAttr string
	text       []string
	skip       []string
	// inlineAuthors: the part lists its authors first, as <author>
	// elements numbered by their order (SpreadsheetML's comments).
	inlineAuthors bool
}

var (
	// pptxComments reads PowerPoint's comments, the legacy p:cmLst and the
	// modern (2018) p188:cmLst, whose replies are comments of their own.
	pptxComments = commentSpec{open: []string{"cm", "reply"}, authorAttr: "authorId", text: []string{"text", "t"}}
	// xlsxComments reads Excel's notes (xl/commentsN.xml).
	xlsxComments = commentSpec{open: []string{"comment"}, authorAttr: "authorId", text: []string{"t"}, skip: []string{"rPh"}, inlineAuthors: true}
	// xlsxThreaded reads Excel's threaded comments.
	xlsxThreaded = commentSpec{open: []string{"threadedComment"}, authorAttr: "personId", text: []string{"text"}}
)

// readComments reads a comments part laid out as spec says, in document
// order (a reply after the comment it answers), naming each comment's
// author through authors (id → name). A part the package does not hold
// gives none.
func (c *conv) readComments(z *container, name string, spec commentSpec, authors map[string]string) ([]comment, error) {
	if name == "" || !z.has(name) {
		return nil, nil
	}
	data, err := z.read(name)
	if err != nil {
		return nil, err
	}
	type open struct {
		slot int
		text strings.Builder
	}
	var (
		out    []comment
		stack  []*open
		inText int
		skip   int
		inline int // the part's own authors so far
		author *strings.Builder
	)
	if spec.inlineAuthors {
		authors = map[string]string{}
	}
	err = c.walkXML(data, xmlHandler{
		start: func(e xml.StartElement) error {
			local := e.Name.Local
			switch {
			case skip > 0 || slices.Contains(spec.skip, local):
				skip++
			case spec.inlineAuthors && local == "author" && len(stack) == 0:
				author = &strings.Builder{}
			case slices.Contains(spec.open, local):
				if len(out) >= maxComments {
					skip++
					return nil
				}
				stack = append(stack, &open{slot: len(out)})
				out = append(out, comment{author: authors[attr(e, spec.authorAttr)]})
			case slices.Contains(spec.text, local) && len(stack) > 0:
				inText++
			}
			return nil
		},
		end: func(e xml.EndElement) error {
			local := e.Name.Local
			switch {
			case skip > 0:
				skip--
			case author != nil && local == "author":
				authors[strconv.Itoa(inline)] = strings.TrimSpace(author.String())
				inline++
				author = nil
			case slices.Contains(spec.open, local) && len(stack) > 0:
				top := stack[len(stack)-1]
				stack = stack[:len(stack)-1]
				out[top.slot].text = top.text.String()
			case slices.Contains(spec.text, local) && inText > 0:
				inText--
			case local == "p" && len(stack) > 0:
				stack[len(stack)-1].text.WriteByte(' ')
			}
			return nil
		},
		text: func(s string) error {
			switch {
			case skip > 0:
			case author != nil:
				if author.Len() < maxChartText {
					author.WriteString(s)
				}
			case inText > 0 && len(stack) > 0:
				if b := &stack[len(stack)-1].text; b.Len() < c.lim.MaxChars {
					b.WriteString(s)
				}
			}
			return nil
		},
	})
	if err != nil {
		return nil, err
	}
	if spec.inlineAuthors {
		// Excel writes the author's name, in bold, at the head of the text.
		for i := range out {
			if a := out[i].author; a != "" {
				t := strings.TrimSpace(out[i].text)
				if rest, ok := strings.CutPrefix(t, a+":"); ok {
					out[i].text = rest
				}
			}
		}
	}
	return out, nil
}

// readAuthors reads the authors of comments from a part: the id and name
// attributes (idAttr, nameAttr) of every element named elem.
func (c *conv) readAuthors(z *container, name, elem, idAttr, nameAttr string, into map[string]string) error {
	if name == "" || !z.has(name) {
		return nil
	}
	data, err := z.read(name)
	if err != nil {
		return err
	}
	return c.walkXML(data, xmlHandler{start: func(e xml.StartElement) error {
		if e.Name.Local == elem && len(into) < maxComments {
			into[attr(e, idAttr)] = attr(e, nameAttr)
		}
		return nil
	}})
}
