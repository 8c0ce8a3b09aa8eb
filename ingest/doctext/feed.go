package doctext

import (
	"bytes"
	"encoding/xml"
	"fmt"
	"io"
	"strings"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// xmlDecoder returns a decoder for a standalone XML document whose bytes
// are UTF-8 already (ingest/charset read them in the charset its
// declaration names): the declaration is passed over. It is lenient as
// feeds need (an HTML entity such as &nbsp;, a bare & in a URL), and an
// entity it does not know stays as written, never expanded.
func xmlDecoder(raw []byte) *xml.Decoder {
	d := xml.NewDecoder(bytes.NewReader(bytes.TrimPrefix(raw, []byte("\ufeff"))))
	d.Strict = false
	d.Entity = xml.HTMLEntity
	d.CharsetReader = func(_ string, in io.Reader) (io.Reader, error) { return in, nil }
	return d
}

// feedItem is an RSS item or an Atom entry.
type feedItem struct{ title, date, link, summary string }

// maxFeedField bounds one field of a feed or an item, in bytes (a full
// article's content:encoded is a summary's stand-in only this far).
const maxFeedField = 64 << 10

// feed converts an RSS (0.9x, 1.0, 2.0) or Atom feed into a list of items:
// the feed's title and its description (or subtitle) first, then each item
// or entry as one block, in document order, its title, date, link and
// summary joined by CellSeparator as a table row's cells are. The date is
// as the feed writes it (pubDate, dc:date, published, else updated); the
// link is an item's <link> text or its alternate link's href; the summary
// is the description or summary (else the content) as text, its HTML
// taken apart. Elements of other namespaces (media:, itunes:) are no text.
func (c *conv) feed(raw []byte) error {
	if !utf8.Valid(raw) {
		return fmt.Errorf("not UTF-8: %w", ErrUnreadable)
	}
	var (
		path     []string  // local names of the open elements
		item     *feedItem // the open item, if any
		itemAt   int       // its depth
		items    []feedItem
		title    string
		subtitle string
		field    *string // where the open field's text goes
		fieldAt  int
		buf      strings.Builder
		total    int
		updated  string // an Atom entry's updated, its date if it has no published
		fallback string // an item's content, its summary if it has none
	)
	start := func(e xml.StartElement) error {
		path = append(path, e.Name.Local)
		depth := len(path)
		if field != nil {
			return nil // markup inside a field (Atom's xhtml content)
		}
		name := e.Name.Local
		if item == nil && (name == "item" || name == "entry") {
			item, itemAt = &feedItem{}, depth
			updated, fallback = "", ""
			return nil
		}
		// Only the unprefixed or Dublin Core elements of a feed are read:
		// media:title or itunes:summary repeat or add nothing.
		if p := e.Name.Space; p != "" && p != "dc" && p != "atom" && p != "content" {
			return nil
		}
		if item != nil && depth == itemAt+1 {
			switch name {
			case "title":
				field = &item.title
			case "pubDate", "published", "date":
				field = &item.date
			case "updated":
				field = &updated
			case "link":
				href := attr(e, "href")
				rel := attr(e, "rel")
				if href != "" && item.link == "" && (rel == "" || rel == "alternate") {
					item.link = href
				}
				if href == "" {
					field = &item.link
				}
			case "description", "summary":
				field = &item.summary
			case "content", "encoded":
				field = &fallback
			}
		} else if item == nil && depth >= 2 && (path[depth-2] == "channel" || path[depth-2] == "feed") {
			switch name {
			case "title":
				field = &title
			case "description", "subtitle":
				field = &subtitle
			}
		}
		if field != nil {
			if *field != "" {
				field = nil // the first of a field holds
				return nil
			}
			fieldAt = depth
			buf.Reset()
		}
		return nil
	}
	end := func(xml.EndElement) error {
		depth := len(path)
		path = path[:depth-1]
		if field != nil && depth == fieldAt {
			*field = strings.TrimSpace(buf.String())
			field = nil
		}
		if item != nil && depth == itemAt {
			if item.date == "" {
				item.date = updated
			}
			if item.summary == "" {
				item.summary = fallback
			}
			item.summary = htmlText(item.summary)
			total += len(item.title) + len(item.date) + len(item.link) + len(item.summary)
			if total > c.lim.MaxChars {
				return fmt.Errorf("text over %d bytes: %w", c.lim.MaxChars, ErrTooLarge)
			}
			items = append(items, *item)
			item = nil
		}
		return nil
	}
	text := func(s string) error {
		if field != nil && buf.Len() < maxFeedField {
			buf.WriteString(s)
		}
		return nil
	}
	if err := c.walkDecoder(xmlDecoder(raw), xmlHandler{start: start, end: end, text: text}); err != nil {
		return err
	}
	title = strings.Join(strings.Fields(htmlText(title)), " ")
	c.res.Title = title
	for _, s := range []string{title, htmlText(subtitle)} {
		if err := c.text(s); err != nil {
			return err
		}
		c.flush()
	}
	for _, it := range items {
		if err := c.row([]string{htmlText(it.title), it.date, it.link, it.summary}); err != nil {
			return err
		}
	}
	return nil
}

// htmlText returns the text of s read as HTML (a feed's escaped markup):
// its elements' text, block elements apart, its entities decoded. Text
// without markup or references is returned as it is.
func htmlText(s string) string {
	if !strings.ContainsAny(s, "<&") {
		return s
	}
	nodes, err := html.ParseFragment(strings.NewReader(s), bodyContext())
	if err != nil {
		return s
	}
	var b strings.Builder
	for _, n := range nodes {
		wrapper := &html.Node{Type: html.DocumentNode}
		wrapper.AppendChild(n)
		htmlTextTo(&b, wrapper, 0, maxFeedField)
	}
	return b.String()
}

// plainXML converts XML that is no feed into its text nodes in document
// order. A run of text, with the elements inside it, is one block: a tag
// with no text beside it (only white space, or none, since the last tag)
// ends the block, so that <title>A</title><author>B</author> is two blocks
// and <p>a <b>bold</b> word</p> one. Attributes, comments and processing
// instructions are no text.
func (c *conv) plainXML(raw []byte) error {
	if !utf8.Valid(raw) {
		return fmt.Errorf("not UTF-8: %w", ErrUnreadable)
	}
	var sawText bool // text since the last tag
	tag := func() error {
		if !sawText {
			c.flush()
		}
		sawText = false
		return nil
	}
	return c.walkDecoder(xmlDecoder(raw), xmlHandler{
		start: func(xml.StartElement) error { return tag() },
		end:   func(xml.EndElement) error { return tag() },
		text: func(s string) error {
			if strings.TrimSpace(s) != "" {
				sawText = true
			}
			return c.text(s)
		},
	})
}
