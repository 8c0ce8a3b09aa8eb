package htmltext

import (
	"encoding/json"
	"net/url"
	"strings"

	"github.com/PuerkitoBio/goquery"
	"golang.org/x/net/html"
)

// maxJSONLD caps the size of one JSON-LD script that is decoded.
const maxJSONLD = 1 << 20

// readMetadata collects metadata from <title>, <meta> (name, property and
// itemprop forms, OpenGraph), JSON-LD, <html lang> and <link rel=canonical>.
// Explicit article metadata wins over generic page metadata. It also
// reports whether the page declares itself an article (a JSON-LD object of
// an article type, or og:type article).
func readMetadata(doc *html.Node, pageURL string) (Metadata, bool) {
	d := goquery.NewDocumentFromNode(doc)
	meta := map[string]string{}
	d.Find("meta").Each(func(_ int, s *goquery.Selection) {
		content, ok := s.Attr("content")
		content = strings.TrimSpace(content)
		if !ok || content == "" {
			return
		}
		for _, attr := range []string{"name", "property", "itemprop", "http-equiv"} {
			if k, ok := s.Attr(attr); ok {
				k = strings.ToLower(strings.TrimSpace(k))
				if _, seen := meta[k]; !seen && k != "" {
					meta[k] = content
				}
			}
		}
	})
	ld := readJSONLD(d)
	first := func(vals ...string) string {
		for _, v := range vals {
			if v = collapse(v); v != "" {
				return v
			}
		}
		return ""
	}
	var m Metadata
	m.Title = first(ld.headline, meta["og:title"], meta["twitter:title"], d.Find("title").First().Text())
	m.Author = first(ld.author, meta["author"], meta["article:author"], meta["byl"], meta["dc.creator"], meta["parsely-author"])
	if strings.HasPrefix(m.Author, "http://") || strings.HasPrefix(m.Author, "https://") {
		m.Author = first(meta["author"], meta["dc.creator"], meta["parsely-author"])
	}
	m.Published = first(ld.published, meta["article:published_time"], meta["datepublished"], meta["date"],
		meta["pubdate"], meta["publishdate"], meta["dc.date"], meta["dc.date.issued"], meta["og:published_time"])
	lang, _ := d.Find("html").First().Attr("lang")
	m.Language = first(lang, meta["content-language"], meta["language"], meta["dc.language"], ld.language,
		strings.ReplaceAll(meta["og:locale"], "_", "-"))
	canon, _ := d.Find(`link[rel~="canonical"]`).First().Attr("href")
	m.CanonicalURL = resolve(pageURL, first(canon, meta["og:url"]))
	m.SiteName = first(meta["og:site_name"], ld.publisher, meta["application-name"])
	return m, ld.article || strings.EqualFold(meta["og:type"], "article")
}

func collapse(s string) string { return strings.Join(strings.Fields(s), " ") }

// resolve makes ref absolute against base when both parse; else ref as is.
func resolve(base, ref string) string {
	if ref == "" {
		return ""
	}
	r, err := url.Parse(ref)
	if err != nil {
		return ref
	}
	b, err := url.Parse(base)
	if err != nil || !b.IsAbs() {
		return ref
	}
	return b.ResolveReference(r).String()
}

// ldArticle is what is taken from the first JSON-LD object of an
// article-like @type.
type ldArticle struct {
	headline, author, published, publisher, language string
	// article is set when such an object was found.
	article bool
}

func readJSONLD(d *goquery.Document) ldArticle {
	var out ldArticle
	found := false
	d.Find(`script[type="application/ld+json"]`).EachWithBreak(func(_ int, s *goquery.Selection) bool {
		text := s.Text()
		if len(text) > maxJSONLD {
			return true
		}
		var v any
		if json.Unmarshal([]byte(text), &v) != nil {
			return true
		}
		if obj := findArticle(v, 0); obj != nil {
			out = ldArticle{
				headline:  ldString(obj["headline"], 0),
				author:    ldString(obj["author"], 0),
				published: ldString(obj["datePublished"], 0),
				publisher: ldString(obj["publisher"], 0),
				language:  ldString(obj["inLanguage"], 0),
				article:   true,
			}
			if out.headline == "" {
				out.headline = ldString(obj["name"], 0)
			}
			found = true
		}
		return !found
	})
	return out
}

// findArticle returns the first object (depth-first, through arrays and
// @graph) whose @type names an article, report, blog post or web page
// content type.
func findArticle(v any, depth int) map[string]any {
	if depth > 8 {
		return nil
	}
	switch x := v.(type) {
	case []any:
		for _, e := range x {
			if o := findArticle(e, depth+1); o != nil {
				return o
			}
		}
	case map[string]any:
		if isArticleType(x["@type"]) {
			return x
		}
		if g, ok := x["@graph"]; ok {
			return findArticle(g, depth+1)
		}
	}
	return nil
}

func isArticleType(t any) bool {
	switch x := t.(type) {
	case string:
		return strings.HasSuffix(x, "Article") || x == "BlogPosting" || x == "Report" || x == "LiveBlogPosting" || x == "SocialMediaPosting"
	case []any:
		for _, e := range x {
			if isArticleType(e) {
				return true
			}
		}
	}
	return false
}

// ldString flattens a JSON-LD value to text: strings as they are, objects
// by their name, arrays joined with ", ".
func ldString(v any, depth int) string {
	if depth > 4 {
		return ""
	}
	switch x := v.(type) {
	case string:
		return collapse(html.UnescapeString(x))
	case map[string]any:
		return ldString(x["name"], depth+1)
	case []any:
		var parts []string
		for _, e := range x {
			if s := ldString(e, depth+1); s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ", ")
	}
	return ""
}
