package verdict

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"

	"github.com/digestd/digestd/internal/htmlwalk"
	"github.com/digestd/digestd/normalize"
)

// Caps on what one scan keeps, so that a hostile page costs at most one
// pass over its bytes: the open elements it tracks and the lowercased
// text it keeps for phrase checks.
const (
	maxStack     = 512
	maxKeptBytes = 16 << 10
)

// signals is what one reading of a page's markup reports: how much
// a browser would show, and which kinds of markup the page holds.
type signals struct {
	// visibleWords counts words outside <head>, scripts, styles,
	// <noscript>, <template> and hidden subtrees.
	visibleWords int
	// visible and noscript hold the lowercased visible text and the text
	// of <noscript> elements, each cut at maxKeptBytes.
	visible, noscript strings.Builder
	// h1 is the lowercased text of the first <h1>.
	h1 string
	// title is the lowercased <title>, for pages whose extraction gave none.
	title   string
	scripts int
	// code counts the scripts that can build a page: executable scripts
	// loaded from a file (a bundle) or inline ones of at least
	// inlineCodeBytes (not JSON-LD, data or templates).
	code int
	// passwords counts visible password fields; textareas counts visible
	// multi-line fields (a comment or post form, which a login wall lacks).
	passwords, textareas int
	// captcha: a challenge or captcha widget (its class, id, script or
	// frame source names one).
	captcha bool
	// consent: an element of a consent manager (a cookie or consent
	// banner, dialog or wall).
	consent bool
	// paywall: an element named as a paywall or registration wall, or
	// JSON-LD declaring the page not accessible for free.
	paywall bool
	// described: a <meta> description (name or og: property) with a
	// value, which a page that says nothing at all would not have.
	described bool
	// emptyRoot: an application root (an element whose id or tag is one
	// that script frameworks mount into, or role="application") that
	// holds no text, or only a loading placeholder (at most
	// placeholderWords words, with a loading phrase).
	emptyRoot bool
}

// inlineCodeBytes is the size from which an inline script counts as code
// that can build a page (a framework's runtime, an inlined bundle) rather
// than a tracking or settings snippet.
const inlineCodeBytes = 1024

// placeholderWords is the most words an application root's loading
// placeholder holds ("Loading…", "Please wait").
const placeholderWords = 4

// loadingPhrases are what a placeholder says while the scripts load,
// lowercased.
var loadingPhrases = []string{"loading", "please wait", "wird geladen", "chargement", "cargando", "caricamento",
	"carregando", "ładowanie", "bezig met laden"}

// Attribute words that name each kind of markup, matched inside the
// lowercased class, id, src, action and data-* values of an element. They
// are the names the public widgets and consent managers document for
// their embeds; no site is named.
var (
	captchaWords = []string{"captcha", "cf-turnstile", "challenge-form", "challenge-platform", "cf-chl-", "challenge-running", "bot-check", "px-captcha"}
	consentWords = []string{"cookie-consent", "cookieconsent", "cookie-banner", "cookiebanner", "cookie-notice", "cookienotice", "cookie-wall", "cookiewall", "consent-banner", "consent-wall", "consentwall", "consent-manager", "consentmanager", "gdpr-banner", "gdpr-consent", "onetrust", "didomi", "usercentrics", "cookiebot", "qc-cmp", "sp_message", "truste-consent", "cmp-container", "cmpbox", "fc-consent"}
	paywallWords = []string{"paywall", "pay-wall", "regwall", "reg-wall", "registration-wall", "subscriber-only", "subscribers-only", "premium-wall", "meter-wall", "metered-content"}
	// appRootIDs are the ids script frameworks mount an application into,
	// and the tags they mount it as (Angular's <app-root>).
	appRootIDs = map[string]bool{"root": true, "app": true, "__next": true, "__nuxt": true, "___gatsby": true, "svelte": true, "app-root": true, "application": true, "main-app": true, "react-root": true, "vue-app": true, "ember-app": true, "spa-root": true}
)

// element is one open element of the scan.
type element struct {
	name string
	// node is the element in the tree walk reads (nil in tokenize).
	node   *html.Node
	hidden bool
	// root is true for an application root; wordsAtOpen is the count of
	// visible words when it opened, and textAtOpen the length of the
	// scanner's rootText then, to tell at its end whether it holds any
	// text but a placeholder.
	root        bool
	wordsAtOpen int
	textAtOpen  int
	// inlineCode is true for an executable script without a source.
	inlineCode bool
}

// scanner gathers the signals of the elements and text it is given in
// document order, by one of two readers: walk, of the tree the extractor
// parsed (the page is read once), and tokenize, of the page's bytes (for a
// page the extractor read without a tree).
type scanner struct {
	s           *signals
	stack       []element
	hiddenDepth int // open elements that hide their subtree
	skip        int // open script, style, noscript, template, head
	noscript    int
	inTitle     bool
	inH1        bool
	h1Done      bool
	h1          strings.Builder
	// roots counts the open application roots; rootText holds the
	// lowercased visible text read inside them, up to maxRootText bytes.
	roots    int
	rootText strings.Builder
	// codeBytes counts the bytes of the inline script open, if any.
	codeBytes int
}

// maxRootText bounds the text of application roots a scan keeps; a
// placeholder is far shorter.
const maxRootText = 256

// open notes an element's start tag and opens it unless it is void or the
// open elements are at their cap.
func (sc *scanner) open(el element, a atom.Atom, at attrs, void bool) {
	s := sc.s
	el.hidden = at.hidden
	s.captcha = s.captcha || at.captcha
	s.consent = s.consent || at.consent
	s.paywall = s.paywall || at.paywall
	switch a {
	case atom.Input:
		if at.typ == "password" && sc.hiddenDepth == 0 && !at.hidden {
			s.passwords++
		}
	case atom.Textarea:
		if sc.hiddenDepth == 0 && !at.hidden {
			s.textareas++
		}
	case atom.Script:
		s.scripts++
		if at.src && executable(at.typ) {
			s.code++
		}
	case atom.Meta:
		s.described = s.described || at.description
	}
	if void || len(sc.stack) >= maxStack {
		return
	}
	el.root = appRootIDs[at.id] || appRootIDs[el.name] || at.role == "application"
	el.wordsAtOpen, el.textAtOpen = s.visibleWords, sc.rootText.Len()
	el.inlineCode = a == atom.Script && !at.src && executable(at.typ)
	sc.stack = append(sc.stack, el)
	if el.hidden {
		sc.hiddenDepth++
	}
	if el.root {
		sc.roots++
	}
	if el.inlineCode {
		sc.codeBytes = 0
	}
	switch a {
	case atom.Script, atom.Style, atom.Template, atom.Head:
		sc.skip++
	case atom.Noscript:
		sc.skip++
		sc.noscript++
	case atom.Title:
		sc.inTitle = true
	case atom.H1:
		sc.inH1 = !sc.h1Done
	}
}

// closeTo closes the open elements from the innermost to the i-th.
func (sc *scanner) closeTo(i int) {
	s := sc.s
	for j := len(sc.stack) - 1; j >= i; j-- {
		el := sc.stack[j]
		if el.hidden {
			sc.hiddenDepth--
		}
		if el.root {
			sc.roots--
			if words := s.visibleWords - el.wordsAtOpen; words == 0 ||
				words <= placeholderWords && containsAny(sc.rootText.String()[el.textAtOpen:], loadingPhrases) {
				s.emptyRoot = true
			}
		}
		if el.inlineCode && sc.codeBytes >= inlineCodeBytes {
			s.code++
		}
		switch atom.Lookup([]byte(el.name)) {
		case atom.Script, atom.Style, atom.Template, atom.Head:
			sc.skip--
		case atom.Noscript:
			sc.skip--
			sc.noscript--
		case atom.Title:
			sc.inTitle = false
		case atom.H1:
			if sc.inH1 {
				sc.inH1, sc.h1Done = false, true
			}
		}
	}
	sc.stack = sc.stack[:i]
	if sc.h1Done && s.h1 == "" {
		s.h1 = strings.TrimSpace(sc.h1.String())
	}
}

// text takes a run of text.
func (sc *scanner) text(text string) {
	s := sc.s
	switch {
	case len(sc.stack) > 0 && sc.stack[len(sc.stack)-1].inlineCode:
		sc.codeBytes += len(text)
	case sc.inTitle:
		s.title = strings.ToLower(strings.TrimSpace(text))
	case sc.noscript > 0:
		keep(&s.noscript, text)
	case sc.skip == 0 && sc.hiddenDepth == 0:
		s.visibleWords += countWords(text)
		keep(&s.visible, text)
		if sc.roots > 0 && sc.rootText.Len() < maxRootText {
			sc.rootText.WriteString(strings.ToLower(text[:min(len(text), maxRootText-sc.rootText.Len())]))
			sc.rootText.WriteByte(' ')
		}
		if sc.inH1 && sc.h1.Len() < 512 {
			sc.h1.WriteString(strings.ToLower(text))
		}
	}
}

// walk reads the tree the extractor parsed. The parser read <noscript>
// as markup; a browser that runs scripts (and tokenize) reads it as text,
// so walk gives the scanner a <noscript>'s text and none of its elements.
func walk(doc *html.Node, raw []byte) *signals {
	sc := &scanner{s: &signals{paywall: notFree(raw)}}
	n := doc.FirstChild
	for n != nil {
		descend := true
		switch n.Type {
		case html.TextNode:
			sc.text(n.Data)
		case html.ElementNode:
			sc.open(element{name: n.Data, node: n}, n.DataAtom, sc.nodeAttrs(n), isVoid(n.DataAtom))
			if n.DataAtom == atom.Noscript {
				for c := n.FirstChild; c != nil; c = htmlwalk.Next(c, n) {
					if c.Type == html.TextNode {
						sc.text(c.Data)
					}
				}
				descend = false
			}
		}
		if descend && n.FirstChild != nil {
			n = n.FirstChild
			continue
		}
		// Leave n and every ancestor it is the last child of.
		for n != nil {
			if k := len(sc.stack) - 1; k >= 0 && sc.stack[k].node == n {
				sc.closeTo(k)
			}
			if n.NextSibling != nil {
				n = n.NextSibling
				break
			}
			if n = n.Parent; n == doc {
				n = nil
			}
		}
	}
	return sc.s
}

// tokenize reads raw once with the HTML tokenizer. It never fails: a page
// the tokenizer gives up on reports what was read so far.
func tokenize(raw []byte) *signals {
	sc := &scanner{s: &signals{paywall: notFree(raw)}}
	z := html.NewTokenizer(bytes.NewReader(raw))
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return sc.s
		case html.TextToken:
			sc.text(string(z.Text()))
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			el := element{name: string(name)}
			sc.open(el, a, sc.readAttrs(z, hasAttr), tt == html.SelfClosingTagToken || isVoid(a))
		case html.EndTagToken:
			name, _ := z.TagName()
			// Close up to the nearest open element of this name; an end
			// tag that matches none is ignored, as a browser would.
			i := len(sc.stack) - 1
			for i >= 0 && sc.stack[i].name != string(name) {
				i--
			}
			if i >= 0 {
				sc.closeTo(i)
			}
		}
	}
}

// attrs is what the scan reads from one start tag.
type attrs struct {
	id, typ, role string
	hidden        bool
	// src: the tag names a source (a script loaded from a file).
	src bool
	// description: a <meta> naming a description, with content.
	description bool
	// captcha, consent, paywall: the lowercased class, id, src, action,
	// name and data-* values name that kind of markup (see note).
	captcha, consent, paywall bool
	// namesLen is the length of those values read so far.
	namesLen int
}

// maxNamesLen bounds the attribute values one tag is read for.
const maxNamesLen = 4096

func (sc *scanner) readAttrs(z *html.Tokenizer, more bool) attrs {
	var a attrs
	described, content := false, false
	for more && a.namesLen < maxNamesLen {
		var k, v []byte
		k, v, more = z.TagAttr()
		sc.attr(&a, string(k), string(v), &described, &content)
	}
	a.description = described && content
	if a.typ == "hidden" {
		a.hidden = true
	}
	return a
}

func (sc *scanner) nodeAttrs(n *html.Node) attrs {
	var a attrs
	described, content := false, false
	for i := 0; i < len(n.Attr) && a.namesLen < maxNamesLen; i++ {
		sc.attr(&a, n.Attr[i].Key, n.Attr[i].Val, &described, &content)
	}
	a.description = described && content
	if a.typ == "hidden" {
		a.hidden = true
	}
	return a
}

// attr reads one attribute of a tag into a.
func (sc *scanner) attr(a *attrs, key, v string, described, content *bool) {
	switch {
	case key == "id":
		a.id = strings.ToLower(strings.TrimSpace(v))
	case key == "type":
		a.typ = strings.ToLower(strings.TrimSpace(v))
	case key == "role":
		a.role = strings.ToLower(strings.TrimSpace(v))
	case key == "hidden":
		a.hidden = true
	case key == "name" || key == "property":
		*described = *described || strings.HasSuffix(strings.ToLower(v), "description")
	case key == "content":
		*content = strings.TrimSpace(v) != ""
	case key == "style":
		st := strings.ReplaceAll(strings.ToLower(v), " ", "")
		if strings.Contains(st, "display:none") || strings.Contains(st, "visibility:hidden") {
			a.hidden = true
		}
	}
	if key == "src" {
		a.src = strings.TrimSpace(v) != ""
	}
	if key == "class" || key == "id" || key == "src" || key == "action" || key == "name" || strings.HasPrefix(key, "data-") {
		sc.note(a, v)
		a.namesLen += len(v) + 1
	}
}

// note records the kinds of markup a name shows, looking only for the
// kinds the page has not shown yet.
func (sc *scanner) note(a *attrs, v string) {
	s := sc.s
	want := 0
	if !s.captcha {
		want |= captchaKind
	}
	if !s.consent {
		want |= consentKind
	}
	if !s.paywall {
		want |= paywallKind
	}
	if v == "" || want == 0 {
		return
	}
	found := kindsIn(v, want)
	a.captcha = a.captcha || found&captchaKind != 0
	a.consent = a.consent || found&consentKind != 0
	a.paywall = a.paywall || found&paywallKind != 0
}

// The kinds of markup names show, as bits.
const (
	captchaKind = 1 << iota
	consentKind
	paywallKind
)

// nameWord is a word of captchaWords, consentWords or paywallWords and
// its kind.
type nameWord struct {
	word string
	kind int
}

// pairWords lists the name words by their first two bytes, and pairIndex
// maps two lowercase ASCII bytes to 1 + their index in pairWords (0 for
// none), so that kindsIn finds every word in one pass over a name.
var pairWords, pairIndex = indexWords()

func indexWords() ([][]nameWord, *[128 * 128]uint8) {
	var words [][]nameWord
	index := new([128 * 128]uint8)
	for _, list := range []struct {
		words []string
		kind  int
	}{{captchaWords, captchaKind}, {consentWords, consentKind}, {paywallWords, paywallKind}} {
		for _, w := range list.words {
			k := int(w[0])<<7 | int(w[1])
			if index[k] == 0 {
				words = append(words, nil)
				index[k] = uint8(len(words))
			}
			words[index[k]-1] = append(words[index[k]-1], nameWord{w, list.kind})
		}
	}
	return words, index
}

// kindsIn returns the kinds among want whose words the name holds, in any
// case: strings.ToLower of the name holds the word.
func kindsIn(name string, want int) int {
	found := 0
	for i := 0; i+1 < len(name); i++ {
		c0, c1 := name[i], name[i+1]
		if c0 >= utf8.RuneSelf || c1 >= utf8.RuneSelf {
			// Outside ASCII, lowercasing may change lengths (and one
			// sign lowercases to k): take the long way.
			return kindsInLower(strings.ToLower(name), want)
		}
		k := pairIndex[int(lowerASCII(c0))<<7|int(lowerASCII(c1))]
		if k == 0 {
			continue
		}
		for _, w := range pairWords[k-1] {
			if want&w.kind != 0 && len(name)-i >= len(w.word) && strings.EqualFold(name[i:i+len(w.word)], w.word) {
				found |= w.kind
			}
		}
	}
	return found
}

func kindsInLower(name string, want int) int {
	found := 0
	if want&captchaKind != 0 && containsAny(name, captchaWords) {
		found |= captchaKind
	}
	if want&consentKind != 0 && containsAny(name, consentWords) {
		found |= consentKind
	}
	if want&paywallKind != 0 && containsAny(name, paywallWords) {
		found |= paywallKind
	}
	return found
}

func lowerASCII(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// notFree reports JSON-LD declaring that a page is not free to read: the
// key "isAccessibleForFree" in any case, a colon and false, optionally
// quoted, with white space between them.
func notFree(raw []byte) bool {
	const key = `"isaccessibleforfree"`
	// The key's quote and first letter, in either case, are rare enough
	// in a page for a search of each to find few places to look at.
	for _, start := range []string{`"i`, `"I`} {
		for i := 0; ; i++ {
			j := bytes.Index(raw[i:], []byte(start))
			if j < 0 {
				break
			}
			i += j
			if len(raw)-i < len(key) {
				break
			}
			if !bytes.EqualFold(raw[i:i+len(key)], []byte(key)) {
				continue
			}
			rest := skipSpace(raw[i+len(key):])
			if len(rest) > 0 && rest[0] == ':' {
				rest = skipSpace(rest[1:])
				if len(rest) > 0 && rest[0] == '"' {
					rest = rest[1:]
				}
				if len(rest) >= 5 && bytes.EqualFold(rest[:5], []byte("false")) {
					return true
				}
			}
		}
	}
	return false
}

// skipSpace skips the white space of regular expressions' \s (the form
// feed among it is the character normalize names a page separator).
func skipSpace(b []byte) []byte {
	return bytes.TrimLeft(b, " \t\n\r"+normalize.PageBreak)
}

func containsAny(s string, words []string) bool {
	for _, w := range words {
		if strings.Contains(s, w) {
			return true
		}
	}
	return false
}

// keep appends the lowercased text to b up to maxKeptBytes.
func keep(b *strings.Builder, text string) {
	if b.Len() >= maxKeptBytes {
		return
	}
	b.WriteString(strings.ToLower(text[:min(len(text), maxKeptBytes-b.Len())]))
	b.WriteByte(' ')
}

// countWords counts runs of letters and digits.
func countWords(text string) int {
	n, in := 0, false
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		i += size
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

// executable reports whether a script of this type attribute runs: no
// type, a JavaScript type or a module (not JSON-LD, data or a template).
func executable(typ string) bool {
	return typ == "" || typ == "module" || strings.Contains(typ, "javascript") || strings.Contains(typ, "ecmascript")
}

func isVoid(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input,
		atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}
