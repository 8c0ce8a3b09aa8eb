package verdict

import (
	"bytes"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// Caps on what one scan keeps, so that a hostile page costs at most one
// pass over its bytes: the open elements it tracks and the lowercased
// text it keeps for phrase checks.
const (
	maxStack     = 512
	maxKeptBytes = 16 << 10
)

// signals is what one pass of the tokenizer over a page reports: how much
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
	// emptyRoot: an application root (an element whose id is one that
	// script frameworks mount into) that holds no text.
	emptyRoot bool
}

// Attribute words that name each kind of markup, matched inside the
// lowercased class, id, src, action and data-* values of an element. They
// are the names the public widgets and consent managers document for
// their embeds; no site is named.
var (
	captchaWords = []string{"captcha", "cf-turnstile", "challenge-form", "challenge-platform", "cf-chl-", "challenge-running", "bot-check", "px-captcha"}
	consentWords = []string{"cookie-consent", "cookieconsent", "cookie-banner", "cookiebanner", "cookie-notice", "cookienotice", "cookie-wall", "cookiewall", "consent-banner", "consent-wall", "consentwall", "consent-manager", "consentmanager", "gdpr-banner", "gdpr-consent", "onetrust", "didomi", "usercentrics", "cookiebot", "qc-cmp", "sp_message", "truste-consent", "cmp-container", "cmpbox", "fc-consent"}
	paywallWords = []string{"paywall", "pay-wall", "regwall", "reg-wall", "registration-wall", "subscriber-only", "subscribers-only", "premium-wall", "meter-wall", "metered-content"}
	// appRootIDs are the ids script frameworks mount an application into.
	appRootIDs = map[string]bool{"root": true, "app": true, "__next": true, "__nuxt": true, "___gatsby": true, "svelte": true, "app-root": true, "application": true, "main-app": true, "react-root": true, "vue-app": true, "ember-app": true, "spa-root": true}
)

// notFreeLD finds JSON-LD declaring that a page is not free to read.
var notFreeLD = regexp.MustCompile(`(?i)"isAccessibleForFree"\s*:\s*"?false`)

// element is one open element of the scan.
type element struct {
	name   string
	hidden bool
	// root is true for an application root; wordsAtOpen is the count of
	// visible words when it opened, to tell at its end whether it holds any.
	root        bool
	wordsAtOpen int
}

// scan reads raw once with the HTML tokenizer. It never fails: a page the
// tokenizer gives up on reports what was read so far.
func scan(raw []byte) *signals {
	s := &signals{}
	s.paywall = notFreeLD.Match(raw)
	z := html.NewTokenizer(bytes.NewReader(raw))
	var stack []element
	hiddenDepth := 0 // open elements that hide their subtree
	skip := 0        // open script, style, noscript, template, head
	noscript := 0
	inTitle, inH1, h1Done := false, false, false
	var h1 strings.Builder
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return s
		case html.TextToken:
			text := z.Text()
			switch {
			case inTitle:
				s.title = strings.ToLower(strings.TrimSpace(string(text)))
			case noscript > 0:
				keep(&s.noscript, text)
			case skip == 0 && hiddenDepth == 0:
				n := countWords(text)
				s.visibleWords += n
				keep(&s.visible, text)
				if inH1 && h1.Len() < 512 {
					h1.Write(bytes.ToLower(text))
				}
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			name, hasAttr := z.TagName()
			a := atom.Lookup(name)
			el := element{name: string(name)}
			attrs := readAttrs(z, hasAttr)
			el.hidden = attrs.hidden
			s.note(attrs)
			switch a {
			case atom.Input:
				if attrs.typ == "password" && hiddenDepth == 0 && !attrs.hidden {
					s.passwords++
				}
			case atom.Textarea:
				if hiddenDepth == 0 && !attrs.hidden {
					s.textareas++
				}
			case atom.Script:
				s.scripts++
			case atom.Meta:
				s.described = s.described || attrs.description
			}
			if tt == html.SelfClosingTagToken || isVoid(a) {
				continue
			}
			el.root = appRootIDs[attrs.id]
			el.wordsAtOpen = s.visibleWords
			if len(stack) >= maxStack {
				continue
			}
			stack = append(stack, el)
			if el.hidden {
				hiddenDepth++
			}
			switch a {
			case atom.Script, atom.Style, atom.Template, atom.Head:
				skip++
			case atom.Noscript:
				skip++
				noscript++
			case atom.Title:
				inTitle = true
			case atom.H1:
				inH1 = !h1Done
			}
		case html.EndTagToken:
			name, _ := z.TagName()
			// Close up to the nearest open element of this name; an end
			// tag that matches none is ignored, as a browser would.
			i := len(stack) - 1
			for i >= 0 && stack[i].name != string(name) {
				i--
			}
			for j := len(stack) - 1; i >= 0 && j >= i; j-- {
				el := stack[j]
				if el.hidden {
					hiddenDepth--
				}
				if el.root && s.visibleWords == el.wordsAtOpen {
					s.emptyRoot = true
				}
				switch atom.Lookup([]byte(el.name)) {
				case atom.Script, atom.Style, atom.Template, atom.Head:
					skip--
				case atom.Noscript:
					skip--
					noscript--
				case atom.Title:
					inTitle = false
				case atom.H1:
					if inH1 {
						inH1, h1Done = false, true
					}
				}
			}
			if i >= 0 {
				stack = stack[:i]
			}
		}
		if h1Done && s.h1 == "" {
			s.h1 = strings.TrimSpace(h1.String())
		}
	}
}

// attrs is what the scan reads from one start tag.
type attrs struct {
	id, typ string
	hidden  bool
	// description: a <meta> naming a description, with content.
	description bool
	// names holds the lowercased class, id, src, action, name and data-*
	// values, space-separated.
	names string
}

func readAttrs(z *html.Tokenizer, more bool) attrs {
	var a attrs
	var names strings.Builder
	described, content := false, false
	for more && names.Len() < 4096 {
		var k, v []byte
		k, v, more = z.TagAttr()
		key := string(k)
		switch {
		case key == "id":
			a.id = strings.ToLower(strings.TrimSpace(string(v)))
		case key == "type":
			a.typ = strings.ToLower(strings.TrimSpace(string(v)))
		case key == "hidden":
			a.hidden = true
		case key == "name" || key == "property":
			described = described || strings.HasSuffix(strings.ToLower(string(v)), "description")
		case key == "content":
			content = strings.TrimSpace(string(v)) != ""
		case key == "style":
			st := strings.ReplaceAll(strings.ToLower(string(v)), " ", "")
			if strings.Contains(st, "display:none") || strings.Contains(st, "visibility:hidden") {
				a.hidden = true
			}
		}
		if key == "class" || key == "id" || key == "src" || key == "action" || key == "name" || strings.HasPrefix(key, "data-") {
			names.WriteString(strings.ToLower(string(v)))
			names.WriteByte(' ')
		}
	}
	a.description = described && content
	if a.typ == "hidden" {
		a.hidden = true
	}
	a.names = names.String()
	return a
}

// note records the kinds of markup an element's names show.
func (s *signals) note(a attrs) {
	if a.names == "" {
		return
	}
	s.captcha = s.captcha || containsAny(a.names, captchaWords)
	s.consent = s.consent || containsAny(a.names, consentWords)
	s.paywall = s.paywall || containsAny(a.names, paywallWords)
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
func keep(b *strings.Builder, text []byte) {
	if b.Len() >= maxKeptBytes {
		return
	}
	b.Write(bytes.ToLower(text[:min(len(text), maxKeptBytes-b.Len())]))
	b.WriteByte(' ')
}

// countWords counts runs of letters and digits.
func countWords(text []byte) int {
	n, in := 0, false
	for len(text) > 0 {
		r, size := rune(text[0]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRune(text)
		}
		text = text[size:]
		w := unicode.IsLetter(r) || unicode.IsDigit(r)
		if w && !in {
			n++
		}
		in = w
	}
	return n
}

func isVoid(a atom.Atom) bool {
	switch a {
	case atom.Area, atom.Base, atom.Br, atom.Col, atom.Embed, atom.Hr, atom.Img, atom.Input,
		atom.Link, atom.Meta, atom.Param, atom.Source, atom.Track, atom.Wbr:
		return true
	}
	return false
}
