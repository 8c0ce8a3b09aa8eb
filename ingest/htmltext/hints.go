package htmltext

import (
	"strings"

	"golang.org/x/net/html"
)

// Element sets used by cleaning, scoring and emission.
var (
	// dropTags never hold main content text. A ruby annotation (<rt>, the
	// reading set above a word, and <rp>, the parentheses shown where
	// ruby is not supported) is a gloss of the text beside it, not text
	// of its own: read inline it repeats each word.
	dropTags = setOf("script", "style", "template", "svg", "math", "iframe", "object", "embed",
		"canvas", "button", "input", "select", "textarea", "option", "video", "audio", "map", "dialog",
		"link", "meta", "head", "title", "frameset", "frame", "applet", "datalist", "output", "progress",
		"rt", "rp")
	// impliedEndTags are dropTags whose end tag a page may leave out (the
	// next annotation or the end of the ruby closes them): the flat scan,
	// which counts end tags, cannot tell where they end and reads them.
	impliedEndTags = setOf("rt", "rp")
	voidTags       = setOf("input", "link", "meta", "embed", "br", "img", "hr", "wbr", "area", "base", "col", "source", "track")

	// blockTags start and end a block of text.
	blockTags = setOf("address", "article", "aside", "blockquote", "body", "caption", "center", "dd", "details",
		"dir", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2", "h3", "h4",
		"h5", "h6", "header", "hgroup", "hr", "html", "legend", "li", "main", "menu", "nav", "ol", "p", "pre",
		"section", "summary", "table", "tbody", "td", "tfoot", "th", "thead", "tr", "ul", "listing", "plaintext",
		"xmp", "noframes")

	// paragraphTags hold a paragraph's text: their text credits their
	// parent, the container of the paragraph.
	paragraphTags = setOf("p", "pre", "td", "th", "blockquote", "dd", "dt", "li", "figcaption", "caption",
		"address", "summary", "h1", "h2", "h3", "h4", "h5", "h6")
	headingTags = setOf("h1", "h2", "h3", "h4", "h5", "h6")
	// subheadTags are the headings below a title: an article header
	// sets its standfirst in one of them as often as in a <p>.
	subheadTags = setOf("h2", "h3", "h4", "h5", "h6")

	// containerTags are the elements emission may skip as a whole when they
	// look like boilerplate inside the main content.
	containerTags = setOf("div", "section", "ul", "ol", "dl", "table", "form", "header", "footer", "aside",
		"nav", "figure", "menu", "center", "details", "fieldset")

	// strongBoilerplateSubstrings in a class or id mark navigation,
	// comments, sharing, ads, the card of a post's poster (a name, a
	// reputation, "answered ... at ..."; "user-info") and similar page
	// furniture.
	strongBoilerplateSubstrings = substringsOf("comment", "disqus", "cookie", "consent", "gdpr", "newsletter",
		"subscri", "sharing", "share-", "-share", "sharebar", "social", "related", "sidebar", "breadcrumb",
		"footer", "navbar", "navigation", "outbrain", "taboola", "advert", "sponsor", "recommend", "replies",
		"skyscraper", "shoutbox", "popup", "popover", "modal", "agegate", "pagination", "pager", "signup", "login",
		"user-info", "userinfo")
	strongBoilerplateTokens = setOf("nav", "ad", "ads", "share", "shares")
	// weakBoilerplateSubstrings mark furniture less surely: an element
	// holding several paragraphs is kept despite them.
	weakBoilerplateSubstrings = substringsOf("header", "masthead", "menu", "banner", "promo", "toolbar", "widget",
		"overlay", "teaser", "community", "legends", "remark", "rss", "combx", "extra", "jump-to", "print-only",
		"tags", "supplemental")
	weakBoilerplateTokens = setOf("tag", "meta", "byline", "author", "dateline", "hidden", "hide", "skip",
		"foot", "credit", "credits", "copyright", "more", "trending", "popular", "most", "topics", "keywords",
		"cta", "print")
	// contentSubstrings in a class or id mark likely main content; they
	// also protect an element from removal by boilerplate hints.
	contentSubstrings = substringsOf("article", "content", "entry", "hentry", "h-entry", "main", "post", "text",
		"blog", "story", "body", "column", "shadow")
	// contentWeightSubstrings raise an element's content score.
	contentWeightSubstrings = substringsOf("article", "content", "entry", "hentry", "h-entry", "main", "post",
		"text", "blog", "story", "body")
	// negativeWeightSubstrings lower an element's content score.
	negativeWeightSubstrings = substringsOf("comment", "com-", "contact", "footer", "masthead", "media", "outbrain",
		"promo", "related", "scroll", "share", "shoutbox", "sidebar", "skyscraper", "sponsor", "shopping",
		"widget", "banner", "breadcrumb", "social", "cookie", "newsletter", "teaser", "recommend", "nav", "menu")
	negativeWeightTokens = setOf("ad", "ads", "meta", "tags", "hid", "hidden", "byline", "author", "more")

	boilerplateRoles = setOf("navigation", "banner", "contentinfo", "complementary", "search", "dialog",
		"alertdialog", "menu", "menubar", "toolbar", "tooltip")
)

func setOf(names ...string) map[string]bool {
	m := make(map[string]bool, len(names))
	for _, n := range names {
		m[n] = true
	}
	return m
}

func attr(n *html.Node, key string) string {
	for _, a := range n.Attr {
		if a.Key == key {
			return a.Val
		}
	}
	return ""
}

// hintText is the lowercased class and id of n, the text hints are read from.
func hintText(n *html.Node) string {
	names := hintNames(n)
	if names == [3]string{} {
		return ""
	}
	return strings.ToLower(names[0] + " " + names[1] + " " + names[2])
}

// hintNames are n's class, id and custom element name as hintText reads
// them, before lowercasing: reading them one by one spares building
// hintText where the names are only looked at.
func hintNames(n *html.Node) [3]string {
	c, id := attr(n, "class"), attr(n, "id")
	// A custom element's name ("site-footer", "docs-sidebar") is chosen
	// like a class name and hints the same way.
	custom := ""
	if strings.IndexByte(n.Data, '-') > 0 {
		custom = truncate(n.Data, 64)
	}
	if len(c)+len(id) > 512 {
		// Hints live in short names; a huge attribute is noise.
		c, id = truncate(c, 256), truncate(id, 256)
	}
	return [3]string{c, id, custom}
}

// negated reports whether a class name is "no" and a content word
// ("nocontent", "no-text"; not "no-columns").
func negated(name string) bool {
	rest, ok := strings.CutPrefix(name, "no")
	if !ok {
		return false
	}
	rest = strings.TrimLeft(rest, "-_")
	for _, p := range contentSubstrings.words {
		if rest == p {
			return true
		}
	}
	return false
}

func truncate(s string, n int) string {
	if len(s) > n {
		return s[:n]
	}
	return s
}

// substrings is a set of words looked for anywhere inside a class or id
// name. The words are also filed by their first byte, so that a lookup
// tries at each byte of the name only the few words starting with it
// instead of searching the name once per word: hints are read for every
// element, several times.
type substrings struct {
	words   []string
	byFirst [256][]string
}

// substringsOf returns the set of words, none of them empty.
func substringsOf(words ...string) *substrings {
	s := &substrings{words: words}
	for _, w := range words {
		s.byFirst[w[0]] = append(s.byFirst[w[0]], w)
	}
	return s
}

// containsAny reports whether s contains one of the words of subs.
func containsAny(s string, subs *substrings) bool {
	for i := 0; i < len(s); i++ {
		for _, w := range subs.byFirst[s[i]] {
			if strings.HasPrefix(s[i:], w) {
				return true
			}
		}
	}
	return false
}

func hasToken(s string, tokens map[string]bool) bool {
	for t := range strings.FieldsFuncSeq(s, func(r rune) bool {
		return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-')
	}) {
		if tokens[t] {
			return true
		}
		// "ad-slot", "share-tools": the first word of a compound.
		if i := strings.IndexByte(t, '-'); i > 0 && tokens[t[:i]] {
			return true
		}
	}
	return false
}

// boilerplateHint classifies n's class, id and role: 2 when they surely
// name page furniture, 1 when they probably do, 0 otherwise (also when
// content words are present too).
func boilerplateHint(n *html.Node) int {
	return furnitureHint(n, false)
}

// postSubstrings in a class or id name comments and replies: furniture
// under an article, the posts themselves on a discussion thread.
var postSubstrings = substringsOf("comment", "replies")

// signatureSubstrings in a class or id name a poster's signature (a
// motto, their gear, links to their work) or card (name, reputation,
// badges): on a thread, furniture repeated under each post.
var signatureSubstrings = substringsOf("signature")

// noticeSubstrings in a class or id name a board's notices (a warning
// against scams, a call to a meetup, an invitation to register) shown
// above a thread's posts: on a thread, furniture, as weak as other weak
// words; elsewhere a notice may be a documentation page's admonition.
var noticeSubstrings = substringsOf("notice")

// furnitureHint is boilerplateHint, with class and id names of comments
// and replies (postSubstrings) read as neutral when posts is set.
func furnitureHint(n *html.Node, posts bool) int {
	if boilerplateRoles[attr(n, "role")] {
		return 2
	}
	// Each class name and the id count on their own. A strong furniture
	// word in a compound with a content word ("post-share",
	// "content-sidebar") counts as a weak one; a content name of its own
	// ("article") vetoes the furniture words.
	level := 0
	content := false
	for _, names := range hintNames(n) {
		// The names as in hintText: lowercased, split at spaces.
		for name := range strings.FieldsSeq(strings.ToLower(names)) {
			if posts && containsAny(name, postSubstrings) {
				continue
			}
			if posts && containsAny(name, noticeSubstrings) && !containsAny(name, contentSubstrings) {
				level = max(level, 1)
				continue
			}
			if posts && containsAny(name, signatureSubstrings) {
				// Whatever it is compounded with ("post-signature").
				level = 2
				continue
			}
			strong := containsAny(name, strongBoilerplateSubstrings) || hasToken(name, strongBoilerplateTokens)
			contentWord := containsAny(name, contentSubstrings)
			switch {
			case strong && contentWord:
				level = max(level, 1)
			case strong:
				level = 2
			case contentWord && negated(name):
				// "nocontent", "no-content": marked as not content.
				level = max(level, 1)
			case contentWord:
				content = true
			case containsAny(name, weakBoilerplateSubstrings) || hasToken(name, weakBoilerplateTokens):
				level = max(level, 1)
			}
		}
	}
	if content {
		return 0
	}
	return level
}

// postNames removes the names of comments ("comment", "com-") from a
// lowercased class or id.
var postNames = strings.NewReplacer("comment", "", "com-", "")

// contentWeight scores n's class and id: +25 each for content words, -25
// each for boilerplate words. Names of comments are read as neutral when
// posts is set (see furnitureHint).
func contentWeight(n *html.Node, posts bool) float64 {
	w := 0.0
	for _, key := range []string{"class", "id"} {
		v := strings.ToLower(truncate(attr(n, key), 256))
		if posts {
			v = postNames.Replace(v)
		}
		if v == "" {
			continue
		}
		if containsAny(v, negativeWeightSubstrings) || hasToken(v, negativeWeightTokens) {
			w -= mainTopLimits.hintWeight
		}
		if containsAny(v, contentWeightSubstrings) {
			w += mainTopLimits.hintWeight
		}
	}
	if strings.EqualFold(attr(n, "itemprop"), "articleBody") {
		w += mainTopLimits.articleBodyWeight
	}
	return w
}

// phrasingTags are the inline elements that aria-hidden does not hide from
// sight (see isHidden).
var phrasingTags = setOf("a", "span", "i", "b", "em", "strong", "small", "sup", "sub", "abbr", "img", "font", "u",
	"mark", "bdi", "time", "cite", "q", "s", "del", "ins", "code", "kbd", "data", "var")

// isModal reports whether n is a modal dialog (role dialog or alertdialog
// with aria-modal="true"): an overlay that shuts the page off until it is
// answered (a cookie consent, a sign-up form, a region chooser), never
// the page's own text.
func isModal(n *html.Node) bool {
	switch attr(n, "role") {
	case "dialog", "alertdialog":
		return strings.EqualFold(strings.TrimSpace(attr(n, "aria-modal")), "true")
	}
	return false
}

// isHidden reports whether n is hidden by markup: the hidden attribute,
// aria-hidden="true" on an element other than a phrasing one (a word or
// a link marked so is shown, only not read aloud), or an inline
// display:none / visibility:hidden.
func isHidden(n *html.Node) bool {
	for _, a := range n.Attr {
		switch a.Key {
		case "hidden":
			return true
		case "aria-hidden":
			// On a word or a link (a visible label a screen reader
			// reads from a fuller twin, an icon's duplicate link), it
			// hides nothing from sight.
			if !phrasingTags[n.Data] && strings.EqualFold(strings.TrimSpace(a.Val), "true") {
				return true
			}
		case "style":
			if len(a.Val) > 4096 {
				continue
			}
			s := strings.ToLower(a.Val)
			if strings.Contains(s, "display") || strings.Contains(s, "visibility") {
				s = strings.Join(strings.Fields(s), "")
				if strings.Contains(s, "display:none") || strings.Contains(s, "visibility:hidden") {
					return true
				}
			}
		}
	}
	return false
}

// isBuilderBlock reports whether n's class or id names a block of a page
// builder ("widget"): such builders wrap every block of a page in one,
// the article's text as much as a sidebar's, so the name marks furniture
// only on a block without prose.
func isBuilderBlock(n *html.Node) bool {
	return strings.Contains(hintText(n), "widget")
}

// strongInCompound reports whether one of n's class or id names holds a
// strong furniture word softened by a content word ("advertiser-body",
// "content-sidebar"), which furnitureHint reads as a weak hint.
func strongInCompound(n *html.Node) bool {
	for _, names := range hintNames(n) {
		for name := range strings.FieldsSeq(strings.ToLower(names)) {
			if (containsAny(name, strongBoilerplateSubstrings) || hasToken(name, strongBoilerplateTokens)) && containsAny(name, contentSubstrings) {
				return true
			}
		}
	}
	return false
}
